import Foundation
import XCTest

@testable import ExportParser

/// A folder given to `convert` is the list of its files (docs/usage.md, "A folder is the list of its files"): an export.xml
/// and HAE JSON side by side are read as when named one by one, and a file convert cannot use is
/// named and skipped with a line in the summary. Before, a folder was read as HAE bodies only:
/// its export.xml was ignored without a word.
final class ConvertFolderInputTests: XCTestCase {
    typealias T = StoreTestSupport

    /// A folder as an unzipped export leaves it plus an HAE file: export.xml and hae.json (the
    /// inputs of `ConvertMergeTests`), the export's CDA document, a note, a hidden file, and the
    /// export's `workout-routes/` folder.
    private func folder() throws -> URL {
        let dir = try T.temporaryDirectory().appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        try Data(ConvertMergeTests.xml.utf8).write(to: dir.appendingPathComponent("export.xml"))
        try Data(ConvertMergeTests.hae.utf8).write(to: dir.appendingPathComponent("hae.json"))
        try Data("<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"/>\n".utf8)
            .write(to: dir.appendingPathComponent("export_cda.xml"))
        try Data("exported on my phone\n".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try Data([0, 0, 0, 1]).write(to: dir.appendingPathComponent(".DS_Store"))
        try Data("<gpx/>".utf8).write(to: dir.appendingPathComponent("workout-routes/route_1.gpx"))
        return dir
    }

    func testAFolderIsItsFilesAsWhenNamedOneByOne() throws {
        let dir = try folder()
        let base = dir.deletingLastPathComponent()
        let fromFolder = base.appendingPathComponent("out-folder").path
        let named = base.appendingPathComponent("out-named").path
        let outcome = try ConvertJob(
            ConvertRequest(inputs: [dir.path], outDir: fromFolder, timeZoneName: "Australia/Sydney", storePath: fromFolder + "/h.sqlite")
        ).run()
        _ = try ConvertJob(
            ConvertRequest(
                inputs: [dir.appendingPathComponent("export.xml").path, dir.appendingPathComponent("hae.json").path], outDir: named,
                timeZoneName: "Australia/Sydney", storePath: named + "/h.sqlite")
        ).run()

        // Both inputs read: native's 1,000 steps win on 03-02 and HAE fills resting heart rate 50
        // (ConvertMergeTests' hand-made numbers); 03-03 is HAE's 5,000 steps.
        let day = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fromFolder + "/payloads/2024-03-02.json")))
                as? [String: Any])
        let metrics = try XCTUnwrap(day["metrics"] as? [String: Any])
        XCTAssertEqual(metrics["step_count"] as? Int, 1000)
        XCTAssertEqual(metrics["resting_hr"] as? Int, 50)
        XCTAssertEqual(outcome.inputs.map(\.format), [.appleXML, .hae], "export.xml sorts before hae.json")
        XCTAssertEqual(outcome.daysWritten, 2)

        // The same bytes as naming the two files.
        for file in ["payloads.json", "daily.csv", "payloads/2024-03-02.json", "payloads/2024-03-03.json"] {
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: fromFolder + "/" + file)),
                try Data(contentsOf: URL(fileURLWithPath: named + "/" + file)),
                file)
        }

        // The CDA document and the note are named and skipped; the hidden file and the routes'
        // folder are passed over.
        XCTAssertEqual(outcome.skippedFiles.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["export_cda.xml", "notes.txt"])
        let lines = outcome.summaryLines()
        XCTAssertTrue(
            lines.contains(
                dir.path + "/export_cda.xml: skipped, an XML file that is not an Apple Health export.xml (its root is not HealthData)"),
            lines.joined(separator: "\n"))
        XCTAssertTrue(
            lines.contains { $0.hasPrefix(dir.path + "/notes.txt: skipped, not an Apple Health export") }, lines.joined(separator: "\n"))
    }

    /// A zip in the folder that holds no export is skipped too, naming why; payload JSON in a
    /// folder beside an export is skipped (the folder is not only payloads).
    func testAZipWithoutAnExportAndAPayloadAreSkipped() throws {
        let dir = try folder()
        try FileManager.default.removeItem(at: dir.appendingPathComponent("hae.json"))
        // A zip with one stored entry `a.txt` ("hi"): local header, data, central directory, end.
        let zip = dir.appendingPathComponent("photos.zip")
        try Data(Self.storedZip(name: "a.txt", content: Array("hi".utf8))).write(to: zip)
        try Data("{\"date\": \"2024-03-02\", \"metrics\": {}}\n".utf8).write(to: dir.appendingPathComponent("2024-03-02.json"))
        let out = dir.deletingLastPathComponent().appendingPathComponent("out").path
        let outcome = try ConvertJob(ConvertRequest(inputs: [dir.path], outDir: out, timeZoneName: "Australia/Sydney", storePath: nil))
            .run()
        XCTAssertEqual(outcome.inputs.map(\.format), [.appleXML])
        let skipped = Dictionary(
            uniqueKeysWithValues: outcome.skippedFiles.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) })
        XCTAssertEqual(Set(skipped.keys), ["2024-03-02.json", "export_cda.xml", "notes.txt", "photos.zip"])
        XCTAssertEqual(skipped["2024-03-02.json"], "payload JSON (convert's output, not an input)")
        XCTAssertNotNil(skipped["photos.zip"])
        // Native's 1,000 steps on 03-02 alone.
        XCTAssertEqual(outcome.daysWritten, 1)
    }

    /// A stored (method 0) zip of one file, written by hand (APPNOTE 4.3.7, 4.3.12, 4.3.16).
    static func storedZip(name: String, content: [UInt8]) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        var crc: UInt32 = 0xFFFF_FFFF
        for b in content {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        let n = Array(name.utf8)
        let size = le32(UInt32(content.count))
        let local =
            [0x50, 0x4B, 0x03, 0x04] + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) + size + size + le16(n.count) + le16(0)
            + n
        let central =
            [0x50, 0x4B, 0x01, 0x02] + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) + size + size
            + le16(n.count) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(0) + n
        let end =
            [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(1) + le16(1) + le32(UInt32(central.count))
            + le32(UInt32(local.count + content.count)) + le16(0)
        return local + content + central + end
    }
}
