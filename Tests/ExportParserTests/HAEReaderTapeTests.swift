import Foundation
import XCTest

@testable import ExportParser

/// The main pass records yajl's events onto tapes and decodes them on another thread: a file of
/// many tapes must give every datum once and in order, and errors far into it must still name
/// the right byte offset and JSON path.
final class HAEReaderTapeTests: XCTestCase {
    /// `count` step datums, one a minute from 2024-03-01 00:00 +0000, quantity = its index.
    /// Each datum is 8 yajl events (start and end of its map, three keys, three values), so
    /// 20 000 datums are 160 000 events: about ten 16 384-event tapes.
    private func stepsFile(count: Int, tail: String = "]}]}}") throws -> String {
        var s = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["#
        for i in 0..<count {
            let minute = i % 60, hour = (i / 60) % 24, day = 1 + i / 1440
            if i > 0 { s += "," }
            s +=
                #"{"date":"2024-03-\#(String(format: "%02d", day)) \#(String(format: "%02d:%02d", hour, minute)):00 +0000","qty":\#(i),"source":"Watch"}"#
        }
        s += tail
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hae-tape-\(UUID().uuidString).json")
        try s.write(to: url, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testManyTapesGiveEveryDatumOnceInOrder() throws {
        let path = try stepsFile(count: 20_000)
        let sink = CollectingSink(details: false)
        let report = try HAEReader(path: path).read(into: sink)
        XCTAssertEqual(sink.samples.count, 20_000)
        // Quantities 0, 1, 2, … in document order: the tapes were played in order, none twice.
        XCTAssertEqual(sink.samples.map { Int($0.value ?? -1) }, Array(0..<20_000))
        XCTAssertEqual(report.recordsByType.values.reduce(0, +), 20_000)
        XCTAssertEqual(sink.finished.count, 1)
    }

    func testAnErrorFarIntoTheFileNamesItsOffsetAndPath() throws {
        // The document breaks after the last datum: `]}]}` and then a stray `x`.
        let path = try stepsFile(count: 20_000, tail: "]}]x")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        do {
            _ = try HAEReader(path: path).read(into: CollectingSink(details: false))
            XCTFail("read without error")
        } catch let e as InputError {
            // yajl stops at the `x`, the last byte, having consumed it.
            XCTAssertEqual(e.location?.byteOffset, Int64(size))
            // Inside the `data` object, after its `metrics` array closed.
            XCTAssertEqual(e.location?.path, "data")
            XCTAssertTrue(e.message.contains("near: …"), e.message)
        }
    }

    /// The datums are decoded on a thread the system knows by its own name, so a profile (`perf`,
    /// `top -H`) tells the decoder from the reading thread. Before, the name ("health-import HAE
    /// decoder", 25 bytes: Linux refuses more than 15) was set before the thread started, which
    /// corelibs Foundation never passes to the system: this test saw the process's name then.
    func testTheDecoderThreadCarriesItsName() throws {
        XCTAssertLessThanOrEqual(HAETapePlayer.threadName.utf8.count, 15)
        let path = try stepsFile(count: 3)
        let sink = ThreadNameSink()
        _ = try HAEReader(path: path).read(into: sink)
        XCTAssertEqual(sink.count, 3)
        XCTAssertEqual(sink.names, ["hae-decoder"])
    }
}

/// Notes the name of each thread that hands it a sample.
private final class ThreadNameSink: SampleSink {
    var names: Set<String> = []
    var count = 0

    func sample(_ sample: Sample) {
        count += 1
        #if os(Linux)
            // The kernel's name of the calling thread (what perf and top show).
            if let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) {
                names.insert(comm.trimmingCharacters(in: .newlines))
            }
        #else
            var buffer = [CChar](repeating: 0, count: 64)
            if pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 { names.insert(String(cString: buffer)) }
        #endif
    }
}
