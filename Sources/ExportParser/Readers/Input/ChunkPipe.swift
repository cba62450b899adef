import Foundation

/// A bounded hand-off of byte chunks from a producer thread (inflating a zip entry) to the
/// parsing thread, so inflate and parse overlap on two cores while memory stays at a few chunks.
final class ChunkPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [Data] = []
    private var closed = false
    private var producerError: Error?
    private(set) var cancelled = false
    private let capacity: Int

    init(capacity: Int = 8) { self.capacity = capacity }

    /// Producer: blocks while the pipe is full. Returns false once the consumer has cancelled.
    func put(_ chunk: Data) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        chunks.append(chunk)
        condition.broadcast()
        return true
    }

    /// Producer: no more chunks (with the error that ended production, if any).
    func close(error: Error? = nil) {
        condition.lock()
        closed = true
        producerError = error
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer: the next chunk, nil at the end; rethrows the producer's error.
    func take() throws -> Data? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !closed { condition.wait() }
        if !chunks.isEmpty {
            let c = chunks.removeFirst()
            condition.broadcast()
            return c
        }
        if let producerError { throw producerError }
        return nil
    }

    /// Consumer: stop the producer (the parse failed).
    func cancel() {
        condition.lock()
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
