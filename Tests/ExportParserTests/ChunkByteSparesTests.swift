import XCTest

@testable import ExportParser

final class ChunkByteSparesTests: XCTestCase {
    func testAHandedBackBufferIsReusedEmptyWithItsStorage() {
        let spares = ChunkByteSpares(limit: 2, initialCapacity: 100)
        var a = spares.reuse()
        XCTAssertTrue(a.isEmpty)
        XCTAssertGreaterThanOrEqual(a.capacity, 100)  // made with room for a chunk
        a.append(contentsOf: [1, 2, 3])
        let storage = a.withUnsafeBufferPointer { $0.baseAddress }
        spares.recycle(&a)
        XCTAssertTrue(a.isEmpty)  // taken from the caller
        XCTAssertEqual(spares.count, 1)
        let b = spares.reuse()
        XCTAssertTrue(b.isEmpty)  // emptied: 3 bytes went in, none come out
        XCTAssertEqual(b.withUnsafeBufferPointer { $0.baseAddress }, storage)  // the same memory, not a copy
        XCTAssertEqual(spares.count, 0)
    }

    func testNeverKeepsMoreThanItsLimit() {
        // 5 buffers handed back to a pool of 3: 3 kept, the other 2 freed.
        let spares = ChunkByteSpares(limit: 3, initialCapacity: 16)
        var taken = (0..<5).map { _ in spares.reuse() }
        for i in taken.indices { spares.recycle(&taken[i]) }
        XCTAssertEqual(spares.count, 3)
        // 4 taken from the 3 kept: the fourth is new, and the pool is empty.
        _ = (0..<4).map { _ in spares.reuse() }
        XCTAssertEqual(spares.count, 0)
    }

    func testAnEmptyArrayWithoutStorageIsNotKept() {
        let spares = ChunkByteSpares(limit: 3, initialCapacity: 16)
        var none: [UInt8] = []
        spares.recycle(&none)
        XCTAssertEqual(spares.count, 0)
    }
}
