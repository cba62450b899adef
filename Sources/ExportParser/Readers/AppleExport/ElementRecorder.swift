import CLibXML2
import Foundation

/// libxml2's SAX2 push parser, fed in chunks, whose callbacks only record elements onto
/// `ElementTape`s and hand each full tape to `deliver`. Foundation's XMLParser is not an option:
/// it crashes on the ATTLIST declarations every export has, and is 2.4× slower
/// (docs/export-xml.md, "How it is read").
///
/// It reads either a whole document (`SAXDriver`, one thread) or one chunk of the flat run of
/// top-level elements (`ParallelSAXDriver`): a chunk after the first is preceded by a synthetic
/// `<HealthData>` line, so libxml2 starts in the root's content exactly as the sequential parser
/// is at the cut; a chunk before the last is followed by a synthetic `</HealthData>`. Neither
/// synthetic tag is recorded. A chunk that then parses without an error and closes the root once
/// proves that its cut was between two top-level elements (see `ParallelSAXDriver`).
///
/// Line numbers on the tapes are the parser's own (a chunk's start at line 2); whoever plays the
/// tape adds the chunk's place in the file. Errors carry `lineOffset` added.
///
/// Threading: one thread at a time (each worker its own recorder); libxml2 parser contexts are
/// independent. The tapes' names point into this parser's dictionary, so the recorder must live
/// until its tapes have been played.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the libxml2 SAX boundary.
/// The recorder reaches the C callbacks as `user_data` through `Unmanaged.passUnretained`: safe
/// because the parser context it is given to is freed in this object's `deinit`, so no callback can
/// outlive it. Names and attribute values arrive as pointers valid only during the callback;
/// `start` copies the values onto the tape before returning and keeps only the names, which live in
/// the parser's dictionary as long as this recorder (hence "must live until its tapes have been
/// played"). The `unsafeBitCast` gives libxml2 a non-variadic no-op for its variadic generic-error
/// hook, which Swift cannot declare.
// @unchecked Sendable: created, fed and finished by one thread, then kept alive (untouched) by the player while its tapes play.
final class ElementRecorder: @unchecked Sendable {
    private var ctxt: xmlParserCtxtPtr?
    private var sax = xmlSAXHandler()
    let file: String
    // `@exclusivity(unchecked)` on the state every element's callback touches: one thread at a
    // time uses a recorder (above), so no two accesses can overlap; the dynamic checks were
    // 0.3 % of a parsing thread's instructions.
    /// The first fatal problem: a parser error, or a document that is not an export.
    @exclusivity(unchecked) private(set) var failure: InputError?
    /// Set while the parser is told the input has ended.
    private var terminating = false
    @exclusivity(unchecked) private(set) var sawRoot = false
    @exclusivity(unchecked) private var depth = 0
    /// Whether a synthetic `<HealthData>` line precedes the bytes (every chunk after the first).
    let syntheticRoot: Bool
    /// Whether the root's end tag is recorded (false for a chunk closed by a synthetic end tag).
    @exclusivity(unchecked) private var recordsRootEnd = true
    /// How many times the root element closed: exactly once in a chunk whose cut was sound.
    @exclusivity(unchecked) private(set) var rootCloses = 0
    /// Added to the parser's line numbers in error locations.
    let lineOffset: Int
    /// The bytes fed were rewritten by `EntityShortcuts.apply`: values are recorded decoded.
    @exclusivity(unchecked) var shortcuts = false
    /// For a read in pieces (`SAXDriver`): each piece not yet behind the parser, from `pieceHead`
    /// on, as its end (bytes fed up to and including it) and whether it was rewritten.
    @exclusivity(unchecked) private var pieces: [(end: Int64, rewritten: Bool)] = []
    @exclusivity(unchecked) private var pieceHead = 0

    /// The next bytes fed are a piece that ends at `end` (bytes fed so far, this piece included);
    /// `rewritten`: by `EntityShortcuts.apply`. A tag lies whole in one piece (`SAXDriver` cuts
    /// just before a `<`), so its values are decoded when that piece was rewritten.
    func beginPiece(end: Int64, rewritten: Bool) {
        if pieceHead > 64 {
            pieces.removeFirst(pieceHead)
            pieceHead = 0
        }
        pieces.append((end, rewritten))
    }

