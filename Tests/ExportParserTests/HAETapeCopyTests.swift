import XCTest

@testable import ExportParser

/// The tape player copies a token's bytes with overlapping loads and stores when it is short
/// (`HAETapePlayer.copy`): every length must copy exactly its bytes, and touch nothing around them.
final class HAETapeCopyTests: XCTestCase {
    func testEveryLengthCopiesExactlyItsBytes() {
        let source = (0..<80).map { UInt8(1 + $0) }  // 1, 2, …, 80: no two bytes alike
        for n in 0...70 {
            // 0xEE before and after the target's n bytes must stay: nothing written outside them.
            var target = [UInt8](repeating: 0xEE, count: n + 16)
            source.withUnsafeBufferPointer { s in
                target.withUnsafeMutableBufferPointer { t in
                    HAETapePlayer.copy(s.baseAddress! + 3, n, to: t.baseAddress! + 8)
                }
            }
            XCTAssertEqual(Array(target[8..<(8 + n)]), Array(source[3..<(3 + n)]), "length \(n)")
            XCTAssertEqual(Array(target[0..<8]), [UInt8](repeating: 0xEE, count: 8), "length \(n): before")
            XCTAssertEqual(Array(target[(8 + n)...]), [UInt8](repeating: 0xEE, count: 8), "length \(n): after")
        }
    }
}
