import Foundation
import XCTest

@testable import ExportParser

/// Hostile and broken export.xml files: each is refused with one sentence naming the
/// file and where, exit status 1, no crash or hang, peak RSS under 200 MB, and `--out` and the
/// store exactly as a good run left them.
final class HostileXMLTests: XCTestCase {
    /// A valid export whose first Record's sourceName is `source` and that has `doctype` after the
    /// XML declaration.
    private func export(doctype: String = "", source: String = "Ann’s iPhone") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        \(doctype)
        <HealthData locale="en_US">
         <ExportDate value="2024-03-05 08:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\(source)" unit="count" startDate="2024-03-04 10:00:00 +0100" endDate="2024-03-04 10:05:00 +0100" value="120"/>
        </HealthData>

        """
    }

    /// An internal DTD declaring an external entity that points at a local file: refused for the
    /// declaration itself, the file is never read (its content is in no output and no message).
    func testExternalEntityToALocalFileIsRefusedAndNeverRead() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let secret = bench.path("secret.txt")
        try "SECRET-7f3a9c-NEVER-SHOWN".write(toFile: secret, atomically: true, encoding: .utf8)
        let input = bench.path("xxe.xml")
        try export(doctype: "<!DOCTYPE HealthData [\n<!ENTITY xxe SYSTEM \"file://\(secret)\">\n]>", source: "&xxe;")
            .write(toFile: input, atomically: true, encoding: .utf8)
        let run = try bench.assertToolRefuses(input, mentioning: ["line 3", "declares an entity"])
        XCTAssertFalse(run.stderr.contains("SECRET") || run.stdout.contains("SECRET"))
        for (_, bytes) in try HostileBench.files(under: bench.out) {
            XCTAssertNil(bytes.range(of: Data("SECRET-7f3a9c".utf8)), "the secret reached an output")
        }
        try bench.assertJobRefuses(input, mentioning: ["declares an entity"])
    }

    /// The same entity with the DOCTYPE's declaration removed by the prolog filter would be an
    /// undeclared reference: libxml2 refuses it too (the second line of defence, never reading the file).
    func testUndeclaredEntityReferenceIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("undeclared.xml")
        try export(source: "&xxe;").write(toFile: input, atomically: true, encoding: .utf8)
        try bench.assertToolRefuses(input, mentioning: ["line 5", "xxe"])
    }

    /// A parameter entity (pulling in an external file inside the DTD) is refused the same way.
    func testParameterEntityIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("pe.xml")
        try export(doctype: "<!DOCTYPE HealthData [\n<!ELEMENT HealthData ANY>\n<!ENTITY % pe SYSTEM \"file:///etc/passwd\">\n%pe;\n]>")
            .write(toFile: input, atomically: true, encoding: .utf8)
        let run = try bench.assertToolRefuses(input, mentioning: ["line 4", "declares an entity"])
        XCTAssertFalse(run.stderr.contains("root:"))
    }

    /// An external DTD by URL is refused, and no connection is attempted: a listening socket on
    /// this machine, named in the DOCTYPE, is never connected to.
    func testExternalDTDByURLIsRefusedWithoutNetworkAccess() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                XCTAssertEqual(bind(listener, sa, length), 0)
                XCTAssertEqual(listen(listener, 4), 0)
                XCTAssertEqual(getsockname(listener, sa, &length), 0)
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let input = bench.path("external-dtd.xml")
        try export(doctype: "<!DOCTYPE HealthData SYSTEM \"http://127.0.0.1:\(port)/health.dtd\">")
            .write(toFile: input, atomically: true, encoding: .utf8)
        try bench.assertToolRefuses(input, mentioning: ["line 2", "external DTD"])
        try bench.assertJobRefuses(input, mentioning: ["external DTD"])
        _ = fcntl(listener, F_SETFL, O_NONBLOCK)
        let accepted = accept(listener, nil, nil)
        XCTAssertLessThan(accepted, 0, "health-import connected to the DTD's URL")
        if accepted >= 0 { close(accepted) }
    }

    /// "Billion laughs": ten levels of ten-fold entity expansion (a few GB if expanded) is refused
    /// at its declaration, in little memory and time.
    func testBillionLaughsIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        var dtd = "<!DOCTYPE HealthData [\n<!ENTITY lol0 \"lol\">\n"
        for i in 1...10 { dtd += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n" }
        dtd += "]>"
        let input = bench.path("laughs.xml")
        try export(doctype: dtd, source: "&lol10;").write(toFile: input, atomically: true, encoding: .utf8)
        let run = try bench.assertToolRefuses(input, mentioning: ["line 3", "declares an entity"])
        XCTAssertLessThan(run.seconds, 10)
    }

    /// 100,000 nested elements: refused at the 33rd level with line and column, no deep recursion.
    func testHundredThousandNestedElementsAreRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("nested.xml")
        let body = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        try export().replacingOccurrences(of: "</HealthData>", with: body + "\n</HealthData>")
            .write(toFile: input, atomically: true, encoding: .utf8)
        try bench.assertToolRefuses(input, mentioning: ["line 6, column", "nested more than 32 levels"])
        try bench.assertJobRefuses(input, mentioning: ["nested more than 32 levels"])
    }

    /// A 50 MB attribute value: refused by libxml2's 10 MB limit, without holding it whole (a
    /// run once took 280 MB: XML_PARSE_HUGE let it through and it was copied).
    func testFiftyMegabyteAttributeIsRefusedInBoundedMemory() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("attribute.xml")
        XCTAssertTrue(FileManager.default.createFile(atPath: input, contents: nil), input)
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: input))
        let parts = export(source: "@@").components(separatedBy: "@@")
        h.write(Data(parts[0].utf8))
        HostileBench.stream(UInt8(ascii: "A"), count: 50_000_000, to: h)
        h.write(Data(parts[1].utf8))
        try h.close()
        try bench.assertToolRefuses(input, mentioning: ["line 5", "longer than 10 MB"])
        try bench.assertJobRefuses(input, mentioning: ["longer than 10 MB"])
    }

    /// Bytes that are not UTF-8 inside an attribute: refused with line and column.
    func testInvalidUTF8IsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("bad-utf8.xml")
        var bytes = Data(export(source: "Ann@@iPhone").utf8)
        bytes.replaceSubrange(bytes.range(of: Data("@@".utf8))!, with: [0xC3, 0x28, 0xFF])
        try bytes.write(to: URL(fileURLWithPath: input))
        try bench.assertToolRefuses(input, mentioning: ["line 5, column", "UTF-8"])
    }

    /// A NUL byte (what zero-filled blocks of a damaged copy look like) stops the read at its
    /// byte offset; other control characters are still dropped and counted (real exports have them).
    func testNULByteIsRefusedWithItsByteOffset() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("nul.xml")
        var bytes = Data(export(doctype: "<!DOCTYPE HealthData [\n<!ELEMENT HealthData ANY>\n]>", source: "Ann@@iPhone").utf8)
        let at = bytes.range(of: Data("@@".utf8))!
        bytes.replaceSubrange(at, with: [0x00])
        try bytes.write(to: URL(fileURLWithPath: input))
        try bench.assertToolRefuses(input, mentioning: ["byte \(at.lowerBound)", "NUL"])
        try bench.assertJobRefuses(input, mentioning: ["byte \(at.lowerBound)", "NUL"])
    }

    /// A UTF-16 export (valid XML) is refused with a sentence that names the encoding and the fix.
    func testUTF16ExportIsRefusedClearly() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        for (name, bom, encoding) in [
            ("le", Data([0xFF, 0xFE]), String.Encoding.utf16LittleEndian), ("be", Data([0xFE, 0xFF]), .utf16BigEndian),
        ] {
            let input = bench.path("utf16\(name).xml")
            let text = export().replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
            try (bom + text.data(using: encoding)!).write(to: URL(fileURLWithPath: input))
            try bench.assertToolRefuses(input, mentioning: ["UTF-16", "iconv"])
            // Without a byte-order mark too.
            try text.data(using: encoding)!.write(to: URL(fileURLWithPath: input))
            try bench.assertJobRefuses(input, mentioning: ["UTF-16"])
        }
    }
}
