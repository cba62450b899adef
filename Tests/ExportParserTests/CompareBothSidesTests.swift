import Foundation
import XCTest

@testable import ExportParser

/// `compare --from D` reads its two sides at once (`CompareJob.bothSides`): what the user sees
/// is what reading them one after the other shows (docs/compare.md, "The window read").
final class CompareBothSidesTests: ParseThreadsTestCase {
    /// The error of a run, its sides read at once (two parsing threads) and one after the other (one).
    private func errors(native: String, hae: String) throws -> (atOnce: String, inTurn: String) {
        func run(threads: Int) throws -> String {
            ParseThreads.count = threads
            let out = try TestPaths.temporaryDirectory("both-sides-out")
            do {
                _ = try CompareJob(CompareRequest(native: [native], hae: [hae], from: "2024-02-01", outDir: out.path)).run()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        return (try run(threads: 2), try run(threads: 1))
    }

    func testTheExportSidesErrorComesFirstAsWhenReadInTurn() throws {
        let dir = try TestPaths.temporaryDirectory("both-sides")
        let native = dir.appendingPathComponent("export.xml"), hae = dir.appendingPathComponent("hae.json")
        // Both broken: an element never closed; a JSON object never closed.
        try Data("<?xml version=\"1.0\"?>\n<HealthData>\n <Record type=\"x\"\n".utf8).write(to: native)
        try Data("{\"data\": {\"metrics\": [".utf8).write(to: hae)
        let both = try errors(native: native.path, hae: hae.path)
        XCTAssertEqual(both.atOnce, both.inTurn)
        XCTAssertTrue(both.atOnce.contains("export.xml"), both.atOnce)
        XCTAssertFalse(both.atOnce.contains("hae.json"), both.atOnce)
        // Only the HAE side broken: its error, the same either way.
        let good = try CompareWindowCensusTests.hae()
        let fixture = URL(fileURLWithPath: good).deletingLastPathComponent().appendingPathComponent("export.xml").path
        let haeOnly = try errors(native: fixture, hae: hae.path)
        XCTAssertEqual(haeOnly.atOnce, haeOnly.inTurn)
        XCTAssertTrue(haeOnly.atOnce.contains("hae.json"), haeOnly.atOnce)
    }

    func testTheHAESidesProgressIsShownInOrderOnTheCallingThread() {
        let relay = CompareProgressRelay()
        let caller = Thread.current
        // 100 updates from another thread, the first 50 before the calling thread waits.
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for i in 0..<100 {
                relay.send(ConvertProgress(input: "hae.json", bytesDone: Int64(i), bytesTotal: 99, records: i, elapsed: 0))
                if i == 49 { sent.signal() }
            }
            relay.end()
        }
        sent.wait()
        var shown: [Int64] = []
        var elsewhere = 0
        relay.relay { update in
            shown.append(update.bytesDone)
            if Thread.current != caller { elsewhere += 1 }
        }
        XCTAssertEqual(shown, (0..<100).map(Int64.init))
        XCTAssertEqual(elsewhere, 0)
    }
}
