import Foundation

/// Played tapes kept for reuse, shared by the threads that record and the one that plays.
// @unchecked Sendable: guarded by its own lock; the threads only hand tapes back and forth.
final class ElementTapeSpares: @unchecked Sendable {
    private let lock = NSLock()
    private var tapes: [ElementTape] = []
    let limit: Int

    init(limit: Int = 6) { self.limit = limit }

    func recycle(_ t: ElementTape) {
        t.clear()
        lock.lock()
        if tapes.count < limit { tapes.append(t) }
        lock.unlock()
    }

    func reuse() -> ElementTape {
        lock.lock()
        defer { lock.unlock() }
        return tapes.popLast() ?? ElementTape()
    }
}
