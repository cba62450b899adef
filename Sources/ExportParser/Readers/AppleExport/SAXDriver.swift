import Foundation

/// The sequential read (`--threads 1`): one `ElementRecorder` runs libxml2 on the caller's
/// thread and records elements onto `ElementTape`s; a second thread plays them into the
/// `ExportElementHandler` (and so into the day book and the store) through a `TapePipeline`.
/// libxml2 keeps one core busy, decoding records the other.
///
/// Entity shortcuts (`EntityShortcuts`) here too, in UTF-8 documents: the bytes go to libxml2 in
/// pieces that each end just before a `<`, the rest held back for the next piece, so a tag lies
/// whole inside one piece; a piece is rewritten unless it holds a DEL byte or a character
/// reference, and the recorder decodes a tag's values when the piece the tag lies in was rewritten
/// (`ElementRecorder.beginPiece`). In a valid document the plain characters mean what the
/// references meant; in an invalid one libxml2 stops at the same byte with the same sentence, since
/// where a reference may not stand neither `&` nor DEL can (neither is a name character, white
/// space, quote, `=`, `/`, `<` or `>`).
///
/// Threading: the handler (and the sinks behind it) is used only by the player thread until
/// `finish` has waited for it (see `TapePipeline`). Hence `@unchecked Sendable`.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): only `feed`'s buffer, which
/// the caller (`PrologFilter`) guarantees for the call and which is passed straight to the recorder
/// (libxml2 copies what it keeps).
// @unchecked Sendable: its handler is used only by the player thread until `finish` has waited for it.
final class SAXDriver: ExportParse, @unchecked Sendable {
    let handler: ExportElementHandler
    let file: String
    private var recorder: ElementRecorder!
    private let pipeline: TapePipeline<ElementTape>
    /// Whether pieces are rewritten: decided at the first bytes (a UTF-8 document).
    private var shortcuts: Bool?
    /// The bytes from the last `<` fed on, waiting for the next piece.
    private var held: [UInt8] = []
    /// The piece being fed (reused).
    private var piece: [UInt8] = []
    /// Bytes given to libxml2 so far.
    private var fed: Int64 = 0
    /// The next piece starts at a `<` (or the document's start): it may be rewritten. False after
    /// a piece fed without a `<` to end at, which may have cut a tag.
    private var startsAtTag = true
    /// Held bytes beyond this are fed without waiting for a `<` (a text or value megabytes long).
    static let holdLimit = 4 << 20

    init(file: String, handler: ExportElementHandler) {
        self.file = file
        self.handler = handler
        pipeline = TapePipeline(consumer: handler, threadName: "xml player") { tape, handler in
            tape.play(into: handler)
            return true
        }
        recorder = ElementRecorder(file: file, spares: pipeline.spares) { [pipeline] tape in pipeline.push(tape) }
    }

    /// Waits until every recorded element has been played into the handler.
    private func stopPlayer() {
        recorder.flush()
        pipeline.finish()
    }

    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        if shortcuts == nil { shortcuts = ParallelSAXDriver.declaresUTF8(Array(bytes.prefix(512))) }
        guard shortcuts == true, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            do { try recorder.feed(bytes) } catch let e as InputError { throw abort(e) }
            return
        }
        if let cut = Self.lastTagStart(base, bytes.count) {
            swap(&piece, &held)
            piece.append(contentsOf: UnsafeBufferPointer(start: base, count: cut))
            held.removeAll(keepingCapacity: true)
            held.append(contentsOf: UnsafeBufferPointer(start: base + cut, count: bytes.count - cut))
            try feedPiece()
            startsAtTag = true
        } else {
            held.append(contentsOf: UnsafeBufferPointer(start: base, count: bytes.count))
            if held.count > Self.holdLimit {
                swap(&piece, &held)
                held.removeAll(keepingCapacity: true)
                startsAtTag = false
                try feedPiece()
            }
        }
    }

    /// The offset of the last `<` in the bytes. A byte loop from the end (libc's `memrchr` is a
    /// GNU extension): an export's lines are about 160 bytes, so it reads about that many.
    @inline(__always)
    private static func lastTagStart(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        var i = count - 1
        while i >= 0 {
            if base[i] == 0x3C { return i }
            i -= 1
        }
        return nil
    }

    /// Feeds `piece`, rewritten when it starts at a tag, and empties it.
    private func feedPiece() throws {
        defer { piece.removeAll(keepingCapacity: true) }
        if piece.isEmpty { return }
        let rewritten = startsAtTag && EntityShortcuts.apply(&piece)
        fed += Int64(piece.count)
        recorder.beginPiece(end: fed, rewritten: rewritten)
        do { try piece.withUnsafeBytes { try recorder.feed($0) } } catch let e as InputError { throw abort(e) }
    }

    /// Feeds what is held back (at the input's end, or when it stops early).
    private func feedHeld() throws {
        guard !held.isEmpty else { return }
        swap(&piece, &held)
        try feedPiece()
    }

    /// Ends the parse and waits for the handler to have seen every element.
    func finish() throws {
        try feedHeld()
        do { try recorder.finish() } catch let e as InputError { throw abort(e) }
        stopPlayer()
        if !recorder.sawRoot {
            throw InputError(
                file: file, location: recorder.location(),
                message: "no root element: the file ends before <HealthData> (empty or not an export)")
        }
    }

    /// The bytes held back are parsed (without the end of input): an error in them comes first.
    func settle() throws { try feedHeld() }

    /// A fatal error: the elements already recorded are not played further.
    private func abort(_ error: InputError) -> InputError {
        pipeline.abort()
        return error
    }
}
