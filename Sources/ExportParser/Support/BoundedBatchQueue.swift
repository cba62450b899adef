import Foundation

/// A blocking queue of batches between one producer and one consumer thread: zip inflate →
/// parser, parser → tape player, decoded records → the store's writer. `push` waits while
/// `capacity` batches are waiting, which is the back-pressure that keeps memory flat when the
/// consumer is slower than the producer.
// @unchecked Sendable: every access to the batches goes through the queue's condition lock.
final class BoundedBatchQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[Element]] = []
    private var head = 0
    private var closed = false
    private var producerError: Error?
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Hands a batch to the consumer, waiting while the queue is full. Once closed (the
    /// consumer gave up: `discardAndClose`) the batch is dropped and the result is false, so the
    /// producer can stop early.
    @discardableResult
    func push(_ batch: [Element]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count - head >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        batches.append(batch)
        condition.broadcast()
        return true
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

    /// No more batches: the consumer drains what is queued, then `pop` returns nil (or, after
    /// `close(error:)`, throws the producer's error from `popOrThrow`).
    func close(error: Error? = nil) {
        condition.lock()
        producerError = error
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Like `pop`, but once drained rethrows the error the producer closed with.
    func popOrThrow() throws -> [Element]? {
        if let b = pop() { return b }
        condition.lock()
        defer { condition.unlock() }
        if let producerError { throw producerError }
        return nil
    }

    /// Drops every queued batch (the consumer gives up) and closes.
    func discardAndClose() {
        condition.lock()
        batches.removeAll()
        head = 0
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
