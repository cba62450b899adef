#if !canImport(CISAL)
    import CZlibSystem

    extension ZipEntryStream {
        /// Inflates the entry's raw deflate stream with zlib (where ISA-L is not linked: macOS);
        /// returns the CRC-32 of what it wrote.
        func inflate(from start: UInt64, _ output: (UnsafeRawBufferPointer) throws -> Void) throws -> UInt32 {
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
            var crc = crc32(0, nil, 0)
            var progress = InflateProgress(entry: entry, start: start)
            var ended = false
            while !ended {
                if stream.avail_in == 0, !progress.inputEnded {
                    let n = try readSome(into: input, at: start + progress.consumed, limit: entry.compressedSize - progress.consumed)
                    progress.consumed += UInt64(n)
                    stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.avail_in = uInt(n)
                }
                stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(chunkSize)
                let inputBefore = stream.avail_in
                let rc = CZlibSystem.inflate(&stream, Z_NO_FLUSH)
                let pending = Int(stream.avail_in)
                switch rc {
                case Z_STREAM_END: ended = true
                case Z_OK, Z_BUF_ERROR: break
                default: throw progress.damaged(stream.msg.map { String(cString: $0) } ?? "zlib error \(rc)", pendingInput: pending)
                }
                let n = chunkSize - Int(stream.avail_out)
                crc = crc32(crc, out.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(n))
                try progress.deliver(out.baseAddress, n, pendingInput: pending, output)
                if !ended, n == 0, stream.avail_in == inputBefore { throw progress.noProgress(pendingInput: pending) }
            }
            try progress.finish()
            return UInt32(truncatingIfNeeded: crc)
        }
    }
#endif
