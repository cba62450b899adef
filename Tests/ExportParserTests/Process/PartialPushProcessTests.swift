import Foundation
import XCTest

@testable import ExportParser

/// `push` as a user runs it names the partial date it leaves out, even with `--quiet` (on
/// stderr), and sends it with `--include-partial` (docs/push.md, "Partial dates"). Runs the built
/// `health-import` (`swift build` first).
final class PartialPushProcessTests: XCTestCase {
    func testAQuietPushStillSaysWhichPartialDateItLeftOut() throws {
        let dir = try TestPaths.temporaryDirectory(#function)
        // ExportMomentTests.xml: 06-16 whole, 06-17 exported at 17:08 (partial).
        let file = dir.appendingPathComponent("export.xml")
        try Data(ExportMomentTests.xml.utf8).write(to: file)
        let out = dir.appendingPathComponent("out").path
        _ = try ConvertJob(ConvertRequest(inputs: [file.path], outDir: out, storePath: out + "/health.sqlite")).run()
        let base = ["push", "--url", "http://127.0.0.1:9", "--store", out + "/health.sqlite", "--dry-run"]
        let quiet = try ToolRun.run(base + ["--quiet"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stdout, "")
        XCTAssertTrue(quiet.stderr.contains("Left out 2019-06-17: partial"), quiet.stderr)
        let loud = try ToolRun.run(base)
        XCTAssertTrue(loud.stdout.hasPrefix("2019-06-16  "), loud.stdout)
        XCTAssertTrue(loud.stdout.contains("Left out 2019-06-17: partial"), loud.stdout)
        XCTAssertTrue(loud.stdout.contains("Dry run: would send 1 day "), loud.stdout)
        let all = try ToolRun.run(base + ["--include-partial"])
        XCTAssertTrue(all.stdout.contains("Dry run: would send 2 days "), all.stdout)
        XCTAssertFalse(all.stdout.contains("Left out"), all.stdout)
    }
}
