import Foundation

/// What the reading thread, the workers and the player of a `ParallelSAXDriver` share.
// @unchecked Sendable: every field is read and written under its lock.
final class ChunkPlayState: @unchecked Sendable {
    private let lock = NSLock()
    private var _failure: InputError?
    private var _stopped = false
    private var _sawRoot = false
    private var _end = InputLocation()
    private var _dropped = 0

    var failure: InputError? { lock.withLock { _failure } }
    var workersStopped: Bool { lock.withLock { _stopped } }
    var sawRoot: Bool { lock.withLock { _sawRoot } }
    var endLocation: InputLocation {
        get { lock.withLock { _end } }
        set { lock.withLock { _end = newValue } }
    }

    /// Control bytes the window read's workers removed from the chunks played (`PrologFilter`).
    var controlCharactersDropped: Int { lock.withLock { _dropped } }
    func addDropped(_ n: Int) { lock.withLock { _dropped += n } }

    func fail(_ e: InputError) { lock.withLock { if _failure == nil { _failure = e } } }
    func stopWorkers() { lock.withLock { _stopped = true } }
    func markRoot() { lock.withLock { _sawRoot = true } }
}
