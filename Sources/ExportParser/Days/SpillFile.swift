import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An unnamed temporary file of whole chunks of packed samples (plain values, no references): created mode 0600 (`mkstemp`) in
/// the temporary folder and unlinked at once, so only its descriptor names it and the system
/// frees it when the descriptor closes (at deinit, or when the process ends however it ends).
final class SpillFile {
    private let fd: Int32
    private var length = 0

    /// nil when no temporary file can be made.
    init?() {
        var template = Array((NSTemporaryDirectory() + "/health-import-spill-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return nil }
        unlink(template)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends one chunk; false when it could not be written whole (the file keeps what it had).
    func append<T: BitwiseCopyable>(_ chunk: [T]) -> Bool {
        let bytes = chunk.count * MemoryLayout<T>.stride
        do {
            try POSIXFile.writeAll(fd, integers: chunk, at: Int64(length))
        } catch {
            return false
        }
        length += bytes
        return true
    }

    /// Reads back chunk `i` (of `into.count` samples, the size every chunk was written with).
    func read<T: BitwiseCopyable>(chunk i: Int, into buffer: inout [T]) {
        let bytes = buffer.count * MemoryLayout<T>.stride
        // The file is this process's own, unnamed and written whole a moment ago: failing to
        // read it back is a failing disk, not bad input.
        do {
            let n = try POSIXFile.fill(&buffer, from: fd, at: Int64(i * bytes))
            guard n == bytes else { fatalError("health-import: its temporary spill file is shorter than written") }
        } catch {
            fatalError("health-import: cannot read back its temporary spill file (errno \(error.code))")
        }
    }
}
