/// The kind of person a fixture describes: how active, which devices, which workouts.
/// Every figure is a range the planner draws a day's value from.
struct FixtureProfile: Sendable {
    var name: String
    /// Steps a day.
    var steps: ClosedRange<Int>
    /// Chance that a given day has a run (runner) or an evening walk workout.
    var runChance: Double
    var walkChance: Double
    /// Chance of a strength session (an older-style workout: total attributes, no distance).
    var strengthChance: Double
    /// Chance the watch is worn for the night's sleep (else the iPhone's bedtime InBed alone).
    var watchSleepChance: Double
    /// Resting heart rate and HRV around which days vary.
    var restingHR: ClosedRange<Int>
    var hrv: ClosedRange<Int>
    var weightKg: Double
    var bodyFatPercent: Double
    /// Minutes of exercise outside workouts.
    var extraExercise: ClosedRange<Int>
    /// Bedtime as minutes after midnight of the evening date (may exceed 1,440 for after midnight).
    var bedtime: ClosedRange<Int>
    var sleepMinutes: ClosedRange<Int>

    static let runner = FixtureProfile(
        name: "runner", steps: 9_000...16_000, runChance: 0.7, walkChance: 0.25, strengthChance: 0.2, watchSleepChance: 1,
        restingHR: 46...54, hrv: 55...85, weightKg: 68.4, bodyFatPercent: 14.5, extraExercise: 5...25,
        bedtime: 1_290...1_380, sleepMinutes: 400...500)

    static let sedentary = FixtureProfile(
        name: "sedentary", steps: 2_500...6_000, runChance: 0, walkChance: 0.3, strengthChance: 0, watchSleepChance: 0.6,
        restingHR: 62...72, hrv: 25...45, weightKg: 91.2, bodyFatPercent: 29.5, extraExercise: 0...12,
        bedtime: 1_350...1_470, sleepMinutes: 330...450)

    static let all = [runner, sedentary]

    static func named(_ name: String) -> FixtureProfile? { all.first { $0.name == name } }
}
