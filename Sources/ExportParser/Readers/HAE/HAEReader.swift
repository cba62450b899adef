import CYajl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a Health Auto Export JSON file (docs/hae.md) into a `SampleSink`.
///
/// The file streams through yajl in 256 KiB chunks; `HAEDocumentWalker` turns the events into
/// samples, sleep nights, workouts and extra items a datum at a time, so memory stays flat
/// whatever the file size. Datums of a metric whose `name`/`units` come after its `data` wait,
/// decoded, until the metric ends; past `pendingLimit` the metric's bytes are parsed again
/// instead (`HAEDatumFields`).
///
/// Accepted shapes: `{"data": {…}}`, the bare inner object `{metrics, workouts, …}`, and a
/// top-level array of either. Record-level problems (a datum without a date, an unknown unit,
/// a metric outside the catalog) are counted in the `ReadReport` with their JSON path and byte
/// offset; only unreadable JSON (bad, truncated, empty) throws.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the yajl boundary. The
/// walker (or tape player) reaches the C callbacks through `Unmanaged.passUnretained`: safe because
/// the parse runs inside `parse`, while the caller holds the object. The read buffer is allocated
/// and freed in `read` around the parse and fed to yajl a chunk at a time; the bytes yajl hands to
/// callbacks are valid only during them, and the receivers copy what they keep.
struct HAEReader {
    let path: String
    static let chunkSize = 256 * 1024
    /// How many datums may wait for a late `name`/`units` before the metric is re-read instead
    /// (see `HAEDatumFields`). Internal so tests can force the re-read path.
    let pendingLimit: Int
    /// Called about every 16 MB with (bytes read, file size), on the reading thread.
    var progress: ((Int64, Int64?) -> Void)?
    /// Byte offsets, ascending, at which a chunk handed to yajl must end besides every
    /// `chunkSize`: the fuzz targets (`FuzzEntry`) and tests cut a document anywhere.
    var splits: [Int64] = []
    /// Whether the main pass takes the indentation out before yajl reads it
    /// (`JSONIndentStripper`). Internal so tests can read a file both ways and compare. A window
    /// read of a mapped file strips nothing either way (`parse`).
    var stripIndentation = true
    /// `compare`'s window read (issue 42): datums far from the window are skipped into its census
    /// instead of being read (`HAEWindowSkipper`, docs/hae.md "The window read"). Nil: a full read.
    var window: HAEWindowSkipper?
    static let progressInterval: Int64 = 16 << 20
    /// The longest string or number read: yajl holds a token whole in memory until it ends, so a
    /// hostile file with a 1 GB string would take gigabytes. Health Auto Export's longest
    /// strings are names and sources of a few hundred bytes; 16 MiB is far beyond any real one.
    static let tokenLimit: Int64 = 16 << 20

    init(path: String) {
        self.init(path: path, pendingLimit: 50_000)
    }

    init(path: String, pendingLimit: Int) {
        self.path = path
        self.pendingLimit = pendingLimit
    }

    /// Streams the file (or, with `range`, the one JSON value at those bytes: a line of a JSON
    /// Lines file of bodies) into `sink`: `begin`, samples / sleep summaries / workouts / extras in
    /// document order, `finish`. No `exportDate`: HAE states none, and the file's modification
    /// time is no property of the data (the day book dates the payloads by the data instead). The
    /// modification time bounds the data, though: nothing in the file can have started after the
    /// file was written, so a datum, night or workout that does (a clock set wrong, a datum in
    /// 2999) is skipped and counted (docs/hae.md, "The file's time bounds the data").
    /// Throws `InputError` (byte offset, JSON path, yajl's message) for bad, truncated or empty JSON.
    func read(into sink: SampleSink, range: Range<Int64>? = nil) throws -> ReadReport {
        let fd = try InputFile.openRegular(path: path)
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InputError(file: path, message: "cannot stat: \(String(cString: strerror(errno)))") }
        let first = range?.lowerBound ?? 0
        let end = range.map { Swift.min($0.upperBound, Int64(st.st_size)) } ?? Int64(st.st_size)
        let size = end - first
        guard size > 0 else {
            throw InputError(file: path, location: InputLocation(byteOffset: first), message: "empty file: no JSON document")
        }

