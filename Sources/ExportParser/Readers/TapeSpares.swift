import Foundation

/// Played tapes kept for reuse, shared by the threads that record and the one that plays (a
/// tape's storage is allocated once, not per hand-over).
// @unchecked Sendable: guarded by its own lock; the threads only hand tapes back and forth.
final class TapeSpares<Tape: RecordedTape>: @unchecked Sendable {
    private let lock = NSLock()
    private var tapes: [Tape] = []
    let limit: Int

    init(limit: Int = 6) { self.limit = limit }

    /// Clears a played tape and keeps it, unless `limit` are kept already.
    func recycle(_ t: Tape) {
        t.clear()
        lock.lock()
        if tapes.count < limit { tapes.append(t) }
        lock.unlock()
    }

    /// A played tape, or a new one.
    func reuse() -> Tape {
        lock.lock()
        defer { lock.unlock() }
        return tapes.popLast() ?? Tape()
    }
}
