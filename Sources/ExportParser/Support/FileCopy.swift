#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place that copies bytes between two open files: with `sendfile` on Linux, so a
/// gigabyte moves inside the kernel without passing through the process, and with `pread` and
/// `write` elsewhere (or where the kernel refuses it).
enum FileCopy {
    /// Copies `count` bytes from the start of `source` to the current end of `destination`.
    static func copy(from source: Int32, count: Int64, to destination: Int32, sourcePath: String, path: String) throws {
        var done: Int64 = 0
        #if os(Linux)
            var offset = off_t(0)
            while done < count {
                let n = sendfile(destination, source, &offset, Int(min(count - done, 1 << 30)))
                if n > 0 {
                    done += Int64(n)
                    continue
                }
                if n < 0, errno == EINTR { continue }
                // EINVAL, ENOSYS…: the plain copy below takes over where this one stopped.
                break
            }
        #endif
        guard done < count else { return }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while done < count {
            let wanted = Int(min(Int64(buffer.count), count - done))
            let n: Int
            do {
                n = try POSIXFile.fill(&buffer, byteCount: wanted, from: source, at: done)
            } catch {
                throw OutputError(file: sourcePath, message: "read failed: \(error.reason)")
            }
            guard n == wanted else { throw OutputError(file: sourcePath, message: "read failed: file shorter than written") }
            try OutputFiles.writeAll(destination, buffer[..<n], path: path)
            done += Int64(n)
        }
    }
}
