import Foundation
import XCTest

/// Where unsafe code may live (docs/architecture.md, "Where unsafe code lives"): the files that
/// use pointers (`Unsafe…Pointer`, `withUnsafe…`, `Unmanaged`, `unsafeBitCast`) are exactly the
/// ones listed here, and each is named in that section of the map. A new file with pointers fails
/// until it is added to both, with the reason; a file that no longer needs them fails until it
/// leaves the list, so the list only shrinks by being kept true (issue 43 §2: the rule and output
/// folders are to lose theirs).
final class UnsafeCodeRuleTests: XCTestCase {
    /// Paths under Sources/, with why pointers are there.
    static let allowed: Set<String> = [
        "ExportParser/Days/ResolvedSums.swift",  // block lookups of settled sums
        "ExportParser/GDPR/ZipStreamWriter.swift",  // zlib stream of the GDPR zip
        "ExportParser/Model/SampleSink.swift",  // the metadata object lent to the store sink
        "ExportParser/Readers/AppleExport/AttributeList.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ElementRecorder.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ElementTape.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/EntityShortcuts.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+ExportElements.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+Metadata.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+Names.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+Records.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportParse.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ParallelSAXDriver.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ParseChunk.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/PrologFilter.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/RecentDateParser.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/SAXDriver.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/XMLText.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/HAE/HAEBody.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEDatumMapper.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEDecimalParser.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEDocumentWalker.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEDocumentWalker+Frames.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEDocumentWalker+Metrics.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEDocumentWalker+Workouts.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEEventTape.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEJSONTextWriter.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEKey.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEKeyTable.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAEReader.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAESleepStage.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/HAE/HAETapePlayer.swift",  // yajl boundary and the HAE hot path
        "ExportParser/Readers/Input/ChunkPrefetcher.swift",  // HAE read-ahead buffers
        "ExportParser/Readers/Input/InflateProgress.swift",  // an inflated chunk lent as a buffer
        "ExportParser/Readers/Input/JSONIndentStripper.swift",  // HAE indentation stripped in place
        "ExportParser/Readers/Input/StrippedRuns.swift",  // HAE indentation runs
        "ExportParser/Readers/Input/ZipEntryStream+ISAL.swift",  // zlib / ISA-L streams
        "ExportParser/Readers/Input/ZipEntryStream+Zlib.swift",  // zlib / ISA-L streams
        "ExportParser/Readers/Input/ZipEntryStream.swift",  // zlib / ISA-L streams
        "ExportParser/Receive/ReceivedBodyCheck.swift",  // a received body read in place
        "ExportParser/Receive/ReceivedBodyReading.swift",  // a received body read in place
        "ExportParser/Receive/ReceivedInputs.swift",  // a received body read in place
        "ExportParser/Receive/TemporaryBody.swift",  // a received body read in place
        "ExportParser/Store/EarlyWriteback.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/MetadataTexts.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/Person/ExportIDFunction.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/SQLiteConnection.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/Postgres/PostgresConnection.swift",  // libpq boundary: C strings and a body bound in place
        "ExportParser/Store/Postgres/PostgresResult.swift",  // libpq boundary: cells lent from the result's buffer
        "ExportParser/Store/Postgres/PostgresValue.swift",  // a received body lent to libpq for the call
        "ExportParser/Store/Postgres/PostgresPersonExport.swift",  // an export kind's text cells lent from libpq's result
        "ExportParser/Store/Postgres/PostgresStore+ReceivedBodies.swift",  // a received body lent to libpq for the call
        "ExportParser/Store/ReceivedBodyStore.swift",  // a received body bound in place
        "ExportParser/Store/Person/PersonExport.swift",  // an export kind's text cells lent from SQLite's buffers
        "ExportParser/Store/SampleKeyDigest.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/SampleRows.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/Statement.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/StoreImportSession.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/StoreSample.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/StoreSchema.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Support/ByteInterner.swift",  // hot byte buffers and scanners
        "ExportParser/Support/CivilDate.swift",  // hot byte buffers and scanners
        "ExportParser/Support/ExportBytes.swift",  // hot byte buffers and scanners
        "ExportParser/Support/FNV1a.swift",  // hot byte buffers and scanners
        "ExportParser/Support/FreedMemory.swift",  // hot byte buffers and scanners
        "ExportParser/Support/FuzzEntry.swift",  // hot byte buffers and scanners
        "ExportParser/Support/NumberParser.swift",  // hot byte buffers and scanners
        "ExportParser/Support/POSIXFile.swift",  // POSIX I/O, the one place
        "ExportParser/Support/TimestampParser.swift",  // hot byte buffers and scanners
        "ExportParser/Writers/PayloadsFile.swift",  // rendered bytes written without copies
        "ExportParser/Writers/RenderedDay.swift",  // rendered bytes written without copies
        "HealthFixtures/UTF8Key.swift",  // fixtures hot loops (callgrind)
        "HealthFixtures/ZipWriter.swift",  // fixtures hot loops (callgrind)
        "Receiver/ReceiveServer.swift",  // SwiftNIO body buffer lent without a copy
    ]

    static let pattern = try! NSRegularExpression(
        pattern: #"Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|withUnsafe|Unmanaged|unsafeBitCast"#)

    /// Every Swift file under Sources/ that uses pointers, as `Target/Folder/File.swift`.
    static func filesWithPointers() throws -> Set<String> {
        let root = TestPaths.repoRoot.appendingPathComponent("Sources")
        var out = Set<String>()
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            if pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { out.insert(path) }
        }
        return out
    }

    func testPointersOnlyInTheListedFiles() throws {
        let found = try Self.filesWithPointers()
        XCTAssertEqual(
            found.subtracting(Self.allowed).sorted(), [],
            "pointers in a file not on the list: move them into one of the listed types, or list the file with its reason here and in docs/architecture.md"
        )
        XCTAssertEqual(Self.allowed.subtracting(found).sorted(), [], "listed files without pointers any more: take them off the list")
    }

    /// Each listed file is named in the map's section (by its name, or the name before `+` of
    /// an extension file such as `ZipEntryStream+ISAL`).
    func testTheMapNamesEveryFileWithPointers() throws {
        let map = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let start = try XCTUnwrap(map.range(of: "## Where unsafe code lives"))
        let end = try XCTUnwrap(map.range(of: "\n## ", range: start.upperBound..<map.endIndex))
        let section = map[start.upperBound..<end.lowerBound]
        for path in Self.allowed.sorted() {
            let name = (path as NSString).lastPathComponent.replacingOccurrences(of: ".swift", with: "")
            let stem = String(name.split(separator: "+").first ?? Substring(name))
            XCTAssertTrue(section.contains(stem), "docs/architecture.md, \"Where unsafe code lives\", does not name \(path)")
        }
    }
}
