import Foundation
import Synchronization

/// The HAE side's progress while `compare` reads both sides at once (`CompareJob.bothSides`):
/// its reading thread queues each update, and the calling thread shows them, in order, once the
/// export side is done, so the lines come as when the sides are read one after the other and
/// the display is only ever called from the calling thread.
final class CompareProgressRelay: Sendable {
    private let state = Mutex<(waiting: [ConvertProgress], ended: Bool)>(([], false))
    /// Signalled once per update and once at the end: the calling thread sleeps on it.
    private let signal = DispatchSemaphore(value: 0)

    /// From the reading thread: one update.
    @Sendable func send(_ update: ConvertProgress) {
        state.withLock { $0.waiting.append(update) }
        signal.signal()
    }

    /// From the reading thread, last: no update comes after this.
    func end() {
        state.withLock { $0.ended = true }
        signal.signal()
    }

    /// On the calling thread: every update to `show`, in the order sent, until `end`.
    func relay(to show: ((ConvertProgress) -> Void)?) {
        while true {
            signal.wait()
            let (updates, ended) = state.withLock { s in
                defer { s.waiting = [] }
                return (s.waiting, s.ended)
            }
            for u in updates { show?(u) }
            if ended { return }
        }
    }
}
