import Foundation
import XCTest

@testable import ExportParser

/// `EntityShortcuts`: the parallel read hands libxml2 `&lt;`, `&gt;`, `&quot;` and `&apos;` as
/// DEL-marked plain characters and turns them back as values are recorded. Every expected value
/// here is written out by hand from the input beside it.
final class EntityShortcutsTests: XCTestCase {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testTheFourReferencesBecomeShortcutsOfTheSameLength() {
        var b = bytes(#"<R d="&lt;&lt;HKDevice&gt;, &quot;x&apos; &amp; y"/>"#)
        let before = b.count
        XCTAssertTrue(EntityShortcuts.apply(&b))
        // Each `&` of lt, lt, gt, quot, apos becomes DEL; `&amp;` stays: libxml2 hands it over as
        // `&#38;`, which a plain `&` would not be.
        XCTAssertEqual(b, bytes("<R d=\"\u{7F}lt;\u{7F}lt;HKDevice\u{7F}gt;, \u{7F}quot;x\u{7F}apos; &amp; y\"/>"))
        XCTAssertEqual(b.count, before, "lines and columns stay where they were")
        EntityShortcuts.restore(&b)
        XCTAssertEqual(b, bytes(#"<R d="&lt;&lt;HKDevice&gt;, &quot;x&apos; &amp; y"/>"#))
    }

    func testAReferenceCutByTheChunksEndIsLeftToLibxml2() {
        // "&lt" without its ";" (3 bytes left), "&quo" (4 of 6): neither is rewritten.
        var a = bytes("x&lt")
        XCTAssertFalse(EntityShortcuts.apply(&a))
        XCTAssertEqual(a, bytes("x&lt"))
        var q = bytes("&gt;&quo")
        XCTAssertTrue(EntityShortcuts.apply(&q))
        XCTAssertEqual(q, bytes("\u{7F}gt;&quo"))
        // Not one of the four: left alone.
        var other = bytes("&ltx; &g; &quote &apos")
        XCTAssertFalse(EntityShortcuts.apply(&other))
        XCTAssertEqual(other, bytes("&ltx; &g; &quote &apos"))
    }

    func testAChunkWithADeleteByteOrACharacterReferenceIsNotRewritten() {
        // A DEL of the file's own: a value could hold DEL followed by "lt;".
        var del = bytes("&lt; a\u{7F}lt;b")
        XCTAssertFalse(EntityShortcuts.apply(&del))
        XCTAssertEqual(del, bytes("&lt; a\u{7F}lt;b"))
        // A character reference (&#127; is a DEL once libxml2 has read it). The two references
        // before it were rewritten first and are put back.
        var ref = bytes("&lt;&gt; &#127;lt;")
        XCTAssertFalse(EntityShortcuts.apply(&ref))
        XCTAssertEqual(ref, bytes("&lt;&gt; &#127;lt;"))
    }

    private func decoded(_ s: String) -> String {
        let source = bytes(s)
        var target = [UInt8](repeating: 0, count: source.count)
        let n = source.withUnsafeBufferPointer { src in
            target.withUnsafeMutableBufferPointer { EntityShortcuts.copyDecoding(src.baseAddress!, count: src.count, to: $0.baseAddress!) }
        }
        XCTAssertLessThanOrEqual(n, source.count)
        return String(decoding: target[..<n], as: UTF8.self)
    }

    func testValuesAreCopiedWithTheirShortcutsTurnedBack() {
        XCTAssertEqual(
            decoded("\u{7F}lt;\u{7F}lt;HKDevice: 0x1\u{7F}gt;, name:Apple Watch\u{7F}gt;"), "<<HKDevice: 0x1>, name:Apple Watch>")
        XCTAssertEqual(decoded("\u{7F}quot;a\u{7F}apos;"), "\"a'")
        XCTAssertEqual(decoded("no shortcut"), "no shortcut")
        XCTAssertEqual(decoded(""), "")
        // A DEL not followed by a whole shortcut (never left by `apply`) is copied as it is.
        XCTAssertEqual(decoded("a\u{7F}lt"), "a\u{7F}lt")
        XCTAssertEqual(decoded("\u{7F}x\u{7F}gt;"), "\u{7F}x>")
    }

    // MARK: - Through the parallel read

    /// Two records a chunk (64-byte chunks: a cut after nearly every line), read with 1 and 2
    /// threads: the device, source and metadata values the sink gets.
    private func read(_ xml: String, threads: Int) throws -> CollectingSink {
        let sink = CollectingSink()
        try AppleExportReader.read(data: Data(xml.utf8), name: "t.xml", into: sink, threads: threads, chunkBytes: 64)
        return sink
    }

    private static func export(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-02 10:00:00 +0100"/>
        \(body)
        </HealthData>
        """
    }

    private static let step =
        #"type="HKQuantityTypeIdentifierStepCount" unit="count" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:10:00 +0100""#

    func testDevicesAndSourcesReadAsTheFileMeansThem() throws {
        let xml = Self.export(
            """
             <Record \(Self.step) sourceName="Anna&apos;s &quot;Watch&quot;" device="&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch&gt;" value="10"/>
             <Record \(Self.step) sourceName="Tom &amp; Jerry" device="&lt;&lt;HKDevice: 0x3&gt;, name:iPhone&gt;" value="20"/>
             <Record \(Self.step) sourceName="Plain" value="30">
              <MetadataEntry key="note" value="a &lt; b &gt; c"/>
             </Record>
            """)
        for threads in [1, 2] {
            let sink = try read(xml, threads: threads)
            XCTAssertEqual(sink.samples.map(\.value), [10, 20, 30], "threads \(threads)")
            // The reader keeps a device without its memory address (": 0x2"), which it finds only
            // once `&lt;` is `<` again.
            XCTAssertEqual(
                sink.samples.map(\.device), ["<<HKDevice>, name:Apple Watch>", "<<HKDevice>, name:iPhone>", nil], "threads \(threads)")
            XCTAssertEqual(sink.samples.map(\.source), [#"Anna's "Watch""#, "Tom & Jerry", "Plain"], "threads \(threads)")
            XCTAssertEqual(sink.metadataEntries, [nil, nil, [MetadataEntry(key: "note", value: "a < b > c")]], "threads \(threads)")
        }
    }

    func testAChunkWithItsOwnDeleteByteKeepsIt() throws {
        // The second record's chunk holds a DEL of the file's own, followed by "lt;": it is not
        // rewritten, so the DEL and "lt;" reach the sink as they are, and `&gt;` is still `>`.
        let xml = Self.export(
            """
             <Record \(Self.step) sourceName="A" device="&lt;x&gt;" value="10"/>
             <Record \(Self.step) sourceName="B\u{7F}lt;" device="&lt;y&gt;" value="20"/>
             <Record \(Self.step) sourceName="C&#60;" device="&lt;z&gt;" value="30"/>
            """)
        for threads in [1, 2] {
            let sink = try read(xml, threads: threads)
            XCTAssertEqual(sink.samples.map(\.source), ["A", "B\u{7F}lt;", "C<"], "threads \(threads)")
            XCTAssertEqual(sink.samples.map(\.device), ["<x>", "<y>", "<z>"], "threads \(threads)")
        }
    }

    func testAChunkReadAgainSequentiallyIsReadFromTheFilesBytes() throws {
        // A comment holds a line that looks like a top-level element (`\n <Record`), so the
        // parallel read cuts there; the chunk before that false cut (the second record and the
        // comment's start) fails to parse and is read again, with everything after it, by the
        // sequential parser, which sees the file's own bytes: both devices are `<x>` and `<y>`.
        let xml = Self.export(
            """
             <Record \(Self.step) sourceName="A" device="&lt;w&gt;" value="10"/>
             <Record \(Self.step) sourceName="B" device="&lt;x&gt;" value="20"/> <!-- a comment
             <Record \(Self.step) sourceName="not a record" value="99"/> -->
             <Record \(Self.step) sourceName="C" device="&lt;y&gt;" value="30"/>
            """)
        for threads in [1, 2] {
            let sink = try read(xml, threads: threads)
            XCTAssertEqual(sink.samples.map(\.value), [10, 20, 30], "threads \(threads)")
            XCTAssertEqual(sink.samples.map(\.device), ["<w>", "<x>", "<y>"], "threads \(threads)")
        }
    }

    // MARK: - Through the sequential read, in pieces

    /// `xml` fed to the sequential read (`SAXDriver`) `slice` bytes at a time, as a file is read.
    private func readSequentially(_ xml: String, slice: Int) throws -> CollectingSink {
        let sink = CollectingSink()
        let bytes = Array(xml.utf8)
        var session = ParseSession(
            file: "t.xml", sink: sink, input: InputDescription(path: "t.xml", format: .appleXML, byteCount: Int64(bytes.count)), threads: 1)
        var at = 0
        while at < bytes.count {
            let end = min(at + slice, bytes.count)
            try session.feed(bytes[at..<end])
            at = end
        }
        _ = try session.finish()
        return sink
    }

    func testTheSequentialReadDecodesEachTagByThePieceItLiesIn() throws {
        // Pieces end just before a `<`: with 100-byte slices most records span two or three
        // slices and each piece holds the end of one record and the start of the next. The
        // second record's piece holds a DEL of the file's own and is not rewritten (its DEL and
        // "lt;" reach the sink as they are); the pieces around it are, and decode.
        let xml = Self.export(
            """
             <Record \(Self.step) sourceName="A" device="&lt;w&gt;" value="10"/>
             <Record \(Self.step) sourceName="B\u{7F}lt;" device="&lt;x&gt;" value="20"/>
             <Record \(Self.step) sourceName="C&quot;" device="&lt;y&gt;" value="30"/>
             <Record \(Self.step) sourceName="D" device="&lt;z&gt;" value="40"/>
            """)
        for slice in [1, 7, 100, 4096] {
            let sink = try readSequentially(xml, slice: slice)
            XCTAssertEqual(sink.samples.map(\.value), [10, 20, 30, 40], "slices of \(slice)")
            XCTAssertEqual(sink.samples.map(\.source), ["A", "B\u{7F}lt;", "C\"", "D"], "slices of \(slice)")
            XCTAssertEqual(sink.samples.map(\.device), ["<w>", "<x>", "<y>", "<z>"], "slices of \(slice)")
        }
    }

    func testAnErrorAtAReferenceIsWordedAsInTheFile() throws {
        // A reference where none may stand (an attribute's name, then the epilog): libxml2 stops
        // at the same byte with the same sentence whether it sees `&` or the DEL of a shortcut.
        let cases = [
            (#" <Record \#(Self.step) d&lt;="1" value="20"/>"#, "line 5"),
            (" <Record \(Self.step) value=\"20\"/>\n</HealthData>&gt;", "line 6, column 14: malformed XML: Extra content"),
        ]
        for (bad, place) in cases {
            let xml = Self.export(" <Record \(Self.step) device=\"&lt;w&gt;\" value=\"10\"/>\n" + bad)
            var messages: Set<String> = []
            for slice in [5, 4096] {
                XCTAssertThrowsError(try readSequentially(xml, slice: slice)) { messages.insert("\($0)") }
            }
            // The file as libxml2 reads it without shortcuts: the parallel read's chunk fails and
            // is read again from its original bytes.
            XCTAssertThrowsError(try read(xml, threads: 2)) { messages.insert("\($0)") }
            XCTAssertEqual(messages.count, 1, "\(messages)")
            XCTAssertTrue(messages.first?.contains(place) ?? false, "\(messages)")
        }
    }

    func testANamespaceDeclarationIsNeverRewritten() throws {
        // libxml2 checks a namespace's value as a URI itself: `'` may stand in one, DEL may not,
        // so a shortcut there would turn a valid file into an error. Bytes holding `xmlns` are
        // read as they are.
        var b = bytes(#"<HealthData xmlns:x="urn:a&apos;b" d="&lt;w&gt;">"#)
        XCTAssertFalse(EntityShortcuts.apply(&b))
        XCTAssertEqual(b, bytes(#"<HealthData xmlns:x="urn:a&apos;b" d="&lt;w&gt;">"#))
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US" xmlns:x="urn:a&apos;b">
             <ExportDate value="2024-03-02 10:00:00 +0100"/>
             <Record \(Self.step) sourceName="A" device="&lt;w&gt;" value="10"/>
            </HealthData>
            """
        for threads in [1, 2] {
            let sink = try read(xml, threads: threads)
            XCTAssertEqual(sink.samples.map(\.device), ["<w>"], "threads \(threads)")
        }
        for slice in [7, 4096] {
            XCTAssertEqual(try readSequentially(xml, slice: slice).samples.map(\.device), ["<w>"], "slices of \(slice)")
        }
    }
}