    /// Whether the tag whose start callback is running lies in a rewritten piece: libxml2's place
    /// in the input (`xmlByteConsumed`, inside the tag or just past it) names the piece.
    private func tagIsRewritten() -> Bool {
        if pieces.count == pieceHead { return shortcuts }
        let at = Int64(xmlByteConsumed(ctxt))
        while pieceHead < pieces.count - 1, pieces[pieceHead].end < at { pieceHead += 1 }
        return pieces[pieceHead].rewritten
    }

    @exclusivity(unchecked) private var tape: ElementTape
    /// `compare`'s walked elements (`expect`), their places counted in bytes fed; those from
    /// `walkedNext` on are not on a tape yet.
    @exclusivity(unchecked) private var walked = WalkedElements()
    @exclusivity(unchecked) private var walkedNext = 0
    /// Bytes given to libxml2 so far (the synthetic `<HealthData>` line included).
    @exclusivity(unchecked) private var fed = 0

    /// The walked elements of the bytes fed next (`ParseChunk.walked`, placed among them):
    /// each goes on the tape before the first top-level element libxml2 meets past its place, or
    /// before the root closes, so that the tape is in the file's order. libxml2's place in the
    /// input (`xmlByteConsumed`) is inside a start tag when its callback runs, and a place is
    /// between two top-level elements (where the walked one was cut): an element starts past it
    /// exactly when it came after the walked one in the file.
    func expect(_ samples: WalkedElements) {
        guard !samples.isEmpty else { return }
        if walkedNext == walked.elements.count {
            walked = WalkedElements()
            walkedNext = 0
        }
        let shift = Int32(walked.sources.count)
        for var w in samples.elements {
            w.sourceFirst += shift
            w.zoneFirst += shift
            w.typeFirst += shift
            walked.elements.append(w)
        }
        walked.places.append(contentsOf: samples.places.map { $0 + fed })
        walked.sources.append(contentsOf: samples.sources)
    }

    /// Puts on the tape the walked elements placed before `at` (bytes fed).
    private func recordWalked(before at: Int) {
        walked.sources.withUnsafeBufferPointer { sources in
            while walkedNext < walked.elements.count, walked.places[walkedNext] < at {
                tape.recordWalked(walked.elements[walkedNext], bytes: sources.baseAddress!)
                walkedNext += 1
                if tape.isFull { handOver() }
            }
        }
    }
    private let spares: TapeSpares<ElementTape>
    private let deliver: (ElementTape) -> Void

    private static let sax2Magic: UInt32 = 0xDEED_BEAF
    /// libxml2's generic error handler is variadic (`ctx, msg, ...`), which Swift cannot write;
    /// a function that ignores every argument can stand in for it (the C calling conventions
    /// let a callee ignore the arguments it does not declare).
    private static let silentGenericError: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { _, _ in }
    /// Deeper nesting stops the read with its own sentence (before libxml2's limit of 256, whose
    /// message talks about parser options). Exports nest four levels.
    static let depthLimit = 32
    /// What precedes a chunk after the first: the root's start tag on a line of its own, so the
    /// chunk's first line is the parser's line 2, starting at column 1 as in the file.
    static let syntheticStart: [UInt8] = Array("<HealthData>\n".utf8)
    static let syntheticEnd: [UInt8] = Array("</HealthData>".utf8)

