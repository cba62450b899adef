import XCTest

@testable import ExportParser

/// `ExportWindow.first`: the census's search for an attribute's `=` and closing quote, eight
/// bytes at a time over the first 32, then `memchr`. Positions counted by hand in each comment.
final class CensusAttributeSearchTests: XCTestCase {
    private func first(_ byte: Character, in text: String, from: Int = 0, count: Int? = nil) -> Int? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { ExportWindow.first(byte.asciiValue!, $0.baseAddress!, from: from, count ?? $0.count) }
    }

    func testFindsTheFirstByteInWordsThenByMemchr() {
        // `sourceName` is ten bytes: its `=` at 10.
        XCTAssertEqual(first("=", in: "sourceName=\"x\""), 10)
        // `type="` ends at 5; the 33-byte type name runs from 6, its closing quote at 39: past the
        // 32 bytes searched by words (6–37), found by `memchr`.
        XCTAssertEqual(first("\"", in: "type=\"HKQuantityTypeIdentifierStepCount\" x", from: 6), 39)
        // Non-ASCII before the quote: `Anna` 4 bytes, `’` 3 (E2 80 99), `s iPhone` 8: quote at 15.
        XCTAssertEqual(first("\"", in: "Anna’s iPhone\" unit", from: 0), 15)
        // A date's 25 bytes from 6: its closing quote at 31, in the fourth word.
        XCTAssertEqual(first("\"", in: "start=2024-03-31 01:59:59 +0100\"", from: 6), 31)
    }

    func testTheLowestMatchWinsOverABorrowsFalseFlag() {
        // `"` at 0 and `#` (0x23, one more) at 1: searching `"` the word XOR gives 00 01 …, whose
        // borrow flags byte 1 too; the answer is 0. Searching `#` gives 01 00 …: 1.
        XCTAssertEqual(first("\"", in: "\"#abcdefgh"), 0)
        XCTAssertEqual(first("#", in: "\"#abcdefgh"), 1)
        // At byte 8, the second word's first.
        XCTAssertEqual(first("=", in: "abcdefgh=ijk"), 8)
    }

    func testNothingPastTheCount() {
        XCTAssertNil(first("\"", in: "abc"))
        // The quote at 2 is past a count of 2.
        XCTAssertNil(first("\"", in: "ab\"cd", count: 2))
        // The quote at 40 is past a count of 40 (words, then `memchr` up to 40).
        XCTAssertNil(first("\"", in: String(repeating: "a", count: 40) + "\"", count: 40))
        XCTAssertEqual(first("\"", in: String(repeating: "a", count: 40) + "\""), 40)
        // From the count itself: nothing to search.
        XCTAssertNil(first("a", in: "aaaa", from: 4))
    }
}
