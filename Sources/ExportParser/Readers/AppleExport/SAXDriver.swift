import CLibXML2
import Foundation

/// libxml2's SAX2 push parser, fed in chunks. Foundation's XMLParser is not an option: it crashes
/// on the ATTLIST declarations every export has, and is 2.4× slower (docs/export-xml.md, "How it is read").
///
/// The parser's callbacks only record elements onto `ElementTape`s; a second thread plays them
/// into the `ExportElementHandler` (and so into the day book and the store). libxml2 keeps one
/// core busy, decoding records the other. Tapes are recycled, and at most `inFlight` wait, so
/// memory stays flat.
///
/// Threading: the handler (and the sinks behind it) is used only by the player thread until
/// `finish` has waited for it; tapes pass through the queue's lock, which orders their writes
/// before their reads. Hence `@unchecked Sendable`.
// @unchecked Sendable: its handler is used only by the player thread until `finish` has waited for it.
final class SAXDriver: @unchecked Sendable {
    private var ctxt: xmlParserCtxtPtr?
    private var sax = xmlSAXHandler()
    let handler: ExportElementHandler
    let file: String
    /// The first fatal problem: a parser error, or a document that is not an export.
    private(set) var failure: InputError?
    /// Set while the parser is told the input has ended.
    private var terminating = false
    private(set) var sawRoot = false
    private var depth = 0

    private var tape = ElementTape()
    private let queue = BoundedBatchQueue<ElementTape>(capacity: 4)
    /// Played tapes for reuse, shared with the player thread. The thread holds this, never the
    /// driver: a driver dropped after a failure elsewhere (its deinit waits for the thread) must
    /// not be read by that thread while it is being destroyed.
    private let spares = Spares()
    private let played = DispatchSemaphore(value: 0)
    private var player: Thread?

    private static let sax2Magic: UInt32 = 0xDEED_BEAF
    /// libxml2's generic error handler is variadic (`ctx, msg, ...`), which Swift cannot write;
    /// a function that ignores every argument can stand in for it (the C calling conventions
    /// let a callee ignore the arguments it does not declare).
    private static let silentGenericError: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { _, _ in }
    /// Deeper nesting stops the read with its own sentence (before libxml2's limit of 256, whose
    /// message talks about parser options). Exports nest four levels.
    static let depthLimit = 32

    init(file: String, handler: ExportElementHandler) {
        self.file = file
        self.handler = handler
        sax.initialized = Self.sax2Magic
        sax.startElementNs = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            let d = Unmanaged<SAXDriver>.fromOpaque(ctx!).takeUnretainedValue()
            d.start(localname!, Int(nbAttributes), attributes)
        }
        sax.endElementNs = { ctx, localname, _, _ in
            let d = Unmanaged<SAXDriver>.fromOpaque(ctx!).takeUnretainedValue()
            if d.failure != nil { return }  // stopped: nothing more is recorded
            d.depth -= 1
            d.tape.recordEnd(name: localname!)
            if d.tape.isFull { d.handOver() }
        }
        sax.serror = { userData, error in
            guard let userData, let error else { return }
            let d = Unmanaged<SAXDriver>.fromOpaque(userData).takeUnretainedValue()
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
        // The handler (and so the sinks and the store) is reached through a box emptied before
        // the signal: once the driver stops waiting, this thread holds none of them, even if the
        // process exits before the thread has ended (see `HAETapePlayer`).
        let box = Box(handler)
        let thread = Thread { [queue, box, played, spares] in
            defer {
                box.value = nil
                played.signal()
            }
            guard let handler = box.value else { return }
            while let batch = queue.pop() {
                for t in batch {
                    t.play(into: handler)
                    t.clear()
                    spares.recycle(t)
                }
            }
        }
        thread.stackSize = 4 << 20
        thread.start()
        player = thread
    }

    deinit {
        stopPlayer()
        if let ctxt { xmlFreeParserCtxt(ctxt) }
    }

    @inline(__always)
    private func start(_ name: UnsafePointer<UInt8>, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        // After xmlStopParser nothing of this tag is read: libxml2 2.9 frees its input buffer
        // when it halts, and the attribute values point into it (AddressSanitizer found the
        // read after free).
        if depth == 0 {
            sawRoot = true
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
        depth += 1
        tape.recordStart(
            name: name, line: Int32(truncatingIfNeeded: xmlSAX2GetLineNumber(ctxt)),
            column: Int32(truncatingIfNeeded: xmlSAX2GetColumnNumber(ctxt)), count: count, attributes: attributes)
        if tape.isFull { handOver() }
    }

    private func handOver() {
        let full = tape
        queue.push([full])
        tape = spares.reuse()
    }

    // @unchecked Sendable: guarded by its own lock; the two threads only hand tapes back and forth.
    private final class Spares: @unchecked Sendable {
        private let lock = NSLock()
        private var tapes: [ElementTape] = []

        func recycle(_ t: ElementTape) {
            lock.lock()
            if tapes.count < 6 { tapes.append(t) }
            lock.unlock()
        }

        func reuse() -> ElementTape {
            lock.lock()
            defer { lock.unlock() }
            return tapes.popLast() ?? ElementTape()
        }
    }

    /// Waits until every recorded element has been played into the handler.
    private func stopPlayer() {
        guard player != nil else { return }
        if !tape.isEmpty { queue.push([tape]) }
        queue.close()
        played.wait()
        player = nil
    }

    /// The parser's current line and column.
    func location() -> InputLocation {
        guard let ctxt else { return InputLocation() }
        return InputLocation(line: Int(xmlSAX2GetLineNumber(ctxt)), column: Int(xmlSAX2GetColumnNumber(ctxt)))
    }

    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw abort(failure) }
        var offset = 0
        // xmlParseChunk takes an Int32 size; chunks are small, but be exact.
        while offset < bytes.count {
            let n = min(bytes.count - offset, 1 << 24)
            let rc = xmlParseChunk(ctxt, bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(n), 0)
            offset += n
            try check(rc)
        }
    }

    /// Ends the parse and waits for the handler to have seen every element.
    func finish() throws {
        if let failure { throw abort(failure) }
        terminating = true
        let rc = xmlParseChunk(ctxt, nil, 0, 1)
        try check(rc)
        stopPlayer()
        if !sawRoot {
            throw InputError(
                file: file, location: location(), message: "no root element: the file ends before <HealthData> (empty or not an export)")
        }
    }

    /// A fatal error: the elements already recorded are not played further.
    private func abort(_ error: InputError) -> InputError {
        queue.discardAndClose()
        if player != nil {
            played.wait()
            player = nil
        }
        return error
    }

    private func check(_ rc: Int32) throws {
        if let failure { throw abort(failure) }
        if rc != 0 {
            throw abort(InputError(file: file, location: location(), message: "malformed XML (libxml2 error \(rc))"))
        }
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
        if terminating {
            // Only the end of input is left to parse: the document stops in the middle.
            message += " (the file ends before the document does: is it truncated?)"
        }
        failure = InputError(
            file: file, location: InputLocation(line: Int(e.line), column: Int(e.int2)), message: "malformed XML: " + message)
    }
}
