import Foundation
import XCTest

@testable import ExportParser

/// A re-import that replaces an earlier one hands that import's rows over (`HealthStore.replace`):
/// in a store of many people it must seek the person's rows, not scan everyone's (none of the
/// tables has an index on `import_id`; each has one that starts with `person`).
final class StoreReplacementPlanTests: XCTestCase {
    func testTheHandOverSeeksThePersonsRows() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let store = dir.appendingPathComponent("health.sqlite").path
        let sample = TestPaths.repoRoot.appendingPathComponent("samples/export.zip").path
        _ = try ConvertJob(ConvertRequest(inputs: [sample], outDir: dir.appendingPathComponent("o").path, storePath: store)).run()
        let db = try SQLiteConnection(path: store, readOnly: true)
        for table in HealthStore.rowTablesByImport {
            let s = try db.prepare("EXPLAIN QUERY PLAN " + HealthStore.handOver(table))
            var plan: [String] = []
            while try s.step() { plan.append(s.text(3) ?? "") }
            XCTAssertTrue(plan.contains { $0.hasPrefix("SEARCH \(table) USING") && $0.contains("(person=?)") }, "\(table): \(plan)")
        }
    }
}