    init(
        file: String, syntheticRoot: Bool = false, lineOffset: Int = 0, spares: TapeSpares<ElementTape>,
        deliver: @escaping (ElementTape) -> Void
    ) {
        self.file = file
        self.syntheticRoot = syntheticRoot
        self.lineOffset = lineOffset
        self.spares = spares
        self.deliver = deliver
        tape = spares.reuse()
        sax.initialized = Self.sax2Magic
        // The recorder is reached through `_withUnsafeGuaranteedRef`, not `takeUnretainedValue`,
        // which retained and released it around every element's callback (with the tape's own
        // counts, 4 % of the 3 GB store run's CPU, perf): safe for the reason above, the context
        // that calls back never outlives the recorder.
        sax.startElementNs = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            Unmanaged<ElementRecorder>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { d in
                d.start(localname!, Int(nbAttributes), attributes)
            }
        }
        sax.endElementNs = { ctx, localname, _, _ in
            Unmanaged<ElementRecorder>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { d in d.end(localname!) }
        }
        sax.serror = { userData, error in
            guard let userData, let error else { return }
            let d = Unmanaged<ElementRecorder>.fromOpaque(userData).takeUnretainedValue()
            d.record(error.pointee)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        // Errors raised without a parser context (libxml2's encoding conversion: "encoding error :
        // input conversion failed…", "I/O error : encoder error") bypass `serror` and go to the
        // thread's generic handler, whose default prints them on stderr: the fuzzer found an
        // export declaring `encoding="EUC-JP"` with bytes that are not EUC-JP print nine such
        // lines before the one sentence. The parse still fails through `xmlParseChunk`'s result.
        // The handler is per thread; the parse runs on this one.
        xmlSetGenericErrorFunc(nil, unsafeBitCast(Self.silentGenericError, to: xmlGenericErrorFunc.self))
        ctxt = xmlCreatePushParserCtxt(&sax, me, nil, 0, file)
        // No XML_PARSE_HUGE: libxml2's default limits stay on (a name, attribute value or text node
        // of at most 10 MB, 256 levels of nesting, 10 MB of look-ahead), so a hostile 50 MB
        // attribute is refused after 10 MB instead of being held, copied and recorded whole.
        // An export's longest attribute is a few hundred bytes and it nests four levels.
        // No external DTD or entity is ever loaded (no XML_PARSE_DTDLOAD / NOENT), and none
        // from the network (NONET); `PrologFilter` removes the inline DTD before this sees it.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue)
        xmlCtxtUseOptions(ctxt, options)
        if syntheticRoot {
            Self.syntheticStart.withUnsafeBytes { _ = try? feed($0) }
        }
    }

    deinit {
        spares.recycle(tape)
        if let ctxt { xmlFreeParserCtxt(ctxt) }
        if let dictionary { xmlDictFree(dictionary) }
    }

    /// The parser's name dictionary, kept after `releaseParser` (the tapes' names point into it).
    private var dictionary: xmlDictPtr?

    /// Frees the parser (its input buffers and stacks) once the input has ended, keeping only the
    /// dictionary the recorded names point into, while the tapes wait to be played.
    func releaseParser() {
        guard let c = ctxt, let dict = c.pointee.dict else { return }
        xmlDictReference(dict)
        dictionary = dict
        xmlFreeParserCtxt(c)
        ctxt = nil
    }

    @inline(__always)
    private func end(_ name: UnsafePointer<UInt8>) {
        if failure != nil { return }  // stopped: nothing more is recorded
        depth -= 1
        if depth == 0 {
            if walkedNext < walked.elements.count { recordWalked(before: .max) }
            rootCloses += 1
            if !recordsRootEnd { return }
        }
        tape.recordEnd(name: name)
        if tape.isFull { handOver() }
    }

    @inline(__always)
    private func start(_ name: UnsafePointer<UInt8>, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        // After xmlStopParser nothing of this tag is read: libxml2 2.9 frees its input buffer
        // when it halts, and the attribute values point into it (AddressSanitizer found the
        // read after free).
        if depth == 0 {
            sawRoot = true
            if syntheticRoot {
                depth = 1  // the synthetic `<HealthData>`: the real one was on the first chunk's tape
                return
            }
            if !ExportElementHandler.equals(name, "HealthData"), failure == nil {
                failure = InputError(
                    file: file, location: location(),
                    message: "not an Apple Health export: the root element is <\(String(cString: name))>, expected <HealthData>")
                xmlStopParser(ctxt)
                return
            }
        }
        if depth >= Self.depthLimit, failure == nil {
            failure = InputError(
                file: file, location: location(),
                message: "elements nested more than \(Self.depthLimit) levels deep (an export nests four): not an Apple Health export")
            xmlStopParser(ctxt)
            return
        }
        if failure != nil { return }  // stopped: libxml2 may still report a tag it had parsed
        if depth == 1, walkedNext < walked.elements.count { recordWalked(before: Int(xmlByteConsumed(ctxt))) }
        depth += 1
        tape.recordStart(
            name: name, line: Int32(truncatingIfNeeded: xmlSAX2GetLineNumber(ctxt)),
            column: Int32(truncatingIfNeeded: xmlSAX2GetColumnNumber(ctxt)), count: count, attributes: attributes,
            shortcuts: tagIsRewritten())
        if tape.isFull { handOver() }
    }

