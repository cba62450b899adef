#if canImport(CISAL)
    import CISAL

    extension ZipEntryStream {
        /// Inflates the entry's raw deflate stream with ISA-L (Intel's igzip), which also keeps
        /// the CRC-32 of what it writes; returns that CRC. On the 983 MB bench export (45 MB
        /// deflated) igzip inflates in 0.18 s of CPU where zlib took 0.6–0.8 s with its `crc32`,
        /// all of it on a third thread beside two busy parsers (docs/export-xml.md, "Inflating the
        /// zip").
        ///
        /// `inflate_state` is about 40 kB (ISA-L's window and tables), so it lives on the heap.
        func inflate(from start: UInt64, _ output: (UnsafeRawBufferPointer) throws -> Void) throws -> UInt32 {
            let input = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { input.deallocate() }
            let out = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { out.deallocate() }
            let state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
            defer { state.deallocate() }
            isal_inflate_init(state)
            // Raw deflate (ZIP entries carry no zlib or gzip header), with the gzip CRC-32 of the
            // output kept in `state.crc`: the same CRC the ZIP directory records.
            state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR)
            var progress = InflateProgress(entry: entry, start: start)
            while state.pointee.block_state != ISAL_BLOCK_FINISH {
                if state.pointee.avail_in == 0, !progress.inputEnded {
                    let n = try readSome(into: input, at: start + progress.consumed, limit: entry.compressedSize - progress.consumed)
                    progress.consumed += UInt64(n)
                    state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    state.pointee.avail_in = UInt32(n)
                }
                state.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                state.pointee.avail_out = UInt32(chunkSize)
                let inputBefore = state.pointee.avail_in
                let rc = isal_inflate(state)
                // ISA-L leaves the vector registers' upper halves dirty, which halves the speed of
                // the legacy-SSE code that reads its output on this thread (CISAL's shim.h).
                if Self.clearsUpperState { cisal_vzeroupper() }
                let pending = Int(state.pointee.avail_in)
                if rc < 0 { throw progress.damaged(Self.problem(rc), pendingInput: pending) }
                let n = chunkSize - Int(state.pointee.avail_out)
                try progress.deliver(out.baseAddress, n, pendingInput: pending, output)
                if n == 0, state.pointee.avail_in == inputBefore, state.pointee.block_state != ISAL_BLOCK_FINISH {
                    throw progress.noProgress(pendingInput: pending)
                }
            }
            try progress.finish()
            return state.pointee.crc
        }

        /// Whether `cisal_vzeroupper` may and should run after each `isal_inflate`: on a CPU
        /// whose AVX the OS enables (ISA-L picks its AVX code only there).
        static let clearsUpperState = cisal_avx_usable() != 0

        /// ISA-L's failures, in its own terms: one code covers several kinds of damage that zlib
        /// names apart (a reserved block type, stored-block lengths that disagree, a bad Huffman
        /// header are all an invalid block), so zlib's sentences would claim more than is known.
        private static func problem(_ rc: Int32) -> String {
            switch rc {
            case ISAL_INVALID_BLOCK: return "invalid deflate block"
            case ISAL_INVALID_SYMBOL: return "invalid deflate code"
            case ISAL_INVALID_LOOKBACK: return "invalid distance too far back"
            default: return "ISA-L error \(rc)"
            }
        }
    }
#endif
