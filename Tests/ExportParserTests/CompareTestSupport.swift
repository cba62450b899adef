import Foundation

@testable import ExportParser

/// Native and HAE inputs of the same seven dates (2024-03-01 … 03-07, +1100, read in
/// Australia/Sydney) with planted differences, for the compare tests. Every date: resting heart
/// rate 55, 10,000 steps, 500 kcal active energy, and a night of 7 h of core sleep 23:00–06:00
/// from the watch, on both sides, except:
///
///   03-02  HAE sleep 7.2 h from 22:48: 12 minutes more (total and core mismatch; in-bed start
///          12 min apart, within ±15 min: match)
///   03-03  HAE sleep 7.133333 h from 22:52: 8 minutes more (match); a run at 07:00 natively,
///          07:01:30 in HAE (90 s apart, same 30 min: matched), 300 kcal on both
///   03-04  native steps 10,500 vs HAE 10,000: 500 / 10,000 = 5 % (mismatch, tolerance 2 %)
///   03-05  a walk at 12:00 natively only (on one side only)
///   03-06  no HAE data at all (a gap: no data from HAE that date; its rows only-native)
///   03-07  HAE has no active energy (it stopped after 03-05: a gap; its row only-native)
enum CompareFixtures {
    static let dates = (1...7).map { String(format: "2024-03-%02d", $0) }
    static let watch = "Anna’s Apple Watch"

    static func exportXML() -> String {
        var body = ""
        for (i, d) in dates.enumerated() {
            let steps = d == "2024-03-04" ? 10_500 : 10_000
            let night = i == 0 ? "2024-02-29" : dates[i - 1]
            body += """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\(watch)" unit="count" startDate="\(d) 09:00:00 +1100" endDate="\(d) 10:00:00 +1100" value="\(steps)"/>
                 <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="\(watch)" unit="kcal" startDate="\(d) 09:00:00 +1100" endDate="\(d) 10:00:00 +1100" value="500"/>
                 <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="\(watch)" unit="count/min" startDate="\(d) 08:00:00 +1100" endDate="\(d) 08:00:00 +1100" value="55"/>
                 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="\(watch)" startDate="\(night) 23:00:00 +1100" endDate="\(d) 06:00:00 +1100" value="HKCategoryValueSleepAnalysisAsleepCore"/>

                """
        }
        body += """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="\(watch)" startDate="2024-03-03 07:00:00 +1100" endDate="2024-03-03 07:30:00 +1100">
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="300" unit="kcal"/>
             </Workout>
             <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" sourceName="\(watch)" startDate="2024-03-05 12:00:00 +1100" endDate="2024-03-05 12:30:00 +1100">
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="100" unit="kcal"/>
             </Workout>
            """
        return export(body, exportDate: "2024-03-08 08:00:00 +1100")
    }

    static func haeJSON() -> String {
        var steps: [String] = [], energy: [String] = [], resting: [String] = [], sleep: [String] = []
        for (i, d) in dates.enumerated() where d != "2024-03-06" {
            let bucket = "\"date\": \"\(d) 00:00:00 +1100\", \"source\": \"\(watch)\""
            steps.append("{\(bucket), \"qty\": 10000}")
            if d <= "2024-03-05" { energy.append("{\(bucket), \"qty\": 500}") }
            resting.append("{\(bucket), \"qty\": 55}")
            let night = i == 0 ? "2024-02-29" : dates[i - 1]
            let (hours, start) =
                d == "2024-03-02" ? ("7.2", "22:48:00") : d == "2024-03-03" ? ("7.133333333333334", "22:52:00") : ("7", "23:00:00")
            sleep.append(
                """
                {"date": "\(d) 00:00:00 +1100", "totalSleep": \(hours), "core": \(hours), "deep": 0, "rem": 0, "awake": 0, "asleep": 0, "inBed": 0,
                 "sleepStart": "\(night) \(start) +1100", "sleepEnd": "\(d) 06:00:00 +1100", "inBedStart": "\(night) \(start) +1100",
                 "inBedEnd": "\(d) 06:00:00 +1100", "source": "\(watch)"}
                """)
        }
        return """
            {"data": {"metrics": [
              {"name": "step_count", "units": "count", "data": [\(steps.joined(separator: ", "))]},
              {"name": "active_energy", "units": "kcal", "data": [\(energy.joined(separator: ", "))]},
              {"name": "resting_heart_rate", "units": "count/min", "data": [\(resting.joined(separator: ", "))]},
              {"name": "sleep_analysis", "units": "hr", "data": [\(sleep.joined(separator: ", "))]}],
             "workouts": [{"id": "R1", "name": "Outdoor Run", "start": "2024-03-03 07:01:30 +1100", "end": "2024-03-03 07:31:30 +1100",
                           "duration": 1800, "activeEnergyBurned": {"qty": 300, "units": "kcal"}}]}}
            """
    }

