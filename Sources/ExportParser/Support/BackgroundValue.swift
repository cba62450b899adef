import Foundation

/// A value computed on its own thread while the caller goes on: the input file's sha256 during
/// the parse, the store's commit while the payloads are written.
// @unchecked Sendable: the result is written by the worker before it signals and read only after waiting.
final class BackgroundValue<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Value, Error> = .failure(CancellationError())

    init(name: String, _ body: @escaping @Sendable () throws -> Value) {
        // The body (and what it captured: a store session, say) is released before the signal,
        // so that a waiter never outlives it by a race with the thread's end.
        let box = Box<() throws -> Value>(body)
        NamedThread.start(name) { [self, box] in
            if let body = box.value {
                box.value = nil
                result = Result { try body() }
            }
            done.signal()
        }
    }

    /// Waits for the value (or rethrows the body's error). Later calls return at once.
    func value() throws -> Value {
        done.wait()
        done.signal()
        return try result.get()
    }
}
