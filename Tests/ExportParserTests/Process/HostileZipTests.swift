import Foundation
import XCTest

@testable import ExportParser

/// Hostile and broken export.zip files, built by Python's zipfile and patched bytes:
/// each is refused with one sentence naming the archive and the entry or byte offset (exit 1,
/// no hang, bounded memory, --out and the store untouched), except a ZIP64 archive, which converts.
final class HostileZipTests: XCTestCase {
    /// Writes a zip at `zip` with entries (name, text of file), optionally ZIP64 (force_zip64).
    private func makeZip(_ zip: String, _ entries: [(String, String)], zip64: Bool = false) throws {
        let dir = URL(fileURLWithPath: zip).deletingLastPathComponent().appendingPathComponent("parts-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var args = [zip, zip64 ? "1" : "0"]
        for (i, (name, text)) in entries.enumerated() {
            let part = dir.appendingPathComponent("\(i)").path
            try text.write(toFile: part, atomically: true, encoding: .utf8)
            args += [name, part]
        }
        try HostileBench.python(
            """
            import sys, zipfile
            path, z64, rest = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
                for name, part in zip(rest[0::2], rest[1::2]):
                    info = zipfile.ZipInfo(name, date_time=(2024, 3, 5, 8, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    with zf.open(info, "w", force_zip64=z64) as w, open(part, "rb") as r:
                        w.write(r.read())
            """, args)
    }

    /// Rewrites 32-bit little-endian fields of the entry called `name` in both its local header and
    /// its central-directory record: offsets relative to each header's signature.
    private func patch(_ zip: String, entry name: String, local: [(Int, UInt32)], central: [(Int, UInt32)]) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip)))
        let nameBytes = [UInt8](name.utf8)
        func put(_ at: Int, _ v: UInt32, width: Int) { for k in 0..<width { bytes[at + k] = UInt8((v >> (8 * k)) & 0xFF) } }
        var i = 0
        var patched = 0
        while i + 46 < bytes.count {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 3, bytes[i + 3] == 4,
                Array(bytes[(i + 30)..<min(bytes.count, i + 30 + nameBytes.count)]) == nameBytes
            {
                for (o, v) in local { put(i + o, v, width: o == 6 ? 2 : 4) }
                patched += 1
            } else if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 1, bytes[i + 3] == 2,
                Array(bytes[(i + 46)..<min(bytes.count, i + 46 + nameBytes.count)]) == nameBytes
            {
                for (o, v) in central { put(i + o, v, width: o == 8 ? 2 : 4) }
                patched += 1
            }
            i += 1
        }
        XCTAssertEqual(patched, 2, "local header and central record of \(name)")
        try Data(bytes).write(to: URL(fileURLWithPath: zip))
    }

    private var goodExport: String { StoreKillTests.exportXML(records: 3000) }

    /// An entry that inflates to far more than its headers declare (1,000 bytes for ~1 MB): the
    /// reader stops at the declared size and says so (this hung in ZIPFoundation's inflate loop).
    func testEntryInflatingBeyondItsDeclaredSizeStopsThere() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let zip = bench.path("underdeclared.zip")
        try makeZip(zip, [("apple_health_export/export.xml", goodExport)])
        // uncompressed size: local header +22, central record +24
        try patch(zip, entry: "apple_health_export/export.xml", local: [(22, 1000)], central: [(24, 1000)])
        try bench.assertToolRefuses(
            zip, mentioning: ["apple_health_export/export.xml", "more than the 1000 bytes its header declares", "byte "])
        try bench.assertJobRefuses(zip, mentioning: ["more than the 1000 bytes"])
    }

    /// Compressed size under-declared: the deflate stream is cut short where the header says,
    /// and the reader says so instead of reading on (or looping at end of file).
    func testEntryWhoseCompressedSizeIsUnderDeclaredIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let zip = bench.path("short-compressed.zip")
        try makeZip(zip, [("apple_health_export/export.xml", goodExport)])
        try patch(zip, entry: "apple_health_export/export.xml", local: [(18, 5000)], central: [(20, 5000)])
        try bench.assertToolRefuses(zip, mentioning: ["apple_health_export/export.xml", "ends before its deflate stream does"])
    }

    /// The CRC-32 both headers record differs from the inflated bytes' (0x12345678 written over
    /// it): refused as corrupt once the entry has been read, whichever library inflated it.
    func testEntryWithAWrongCRCIsRefusedAsCorrupt() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let zip = bench.path("wrong-crc.zip")
        try makeZip(zip, [("apple_health_export/export.xml", goodExport)])
        // CRC-32: local header +14, central record +16
        try patch(zip, entry: "apple_health_export/export.xml", local: [(14, 0x1234_5678)], central: [(16, 0x1234_5678)])
        try bench.assertToolRefuses(zip, mentioning: ["apple_health_export/export.xml", "is corrupt (CRC mismatch)"])
    }

    /// The deflate stream's first block header says block type 3, which deflate reserves (first
    /// byte 0x07: BFINAL 1, BTYPE 11): refused as damaged, with the byte offset. The detail in
    /// brackets is the inflater's ("invalid deflate block" from ISA-L on Linux, "invalid block
    /// type" from zlib elsewhere).
    func testDamagedDeflateDataIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let zip = bench.path("bad-block.zip")
        try makeZip(zip, [("apple_health_export/export.xml", goodExport)])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip)))
        // The only entry's local header is at 0; its data starts after the 30-byte header, the
        // name (length at +26) and the extra field (length at +28).
        let dataStart = 30 + Int(bytes[26]) + Int(bytes[27]) << 8 + Int(bytes[28]) + Int(bytes[29]) << 8
        bytes[dataStart] = 0x07
        try Data(bytes).write(to: URL(fileURLWithPath: zip))
        try bench.assertToolRefuses(
            zip, mentioning: ["apple_health_export/export.xml", "cannot be inflated (invalid ", "block", "): damaged archive", "byte "])
    }

    /// A zip with no XML inside: refused, listing what it holds.
    func testZipWithoutXMLIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let zip = bench.path("no-xml.zip")
        try makeZip(zip, [("readme.txt", "hello"), ("photos/a.jpg", "not really")])
        try bench.assertToolRefuses(zip, mentioning: ["no Apple Health export XML", "readme.txt"])
    }

    /// An encrypted entry (general-purpose flag bit 0): refused as encrypted, not as "corrupt".
    func testEncryptedEntryIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let zip = bench.path("encrypted.zip")
        try makeZip(zip, [("apple_health_export/export.xml", goodExport)])
        try patch(zip, entry: "apple_health_export/export.xml", local: [(6, 0x0001)], central: [(8, 0x0001)])
        try bench.assertToolRefuses(zip, mentioning: ["apple_health_export/export.xml", "encrypted"])
    }

    /// A download cut short: no end-of-central-directory record. Also cut inside the entry's data
    /// with the directory kept (a damaged copy): the read stops with the entry and byte offset.
    func testTruncatedZipIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let zip = bench.path("truncated.zip")
        try makeZip(zip, [("apple_health_export/export.xml", goodExport)])
        let whole = try Data(contentsOf: URL(fileURLWithPath: zip))
        try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: zip))
        try bench.assertToolRefuses(zip, mentioning: ["end-of-central-directory", "truncated"])
        try bench.assertJobRefuses(zip, mentioning: ["end-of-central-directory"])
    }

    /// A ZIP64 archive (the Health app writes ZIP64 for large exports) converts exactly like the
    /// plain export.xml it holds.
    func testZip64ArchiveConvertsLikeItsXML() throws {
        let bench = try HostileBench()
        let xml = bench.path("plain.xml")
        try goodExport.write(toFile: xml, atomically: true, encoding: .utf8)
        let zip = bench.path("zip64.zip")
        try makeZip(
            zip, [("apple_health_export/export_cda.xml", "<ClinicalDocument/>"), ("apple_health_export/export.xml", goodExport)],
            zip64: true)
        let zipBytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        XCTAssertNotNil(zipBytes.range(of: Data([0x01, 0x00, 0x10, 0x00])), "a ZIP64 extra field (id 1, 16 bytes)")

        let fromXML = try ConvertJob(ConvertRequest(inputs: [xml], outDir: bench.path("out-xml"), storePath: nil)).run()
        let run = try bench.runTool(zip)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThan(run.peakRSSMB, HostileBench.rssLimitMB)
        XCTAssertEqual(fromXML.daysWritten, 3)
        let a = try HostileBench.files(under: URL(fileURLWithPath: bench.path("out-xml")))
        let b = try HostileBench.files(under: bench.out)
        for name in a.keys where name.hasPrefix("payloads/") || name == "daily.csv" {
            XCTAssertEqual(a[name], b[name], name)
        }
    }

    /// An entry named `../export.xml` is never taken (nor used as a path: nothing appears beside
    /// the archive); with only that entry the archive holds no export, and says why.
    func testEntryNameClimbingOutIsNeverUsed() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let sub = bench.path("inner")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let zip = sub + "/climb.zip"
        try makeZip(zip, [("../export.xml", goodExport)])
        try bench.assertToolRefuses(zip, mentioning: ["../export.xml (ignored: unsafe name)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: bench.path("export.xml")))

        // Beside a proper entry, the proper one is read.
        let both = sub + "/both.zip"
        try makeZip(both, [("../export.xml", "<HealthData>not this</HealthData>"), ("apple_health_export/export.xml", goodExport)])
        let (error, outcome, _) = try bench.runJob(both)
        XCTAssertNil(error)
        XCTAssertEqual(outcome?.inputs.first?.report?.recordsByType["HKQuantityTypeIdentifierStepCount"], 1500)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bench.path("export.xml")))
    }
}
