import Foundation

/// The sequential read (`--threads 1`): one `ElementRecorder` runs libxml2 on the caller's
/// thread and records elements onto `ElementTape`s; a second thread plays them into the
/// `ExportElementHandler` (and so into the day book and the store). libxml2 keeps one core busy,
/// decoding records the other. Tapes are recycled, and at most `inFlight` wait, so memory stays
/// flat.
///
/// Threading: the handler (and the sinks behind it) is used only by the player thread until
/// `finish` has waited for it; tapes pass through the queue's lock, which orders their writes
/// before their reads. Hence `@unchecked Sendable`.
// @unchecked Sendable: its handler is used only by the player thread until `finish` has waited for it.
final class SAXDriver: ExportParse, @unchecked Sendable {
    let handler: ExportElementHandler
    let file: String
    private var recorder: ElementRecorder!
    private let queue = BoundedBatchQueue<ElementTape>(capacity: 4)
    /// Played tapes for reuse, shared with the player thread. The thread holds this, never the
    /// driver: a driver dropped after a failure elsewhere (its deinit waits for the thread) must
    /// not be read by that thread while it is being destroyed.
    private let spares = ElementTapeSpares()
    private let played = DispatchSemaphore(value: 0)
    private var player: Thread?

    init(file: String, handler: ExportElementHandler) {
        self.file = file
        self.handler = handler
        recorder = ElementRecorder(file: file, spares: spares) { [queue] tape in queue.push([tape]) }
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
    }

    /// Waits until every recorded element has been played into the handler.
    private func stopPlayer() {
        guard player != nil else { return }
        recorder.flush()
        queue.close()
        played.wait()
        player = nil
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
        queue.discardAndClose()
        if player != nil {
            played.wait()
            player = nil
        }
        return error
    }
}
