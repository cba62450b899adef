/// A workout object: its scalars (`workoutScalar`), its `{qty, units}` quantities, its heart
/// rate (summary figures and `heartRateData` samples), its elevation and route, put together in
/// `workout` and mapped to a `Workout` at its end (`HAEWorkoutMapper`). A few a day against
/// thousands of datums.
extension HAEDocumentWalker {
    func workoutScalar(_ key: HAEKey, text p: UnsafePointer<UInt8>, _ n: Int, isString: Bool) {
        switch key {
        case .name where isString: workout.name = decode(p, n)
        case .start where isString: workout.start = TimestampParser.parse(p, n)
        case .end where isString: workout.end = TimestampParser.parse(p, n)
        case .duration where !isString: workout.duration = HAEDecimalParser.parse(p, n)
        case .source where isString: workout.source = intern(p, n)
        case .id where isString:
            workout.id = decode(p, n)
            if wantsDetails { workout.metadata.append(MetadataEntry(key: "id", value: workout.id!)) }
        default:
            if wantsDetails { workout.metadata.append(MetadataEntry(key: keyText, value: decode(p, n))) }
        }
    }

    func endQuantity(_ target: HAEQuantityTarget, key: [UInt8]) {
        switch target {
        case .activeEnergyBurned: workout.activeEnergyBurned = quantity
        case .activeEnergy: workout.activeEnergy = quantity
        case .distance: workout.distance = quantity
        case .avgHeartRate: workout.avgHeartRate = quantity
        case .maxHeartRate: workout.maxHeartRate = quantity
        case .heartRateMin: break
        case .heartRateAvg: workout.heartRateAvg = quantity
        case .heartRateMax: workout.heartRateMax = quantity
        case .other: break
        }
        // Every `{qty, units}` is also kept as metadata text ("17.24 degC"; heartRate's parts
        // as heartRate.min/avg/max), for the store. Numbers as Swift prints them.
        guard wantsDetails, let qty = quantity.qty else { return }
        var name = String(decoding: key, as: UTF8.self)
        if target == .heartRateMin || target == .heartRateAvg || target == .heartRateMax { name = "heartRate." + name }
        workout.metadata.append(MetadataEntry(key: name, value: "\(qty)" + (quantity.units.map { " " + $0 } ?? "")))
    }

    /// A workout object ends: mapped and handed to the sink, unless it starts after the file's
    /// modification time (counted and skipped, as a datum is).
    func endWorkout() {
        if let w = HAEWorkoutMapper.workout(from: workout, path: workoutPath, wantsDetails: wantsDetails, report: &report) {
            if w.start.seconds > moment {
                report.skip(HAEDatumMapper.afterMoment, at: InputLocation(byteOffset: workout.byteOffset, path: workoutPath + ".start"))
            } else {
                sink.workout(w)
            }
        }
    }

    /// The `elevation` object (details only): kept as metadata text with its units.
    func endElevation() {
        let units = elevation.units.map { " " + $0 } ?? ""
        if let a = elevation.ascent { workout.metadata.append(MetadataEntry(key: "elevationAscent", value: a + units)) }
        if let d = elevation.descent { workout.metadata.append(MetadataEntry(key: "elevationDescent", value: d + units)) }
    }

    /// A `heartRateData` sample: into the workout's average and maximum, for a workout that
    /// states no heart rate of its own.
    func endHeartRateDatum() {
        if let v = heartRateSample.value {
            workout.heartRateDataSum += v
            workout.heartRateDataCount += 1
        }
        if let m = heartRateSample.max ?? heartRateSample.value {
            workout.heartRateDataMax = Swift.max(workout.heartRateDataMax ?? m, m)
        }
    }
}
