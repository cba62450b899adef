import Foundation
import XCTest

@testable import ExportParser

/// `explain` run as a user runs it (the explanations themselves are checked in-process in
/// `ExplainTests`).
final class ExplainCommandTests: XCTestCase {
    /// The real executable: usage errors exit 2 naming what exists; text and JSON on stdout.
    func testExitStatusesOfTheCommand() throws {
        let input = try ExplainTests.handMadeExport()
        func command(_ args: [String]) throws -> (Int32, String, String) {
            let run = try ToolRun.run(["explain"] + args)
            return (run.status, run.stdout, run.stderr)
        }
        let ok = try command([input, "--date", "2024-03-05", "--field", "metrics.step_count", "--format", "json"])
        XCTAssertEqual(ok.0, 0, ok.2)
        XCTAssertTrue(ok.1.contains("\"value\": 380"), ok.1)
        let field = try command([input, "--date", "2024-03-05", "--field", "steps"])
        XCTAssertEqual(field.0, 2)
        XCTAssertTrue(field.2.contains("unknown field \"steps\"; the fields are: metrics.hrv"), field.2)
        let date = try command([input, "--date", "2024-05-01", "--field", "metrics.step_count"])
        XCTAssertEqual(date.0, 2)
        XCTAssertTrue(date.2.contains("no data on 2024-05-01"), date.2)
        XCTAssertTrue(date.2.contains("from 2024-03-05 to 2024-03-06"), date.2)
    }
}
