import Foundation

/// A file's sha256 computed on its own thread, so the hash overlaps the parse instead of costing
/// a pass over the file before it.
final class DigestTask: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<String, Error> = .failure(CancellationError())

    init(path: String) {
        let thread = Thread { [self] in
            result = Result { try FileDigest.sha256(path: path) }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the digest.
    func value() throws -> String {
        done.wait()
        done.signal() // later calls return at once
        return try result.get()
    }
}
