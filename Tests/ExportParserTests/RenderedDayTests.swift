import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// `convert` renders its days (payload file, `payloads.json` member, CSV row) a block at a time
/// on two threads (`RenderedDay.inOrder`) and writes them in date order: the bytes must be those
/// of rendering one day after another, in the same order, whatever the block size.
final class RenderedDayTests: XCTestCase {
    /// The finished days of a fixture HAE file (10 runner days, one datum a sample).
    private func fixtureDays() throws -> [FinishedDay] {
        let dir = try FixtureCheck.make(days: 10, seed: 4, profile: "runner", haeStyle: "samples", name: "rendered-days")
        let book = DayBook()
        _ = try HAEReader(path: dir.appendingPathComponent("hae.json").path).read(into: book)
        return book.finish()
    }

    /// Everything `inOrder` hands over, in the order it hands it over.
    private func collect(_ days: [FinishedDay], parallel: Bool, blockSize: Int) -> [String] {
        var out: [String] = []
        RenderedDay.inOrder(days, parallel: parallel, blockSize: blockSize) { i, r in
            out.append(
                "\(i) \(days[i].date)\n" + String(decoding: r.file, as: UTF8.self) + String(decoding: r.member, as: UTF8.self)
                    + String(decoding: r.csvRow, as: UTF8.self))
        }
        return out
    }

    func testParallelRenderingGivesTheSequentialBytesInOrder() throws {
        let days = try fixtureDays()
        XCTAssertGreaterThanOrEqual(days.count, 10)
        let sequential = collect(days, parallel: false, blockSize: 64)
        XCTAssertEqual(sequential.count, days.count)
        // Block sizes that split the days unevenly (3: a last block of one or two), one block
        // holding them all (64), and the smallest (2, also what 0 and 1 become).
        for size in [0, 1, 2, 3, 4, 7, 64] {
            XCTAssertEqual(collect(days, parallel: true, blockSize: size), sequential, "block size \(size)")
        }
        // Only the last member closes `payloads.json`'s array and object; every other ends with a comma.
        var members: [String] = []
        RenderedDay.inOrder(days, parallel: true, blockSize: 3) { _, r in members.append(String(decoding: r.member, as: UTF8.self)) }
        XCTAssertTrue(members.last!.hasSuffix("}\n  ]\n}\n"))
        XCTAssertEqual(members.dropLast().filter { !$0.hasSuffix("},\n") }, [])
    }

    func testNoDaysAndOneDay() throws {
        XCTAssertEqual(collect([], parallel: true, blockSize: 64), [])
        let one = Array(try fixtureDays().prefix(1))
        XCTAssertEqual(collect(one, parallel: true, blockSize: 64), collect(one, parallel: false, blockSize: 64))
    }

    func testAThrowingBodyStopsAtItsDay() throws {
        struct Stop: Error {}
        let days = try fixtureDays()
        var seen: [Int] = []
        XCTAssertThrowsError(
            try RenderedDay.inOrder(days, parallel: true, blockSize: 3) { i, _ in
                if i == 4 { throw Stop() }
                seen.append(i)
            })
        XCTAssertEqual(seen, [0, 1, 2, 3])
    }
}
