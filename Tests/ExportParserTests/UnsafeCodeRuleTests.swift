import Foundation
import XCTest

/// Where unsafe code may live (docs/architecture.md, "Where unsafe code lives"): the files that
/// use pointers (`Unsafe…Pointer`, `withUnsafe…`, `Unmanaged`, `unsafeBitCast`) are exactly the
/// ones listed here, and each is named in that section of the map. A new file with pointers fails
/// until it is added to both, with the reason; a file that no longer needs them fails until it
/// leaves the list, so the list only shrinks by being kept true. The rule and output folders
/// hold none at all (issue 43 §2).
final class UnsafeCodeRuleTests: XCTestCase {
    /// Paths under Sources/, with why pointers are there.
    static let allowed: Set<String> = [
        "ExportParser/GDPR/ZipStreamWriter.swift",  // zlib stream of the GDPR zip
        "ExportParser/Readers/AppleExport/AttributeList.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ElementRecorder.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ElementTape.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/EntityShortcuts.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+ExportElements.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+Metadata.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+Names.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+Records.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportElementHandler+Workouts.swift",  // libxml2 SAX boundary: a walked workout's texts
        "ExportParser/Readers/AppleExport/ExportParse.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ExportWindow+Census.swift",  // compare's census of the records the scan cuts
        "ExportParser/Readers/AppleExport/ExportWindow+Workouts.swift",  // compare's walk of a workout's bytes
        "ExportParser/Readers/AppleExport/ExportWindow.swift",  // the window read's scan of every byte of export.xml
        "ExportParser/Readers/AppleExport/ExportWindow+TagBytes.swift",  // the window scan's reads of a start tag in place
        "ExportParser/Readers/AppleExport/ParallelSAXDriver.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ParallelSAXDriver+Threads.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/ParseChunk.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/PrologFilter.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/RecentDateParser.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/RecordStartTag.swift",  // compare's one walk of a cut record's start tag
        "ExportParser/Readers/AppleExport/RecordStartTag+Template.swift",  // the last walked tag, compared with the next
        "ExportParser/Readers/AppleExport/RecordStartTag+Memo.swift",  // the walk's types and device rests, compared as words
        "ExportParser/Readers/AppleExport/SAXDriver.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/AppleExport/XMLText.swift",  // libxml2 SAX boundary and the export.xml hot path
        "ExportParser/Readers/HAE/ChunkPrefetcher.swift",  // HAE read-ahead buffers
        "ExportParser/Readers/HAE/HAEDatumRecogniser.swift",  // compare's window read: datums recognised in a chunk's bytes
        "ExportParser/Readers/HAE/HAEWindowSkipper.swift",  // compare's window read: yajl's key and string bytes, a run's datums
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
        "ExportParser/Readers/HAE/JSONIndentStripper.swift",  // HAE indentation stripped in place
        "ExportParser/Readers/HAE/StrippedRuns.swift",  // HAE indentation runs
        "ExportParser/Readers/Input/InflateProgress.swift",  // an inflated chunk lent as a buffer
        "ExportParser/Readers/Input/JSONDateScan.swift",  // yajl boundary of receive's check
        "ExportParser/Readers/Input/ZipEntryStream+ISAL.swift",  // zlib / ISA-L streams
        "ExportParser/Readers/Input/ZipEntryStream+Zlib.swift",  // zlib / ISA-L streams
        "ExportParser/Readers/Input/ZipEntryStream.swift",  // zlib / ISA-L streams
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
        "ExportParser/Store/StoreSample.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Store/StoreSchema.swift",  // SQLite boundary, bodies and metadata bound in place
        "ExportParser/Support/BorrowedBytes.swift",  // a received body lent without a copy
        "ExportParser/Support/ByteInterner.swift",  // hot byte buffers and scanners
        "ExportParser/Support/CivilDate.swift",  // hot byte buffers and scanners
        "ExportParser/Support/ExportBytes.swift",  // hot byte buffers and scanners
        "ExportParser/Support/FNV1a.swift",  // hot byte buffers and scanners
        "ExportParser/Support/FreedMemory.swift",  // hot byte buffers and scanners
        "ExportParser/Support/FuzzEntry.swift",  // hot byte buffers and scanners
        "ExportParser/Support/MappedFile.swift",  // POSIX I/O: the window read's map of export.xml
        "ExportParser/Support/NumberParser.swift",  // hot byte buffers and scanners
        "ExportParser/Support/SHA256.swift",  // the system's SHA-256: bytes lent to libcrypto / CommonCrypto for the call
        "ExportParser/Support/POSIXFile.swift",  // POSIX I/O, the one place
        "ExportParser/Support/TimestampParser.swift",  // hot byte buffers and scanners
        "ExportParser/Support/WordBytes.swift",  // hot byte buffers and scanners
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

    /// The folders of rules, days, questions, renderings, commands and received bodies work on
    /// arrays, slices, spans and the types that lend bytes (`MetadataEntryTexts`,
    /// `BorrowedBytes`): no file of theirs is on the list (docs/architecture.md, "Where unsafe code
    /// lives").
    func testNoPointersInTheRuleAndOutputFolders() {
        let folders = ["Model", "Catalog", "Days", "Compare", "Explain", "Writers", "Commands", "Receive"]
        let inThem = Self.allowed.filter { path in folders.contains { path.hasPrefix("ExportParser/\($0)/") } }
        XCTAssertEqual(inThem.sorted(), [])
    }

    /// `POSIXFile` is the one place that calls `pread` and `pwrite` (docs/architecture.md, "Where
    /// unsafe code lives", POSIX I/O).
    func testPreadAndPwriteOnlyInPOSIXFile() throws {
        let root = TestPaths.repoRoot.appendingPathComponent("Sources")
        var callers: [String] = []
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".swift"), path != "ExportParser/Support/POSIXFile.swift" else { continue }
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            if Self.callsPreadOrPwrite(text) { callers.append(path) }
        }
        XCTAssertEqual(callers.sorted(), [], "call POSIXFile.pread or POSIXFile.writeAll(_:_:at:) instead")
    }

    /// The scan finds the C calls and only them: a call of either, but not `POSIXFile.pread(`,
    /// a name that ends in them (`spread(`) or a mention in a comment.
    func testThePreadScanTellsCallsFromMentions() {
        XCTAssertTrue(Self.callsPreadOrPwrite("let n = pread(fd, p, 8, 0)"))
        XCTAssertTrue(Self.callsPreadOrPwrite("x\n    _ = pwrite(fd, p, 8, 0)"))
        XCTAssertFalse(Self.callsPreadOrPwrite("let n = try POSIXFile.pread(fd, into: p, count: 8, at: 0)"))
        XCTAssertFalse(Self.callsPreadOrPwrite("let s = spread(3)"))
        XCTAssertFalse(Self.callsPreadOrPwrite("/// read with `pread(` here\nlet a = 1 // and pwrite(fd)"))
    }

    /// Whether `text` calls `pread` or `pwrite`: the name not after a letter, digit, `_` or `.`
    /// and followed by `(`, outside comments.
    static func callsPreadOrPwrite(_ text: String) -> Bool {
        let call = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])p(read|write)\("#)
        let code = text.split(separator: "\n").map { $0.components(separatedBy: "//")[0] }.joined(separator: "\n")
        return call.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
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
