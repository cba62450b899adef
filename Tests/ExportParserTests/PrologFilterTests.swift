import Foundation
import XCTest

@testable import ExportParser

/// The byte scans in front of and beside the parser: `PrologFilter` dropping the control bytes
/// XML 1.0 forbids (tested at every place of its word-at-a-time scan), and `ParseChunk.lineFeeds`.
final class PrologFilterTests: XCTestCase {
    /// What a filter already past its prolog (the root's start tag, 12 bytes, fed first) passes
    /// on for `body`, and how many bytes it dropped.
    private func filtered(_ body: [UInt8]) throws -> (bytes: [UInt8], dropped: Int) {
        var filter = PrologFilter()
        var out: [UInt8] = []
        try filter.filter(Array("<HealthData>".utf8)) { _ in }
        try filter.filter(body) { out.append(contentsOf: $0) }
        return (out, filter.controlCharactersDropped)
    }

    /// XML 1.0 allows no byte below 0x20 but tab (0x09), line feed (0x0A) and carriage return (0x0D).
    private static func forbidden(_ c: UInt8) -> Bool { c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D }

    func testEveryControlByteAtEveryPlaceOfTheScan() throws {
        // 83 bytes: the scan reads 32 bytes a step (bytes 0–63), then 8 (64–79), then one at a
        // time (80–82); each byte below goes at each place in turn, among letters.
        let tested: [UInt8] = Array(0x01..<0x21) + [0x7F, 0x80, 0x89, 0x8A, 0x8B, 0x8D, 0x9F, 0xA0, 0xFF]
        for c in tested {
            for at in 0..<83 {
                var body = [UInt8](repeating: UInt8(ascii: "a"), count: 83)
                body[at] = c
                let (bytes, dropped) = try filtered(body)
                if Self.forbidden(c) {
                    var expected = body
                    expected.remove(at: at)
                    XCTAssertEqual(bytes, expected, "byte \(c) at \(at)")
                    XCTAssertEqual(dropped, 1, "byte \(c) at \(at)")
                } else {
                    XCTAssertEqual(bytes, body, "byte \(c) at \(at)")
                    XCTAssertEqual(dropped, 0, "byte \(c) at \(at)")
                }
            }
        }
    }

    func testAllowedLineEndsBesideForbiddenBytesInOneWord() throws {
        // "ab\n\t\r" then 0x0B, "c", 0x1F, "\n": within the first eight bytes the tab, line feed and
        // carriage return stay, 0x0B and 0x1F go (2 dropped), and so does 0x01 at byte 40.
        var body: [UInt8] = [0x61, 0x62, 0x0A, 0x09, 0x0D, 0x0B, 0x63, 0x1F, 0x0A]
        body += [UInt8](repeating: 0x64, count: 31) + [0x01] + [UInt8](repeating: 0x65, count: 10)
        let (bytes, dropped) = try filtered(body)
        let expected: [UInt8] =
            [0x61, 0x62, 0x0A, 0x09, 0x0D, 0x63, 0x0A] + [UInt8](repeating: 0x64, count: 31) + [UInt8](repeating: 0x65, count: 10)
        XCTAssertEqual(bytes, expected)
        XCTAssertEqual(dropped, 3)
    }

    func testANulByteStopsWithItsFileOffset() {
        // The root's start tag is bytes 0–11 of the file, so the body's byte 45 is the file's 57.
        var body = [UInt8](repeating: UInt8(ascii: "a"), count: 70)
        body[45] = 0
        XCTAssertThrowsError(try filtered(body)) { error in
            guard case PrologFilter.Failure.nulByte(let offset) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(offset, 57)
        }
    }

    func testLineFeedsAreCounted() {
        XCTAssertEqual(ParseChunk.lineFeeds([]), 0)
        XCTAssertEqual(ParseChunk.lineFeeds(Array("no line end".utf8)), 0)
        // "a\nb\n\nc\r\n": line feeds at 1, 3, 4 and 7 (the carriage return is not one): 4.
        XCTAssertEqual(ParseChunk.lineFeeds(Array("a\nb\n\nc\r\n".utf8)), 4)
        // 1,000 lines of 99 letters and a line feed: 1,000.
        let lines = [UInt8](((0..<1000).map { _ in [UInt8](repeating: 0x61, count: 99) + [0x0A] }).joined())
        XCTAssertEqual(ParseChunk.lineFeeds(lines), 1000)
        XCTAssertEqual(ParseChunk.lineFeeds([0x0A]), 1)
    }
}