        let input = InputDescription(path: path, format: .hae, byteCount: size)
        sink.begin(input)

        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.chunkSize)
        defer { buffer.deallocate() }
        let moment = FileTimes.modificationSeconds(st)
        let walker = HAEDocumentWalker(sink: sink, pendingLimit: pendingLimit)
        walker.moment = moment
        // The first pass runs on two threads (yajl here, the walker on a decoder thread).
        window?.moment = moment
        let player = HAETapePlayer(walker: walker, window: window)
        try parse(
            fd: fd, from: first, to: range == nil ? nil : end, walker: walker, player: player, buffer: buffer,
            progress: progress.map { p in { p($0 - first, size) } })
        window?.heartRateDecisions = walker.heartRateDecisions
        guard walker.sawHAEShape else {
            throw InputError(file: path, message: "is not Health Auto Export JSON (no data.metrics or data.workouts)")
        }
        var report = walker.report
        // A second pass, on this thread, over the metrics whose datums overflowed while waiting
        // for their name and units (written after `data`): each from its own bytes, now known.
        // The player's thread has ended (parse waited for it): the sink is this thread's again.
        if !walker.metricsToReread.isEmpty { sink.takeOver() }
        for m in walker.metricsToReread {
            let again = HAEDocumentWalker(sink: sink, replayMetric: (m.name, m.units, m.path))
            again.moment = moment
            try parse(fd: fd, from: m.start, to: m.end, walker: again, buffer: buffer)
            report.merge(again.report)
        }
        progress?(size, size)
        report.bytesRead = size
        sink.finish(input, report: report)
        return report
    }

    /// Feeds bytes `from..<to` (to the end of the file when `to` is nil) through a new yajl
    /// handle, in `chunkSize` pieces read with `pread`: into `walker` directly, or, with a
    /// `player`, recorded onto tapes that the player's thread plays into the walker. Returns when
    /// the walker has seen every event.
    private func parse(
        fd: Int32, from: Int64, to: Int64?, walker: HAEDocumentWalker, player: HAETapePlayer? = nil,
        buffer: UnsafeMutablePointer<UInt8>, progress: ((Int64) -> Void)? = nil
    ) throws {
        var callbacks = player == nil ? Self.callbacks : HAETapePlayer.callbacks
        let context = player.map { Unmanaged.passUnretained($0).toOpaque() } ?? Unmanaged.passUnretained(walker).toOpaque()
        try withUnsafePointer(to: &callbacks) { cb in
            guard let handle = yajl_alloc(cb, nil, context) else { throw InputError(file: path, message: "yajl_alloc failed") }
            defer { yajl_free(handle) }
            if let player { player.handle = handle } else { walker.handle = handle }
            func beginChunk(_ offset: Int64, runs: StrippedRuns?) {
                if let player { player.beginChunk(base: offset, runs: runs) } else { walker.chunkBase = offset }
            }
            // Waits for the decoder thread to play everything recorded; throws why the walker
            // stopped, if it did (that came before anything yajl found later).
            func drain() throws {
                if let player, let f = player.finish() {
                    throw InputError(file: path, location: InputLocation(byteOffset: f.offset, path: f.path), message: f.message)
                }
            }
            // The main pass reads ahead on a thread of its own (the same reads, in the same order:
            // `ChunkPrefetcher`), so `pread`'s copy is not this thread's work: it is the critical
            // path of the pass (docs/hae.md, "Leaner datums"). There it also takes out the
            // indentation yajl would otherwise lex byte by byte (docs/hae.md, "Indentation taken
            // out before yajl"). A replay reads for itself, every byte.
            // A window read maps the file instead (`MappedFile`, a local regular file): the
            // recogniser passes over nearly every byte where it lies, with no copy, no stripping
            // and no second thread; yajl reads the few it is given as written (docs/hae.md,
            // "The window read", "In place").
            let mapped = player?.window == nil ? nil : MappedFile(fd: fd)
            let ahead =
                player == nil || mapped != nil
                ? nil
                : ChunkPrefetcher(
                    fd: fd, from: from, to: to, chunkSize: Self.chunkSize, splits: splits, stripIndentation: stripIndentation)
            defer { ahead?.stop() }
            var offset = from
            var nextProgress = from + Self.progressInterval
            while to.map({ offset < $0 }) ?? true {
                var chunk: ChunkPrefetcher.Chunk?
                let read: UnsafePointer<UInt8>
                let n: Int  // bytes to parse
                let fileCount: Int  // bytes of the file they stand for
                if let ahead {
                    let c = ahead.next()
                    if let err = c.error {
                        try drain()
                        throw InputError(
                            file: path, location: InputLocation(byteOffset: offset),
                            message: "read failed: \(String(cString: strerror(err)))")
                    }
                    chunk = c
                    read = UnsafePointer(c.bytes)
                    n = c.count
                    fileCount = c.fileCount
                } else if let mapped {
                    let want = ChunkPrefetcher.readSize(at: offset, to: to, chunkSize: Self.chunkSize, splits: splits)
                    n = Int(Swift.max(0, Swift.min(Int64(want), Int64(mapped.count) - offset)))
                    read = mapped.base.assumingMemoryBound(to: UInt8.self) + Int(offset)
                    fileCount = n
                } else {
                    let want = ChunkPrefetcher.readSize(at: offset, to: to, chunkSize: Self.chunkSize, splits: splits)
                    let got: Int
                    do throws(POSIXFile.Failure) {
                        got = try POSIXFile.pread(fd, into: buffer, count: want, at: offset)
                    } catch {
                        try drain()
                        throw InputError(file: path, location: InputLocation(byteOffset: offset), message: "read failed: \(error.reason)")
                    }
                    read = UnsafePointer(buffer)
                    n = got
                    fileCount = got
                }
                if fileCount == 0 { break }
                let fileEnd = offset + Int64(fileCount)
                // (Stripping leaves a byte-order mark first: it holds no line feed.)
                let mark = Self.byteOrderMarkLength(at: offset, read, n)
                if mark > 0 { chunk?.runs?.shift(by: mark) }
                offset += Int64(mark)
                beginChunk(offset, runs: chunk?.runs)
                let status =
                    player?.window == nil
                    ? yajl_parse(handle, read + mark, n - mark) : Self.parseSkipping(handle, read + mark, n - mark, player: player!)
                if status != yajl_status_ok {
                    try drain()
                    // yajl found the JSON broken in bytes it read stripped: where it says depends
                    // on the bytes around (an offset it moves back to a token's start lands on a
                    // taken-out run's edge), so the file's own bytes are read again to find it.
                    // So is a window read's, which yajl read in pieces around the runs skipped.
                    if status == yajl_status_error, chunk?.runs != nil || player?.window != nil,
                        let e = firstError(fd: fd, from: from, to: fileEnd, walker: walker, buffer: buffer)
                    {
                        throw e
                    }
                    let consumed = Int(yajl_get_bytes_consumed(handle))
                    let at = player?.fileOffset(errorAt: consumed) ?? offset + Int64(consumed)
                    throw error(
                        handle, walker, status, fd: fd, at: at,
                        excerptFrom: consumed + (player?.pieceStart ?? 0) > 0 ? offset..<fileEnd : nil)
                }
                // yajl keeps no pointer into the chunk once `yajl_parse` returns (a token cut by the
                // chunk's end is copied into its own buffer): the buffer can be read into again.
                if let chunk { ahead?.done(with: chunk) }
                // The pages read go back (the page cache keeps them): resident memory stays that
                // of a few chunks, not the file's.
                mapped?.release(Int(offset)..<Int(fileEnd))
                offset = fileEnd
                // No event for longer than any token may be: yajl is holding one huge token.
                // (The main pass only: a replay re-reads bytes the main pass already accepted.)
                if let player, offset - player.lastEventOffset > Self.tokenLimit {
                    try drain()
                    throw InputError(
                        file: path, location: InputLocation(byteOffset: player.lastEventOffset, path: walker.currentPath()),
                        message:
                            "no JSON value ends within 16 MiB after this point: a string or number longer than 16 MiB (the limit; Health Auto Export writes none) or a damaged file"
                    )
                }
                if let progress, offset >= nextProgress {
                    progress(offset)
                    nextProgress = offset + Self.progressInterval
                }
            }
            beginChunk(offset, runs: nil)
            let status = yajl_complete_parse(handle)
            try drain()
            if status != yajl_status_ok {
                if !(player?.recordedAny ?? walker.sawValue) {
                    throw InputError(
                        file: path, location: InputLocation(byteOffset: 0), message: "empty file: no JSON document (only whitespace)")
                }
                throw error(handle, walker, status, fd: fd, at: offset, excerptFrom: nil)
            }
        }
    }

    /// A window read's `yajl_parse` of one chunk (`bytes[0..<n]`, after any byte-order mark): the
    /// chunk in pieces, each run of skippable datums left out (docs/hae.md, "The window read").
    /// A `}` whose next unit `,{…}` the recogniser takes is a candidate: yajl reads through it, and
    /// if that `}` closed a datum of a skippable metric (`HAEWindowSkipper.canSkip`, and yajl's
    /// last object ended exactly there, not inside a string), the run of datums after it that may
    /// be skipped is left out, the walker told by one event. yajl then reads on from the run's
    /// end, in the state it had after the `}`: inside the array, after a value.
    private static func parseSkipping(_ handle: yajl_handle, _ bytes: UnsafePointer<UInt8>, _ n: Int, player: HAETapePlayer)
        -> yajl_status
    {
        guard let window = player.window else { return yajl_parse(handle, bytes, n) }
        var fed = 0  // bytes given to yajl (or skipped) so far
        var search = 0  // where the next candidate is looked for
        while search < n {
            guard let found = memchr(bytes + search, 0x7D, n - search) else { break }
            let q = UnsafeRawPointer(bytes).distance(to: found)
            search = q + 1
            guard window.recognises(bytes, from: q + 1, to: n) else { continue }
            player.beginPiece(at: fed)
            let status = yajl_parse(handle, bytes + fed, q + 1 - fed)
            fed = q + 1
            if status != yajl_status_ok { return status }
            guard window.canSkip, player.lastEndMap == q + 1 else { continue }
            let run = window.run(bytes, from: q + 1, to: n)
            guard run.count > 0 else { continue }
            if !player.recordSkip(run) { return yajl_status_client_canceled }
            fed = run.end
            search = run.end
        }
        player.beginPiece(at: fed)
        return fed < n ? yajl_parse(handle, bytes + fed, n - fed) : yajl_status_ok
    }

    /// How many bytes of a chunk read at file offset `offset` are a UTF-8 byte-order mark (3, or
    /// 0): not JSON, but some editors add one. Only the file's first bytes can be one. The one
    /// rule for a pass and for `firstError`, which must read the same bytes.
    static func byteOrderMarkLength(at offset: Int64, _ bytes: UnsafePointer<UInt8>, _ n: Int) -> Int {
        offset == 0 && n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// yajl's first error in the file's bytes `from..<to`, read as they are, in the chunks a
    /// read without stripping reads (`ChunkPrefetcher.readSize`, the byte-order mark skipped),
    /// by a handle with no callbacks: the error, offset and excerpt that read would report,
    /// with the JSON path the walker reached (the events before an error are the same stripped
    /// or not). Nil if the bytes hold none (they always do when a stripped read failed there).
    /// Costs a second parse up to the error, once, on a file that cannot be read anyway.
    private func firstError(fd: Int32, from: Int64, to: Int64, walker: HAEDocumentWalker, buffer: UnsafeMutablePointer<UInt8>)
        -> InputError?
    {
        var callbacks = yajl_callbacks()
        return withUnsafePointer(to: &callbacks) { cb -> InputError? in
            guard let handle = yajl_alloc(cb, nil, nil) else { return nil }
            defer { yajl_free(handle) }
            var offset = from
            while offset < to {
                let want = ChunkPrefetcher.readSize(at: offset, to: to, chunkSize: Self.chunkSize, splits: splits)
                guard let got = try? POSIXFile.pread(fd, into: buffer, count: want, at: offset), got > 0 else { return nil }
                let mark = Self.byteOrderMarkLength(at: offset, buffer, got)
                let base = offset + Int64(mark)
                let status = yajl_parse(handle, buffer + mark, got - mark)
                if status != yajl_status_ok {
                    let consumed = Int(yajl_get_bytes_consumed(handle))
                    return error(
                        handle, walker, status, fd: fd, at: base + Int64(consumed),
                        excerptFrom: consumed > 0 ? base..<(offset + Int64(got)) : nil)
                }
                offset += Int64(got)
            }
            return nil
        }
    }

    /// An `InputError` for a failed `yajl_parse`/`yajl_complete_parse`: where (`at`, the file
    /// offset yajl reached, and the JSON path of the last good position) and what (yajl's
    /// message, plus the file's text just before `at`, within `excerptFrom`: the chunk's bytes as
    /// the file holds them, read again since yajl may have read them stripped).
    private func error(
        _ handle: yajl_handle, _ walker: HAEDocumentWalker, _ status: yajl_status, fd: Int32, at: Int64,
        excerptFrom chunk: Range<Int64>?
    ) -> InputError {
        let location = InputLocation(byteOffset: at, path: walker.currentPath())
        if status == yajl_status_client_canceled {
            return InputError(file: path, location: location, message: walker.fatalMessage ?? "reading stopped")
        }
        var message = "invalid JSON"
        if let text = yajl_get_error(handle, 0, nil, 0) {
            message = String(cString: text).trimmingCharacters(in: " \n")
            yajl_free_error(handle, text)
        }
        if message.contains("premature EOF") { message += " (the file is truncated)" }
        if let chunk {
            let from = Swift.max(chunk.lowerBound, at - 40), to = Swift.min(chunk.upperBound, at + 1)
            var bytes = [UInt8](repeating: 0, count: Int(Swift.max(0, to - from)))
            let got = (try? POSIXFile.fill(&bytes, from: fd, at: from)) ?? 0
            if got > 0 {
                let excerpt = String(decoding: bytes.prefix(got), as: UTF8.self).map { $0.isNewline || $0 == "\t" ? " " : $0 }
                message += " near: …" + String(excerpt)
            }
        }
        return InputError(file: path, location: location, message: message)
    }

    /// yajl's callbacks: non-capturing trampolines into the walker passed as the context.
    /// Numbers arrive as their text (`yajl_number`), so precision and parsing are ours.
    static let callbacks: yajl_callbacks = {
        // `_withUnsafeGuaranteedRef` calls into the walker without a retain/release pair per
        // event (the reader keeps the walker alive for the whole parse).
        @inline(__always) func with(_ ctx: UnsafeMutableRawPointer?, _ body: (HAEDocumentWalker) -> Bool) -> Int32 {
            Unmanaged<HAEDocumentWalker>.fromOpaque(ctx!)._withUnsafeGuaranteedRef(body) ? 1 : 0
        }
        var c = yajl_callbacks()
        c.yajl_null = { ctx in with(ctx) { $0.literal("null", isNull: true) } }
        c.yajl_boolean = { ctx, v in with(ctx) { $0.literal(v != 0 ? "true" : "false") } }
        c.yajl_number = { ctx, p, n in
            with(ctx) { $0.number(UnsafeRawPointer(p!).assumingMemoryBound(to: UInt8.self), Int(n)) }
        }
        c.yajl_string = { ctx, p, n in with(ctx) { $0.string(p!, Int(n)) } }
        c.yajl_start_map = { ctx in with(ctx) { $0.startMap() } }
        c.yajl_map_key = { ctx, p, n in with(ctx) { $0.mapKey(p!, Int(n)) } }
        c.yajl_end_map = { ctx in with(ctx) { $0.endMap() } }
        c.yajl_start_array = { ctx in with(ctx) { $0.startArray() } }
        c.yajl_end_array = { ctx in with(ctx) { $0.endArray() } }
        return c
    }()
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
