import ExportParser

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
    /// Sleeps by day after a night shift: bedtime is in the morning of the date itself, the sleep
    /// ends in its afternoon, and an evening nap follows on some dates (`SleepPlanner.nap`).
    var sleepsByDay = false
    /// Changes zone (a flight west) in the middle of the range.
    var travels = false
    /// The four walking bouts outside workouts: start minute and length in minutes.
    var bouts: [(start: ClosedRange<Int>, minutes: ClosedRange<Int>)] = [
        (465...480, 20...35), (725...740, 15...30), (900...915, 10...20),
        (985...1_000, 10...25),
    ]

    static let runner = FixtureProfile(
        name: "runner", steps: 9_000...16_000, runChance: 0.7, walkChance: 0.25, strengthChance: 0.2, watchSleepChance: 1,
        restingHR: 46...54, hrv: 55...85, weightKg: 68.4, bodyFatPercent: 14.5, extraExercise: 5...25,
        bedtime: 1_290...1_380, sleepMinutes: 400...500)

    static let sedentary = FixtureProfile(
        name: "sedentary", steps: 2_500...6_000, runChance: 0, walkChance: 0.3, strengthChance: 0, watchSleepChance: 0.6,
        restingHR: 62...72, hrv: 25...45, weightKg: 91.2, bodyFatPercent: 29.5, extraExercise: 0...12,
        bedtime: 1_350...1_470, sleepMinutes: 330...450)

    /// Night shifts (22:00–06:30): walks at work after midnight and before the shift, sleep from
    /// about 07:30 to 15:00, dated that day (its wake-up), and an evening nap on some dates.
    static let shiftWorker: FixtureProfile = {
        var p = FixtureProfile(
            name: "shift-worker", steps: 7_000...11_000, runChance: 0.35, walkChance: 0.2, strengthChance: 0, watchSleepChance: 1,
            restingHR: 55...63, hrv: 35...60, weightKg: 77.9, bodyFatPercent: 21, extraExercise: 0...15,
            bedtime: 440...470, sleepMinutes: 380...430)
        p.sleepsByDay = true
        p.bouts = [(30...45, 10...20), (200...215, 10...20), (370...380, 15...25), (960...975, 10...25)]
        return p
    }()

    /// A runner who flies west in the middle of the range: samples, `HKTimeZone` and payload
    /// dates follow the new zone from 11:00 (old zone) on the travel date.
    static let traveller: FixtureProfile = {
        var p = runner
        p.name = "traveller"
        p.travels = true
        return p
    }()

    static let all = [runner, sedentary, shiftWorker, traveller]

    static func named(_ name: String) -> FixtureProfile? { all.first { $0.name == name } }
}