    /// The rows the planted differences must give, in report order (date, then field-table
    /// order, then workouts): `date,field,workout,native,hae,status`.
    static let expectedRows = """
        2024-03-01,metrics.resting_hr,,55,55,match
        2024-03-01,metrics.step_count,,10000,10000,match
        2024-03-01,metrics.active_calories,,500,500,match
        2024-03-01,sleep.total_hours,,7,7,match
        2024-03-01,sleep.core_hours,,7,7,match
        2024-03-01,sleep.in_bed_start,,2024-02-29T23:00:00+11:00,2024-02-29T23:00:00+11:00,match
        2024-03-01,sleep.in_bed_end,,2024-03-01T06:00:00+11:00,2024-03-01T06:00:00+11:00,match
        2024-03-01,sleep.source,,Anna’s Apple Watch,Anna’s Apple Watch,match
        2024-03-02,metrics.resting_hr,,55,55,match
        2024-03-02,metrics.step_count,,10000,10000,match
        2024-03-02,metrics.active_calories,,500,500,match
        2024-03-02,sleep.total_hours,,7,7.2,mismatch
        2024-03-02,sleep.core_hours,,7,7.2,mismatch
        2024-03-02,sleep.in_bed_start,,2024-03-01T23:00:00+11:00,2024-03-01T22:48:00+11:00,match
        2024-03-02,sleep.in_bed_end,,2024-03-02T06:00:00+11:00,2024-03-02T06:00:00+11:00,match
        2024-03-02,sleep.source,,Anna’s Apple Watch,Anna’s Apple Watch,match
        2024-03-03,metrics.resting_hr,,55,55,match
        2024-03-03,metrics.step_count,,10000,10000,match
        2024-03-03,metrics.active_calories,,500,500,match
        2024-03-03,sleep.total_hours,,7,7.133333,match
        2024-03-03,sleep.core_hours,,7,7.133333,match
        2024-03-03,sleep.in_bed_start,,2024-03-02T23:00:00+11:00,2024-03-02T22:52:00+11:00,match
        2024-03-03,sleep.in_bed_end,,2024-03-03T06:00:00+11:00,2024-03-03T06:00:00+11:00,match
        2024-03-03,sleep.source,,Anna’s Apple Watch,Anna’s Apple Watch,match
        2024-03-03,workouts.energy_kcal,Running 07:00:00,300,300,match
        2024-03-04,metrics.resting_hr,,55,55,match
        2024-03-04,metrics.step_count,,10500,10000,mismatch
        2024-03-04,metrics.active_calories,,500,500,match
        2024-03-04,sleep.total_hours,,7,7,match
        2024-03-04,sleep.core_hours,,7,7,match
        2024-03-04,sleep.in_bed_start,,2024-03-03T23:00:00+11:00,2024-03-03T23:00:00+11:00,match
        2024-03-04,sleep.in_bed_end,,2024-03-04T06:00:00+11:00,2024-03-04T06:00:00+11:00,match
        2024-03-04,sleep.source,,Anna’s Apple Watch,Anna’s Apple Watch,match
        2024-03-05,metrics.resting_hr,,55,55,match
        2024-03-05,metrics.step_count,,10000,10000,match
        2024-03-05,metrics.active_calories,,500,500,match
        2024-03-05,sleep.total_hours,,7,7,match
        2024-03-05,sleep.core_hours,,7,7,match
        2024-03-05,sleep.in_bed_start,,2024-03-04T23:00:00+11:00,2024-03-04T23:00:00+11:00,match
        2024-03-05,sleep.in_bed_end,,2024-03-05T06:00:00+11:00,2024-03-05T06:00:00+11:00,match
        2024-03-05,sleep.source,,Anna’s Apple Watch,Anna’s Apple Watch,match
        2024-03-05,workouts,Walking 12:00:00,2024-03-05T12:00:00+11:00,,only-native
        2024-03-06,metrics.resting_hr,,55,,only-native
        2024-03-06,metrics.step_count,,10000,,only-native
        2024-03-06,metrics.active_calories,,500,,only-native
        2024-03-06,sleep.total_hours,,7,,only-native
        2024-03-06,sleep.core_hours,,7,,only-native
        2024-03-06,sleep.in_bed_start,,2024-03-05T23:00:00+11:00,,only-native
        2024-03-06,sleep.in_bed_end,,2024-03-06T06:00:00+11:00,,only-native
        2024-03-06,sleep.source,,Anna’s Apple Watch,,only-native
        2024-03-07,metrics.resting_hr,,55,55,match
        2024-03-07,metrics.step_count,,10000,10000,match
        2024-03-07,metrics.active_calories,,500,,only-native
        2024-03-07,sleep.total_hours,,7,7,match
        2024-03-07,sleep.core_hours,,7,7,match
        2024-03-07,sleep.in_bed_start,,2024-03-06T23:00:00+11:00,2024-03-06T23:00:00+11:00,match
        2024-03-07,sleep.in_bed_end,,2024-03-07T06:00:00+11:00,2024-03-07T06:00:00+11:00,match
        2024-03-07,sleep.source,,Anna’s Apple Watch,Anna’s Apple Watch,match
        """.split(separator: "\n").map(String.init)

    /// The gaps: HAE has nothing on 03-06, and its active energy stops after 03-05.
    static let expectedGaps = ["no data from HAE on 2024-03-06", "no active_calories from HAE after 2024-03-05"]

    /// Writes both inputs into `dir`: `export.xml` and `hae.json`.
    static func write(into dir: URL) throws -> (native: String, hae: String) {
        let native = dir.appendingPathComponent("export.xml"), hae = dir.appendingPathComponent("hae.json")
        try Data(exportXML().utf8).write(to: native)
        try Data(haeJSON().utf8).write(to: hae)
        return (native.path, hae.path)
    }
}
