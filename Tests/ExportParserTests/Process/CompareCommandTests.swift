import Foundation
import XCTest

@testable import ExportParser

/// `compare` run as a user runs it: its exit statuses and what it prints (the rows themselves
/// are checked in-process in `CompareTests`).
final class CompareCommandTests: XCTestCase {
    /// The real executable: 0 when everything matches, 1 when not, 2 for bad input or usage,
    /// each with what a person needs on the terminal.
    func testExitStatusesOfTheCommand() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try CompareFixtures.write(into: dir)
        let twins = TestPaths.fixtures.appendingPathComponent("twins")
        func command(_ args: [String]) throws -> (Int32, String, String) {
            let run = try ToolRun.run(["compare"] + args, environment: ["NO_COLOR": "1"])
            return (run.status, run.stdout, run.stderr)
        }
        let out = dir.appendingPathComponent("c").path
        let pass = try command([
            "--native", twins.appendingPathComponent("same-days.xml").path, "--hae", try CompareTests.nearTwin(in: dir), "--timezone",
            "Australia/Sydney", "--days", "3", "--out", out,
        ])
        XCTAssertEqual(pass.0, 0, pass.1 + pass.2)
        // Mixed-up inputs: exit 2 and one sentence, nothing on stdout.
        let swapped = try command(["--native", hae, "--hae", native, "--out", out])
        XCTAssertEqual(swapped.0, 2, swapped.1 + swapped.2)
        XCTAssertEqual(swapped.1, "")
        XCTAssertEqual(
            swapped.2,
            "health-import: \(hae) is a Health Auto Export file, given as --native: the native side is the Health app's export (export.zip or export.xml) or payload JSON; give this file as --hae\n"
        )
        let fail = try command(["--native", native, "--hae", hae, "--timezone", "Australia/Sydney", "--out", out])
        XCTAssertEqual(fail.0, 1, fail.2)
        XCTAssertTrue(fail.1.contains("FAILED"))
        let broken = dir.appendingPathComponent("broken.json")
        try Data("{\"data\": {\"metrics\": [".utf8).write(to: broken)
        let bad = try command(["--native", native, "--hae", broken.path, "--out", out])
        XCTAssertEqual(bad.0, 2)
        XCTAssertTrue(bad.2.contains(broken.path), bad.2)
        let usage = try command(["--native", native, "--out", out])
        XCTAssertEqual(usage.0, 2)
        XCTAssertTrue(usage.2.contains("--hae"), usage.2)
    }
}