    private func handOver() {
        deliver(tape)
        tape = spares.reuse()
    }

    /// Delivers the partly filled tape, if any (after the last bytes were parsed).
    func flush() {
        if !tape.isEmpty { handOver() }
    }

    /// The parser's current line and column, in the file.
    func location() -> InputLocation {
        guard let ctxt else { return InputLocation() }
        return InputLocation(line: Int(xmlSAX2GetLineNumber(ctxt)) + lineOffset, column: Int(xmlSAX2GetColumnNumber(ctxt)))
    }

    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw failure }
        fed += bytes.count
        var offset = 0
        // In slices of at most `feedSlice`: libxml2 copies what it is given into its input
        // buffer, so a whole 1 MiB chunk at once made (and freed) a 1–2 MiB buffer per chunk,
        // which raised glibc's mmap threshold and fragmented the heap (issue 24).
        while offset < bytes.count {
            let n = min(bytes.count - offset, Self.feedSlice)
            let rc = xmlParseChunk(ctxt, bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(n), 0)
            offset += n
            try check(rc)
        }
    }

    /// The most bytes given to libxml2 at once (the sequential read's own read size).
    static let feedSlice = 256 << 10

    /// Tells the parser the input has ended.
    func finish() throws {
        if let failure { throw failure }
        terminating = true
        let rc = xmlParseChunk(ctxt, nil, 0, 1)
        try check(rc)
    }

    /// Ends a chunk with the synthetic `</HealthData>` (not recorded) and tells the parser the
    /// input has ended.
    func finishChunk() throws {
        recordsRootEnd = false
        try Self.syntheticEnd.withUnsafeBytes { try feed($0) }
        try finish()
    }

    private func check(_ rc: Int32) throws {
        if let failure { throw failure }
        if rc != 0 {
            let f = InputError(file: file, location: location(), message: "malformed XML (libxml2 error \(rc))")
            failure = f
            throw f
        }
    }

    /// libxml2 names the line of an unclosed start tag in its sentence ("Opening and ending tag
    /// mismatch: Record line 7 and Workout", "Premature end of data in tag Record line 7"): in a
    /// chunk's parser that is the chunk's line, so it is moved to the file's.
    static func shiftingLines(in message: String, by offset: Int) -> String {
        var words = message.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for i in words.indices.dropFirst() where words[i - 1] == "line" {
            let digits = words[i].prefix { $0.isASCII && $0.isNumber }
            if let n = Int(digits), !digits.isEmpty { words[i] = String(n + offset) + words[i].dropFirst(digits.count) }
        }
        return words.joined(separator: " ")
    }

    private func record(_ e: xmlError) {
        guard e.level == XML_ERR_FATAL || e.level == XML_ERR_ERROR, failure == nil else { return }
        var message = e.message.map { String(cString: $0) } ?? "XML error \(e.code)"
        // One sentence on one line: libxml2 puts some details (the bad bytes) on a second line.
        message = message.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
        if message.contains("Huge input lookup") || message.contains("too long") || message.contains("huge") {
            // libxml2's wording for its 10 MB limits (see the parser options in init).
            message = "a name, attribute value or text longer than 10 MB (libxml2's limit; an export's are a few hundred bytes)"
        }
        if lineOffset != 0 {
            message = Self.shiftingLines(in: message, by: lineOffset)
        }
        if terminating {
            // Only the end of input is left to parse: the document stops in the middle.
            message += " (the file ends before the document does: is it truncated?)"
        }
        failure = InputError(
            file: file, location: InputLocation(line: Int(e.line) + lineOffset, column: Int(e.int2)), message: "malformed XML: " + message)
    }
}
