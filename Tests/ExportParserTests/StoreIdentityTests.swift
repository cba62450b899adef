import Foundation
import XCTest

@testable import ExportParser

/// The store's natural keys keep different records apart and copies together, as the day rules
/// do: no two different records collapse into one row.
final class StoreIdentityTests: XCTestCase {
    typealias T = StoreTestSupport

    private func store(_ fixture: String) throws -> String {
        let dir = try T.temporaryDirectory()
        let xml = RuleFixtureTests.directory.appendingPathComponent(fixture).path
        let store = dir.appendingPathComponent("health.sqlite").path
        _ = try ConvertJob(ConvertRequest(inputs: [xml], outDir: dir.appendingPathComponent("out").path, storePath: store)).run()
        return store
    }

    /// Fixture 30: six protein and four energy records; the Oats copies differ only in their
    /// creation date (one row each), everything else differs in unit or metadata:
    /// protein 6 − 1 = 5 rows, energy 4 − 1 = 3 rows.
    func testRecordsThatDifferInMetadataAreRowsOfTheirOwn() throws {
        let path = try store("30-duplicates-differ-in-metadata.xml")
        let rows = try T.rows(path, "SELECT type, count(*) FROM samples GROUP BY type ORDER BY type")
        XCTAssertEqual(rows, [["HKQuantityTypeIdentifierDietaryEnergyConsumed", "3"], ["HKQuantityTypeIdentifierDietaryProtein", "5"]])
        // The re-synced copy kept once: its metadata rows are not doubled either (2 entries a food).
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_metadata"), 7 * 2)
    }

    /// Fixture 35: a run written four times by a sync (one row) and two walks at the same time
    /// with different energy (two rows): three workouts, as in the payload.
    func testWorkoutsRepeatedBySyncAreOneRowAndDifferentOnesTwo() throws {
        let path = try store("35-workout-synced-copies.xml")
        let rows = try T.rows(
            path, "SELECT replace(activity_type, 'HKWorkoutActivityType', ''), count(*) FROM workouts GROUP BY 1 ORDER BY 1")
        XCTAssertEqual(rows, [["Running", "1"], ["Walking", "2"]])
    }
}
