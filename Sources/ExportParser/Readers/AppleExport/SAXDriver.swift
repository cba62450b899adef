import Foundation

/// The sequential read (`--threads 1`): one `ElementRecorder` runs libxml2 on the caller's
/// thread and records elements onto `ElementTape`s; a second thread plays them into the
/// `ExportElementHandler` (and so into the day book and the store) through a `TapePipeline`.
/// libxml2 keeps one core busy, decoding records the other.
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
        do { try recorder.feed(bytes) } catch let e as InputError { throw abort(e) }
    }

    /// Ends the parse and waits for the handler to have seen every element.
    func finish() throws {
        do { try recorder.finish() } catch let e as InputError { throw abort(e) }
        stopPlayer()
        if !recorder.sawRoot {
            throw InputError(
                file: file, location: recorder.location(),
                message: "no root element: the file ends before <HealthData> (empty or not an export)")
        }
    }

    /// Nothing is held back: every error before the current bytes was thrown by `feed`.
    func settle() throws {}

    /// A fatal error: the elements already recorded are not played further.
    private func abort(_ error: InputError) -> InputError {
        pipeline.abort()
        return error
    }
}
