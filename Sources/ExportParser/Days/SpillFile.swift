import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An unnamed temporary file of whole chunks of packed samples: created mode 0600 (`mkstemp`) in
/// the temporary folder and unlinked at once, so only its descriptor names it and the system
/// frees it when the descriptor closes (at deinit, or when the process ends however it ends).
final class SpillFile {
    private let fd: Int32
    private var length = 0

    /// nil when no temporary file can be made.
    init?() {
        var template = Array((NSTemporaryDirectory() + "/health-import-spill-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends one chunk; false when it could not be written whole (the file keeps what it had).
    func append(_ chunk: [UInt64]) -> Bool {
        let bytes = chunk.count * MemoryLayout<UInt64>.stride
        let done = chunk.withUnsafeBytes { raw -> Bool in
            var at = 0
            while at < bytes {
                let n = pwrite(fd, raw.baseAddress! + at, bytes - at, off_t(length + at))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                at += n
            }
            return true
        }
        if done { length += bytes }
        return done
    }

    /// Reads back chunk `i` (of `into.count` samples, the size every chunk was written with).
    func read(chunk i: Int, into buffer: UnsafeMutableBufferPointer<UInt64>) {
        let bytes = buffer.count * MemoryLayout<UInt64>.stride
        let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
        var at = 0
        while at < bytes {
            let n = pread(fd, raw + at, bytes - at, off_t(i * bytes + at))
            if n < 0 && errno == EINTR { continue }
            // The file is this process's own, unnamed and written whole a moment ago: failing to
            // read it back is a failing disk, not bad input.
            guard n > 0 else { fatalError("health-import: cannot read back its temporary heart-rate file (errno \(errno))") }
            at += n
        }
    }
}
