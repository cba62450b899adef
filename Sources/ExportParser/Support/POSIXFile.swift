import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place that hands buffer addresses to POSIX `read`, `write`, `pread` and `pwrite`:
/// every other file reads into and writes from Swift arrays (`[UInt8]`, slices, `Data`, arrays
/// of integers) through these functions, and never sees a pointer; the fenced readers that own
/// their chunk buffers (`HAEReader`, `ChunkPrefetcher`, `ZipEntryStream`) read into them through
/// `pread(_:into:count:at:)`, the one loop over `EINTR` (`UnsafeCodeRuleTests` checks that no
/// other file calls `pread` or `pwrite`).
///
/// Why this is safe (the invariant every function here keeps): the address handed to the
/// kernel comes from `withUnsafeBytes`/`withUnsafeMutableBytes` on the caller's own buffer and
/// is used only inside that closure (lifetime); the byte count passed is never more than what
/// is left of that buffer after `done` bytes (bounds: `done` only grows by what the call
/// returned, which is at most what was asked); the buffer is `inout` or a value, so nothing
/// else can touch it meanwhile (exclusivity). Reads only fill arrays of fixed-width integers,
/// for which every bit pattern the file holds is a valid value.
package enum POSIXFile {
    /// A failed call: its `errno`, and how many bytes had been moved before it.
    package struct Failure: Error {
        package let code: Int32
        package let done: Int
        /// `strerror`'s sentence for the code.
        package var reason: String { String(cString: strerror(code)) }
    }

    /// Writes every byte of `bytes` at the descriptor's position, retrying short writes and
    /// interruptions.
    static func writeAll(_ fd: Int32, _ bytes: some ContiguousBytes) throws(Failure) {
        let failure: Failure? = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return Failure(code: errno, done: done)
                }
                done += n
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes every byte of `bytes` at `offset` (`pwrite`: the descriptor's position does not
    /// move), retrying short writes and interruptions.
    static func writeAll(_ fd: Int32, _ bytes: some ContiguousBytes, at offset: Int64) throws(Failure) {
        let failure: Failure? = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return Failure(code: n < 0 ? errno : EIO, done: done) }
                done += n
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// The bytes of `values` (in memory order) written at `offset`, as `writeAll(_:_:at:)`.
    static func writeAll<T: BitwiseCopyable>(_ fd: Int32, integers values: [T], at offset: Int64) throws(Failure) {
        let failure: Failure? = values.withUnsafeBytes { raw in
            do throws(Failure) {
                try writeAll(fd, raw, at: offset)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// One `pread` of up to `count` bytes at `offset` into `buffer`, retried when interrupted:
    /// the bytes read, 0 at the end of the file. For the readers that keep their chunks in memory
    /// they own (`HAEReader`, `ChunkPrefetcher`, `ZipEntryStream`: fenced types, docs/architecture.md,
    /// "Where unsafe code lives"), which hand over `count` writable bytes at `buffer`; a short read
    /// is theirs to go on from, as each chunk is parsed as it comes.
    static func pread(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) throws(Failure) -> Int {
        while true {
            let n = systemPread(fd, buffer, count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw Failure(code: errno, done: 0) }
        }
    }

    /// Fills the first `byteCount` bytes of `buffer` (all of it when nil) from the descriptor's
    /// position, or from `offset` with `pread`, retrying short reads and interruptions. Returns
    /// the bytes read: fewer than asked only when the file ends first.
    package static func fill<T: BitwiseCopyable>(
        _ buffer: inout [T], byteCount: Int? = nil, from fd: Int32, at offset: Int64? = nil
    ) throws(Failure) -> Int {
        let result: Result<Int, Failure> = buffer.withUnsafeMutableBytes { raw in
            let wanted = UnsafeMutableRawBufferPointer(rebasing: raw[0..<min(byteCount ?? raw.count, raw.count)])
            do throws(Failure) {
                return .success(try fill(wanted, from: fd, at: offset))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Fills `raw` as `fill(_:byteCount:from:at:)` fills an array: for `ParallelSAXDriver`, which
    /// reads export.xml straight into the spare capacity of the chunk it is filling (a fenced
    /// type, docs/architecture.md, "Where unsafe code lives"), so that the `read` is the only
    /// copy of a byte before the parsers see it.
    static func fill(_ raw: UnsafeMutableRawBufferPointer, from fd: Int32, at offset: Int64? = nil) throws(Failure) -> Int {
        var done = 0
        let wanted = raw.count
        while done < wanted {
            let p = raw.baseAddress! + done
            let n = offset.map { systemPread(fd, p, wanted - done, off_t($0) + off_t(done)) } ?? read(fd, p, wanted - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno, done: done)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }
}

/// The C library's `pread`, which `POSIXFile.pread` would hide inside the type.
private func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
    pread(fd, buffer, count, offset)
}
