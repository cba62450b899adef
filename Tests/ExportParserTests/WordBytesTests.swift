import XCTest

@testable import ExportParser

/// `WordBytes`: the byte test of a word and the compare of two texts in place, which the census,
/// the HAE recogniser and the HAE key table share.
final class WordBytesTests: XCTestCase {
    /// Every length from 0 to 40 (under one word, whole words, a word and a few bytes, whose
    /// last load overlaps the one before): equal texts are equal, and a text differing in any
    /// one byte, first, last or inside the overlap, is not. The two texts lie in buffers of
    /// exactly `n` bytes, so a load past the count would be read by AddressSanitizer (CI).
    func testEqualComparesEveryByteAndNoMore() {
        for n in 0...40 {
            let a = (0..<n).map { UInt8(truncatingIfNeeded: 0x41 + $0 * 7) }
            for k in -1..<n {
                var b = a
                if k >= 0 { b[k] ^= 0x20 }  // 'A' ↔ 'a': one bit of one byte
                let same = a.withUnsafeBufferPointer { x in
                    b.withUnsafeBufferPointer { y in
                        // An empty array's base may be nil: any pointer will do for a count of 0.
                        WordBytes.equal(x.baseAddress ?? UnsafePointer(bitPattern: 8)!, y.baseAddress ?? UnsafePointer(bitPattern: 8)!, n)
                    }
                }
                XCTAssertEqual(same, k < 0, "n \(n), byte \(k) changed")
            }
        }
    }

    /// `sameLong` as `equal`, over the lengths a template's texts have and the short ones it
    /// hands to `equal`: every byte compared (one bit of one byte changed is told), none past the
    /// count (AddressSanitizer, in CI, reads each array's end).
    func testSameLongComparesEveryByteAndNoMore() {
        for n in 0...70 {
            let a = (0..<n).map { UInt8(truncatingIfNeeded: 0x41 + $0 * 7) }
            for k in -1..<n {
                var b = a
                if k >= 0 { b[k] ^= 0x20 }
                let same = a.withUnsafeBufferPointer { x in
                    b.withUnsafeBufferPointer { y in
                        WordBytes.sameLong(
                            x.baseAddress ?? UnsafePointer(bitPattern: 8)!, y.baseAddress ?? UnsafePointer(bitPattern: 8)!, n)
                    }
                }
                XCTAssertEqual(same, k < 0, "n \(n), byte \(k) changed")
            }
        }
    }

    /// The first match is exact: `matches` flags the bytes equal to the one asked for, and the
    /// lowest flag is the first such byte (a byte of 0x01 right above a match sets no false flag
    /// below it). Word "a=b=" (0x61 0x3D 0x62 0x3D, little-endian): `=` first at byte 1.
    func testMatchesFindsTheFirstByte() {
        let word = UInt64(0x3D62_3D61)
        XCTAssertEqual(WordBytes.matches(word, 0x3D).trailingZeroBitCount / 8, 1)
        XCTAssertEqual(WordBytes.matches(word, 0x62).trailingZeroBitCount / 8, 2)
        XCTAssertEqual(WordBytes.matches(word, 0x22), 0)
        // 0x3D then 0x3E: the borrow of the match may flag 0x3E's byte, never one below.
        XCTAssertEqual(WordBytes.matches(UInt64(0x3E3D), 0x3D).trailingZeroBitCount / 8, 0)
    }
}
