import Foundation

/// A blocking queue of batches between one producer (the parsing thread) and one consumer (the
/// store's writer thread). `push` waits while `capacity` batches are waiting, which is the
/// back-pressure that keeps memory flat when SQLite is slower than the parser.
final class BoundedBatchQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[Element]] = []
    private var head = 0
    private var closed = false
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Hands a batch to the consumer, waiting while the queue is full. Dropped once closed.
    func push(_ batch: [Element]) {
        condition.lock()
        while batches.count - head >= capacity && !closed { condition.wait() }
        if !closed {
            batches.append(batch)
            condition.broadcast()
        }
        condition.unlock()
    }

    /// The next batch, waiting while empty; nil once closed and drained.
    func pop() -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while head == batches.count && !closed { condition.wait() }
        guard head < batches.count else { return nil }
        let b = batches[head]
        batches[head] = []
        head += 1
        if head > 64 && head * 2 > batches.count {
            batches.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return b
    }

    /// No more batches: the consumer drains what is queued, then `pop` returns nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Drops every queued batch (the import is abandoned) and closes.
    func discardAndClose() {
        condition.lock()
        batches.removeAll()
        head = 0
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
