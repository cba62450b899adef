import Foundation
import XCTest

@testable import ExportParser

/// Payload JSON given to `convert` (docs/usage.md, "Payload JSON is not an input"): a `DATE.json`,
/// a `payloads.json`, an app's `{"data": [...]}` body (one, or one a line), a folder of day files.
/// Each is refused with one sentence naming it, exit 1, and `--out` and the store stay as the
/// good run left them: before, they were read as HAE JSON with 0 records, and the run wrote days
/// holding only the workouts, or "Wrote no days", exit 0.
final class ConvertPayloadInputTests: XCTestCase {
    /// The bench's good run wrote `payloads/` (60 records a minute from 2024-01-01 00:00 +01:00:
    /// all on 2024-01-01) and `payloads.json`; copies of them are the inputs.
    private func bench() throws -> (HostileBench, day: String, batch: String, folder: String) {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let fm = FileManager.default
        let day = bench.path("2024-01-01.json"), batch = bench.path("payloads-copy.json"), folder = bench.path("days")
        try fm.copyItem(atPath: bench.out.path + "/payloads/2024-01-01.json", toPath: day)
        try fm.copyItem(atPath: bench.out.path + "/payloads.json", toPath: batch)
        try fm.copyItem(atPath: bench.out.path + "/payloads", toPath: folder)
        return (bench, day, batch, folder)
    }

    static let why = ["is payload JSON (what convert writes and the app sends), not an input convert reads", "push --payloads"]

    func testADayFileIsRefused() throws {
        let (bench, day, _, _) = try bench()
        try bench.assertToolRefuses(day, mentioning: Self.why)
        try bench.assertJobRefuses(day, mentioning: Self.why)
    }

    func testPayloadsJSONIsRefused() throws {
        let (bench, _, batch, _) = try bench()
        try bench.assertToolRefuses(batch, mentioning: Self.why)
        try bench.assertJobRefuses(batch, mentioning: Self.why)
    }

    /// A folder that holds day files and nothing else is refused as a whole, naming the folder.
    func testAFolderOfDayFilesIsRefused() throws {
        let (bench, _, _, folder) = try bench()
        try bench.assertToolRefuses(folder, mentioning: Self.why)
        try bench.assertJobRefuses(folder, mentioning: Self.why)
    }

    /// The app's bodies: `{"data": [payload]}` as one file, and two of them one a line (a
    /// backend's log), and an empty `{"data": []}`.
    func testTheAppsBodiesAreRefused() throws {
        let (bench, day, _, _) = try bench()
        let payload = try String(contentsOfFile: day, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let compact = payload.replacingOccurrences(of: "\n", with: "")
        let one = bench.path("body.json"), lines = bench.path("bodies.jsonl"), empty = bench.path("empty.json")
        try Data("{\"data\": [\(payload)]}".utf8).write(to: URL(fileURLWithPath: one))
        try Data("{\"data\":[\(compact)]}\n{\"data\":[\(compact)]}\n".utf8).write(to: URL(fileURLWithPath: lines))
        try Data("{\"data\": []}\n".utf8).write(to: URL(fileURLWithPath: empty))
        for input in [one, lines, empty] {
            try bench.assertToolRefuses(input, mentioning: Self.why)
            try bench.assertJobRefuses(input, mentioning: Self.why)
        }
    }

    /// With an export beside it in one run, still refused: never a partial run.
    func testPayloadBesideAnExportIsRefused() throws {
        let (bench, day, _, _) = try bench()
        let run = try bench.runTool(bench.path("good.xml"), extra: [day])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains(day + ": is payload JSON"), run.stderr)
        try bench.assertOutputUnchanged()
    }
}
