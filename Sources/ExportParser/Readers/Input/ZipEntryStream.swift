import CZlibSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams one entry of a ZIP archive (stored or deflated) in chunks, trusting nothing the archive
/// says: it reads only the entry's own compressed bytes, never writes more than the size its
/// header declares (an entry that inflates further is stopped there and reported), and says so
/// when the data ends early, is encrypted, uses another method or fails its CRC.
///
/// A deflated entry is inflated by ISA-L on Linux and by zlib elsewhere (`ZipEntryStream+ISAL`,
/// `ZipEntryStream+Zlib`); both stop and report the same way (`InflateProgress`).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the zlib and ISA-L
/// boundaries. The input and output buffers are allocated and freed around one read (`defer`),
/// the inflater's `next_in`/`next_out` point only into them with `avail_*` never more than what is
/// left, and `consume` gets a buffer valid for its call only.
struct ZipEntryStream {
    let fd: Int32
    let entry: ZipDirectory.Entry
    let fileSize: UInt64
    var chunkSize = 256 << 10

    typealias Failure = ZipDirectory.Failure

    /// Calls `consume` with the entry's bytes in order, `chunkSize` at most at a time, and checks
    /// the CRC at the end when `checkCRC` (a consumer that wants only the first bytes throws to stop).
    func read(checkCRC: Bool = true, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let name = entry.printableName
        if entry.isEncrypted {
            throw Failure(
                offset: entry.localHeaderOffset,
                message:
                    "the ZIP entry \(name) is encrypted; health-import reads unencrypted exports only (export again without a password)")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw Failure(
                offset: entry.localHeaderOffset,
                message: "the ZIP entry \(name) uses compression method \(entry.method); only stored (0) and deflate (8) are read")
        }
        let header = try ZipDirectory.read(fd: fd, at: entry.localHeaderOffset, count: 30)
        guard header.u32(0) == 0x0403_4B50 else {
            throw Failure(
                offset: entry.localHeaderOffset,
                message: "the ZIP entry \(name) has no local header where the directory says (damaged archive)")
        }
        let dataStart = entry.localHeaderOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
        guard dataStart <= fileSize, entry.compressedSize <= fileSize - dataStart else {
            throw Failure(
                offset: dataStart,
                message:
                    "the ZIP entry \(name) needs \(entry.compressedSize) bytes from byte \(dataStart), past the end of the file (truncated archive; is the download complete?)"
            )
        }
        let crc: UInt32
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw Failure(
                    offset: entry.localHeaderOffset,
                    message: "the ZIP entry \(name) is stored uncompressed but its two sizes differ (damaged archive)")
            }
            var stored = crc32(0, nil, 0)
            try copyStored(from: dataStart) { chunk in
                if checkCRC { stored = crc32(stored, chunk.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(chunk.count)) }
                try consume(chunk)
            }
            crc = UInt32(truncatingIfNeeded: stored)
        } else {
            // The inflater computes the CRC-32 of what it writes as it goes (ISA-L in its own
            // loop, at a fraction of zlib's `crc32` cost).
            crc = try inflate(from: dataStart, consume)
        }
        if checkCRC, crc != entry.crc32 {
            throw Failure(offset: dataStart, message: "the ZIP entry \(name) is corrupt (CRC mismatch)")
        }
    }

    private func copyStored(from start: UInt64, _ output: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var done: UInt64 = 0
        while done < entry.compressedSize {
            let n = try readSome(into: buffer, at: start + done, limit: entry.compressedSize - done)
            try output(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            done += UInt64(n)
        }
    }

    /// Up to `chunkSize` (and `limit`) bytes at `offset`; at least one, or a failure.
    func readSome(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64, limit: UInt64) throws -> Int {
        let want = Int(min(UInt64(buffer.count), limit))
        let n: Int
        do throws(POSIXFile.Failure) {
            n = try POSIXFile.pread(fd, into: buffer.baseAddress!, count: want, at: Int64(offset))
        } catch {
            throw Failure(offset: offset, message: "read failed: \(error.reason)")
        }
        if n == 0 {
            throw Failure(
                offset: offset,
                message: "the file ends inside the ZIP entry \(entry.printableName) (truncated archive; is the download complete?)")
        }
        return n
    }
}
