import Foundation
import XCTest

@testable import ExportParser

/// `SHA256` (the system's libcrypto or CommonCrypto) gives FIPS 180-2's digests: its appendix's
/// three messages, and the same digest whether the bytes come at once or in parts of any size.
final class SHA256Tests: XCTestCase {
    private func hex(_ d: SHA256.Digest) -> String { FileDigest.hex(d) }

    func testTheStandardsMessages() {
        // FIPS 180-2, appendix B.1, B.2 and B.3; the empty message's digest as every library gives it.
        XCTAssertEqual(hex(SHA256.hash(data: [UInt8]())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(SHA256.hash(data: Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex(SHA256.hash(data: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            hex(SHA256.hash(data: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        XCTAssertEqual(SHA256.hash(data: Data()).count, 32)
    }

    func testPartsGiveTheWholesDigest() {
        let bytes = [UInt8]((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        let whole = SHA256.hash(data: bytes)
        for part in [1, 63, 64, 65, 4096] {
            let hasher = SHA256()
            var i = 0
            while i < bytes.count {
                hasher.update(data: bytes[i..<min(i + part, bytes.count)])
                i += part
            }
            XCTAssertEqual(hasher.finalize(), whole, "parts of \(part)")
        }
        let hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: UnsafeRawBufferPointer(start: nil, count: 0))
        XCTAssertEqual(hasher.finalize(), whole, "a buffer, then an empty one")
    }
}
