/// Builds a `Workout` from collected HAE workout fields (docs/hae.md, "Workouts", both versions).
///
/// - type: `HKWorkoutActivityType` + the name mapped by `HAEWorkoutActivityTypes`; unknown
///   display names become `Other` with the name kept in metadata `HAEName`.
/// - duration in seconds (`durationUnit` "s"): v2 states it, v1 is end − start.
/// - energy: `activeEnergyBurned` (v2) or the `activeEnergy` object (v1), in its own unit;
///   distance likewise (workout units can differ from the metrics' units in the same file).
/// - heart rate: `avgHeartRate`/`maxHeartRate`, else `heartRate.avg/max`, else computed from
///   `heartRateData`; converted to count/min.
/// - source: the workout's `source` when present (HAE normally writes none), else "Health Auto Export".
enum HAEWorkoutMapper {
    static let defaultSource = "Health Auto Export"

    static func workout(from f: HAEWorkoutFields, path: String, wantsDetails: Bool, report: inout ReadReport) -> Workout? {
        guard let start = f.start else {
            report.skip("HAE workout without a parseable start", at: InputLocation(byteOffset: f.byteOffset, path: path + ".start"))
            return nil
        }
        guard let end = f.end else {
            report.skip("HAE workout without a parseable end", at: InputLocation(byteOffset: f.byteOffset, path: path + ".end"))
            return nil
        }
        let displayName = f.name ?? ""
        let mapped = HAEWorkoutActivityTypes.healthKitName(forDisplayName: displayName)
        var w = Workout(
            activityType: "HKWorkoutActivityType" + (mapped ?? "Other"), source: f.source ?? defaultSource, start: start, end: end)
        w.metadata = f.metadata
        w.haeID = f.id
        if wantsDetails {  // say which schema the workout had (decided per workout, §6)
            w.metadata.append(MetadataEntry(key: "HAEExportVersion", value: f.isVersion2 ? "2" : "1"))
        }
        if mapped == nil, !displayName.isEmpty { w.metadata.append(MetadataEntry(key: "HAEName", value: displayName)) }
        w.duration = f.duration ?? Double(end.seconds - start.seconds)
        w.durationUnit = "s"
        // A negative energy or distance is no real workout's: left out and counted, as in export.xml.
        func figure(_ q: HAEWorkoutFields.Quantity?, _ name: String) -> Double? {
            guard let qty = q?.qty else { return nil }
            if qty < 0 {
                report.skip("negative workout \(name)", at: InputLocation(byteOffset: f.byteOffset, path: path + "." + name))
                return nil
            }
            return qty
        }
        if let e = f.activeEnergyBurned ?? f.activeEnergy, let qty = figure(e, "activeEnergyBurned") {
            w.totalEnergyBurned = qty
            w.totalEnergyBurnedUnit = e.units
        }
        if let d = f.distance, let qty = figure(d, "distance") {
            w.totalDistance = qty
            w.totalDistanceUnit = d.units
        }
        w.statedAverageHeartRate =
            bpm(f.avgHeartRate ?? f.heartRateAvg)
            ?? (f.heartRateDataCount > 0
                ? bpm(.init(qty: f.heartRateDataSum / Double(f.heartRateDataCount), units: f.heartRateDataUnits)) : nil)
        w.statedMaximumHeartRate = bpm(f.maxHeartRate ?? f.heartRateMax) ?? bpm(.init(qty: f.heartRateDataMax, units: f.heartRateDataUnits))
        if f.routePoints > 0 { w.routes = [WorkoutRoute(start: start, end: end, inlineLocationCount: f.routePoints)] }
        report.workouts += 1
        return w
    }

    /// Heart rate in count/min; HAE writes "count/min" (v2) or "bpm" (v1). No unit: taken as count/min.
    private static func bpm(_ q: HAEWorkoutFields.Quantity?) -> Double? {
        guard let q, let qty = q.qty else { return nil }
        guard let units = q.units else { return qty }
        return CanonicalUnit.countPerMinute.convert(qty, from: units)
    }
}
