import Foundation
import XCTest

@testable import ExportParser

/// `fixtures --scale` run as a user runs it (what it writes is checked in-process in
/// `FixturesScaleTests`): a combination it refuses.
final class FixturesScaleCommandTests: XCTestCase {
    /// The command refuses them with exit status 2 and the sentence, before writing anything.
    func testTheCommandExitsWithStatus2OnABadCombination() throws {
        let dir = try TestPaths.temporaryDirectory()
        let run = try ToolRun.run(["fixtures", "--scale", "100", "--days", "7", "--out", dir.appendingPathComponent("out").path])
        XCTAssertEqual(run.status, 2, run.printed)
        XCTAssertTrue(run.stderr.contains("give --days or --scale, not both"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }
}
