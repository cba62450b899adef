import Foundation
import XCTest

@testable import ExportParser

/// `POSIXFile`, the one type that hands buffer addresses to read/write/pread/pwrite: what it
/// returns at the end of a file, at offsets, for integer arrays and on a failing descriptor.
final class POSIXFileTests: XCTestCase {
    private func temporaryFile() throws -> (fd: Int32, path: String) {
        let path = NSTemporaryDirectory() + "/posixfile-test-\(getpid())-\(UUID().uuidString)"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        addTeardownBlock {
            close(fd)
            unlink(path)
        }
        return (fd, path)
    }

    func testFillStopsAtTheEndOfTheFileAndSaysHowMuchItRead() throws {
        let (fd, _) = try temporaryFile()
        try POSIXFile.writeAll(fd, [UInt8]([1, 2, 3, 4, 5]))
        // Five bytes written; a buffer of eight read from offset 0 gets those five, and its last
        // three bytes stay as they were (0).
        var buffer = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(try POSIXFile.fill(&buffer, from: fd, at: 0), 5)
        XCTAssertEqual(buffer, [1, 2, 3, 4, 5, 0, 0, 0])
        // Two bytes from offset 1: the second and third bytes written.
        var two = [UInt8](repeating: 9, count: 4)
        XCTAssertEqual(try POSIXFile.fill(&two, byteCount: 2, from: fd, at: 1), 2)
        XCTAssertEqual(two, [2, 3, 9, 9])
    }

    func testIntegersWrittenAtAnOffsetReadBackWhole() throws {
        let (fd, _) = try temporaryFile()
        let values: [UInt64] = [0x0102_0304_0506_0708, 42]
        // 2 × 8 bytes at offset 16: the file is 32 bytes, the first 16 a hole that reads as 0.
        try POSIXFile.writeAll(fd, integers: values, at: 16)
        var st = stat()
        XCTAssertEqual(fstat(fd, &st), 0)
        XCTAssertEqual(st.st_size, 32)
        var back = [UInt64](repeating: 7, count: 2)
        XCTAssertEqual(try POSIXFile.fill(&back, from: fd, at: 16), 16)
        XCTAssertEqual(back, values)
        var hole = [UInt64](repeating: 7, count: 2)
        XCTAssertEqual(try POSIXFile.fill(&hole, from: fd, at: 0), 16)
        XCTAssertEqual(hole, [0, 0])
    }

    func testAFailingDescriptorGivesItsErrno() {
        var buffer = [UInt8](repeating: 0, count: 4)
        XCTAssertThrowsError(try POSIXFile.fill(&buffer, from: -1)) { error in
            XCTAssertEqual((error as? POSIXFile.Failure)?.code, EBADF)
            XCTAssertEqual((error as? POSIXFile.Failure)?.done, 0)
        }
        XCTAssertThrowsError(try POSIXFile.writeAll(-1, [UInt8]([1]))) { error in
            XCTAssertEqual((error as? POSIXFile.Failure)?.code, EBADF)
        }
    }
}
