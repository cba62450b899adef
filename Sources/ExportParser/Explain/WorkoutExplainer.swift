/// Explains the `workouts` field: each workout of the date with its payload figures and where
/// each figure came from (docs/rules.md, "Workouts"). Each workout counts 1, so the parts add up
/// to the count the CSV and the store keep.
enum WorkoutExplainer {
    static let rule =
        "workouts: every workout starting on the date; energy and distance from its statistics, else its totals; heart rate "
        + "as stated, else from its statistics, else from the heart-rate samples inside it"

    static func explain(_ d: AttributedDay, into e: inout Explanation) {
        e.rule = rule
        let summaries = d.day?.workouts ?? []
        e.samples = summaries.map { w in
            let raw = d.attribution.workouts.first { $0.start.seconds == w.startSeconds && $0.source == w.source }
            var figures: [String] = []
            func add(_ label: String, _ v: Double?, _ unit: String, _ origin: String?) {
                guard let v else { return }
                figures.append(
                    "\(label) \(JSONValue.format(v, decimals: PayloadEncoder.workoutDecimals)) \(unit)" + (origin.map { " (\($0))" } ?? ""))
            }
            let duration = (raw?.duration != nil) ? "stated duration" : "end − start"
            add("duration", w.durationSeconds, "s", duration)
            add("energy", w.energyKcal, "kcal", raw.map(energyOrigin))
            add("distance", w.distanceMetres, "m", raw.map(distanceOrigin))
            add("avg HR", w.averageHeartRate, "bpm", raw.map { heartRateOrigin($0, stated: $0.statedAverageHeartRate, \.average) })
            add("max HR", w.maximumHeartRate, "bpm", raw.map { heartRateOrigin($0, stated: $0.statedMaximumHeartRate, \.maximum) })
            return ExplainedSample(
                start: w.start, end: w.end, text: w.type, source: w.source, device: ExplainedSample.deviceName(raw?.device), counted: 1,
                used: true, note: figures.joined(separator: "; "))
        }
        let dropped = d.attribution.workouts.count - summaries.count
        if dropped > 0 { e.notes.append("\(dropped) workouts of the input did not reach the date") }
    }

    private static func energyOrigin(_ w: Workout) -> String {
        w.statistics.contains { $0.type == "HKQuantityTypeIdentifierActiveEnergyBurned" && $0.sum != nil }
            ? "WorkoutStatistics ActiveEnergyBurned" : "totalEnergyBurned"
    }

    private static func distanceOrigin(_ w: Workout) -> String {
        w.statistics.contains { $0.type.hasPrefix("HKQuantityTypeIdentifierDistance") && $0.sum != nil }
            ? "WorkoutStatistics distance" : "totalDistance"
    }

    private static func heartRateOrigin(_ w: Workout, stated: Double?, _ figure: KeyPath<WorkoutStatistic, Double?>) -> String {
        if stated != nil { return "stated by the input" }
        if w.statistics.contains(where: { $0.type == "HKQuantityTypeIdentifierHeartRate" && $0[keyPath: figure] != nil }) {
            return "WorkoutStatistics HeartRate"
        }
        return "heart-rate samples inside the workout"
    }
}
