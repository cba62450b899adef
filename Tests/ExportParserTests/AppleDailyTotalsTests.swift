import Foundation
import XCTest

@testable import ExportParser

/// Apple's own daily totals (`ActivitySummary`) beside the tool's: the summary line, the file of
/// days outside 2 % under --out, and both values in the store, on a hand-built export with
/// planted differences.
final class AppleDailyTotalsTests: XCTestCase {
    /// Ours vs Apple's (kcal; minutes):
    ///   03-01 energy 400 vs 404: 4 / 404 = 0.99 % (agrees); exercise 30 vs 30 (agrees)
    ///   03-02 energy 612 vs 655: 43 / 655 = 6.56 % (differs); exercise 45 vs 44: 1 / 44 = 2.27 % (differs)
    ///   03-03 energy 500 vs 2092 kJ = 2092 / 4.184 = 500 kcal (agrees); exercise: Apple 0, ours
    ///         none (no exercise records): not compared
    ///   03-04 Apple only (no records of ours that day): not compared
    /// energy: 2 of 3 days agree = 67 %; exercise: 1 of 2 = 50 %; furthest: 03-02 energy (6.56 %).
    static let xml = export(
        """
         <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Ann’s Apple Watch" unit="kcal" startDate="2024-03-01 10:00:00 +0100" endDate="2024-03-01 11:00:00 +0100" value="400"/>
         <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Ann’s Apple Watch" unit="kcal" startDate="2024-03-02 10:00:00 +0100" endDate="2024-03-02 11:00:00 +0100" value="612"/>
         <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Ann’s Apple Watch" unit="kcal" startDate="2024-03-03 10:00:00 +0100" endDate="2024-03-03 11:00:00 +0100" value="500"/>
         <Record type="HKQuantityTypeIdentifierAppleExerciseTime" sourceName="Ann’s Apple Watch" unit="min" startDate="2024-03-01 10:00:00 +0100" endDate="2024-03-01 10:30:00 +0100" value="30"/>
         <Record type="HKQuantityTypeIdentifierAppleExerciseTime" sourceName="Ann’s Apple Watch" unit="min" startDate="2024-03-02 10:00:00 +0100" endDate="2024-03-02 10:45:00 +0100" value="45"/>
         <ActivitySummary dateComponents="2024-03-01" activeEnergyBurned="404" activeEnergyBurnedGoal="450" activeEnergyBurnedUnit="kcal" appleExerciseTime="30" appleExerciseTimeGoal="30" appleStandHours="10" appleStandHoursGoal="12"/>
         <ActivitySummary dateComponents="2024-03-02" activeEnergyBurned="655" activeEnergyBurnedGoal="450" activeEnergyBurnedUnit="kcal" appleExerciseTime="44" appleExerciseTimeGoal="30" appleStandHours="11" appleStandHoursGoal="12"/>
         <ActivitySummary dateComponents="2024-03-03" activeEnergyBurned="2092" activeEnergyBurnedGoal="1883" activeEnergyBurnedUnit="kJ" appleExerciseTime="0" appleExerciseTimeGoal="30" appleStandHours="9" appleStandHoursGoal="12"/>
         <ActivitySummary dateComponents="2024-03-04" activeEnergyBurned="300" activeEnergyBurnedGoal="450" activeEnergyBurnedUnit="kcal" appleExerciseTime="20" appleExerciseTimeGoal="30" appleStandHours="8" appleStandHoursGoal="12"/>
        """)

    func testSummaryLineFileAndStoreView() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let input = dir.appendingPathComponent("export.xml")
        try Data(Self.xml.utf8).write(to: input)
        let out = dir.appendingPathComponent("out").path
        let store = out + "/health.sqlite"
        let outcome = try ConvertJob(ConvertRequest(inputs: [input.path], outDir: out, storePath: store)).run()

        let totals = try XCTUnwrap(outcome.inputs.first?.appleTotals)
        XCTAssertEqual(totals.energy.rows.count, 3)
        XCTAssertEqual(totals.energy.agreeing, 2)
        XCTAssertEqual(totals.exercise.rows.count, 2)
        XCTAssertEqual(totals.exercise.agreeing, 1)
        let line =
            "Apple's daily totals: active energy within 2 % on 67 % of 3 days, exercise minutes on 50 % of 2 days; furthest: 2024-03-02 612 vs 655 kcal"
        XCTAssertEqual(totals.summaryLine, line)
        XCTAssertTrue(outcome.summaryLines().contains(line), "\(outcome.summaryLines())")
        XCTAssertTrue(outcome.summaryLines().contains { $0.hasPrefix("2 day figures differ from Apple's daily totals by more than 2 %") })

        // The file: the two disagreeing figures of 03-02 (43 / 655 = 0.065648…, 1 / 44 = 0.022727…).
        let csvPath = out + "/" + AppleDailyTotals.fileName
        XCTAssertEqual(
            try String(contentsOfFile: csvPath, encoding: .utf8),
            """
            input,date,field,health_import,apple,unit,difference,relative_difference\r
            \(input.path),2024-03-02,active_calories,612.00,655.00,kcal,-43.00,0.0656\r
            \(input.path),2024-03-02,exercise_min,45.00,44.00,min,1.00,0.0227\r

            """)
        XCTAssertEqual(try StoreTestSupport.mode(csvPath), 0o600)

        // The store keeps both: Apple's (kJ converted) beside the tool's.
        let rows = try StoreTestSupport.rows(
            store,
            """
            SELECT date, active_calories, round(apple_active_calories, 6), exercise_min, apple_exercise_min
            FROM apple_daily_totals ORDER BY date
            """)
        XCTAssertEqual(rows.map { $0[0] }, ["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04"])
        XCTAssertEqual(Array(rows[1][1...4]), ["612.0", "655.0", "45.0", "44.0"])
        XCTAssertEqual(Array(rows[2][1...2]), ["500.0", "500.0"])
    }
}
