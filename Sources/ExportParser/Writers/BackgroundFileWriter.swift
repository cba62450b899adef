import Foundation

/// Creates new files (`OutputFiles.writeNew`: 0600, never over an existing one) on a second
/// thread while the caller goes on encoding. A convert of years of days writes a payload file
/// a date, and creating a file costs the kernel more than encoding it: on the benchmark's
/// 1,400-date HAE file about a sixth of the run, now off the critical path.
///
/// At most `capacity` files wait; `finish` waits for all and rethrows the first failure (later
/// files are then not written). `finish` must be called before the files' folder is renamed or
/// removed, on the error path too.
// @unchecked Sendable: `failure` is behind `lock`; the queue runs one write at a time.
final class BackgroundFileWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "health-import file writer")
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failure: Error?

    init(capacity: Int = 256) {
        slots = DispatchSemaphore(value: capacity)
    }

    /// Queues `bytes` to be written to the new file `path`; throws an earlier write's failure.
    func write(_ bytes: [UInt8], to path: String) throws {
        if let failure = firstFailure { throw failure }
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard firstFailure == nil else { return }
            do {
                try OutputFiles.writeNew(bytes: bytes, to: path)
            } catch {
                lock.withLock { if failure == nil { failure = error } }
            }
        }
    }

    /// Waits until every queued file is written; throws the first failure.
    func finish() throws {
        queue.sync {}
        if let failure = firstFailure { throw failure }
    }

    private var firstFailure: Error? { lock.withLock { failure } }
}
