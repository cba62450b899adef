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
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the zlib boundary. The input
/// and output buffers are allocated and freed around one read (`defer`), zlib's
/// `next_in`/`next_out` point only into them with `avail_*` never more than what is left, and
/// `consume` gets a buffer valid for its call only.
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
        var crc = crc32(0, nil, 0)
        let output: (UnsafeRawBufferPointer) throws -> Void = { chunk in
            if checkCRC { crc = crc32(crc, chunk.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(chunk.count)) }
            try consume(chunk)
        }
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw Failure(
                    offset: entry.localHeaderOffset,
                    message: "the ZIP entry \(name) is stored uncompressed but its two sizes differ (damaged archive)")
            }
            try copyStored(from: dataStart, output)
        } else {
            try inflate(from: dataStart, output)
        }
        if checkCRC, UInt32(truncatingIfNeeded: crc) != entry.crc32 {
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

    private func inflate(from start: UInt64, _ output: (UnsafeRawBufferPointer) throws -> Void) throws {
        let name = entry.printableName
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { input.deallocate() }
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { out.deallocate() }
        var stream = z_stream()
        // Raw deflate (negative window bits): ZIP entries carry no zlib header.
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(offset: start, message: "zlib could not start inflating \(name)")
        }
        defer { inflateEnd(&stream) }
        var consumed: UInt64 = 0
        var produced: UInt64 = 0
        var ended = false
        while !ended {
            if stream.avail_in == 0 {
                guard consumed < entry.compressedSize else {
                    throw Failure(
                        offset: start + consumed,
                        message:
                            "the compressed data of the ZIP entry \(name) ends before its deflate stream does (truncated or damaged archive)"
                    )
                }
                let n = try readSome(into: input, at: start + consumed, limit: entry.compressedSize - consumed)
                consumed += UInt64(n)
                stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(n)
            }
            stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(chunkSize)
            let inputBefore = stream.avail_in
            let rc = CZlibSystem.inflate(&stream, Z_NO_FLUSH)
            if rc == Z_BUF_ERROR, stream.avail_in == inputBefore, stream.avail_out == uInt(chunkSize) {
                // zlib's contract says this cannot happen with input and room given; never spin on it.
                throw Failure(offset: start + consumed, message: "the ZIP entry \(name) cannot be inflated (no progress): damaged archive")
            }
            switch rc {
            case Z_STREAM_END: ended = true
            case Z_OK, Z_BUF_ERROR: break
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "zlib error \(rc)"
                throw Failure(
                    offset: start + consumed - UInt64(stream.avail_in),
                    message: "the ZIP entry \(name) cannot be inflated (\(detail)): damaged archive")
            }
            let n = chunkSize - Int(stream.avail_out)
            if UInt64(n) > entry.uncompressedSize - produced {
                // Never more than declared: pass what fits, then stop.
                let fits = Int(entry.uncompressedSize - produced)
                if fits > 0 { try output(UnsafeRawBufferPointer(start: out.baseAddress, count: fits)) }
                throw Failure(
                    offset: start + consumed - UInt64(stream.avail_in),
                    message:
                        "the ZIP entry \(name) inflates to more than the \(entry.uncompressedSize) bytes its header declares; stopped there (damaged or hostile archive)"
                )
            }
            if n > 0 { try output(UnsafeRawBufferPointer(start: out.baseAddress, count: n)) }
            produced += UInt64(n)
        }
        if produced != entry.uncompressedSize {
            throw Failure(
                offset: start + consumed,
                message:
                    "the ZIP entry \(name) inflates to \(produced) bytes, not the \(entry.uncompressedSize) its header declares (damaged archive)"
            )
        }
    }

    /// Up to `chunkSize` (and `limit`) bytes at `offset`; at least one, or a failure.
    private func readSome(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64, limit: UInt64) throws -> Int {
        let want = Int(min(UInt64(buffer.count), limit))
        while true {
            let n = pread(fd, buffer.baseAddress, want, off_t(offset))
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(offset: offset, message: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                throw Failure(
                    offset: offset,
                    message: "the file ends inside the ZIP entry \(entry.printableName) (truncated archive; is the download complete?)")
            }
            return n
        }
    }
}
