import XCTest

@testable import ExportParser

/// `ExportWindow.unitWords`: a unit's first 16 bytes as two little-endian words, zero past its
/// count, the same whether loaded from the tag (16 bytes there) or copied (the tag ends sooner).
final class CensusUnitWordsTests: XCTestCase {
    func testWordsAreTheUnitsBytesZeroPastItsCount() {
        // "count/min" is 63 6F 75 6E 74 2F 6D 69 | 6E: the first word holds "count/mi" with
        // byte k at bits 8k (0x696D_2F74_6E75_6F63), the second "n" alone (0x6E).
        let tag = Array("unit=\"count/min\" creationDate=\"2011-12-29 20:08:36 +0200\"".utf8)
        tag.withUnsafeBufferPointer { b in
            let u = (at: b.baseAddress! + 6, count: 9)
            let inPlace = ExportWindow.unitWords(u, tagEnd: b.baseAddress! + b.count)
            XCTAssertEqual(inPlace.0, 0x696D_2F74_6E75_6F63)
            XCTAssertEqual(inPlace.1, 0x6E)
            // The tag ending right after the unit's quote: copied, the same words.
            let copied = ExportWindow.unitWords(u, tagEnd: b.baseAddress! + 16)
            XCTAssertEqual(copied.0, inPlace.0)
            XCTAssertEqual(copied.1, inPlace.1)
        }
    }

    func testEveryLengthLoadsAsItCopies() {
        // Units of 0 to 20 bytes ("abcdefghijklmnopqrst" cut), each read with 16 bytes after
        // its start and with none: the words agree (past 16 bytes, the first 16 alone).
        let text = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        text.withUnsafeBufferPointer { b in
            for n in 0...20 {
                let u = (at: b.baseAddress!, count: n)
                let loaded = ExportWindow.unitWords(u, tagEnd: b.baseAddress! + b.count)
                let copied = ExportWindow.unitWords(u, tagEnd: b.baseAddress! + min(n, 15))  // under 16: the copy
                XCTAssertEqual(loaded.0, copied.0, "\(n)")
                XCTAssertEqual(loaded.1, copied.1, "\(n)")
                // Byte k of the unit is byte k of the words; the rest zero.
                var expected: (UInt64, UInt64) = (0, 0)
                for k in 0..<min(n, 16) {
                    if k < 8 {
                        expected.0 |= UInt64(text[k]) << UInt64(8 * k)
                    } else {
                        expected.1 |= UInt64(text[k]) << UInt64(8 * (k - 8))
                    }
                }
                XCTAssertEqual(loaded.0, expected.0, "\(n)")
                XCTAssertEqual(loaded.1, expected.1, "\(n)")
            }
        }
    }
}
