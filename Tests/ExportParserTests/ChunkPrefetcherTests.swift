import Foundation
import XCTest

@testable import ExportParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The HAE main pass reads its chunks on a read-ahead thread (`ChunkPrefetcher`): the chunks must
/// be the reads the parsing loop made itself (the same offsets and lengths, cut at `chunkSize`,
/// at `to` and at every split), in order, then the end; a failed read comes as its `errno`; and a
/// prefetcher stopped early (the parse failed) must not hang or read on.
final class ChunkPrefetcherTests: XCTestCase {
    private func file(_ text: String) throws -> Int32 {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefetch-\(UUID().uuidString).txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        addTeardownBlock { close(fd) }
        return fd
    }

    /// Every chunk up to and including the end (count 0), as (offset, text).
    private func chunks(_ p: ChunkPrefetcher) -> [(Int64, String)] {
        var out: [(Int64, String)] = []
        while true {
            let c = p.next()
            XCTAssertNil(c.error)
            out.append((c.offset, String(decoding: UnsafeBufferPointer(start: c.bytes, count: c.count), as: UTF8.self)))
            p.done(with: c)
            if c.fileCount == 0 { break }
        }
        p.stop()
        return out
    }

    func testChunksAreCutAtTheChunkSizeAndAtEverySplit() throws {
        // 10 bytes, chunks of 4, a split at 6: 0..<4 "0123"; at 4 the split leaves 6 − 4 = 2,
        // "45"; at 6 a full 4, "6789"; at 10 the end (an empty read).
        let fd = try file("0123456789")
        let got = chunks(ChunkPrefetcher(fd: fd, from: 0, to: nil, chunkSize: 4, splits: [6]))
        XCTAssertEqual(got.map(\.0), [0, 4, 6, 10])
        XCTAssertEqual(got.map(\.1), ["0123", "45", "6789", ""])
    }

    func testARangeStartsAtItsFirstByteAndStopsAtItsEnd() throws {
        // Bytes 1..<9 in chunks of 4 with a split at 6: at 1, 4 bytes "1234"; at 5 the split
        // leaves 6 − 5 = 1, "5"; at 6 the range leaves 9 − 6 = 3, "678"; at 9 = `to`, the end
        // without a read (byte 9 is never read).
        let fd = try file("0123456789")
        let got = chunks(ChunkPrefetcher(fd: fd, from: 1, to: 9, chunkSize: 4, splits: [6]))
        XCTAssertEqual(got.map(\.0), [1, 5, 6, 9])
        XCTAssertEqual(got.map(\.1), ["1234", "5", "678", ""])
    }

    func testOneSlotGivesTheSameChunks() throws {
        // With one buffer the thread waits for each chunk to be given back: same reads as above.
        let fd = try file("0123456789")
        let got = chunks(ChunkPrefetcher(fd: fd, from: 0, to: nil, chunkSize: 4, splits: [6], slotCount: 1))
        XCTAssertEqual(got.map(\.1), ["0123", "45", "6789", ""])
    }

    func testStrippingKeepsTheReadsAndTellsWhatWasTakenOut() throws {
        // `[⏎··1,⏎··2]` (11 bytes) in reads of 4, the same reads as without stripping:
        // 0..<4 `[⏎··` keeps `[⏎` (a run of 2 at 2); 4..<8 `1,⏎·` keeps `1,⏎` (its last space is
        // indentation: a run of 1 at 3); 8..<11 `·2]` keeps `2]` (the indentation's second space:
        // a run of 1 at 0); at 11 the end.
        let fd = try file("[\n  1,\n  2]")
        let p = ChunkPrefetcher(fd: fd, from: 0, to: nil, chunkSize: 4, stripIndentation: true)
        var got: [(Int64, String, Int, [Int32], [Int32])] = []
        while true {
            let c = p.next()
            let runs = try XCTUnwrap(c.runs)
            got.append(
                (
                    c.offset, String(decoding: UnsafeBufferPointer(start: c.bytes, count: c.count), as: UTF8.self), c.fileCount,
                    (0..<runs.count).map { runs.positions[$0] }, (0..<runs.count).map { runs.removedThrough[$0] }
                ))
            p.done(with: c)
            if c.fileCount == 0 { break }
        }
        p.stop()
        XCTAssertEqual(got.map(\.0), [0, 4, 8, 11])
        XCTAssertEqual(got.map(\.1), ["[\n", "1,\n", "2]", ""])
        XCTAssertEqual(got.map(\.2), [4, 4, 3, 0])
        XCTAssertEqual(got.map(\.3), [[2], [3], [0], []])
        XCTAssertEqual(got.map(\.4), [[2], [1], [1], []])
    }

    func testAFailedReadComesAsItsErrno() throws {
        // A directory opens for reading but cannot be read: EISDIR at the first read, offset 0.
        let dir = FileManager.default.temporaryDirectory.path
        let fd = open(dir, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let p = ChunkPrefetcher(fd: fd, from: 0, to: nil, chunkSize: 4)
        let c = p.next()
        XCTAssertEqual(c.error, EISDIR)
        XCTAssertEqual(c.offset, 0)
        XCTAssertEqual(c.count, 0)
        p.stop()
    }

    func testStoppingEarlyEndsTheThread() throws {
        // 1,000 one-byte chunks; the parse "fails" after the second: stop returns (the thread
        // waited for a free slot and sees the stop), and a second stop is harmless.
        let fd = try file(String(repeating: "x", count: 1000))
        let p = ChunkPrefetcher(fd: fd, from: 0, to: nil, chunkSize: 1)
        let a = p.next()
        p.done(with: a)
        let b = p.next()
        XCTAssertEqual([a.offset, b.offset], [0, 1])
        p.stop()
        p.stop()
        // Dropped without stop: its deinit stops the thread (no hang here).
        _ = ChunkPrefetcher(fd: fd, from: 0, to: nil, chunkSize: 1)
    }

    func testTheThreadCarriesAName() {
        XCTAssertLessThanOrEqual(ChunkPrefetcher.threadName.utf8.count, NamedThread.maxNameBytes)
    }
}
