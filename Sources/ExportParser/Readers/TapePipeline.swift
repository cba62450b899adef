import Foundation

/// The hand-off both readers use between the thread that parses (libxml2, yajl) and records
/// events onto tapes and the thread that plays them into the consumer (`ExportElementHandler`,
/// `HAEDocumentWalker`, and so the day book and the store): a bounded queue of full tapes (at
/// most `capacity` wait: memory stays flat), played tapes kept for reuse, and the player's end.
///
/// The consumer is reached through a box the player thread empties before it signals its end:
/// once `finish` (or `abort`) returns, nothing of that thread holds the consumer (and so the
/// sinks and the store), even if the process exits before the thread itself has ended (an open
/// store connection at exit would leave SQLite's -wal file beside the store).
///
/// Threading: the consumer is used only by the player thread until `finish` or `abort` has
/// waited for it (the promise `SampleSink` states); tapes pass through the queue's lock, which
/// orders their writes before their reads. The spares are the thread's own, never the
/// pipeline's: a pipeline dropped after a failure elsewhere (its deinit waits for the thread)
/// must not be read by that thread while it is being destroyed.
// @unchecked Sendable: the consumer is the player thread's until `finish` has waited for it; the rest is behind locks.
final class TapePipeline<Tape: RecordedTape>: @unchecked Sendable {
    private let queue: BoundedBatchQueue<Tape>
    /// Where played tapes go, and where the recording thread takes its next one.
    let spares: TapeSpares<Tape>
    private let played = DispatchSemaphore(value: 0)
    private var running = true

    /// Starts the player thread. `begin` runs first on it; `play` plays one tape and returns
    /// false to stop (the tapes still queued are then dropped and `push` returns false).
    init<Consumer: AnyObject>(
        consumer: Consumer, capacity: Int = 4, spares: TapeSpares<Tape> = TapeSpares(), threadName: String,
        begin: @escaping @Sendable (Consumer) -> Void = { _ in }, play: @escaping @Sendable (Tape, Consumer) -> Bool
    ) {
        let queue = BoundedBatchQueue<Tape>(capacity: capacity)
        self.queue = queue
        self.spares = spares
        let box = Box(consumer)
        NamedThread.start(threadName, stackSize: 4 << 20) { [played] in
            defer {
                box.value = nil
                played.signal()
            }
            guard let consumer = box.value else { return }
            begin(consumer)
            var playing = true
            while let batch = queue.pop() {
                for t in batch {
                    if playing, !play(t, consumer) {
                        playing = false
                        // The recording thread sees its next hand-over refused and stops.
                        queue.discardAndClose()
                    }
                    spares.recycle(t)
                }
            }
        }
    }

    deinit { abort() }

    /// Hands a full tape to the player; false once the player has stopped.
    @discardableResult
    func push(_ tape: Tape) -> Bool { queue.push([tape]) }

    /// Waits until every pushed tape has been played. Safe to call more than once.
    func finish() {
        guard running else { return }
        running = false
        queue.close()
        played.wait()
    }

    /// Drops the tapes not yet played and waits for the player to stop.
    func abort() {
        guard running else { return }
        running = false
        queue.discardAndClose()
        played.wait()
    }
}
