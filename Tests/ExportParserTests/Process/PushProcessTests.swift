import Foundation
import XCTest

@testable import ExportParser

/// `push` as a user runs it: the built `health-import` (`swift build` first), against the test
/// server, the key in the environment.
final class PushProcessTests: XCTestCase {
    typealias S = PushTestSupport

    private func tool() throws -> URL {
        let tool = TestPaths.tool
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { throw XCTSkip("no built health-import at \(tool.path)") }
        return tool
    }

    /// Starts `health-import push ARGS`; stdout and stderr go to one file.
    private func start(_ args: [String], output: URL) throws -> Process {
        let p = Process()
        p.executableURL = try tool()
        p.arguments = ["push"] + args
        var environment = ["HEALTH_IMPORT_API_KEY": S.key, "PATH": "/usr/bin:/bin"]
        // Under scripts/sanitize.sh the tool is sanitized too: it keeps the run's options
        // (detect_leaks=0: Foundation's one-time allocations are not leaks of ours).
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS"] { environment[name] = ProcessInfo.processInfo.environment[name] }
        p.environment = environment
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let h = try FileHandle(forWritingTo: output)
        p.standardOutput = h
        p.standardError = h
        try p.run()
        return p
    }

    func testTheKeyIsAbsentFromEverythingPushPrints() throws {
        let f = try S.fixture()
        // A careless backend: the status and a 400 repeat the key.
        let server = try PushTestServer(
            dir: f.dir,
            plan: [
                "status": ["last_healthkit_sync": "seen key " + S.key],
                "dates": ["2024-03-02": ["400-echo-key"], "2024-03-03": ["500", "accept"]],
            ])
        let output = f.dir.appendingPathComponent("output.txt")
        let p = try start(["--url", server.baseURL, "--store", f.store, "--person", "ann", "--timeout", "5"], output: output)
        p.waitUntilExit()
        let printed = try String(contentsOf: output, encoding: .utf8)
        XCTAssertEqual(p.terminationStatus, 1, printed)
        XCTAssertTrue(printed.contains("2024-03-02: HTTP 400: bad request from key [API key]"), printed)
        XCTAssertFalse(printed.contains(S.key), printed)
        XCTAssertEqual(server.posts().first?.headers["x-api-key"], S.key, "it was sent, in the header")
        // Nor is it in the store (the file and its WAL).
        for file in [f.store, f.store + "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            XCTAssertNil(bytes.range(of: Data(S.key.utf8)), file)
        }
        // The key on the command line is not an option at all, and plain http:// elsewhere is refused.
        for args in [["--url", server.baseURL, "--api-key", S.key], ["--url", "http://example.com", "--dry-run"]] {
            let out = f.dir.appendingPathComponent("usage.txt")
            let q = try start(args + ["--store", f.store], output: out)
            q.waitUntilExit()
            XCTAssertEqual(q.terminationStatus, 2)
            XCTAssertFalse(try String(contentsOf: out, encoding: .utf8).contains(S.key))
        }
    }

    func testARunKilledMidwaySendsOnlyTheRestWhenStartedAgain() throws {
        let f = try S.fixture()
        // Every answer takes 0.4 s, one request at a time: the run takes about 3 s.
        let server = try PushTestServer(dir: f.dir, plan: ["default": "delay:400"])
        let args = ["--url", server.baseURL, "--store", f.store, "--person", "ann", "--concurrency", "1", "--quiet"]
        let first = try start(args, output: f.dir.appendingPathComponent("first.txt"))
        let deadline = Date(timeIntervalSinceNow: 20)
        while server.posts().count < 3, Date() < deadline { usleep(20_000) }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationReason, .uncaughtSignal)
        let sentBefore = Set(server.posts().compactMap(\.date))
        XCTAssertTrue(sentBefore.count >= 3 && sentBefore.count < 7, "\(sentBefore)")
        let accepted = Set(try S.recorded(f.store).filter { $0.value.result == "accepted" }.keys)
        XCTAssertTrue(accepted.isSubset(of: sentBefore))
        // At most the one request in flight was lost.
        XCTAssertTrue(sentBefore.subtracting(accepted).count <= 1, "sent \(sentBefore), recorded \(accepted)")

        try server.setPlan([:])
        let before = server.posts().count
        let second = try start(args, output: f.dir.appendingPathComponent("second.txt"))
        second.waitUntilExit()
        XCTAssertEqual(second.terminationStatus, 0)
        let sentAfter = server.posts().dropFirst(before).compactMap(\.date)
        XCTAssertEqual(Set(sentAfter).count, sentAfter.count, "each date once")
        XCTAssertEqual(Set(sentAfter), Set(S.dates).subtracting(accepted), "only the rest")
        XCTAssertEqual(try S.recorded(f.store).filter { $0.value.result == "accepted" }.keys.sorted(), S.dates)
    }
}
