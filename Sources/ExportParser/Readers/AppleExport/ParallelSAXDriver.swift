import Foundation

/// The parallel read (`--threads N`, N > 1): after the prolog, export.xml is a flat run of
/// top-level elements, so its bytes are cut into chunks between two of them, `workers` threads
/// parse chunks with independent libxml2 parsers (`ElementRecorder`), and one player thread
/// plays their tapes into the `ExportElementHandler` strictly in file order. The outputs are
/// byte for byte those of `SAXDriver` (tests compare them).
///
/// The cut: once `chunkBytes` are held, the last line feed in them (at most 1.5 × `chunkBytes`
/// searched, not before half of `chunkBytes`; else the first after) followed by one space and a
/// start tag (`\n <Record`): Apple indents top-level elements by one space and nested ones by two
/// or more.
/// That is only a guess (a comment, CDATA section or attribute value may hold such a line), so it
/// is proven afterwards: the chunk before the cut, closed by a synthetic `</HealthData>`, must
/// parse without an error and close the root exactly once. libxml2 then was in the root's content,
/// between elements, at the cut: the state a fresh parser is in after the synthetic
/// `<HealthData>` line the next chunk starts with. A chunk that fails the proof (or holds a real
/// error) is read again by the player's own sequential parser, from its start (a proven cut)
/// to the end of the input, so errors are found, worded and placed as in a sequential read and
/// the first in file order wins. A file without cuts (not indented as Apple's) is read
/// sequentially after `chunkBytes × 4` bytes without one.
///
/// The window read (`window`, `explain`): a worker first cuts out of its chunk the top-level
/// elements that cannot reach the dates asked about (`ExportWindow`), then parses what is left;
/// of a mapped export.xml (`startMapping`) a chunk is a part of the map, and only that is copied.
///
/// Memory: at most N + 2 chunks (their bytes, tapes and dictionaries) are held at a time, and
/// their byte arrays go round through `ChunkByteSpares` instead of being freed and made again.
///
/// Threading: the handler (and the sinks behind it) is used only by the player thread until
/// `finish` (or `settle`) has waited for it; chunks pass through the queues' locks and their
/// `parsed` semaphore.
///
/// The workers' and the player's loops are in `ParallelSAXDriver+Threads.swift`.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `feed`'s buffer (valid for
/// the call; its bytes are copied into chunks); `feed(reading:)` lets `read` write into the
/// uninitialised capacity `Array.append(contentsOf:)` hands to `SpareCapacityRead` (never past it: the read is
/// limited to that buffer's count, and the array counts only the bytes the read returned); the
/// cut search reads a buffer of the array it belongs to inside `withUnsafeBufferPointer`, or
/// the held part of a `MappedFile`, which the driver and every chunk of it keep alive.
// @unchecked Sendable: its handler is used only by the player thread until `finish` has waited for it.
final class ParallelSAXDriver: ExportParse, @unchecked Sendable {
    let file: String
    let chunkBytes: Int
    private var current: [UInt8] = []
    /// Where the forward search for the next cut goes on (bytes before it held none); 0 while the
    /// backward search (`cut`) has not been made for the chunk being filled.
    private var searchFrom = 0
    /// No chunk is cut shorter than half of `chunkBytes`, so an element that ends near a chunk's
    /// end does not leave a small chunk.
    private var minimumCut: Int { chunkBytes / 2 }
    /// Cuts made, and the bytes they moved into the next chunk's buffer (tests: what a cut copies).
    private(set) var cuts = 0
    private(set) var carriedBytes = 0
    private var firstPending = true
    /// No cut was found for too long: the rest goes to the player's sequential parser.
    private var sequentialOnly = false
    private var closed = false
    /// The window read of a mapped export.xml (`startMapping`): the bytes held are
    /// `mappedStart ..< mappedEnd` of the file, not `current`, and chunks point into it.
    private var mapped: MappedFile?
    private var mappedStart = 0, mappedEnd = 0

    private let order: BoundedBatchQueue<ParseChunk>
    private let work: BoundedBatchQueue<ParseChunk>
    private let state = ChunkPlayState()
    private let spares: TapeSpares<ElementTape>
    private let byteSpares: ChunkByteSpares
    private let played = DispatchSemaphore(value: 0)
    private let workersDone = DispatchSemaphore(value: 0)
    private let workerCount: Int
    private var running = true

    init(
        file: String, handler: ExportElementHandler, workers: Int, chunkBytes: Int = ParseThreads.defaultChunkBytes,
        window: ExportWindow? = nil
    ) {
        self.file = file
        self.chunkBytes = max(16, chunkBytes)
        workerCount = max(1, workers)
        // The player's chunk and `inFlight` more: each worker busy with one, one parsed ahead.
        let inFlight = workerCount + 1
        order = BoundedBatchQueue(capacity: inFlight)
        work = BoundedBatchQueue(capacity: inFlight + 1)
        // The tapes of N + 2 chunks (a 1 MiB chunk records one or more) and each worker's tape
        // being recorded are kept, not only 2 × (N + 1): one freed and made again is a 1.5 MiB block
        // whose free raises glibc's mmap threshold and fragments the heap (issue 24). Keeping
        // them holds no more than the most that existed together.
        spares = TapeSpares<ElementTape>(limit: 4 * (inFlight + 1))
        // The chunks held (the player's, `inFlight` queued, one the reading thread may be
        // dispatching) and the one being filled; room for a chunk and one 256 kB read.
        byteSpares = ChunkByteSpares(limit: inFlight + 3, initialCapacity: self.chunkBytes + self.chunkBytes / 2)
        current = byteSpares.reuse()
        searchFrom = 0
        for i in 0..<workerCount {
            NamedThread.start("xml parser \(i + 1)", stackSize: 4 << 20) { [work, state, spares, file, workersDone] in
                Self.parseChunks(from: work, state: state, spares: spares, file: file, window: window)
                workersDone.signal()
            }
        }
        // The handler (and so the sinks and the store) is reached through a box emptied before
        // the signal: once the driver stops waiting, this thread holds none of them (see
        // `HAETapePlayer`).
        let box = Box(handler)
        NamedThread.start("xml player", stackSize: 4 << 20) { [order, state, spares, byteSpares, file, box, played] in
            if let handler = box.value {
                Self.play(order, into: handler, state: state, spares: spares, byteSpares: byteSpares, file: file)
            }
            box.value = nil
            played.signal()
        }
    }

    deinit { stop() }

    // MARK: - The reading thread

    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure = state.failure { throw stopWith(failure) }
        endMapping()  // bytes after a map's go after its held bytes (the session never does this)
        current.append(contentsOf: bytes)
        while current.count >= chunkBytes, try cut() {}
    }

    /// Reads up to `count` bytes of `fd` straight into the spare capacity of the chunk being
    /// filled, filters them there (`PrologFilter.filterInPlace`, once the prolog is behind) and
    /// cuts as `feed` does. The kernel's copy is then the only one a byte gets before a worker
    /// scans it, where `feed` copies every byte once more out of the caller's buffer (with the
    /// control-byte test, a third of the window read's CPU; docs/export-xml.md, "The window
    /// read"). Returns the bytes read, 0 at the end of the file; a failed read throws
    /// `POSIXFile.Failure`, and its bytes are not fed.
    func feed(reading fd: Int32, upTo count: Int, filter: inout PrologFilter) throws -> Int {
        if let failure = state.failure { throw stopWith(failure) }
        let before = current.count
        current.reserveCapacity(before + count)
        var failure: POSIXFile.Failure?
        current.append(
            contentsOf: SpareCapacityRead(count: count) { raw in
                do throws(POSIXFile.Failure) {
                    return try POSIXFile.fill(raw, from: fd)
                } catch {
                    failure = error
                    return 0
                }
            })
        if let failure { throw failure }
        let n = current.count - before
        guard n > 0 else { return 0 }
        let kept: Int
        do {
            kept = try current.withUnsafeMutableBytes { try filter.filterInPlace(UnsafeMutableRawBufferPointer(rebasing: $0[before...])) }
        } catch {
            current.removeLast(n)
            throw error
        }
        if kept < n { current.removeLast(n - kept) }
        while current.count >= chunkBytes, try cut() {}
        return n
    }

    /// Whether `startMapping` may be tried: the first chunk (the prolog) is gone, and cuts are made.
    var canMap: Bool { !firstPending && !sequentialOnly }

    /// The window read of export.xml from its mapping (`MappedFile`): once the first chunk is
    /// gone (the prolog with it), the bytes held go on as the file's from `offset - current.count`
    /// (the bytes read so far end at `offset`), and chunks point into the map: a worker copies
    /// only the elements its window keeps. False (nothing changed) when the held bytes are not
    /// the file's there (the prolog filter changed them) or the read cannot cut chunks.
    func startMapping(_ file: MappedFile, at offset: Int) -> Bool {
        guard mapped == nil, canMap, current.count <= offset, offset <= file.count else { return false }
        let start = offset - current.count
        let same = current.withUnsafeBytes { held in held.isEmpty || memcmp(held.baseAddress!, file.base + start, held.count) == 0 }
        guard same else { return false }
        (mapped, mappedStart, mappedEnd) = (file, start, offset)
        byteSpares.recycle(&current)
        return true
    }

    /// The mapped file's bytes up to `end` are held now: cut as `feed` does.
    func feed(mappedThrough end: Int) throws {
        if let failure = state.failure { throw stopWith(failure) }
        mappedEnd = end
        while mappedEnd - mappedStart >= chunkBytes, try cutMapped() {}
    }

    /// The bytes held in the map go back into `current` (at most a few chunks': the end of the
    /// map, or an error) and reading goes on as before.
    func endMapping() {
        guard let file = mapped else { return }
        current = byteSpares.reuse()
        current.append(contentsOf: file.bytes(mappedStart..<mappedEnd).assumingMemoryBound(to: UInt8.self))
        file.release(mappedStart..<mappedEnd)
        mapped = nil
    }

    /// `cut` of the mapped bytes held: a chunk is a part of the file, nothing is copied here.
    private func cutMapped() throws -> Bool {
        guard let file = mapped else { return false }
        if sequentialOnly {
            try dispatch(
                ParseChunk(bytes: byteSpares.reuse(), first: false, last: false, sequential: true, mapped: part(of: file, mappedEnd)))
            return false
        }
        let held = file.bytes(mappedStart..<mappedEnd).assumingMemoryBound(to: UInt8.self)
        guard let at = cutPoint(in: held) else { return noCut(held: held.count) }
        cuts += 1
        let chunk = ParseChunk(
            bytes: byteSpares.reuse(), first: false, last: false, sequential: false, mapped: part(of: file, mappedStart + at))
        searchFrom = 0
        try dispatch(chunk)
        return true
    }

    /// The held bytes up to `end`, which are held no more.
    private func part(of file: MappedFile, _ end: Int) -> MappedFile.Part {
        defer { mappedStart = end }
        return MappedFile.Part(file: file, range: mappedStart..<end)
    }

    /// A sequence of the bytes one `read` writes into the uninitialised capacity that
    /// `Array.append(contentsOf:)` hands to `_copyContents`: the one way to grow an array by
    /// bytes the kernel writes without writing the bytes first (zeros) or copying them in.
    private struct SpareCapacityRead: Sequence {
        let count: Int
        /// Writes into the buffer, returns how many bytes it wrote (at most the buffer's count).
        let read: (UnsafeMutableRawBufferPointer) -> Int

        func makeIterator() -> EmptyCollection<UInt8>.Iterator { EmptyCollection().makeIterator() }

        __consuming func _copyContents(initializing buffer: UnsafeMutableBufferPointer<UInt8>) -> (EmptyCollection<UInt8>.Iterator, Int) {
            let room = Swift.min(count, buffer.count)
            guard room > 0 else { return (makeIterator(), 0) }
            return (makeIterator(), read(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<room]))))
        }
    }

    /// Control bytes the window read's workers removed (valid once `finish` returned).
    var controlCharactersDropped: Int { state.controlCharactersDropped }

    /// Dispatches the chunk before the next cut; false when no cut is in the bytes yet.
    private func cut() throws -> Bool {
        if firstPending, !sequentialOnly, !Self.declaresUTF8(current) {
            // The chunks' parsers read UTF-8 (they see no XML declaration): a document in another
            // encoding is read by one parser, which honours its declaration.
            sequentialOnly = true
        }
        if sequentialOnly {
            try dispatch(ParseChunk(bytes: current, first: firstPending, last: false, sequential: true))
            current = byteSpares.reuse()
            return false
        }
        let n = current.count
        guard let at = current.withUnsafeBufferPointer({ cutPoint(in: $0) }) else { return noCut(held: n) }
        var rest = byteSpares.reuse()
        rest.append(contentsOf: current[at...])
        cuts += 1
        carriedBytes += n - at
        current.removeLast(n - at)
        let chunk = ParseChunk(bytes: current, first: firstPending, last: false, sequential: false)
        current = rest
        searchFrom = 0
        try dispatch(chunk)
        return true
    }

    /// Where the bytes held (`b`) are cut: after the last line feed before a top-level element.
    /// Searched backwards first, from the end of what is held (up to 1.5 × `chunkBytes`, the
    /// most a chunk and one read make): what follows the last cut, the start of an element not
    /// yet whole (a few hundred bytes), is all that moves into the next chunk's buffer.
    /// Searching forwards from `chunkBytes` moved everything past the first cut instead, half
    /// a read on average: 0.5 GB of copying for a 1 GB export. Nil when there is none yet.
    private func cutPoint(in b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        let reach = min(n, chunkBytes + chunkBytes / 2)
        var from = searchFrom
        let found: Int? = {
            if from == 0 {
                var i = reach - 4
                while i >= minimumCut {
                    if Self.isCut(b, lineFeedAt: i) { return i + 1 }
                    i -= 1
                }
                from = reach - 3
            }
            // None there (an element larger than half a chunk, or a huge feed): the first cut after.
            var i = from
            while i + 3 < n {
                guard let p = memchr(b.baseAddress! + i, 0x0A, n - 3 - i) else { return nil }
                i = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
                if Self.isCut(b, lineFeedAt: i) { return i + 1 }
                i += 1
            }
            return nil
        }()
        // Every byte up to here was looked at: the next search goes on from where this one ended.
        if found == nil { searchFrom = max(from, n - 3) }
        return found
    }

    /// No cut in the `held` bytes: false (wait for more), or, after `chunkBytes × 4` without one
    /// (not laid out as Apple's exports are), true with the rest to be read in one parser.
    private func noCut(held: Int) -> Bool {
        guard held > chunkBytes * 4 else { return false }
        sequentialOnly = true
        return true
    }

    /// Whether a top-level element starts on the line after `i` (`\n <` and a name's first
    /// byte): the cut the backward and the forward search both look for. `i + 3` is in `b`.
    @inline(__always)
    private static func isCut(_ b: UnsafeBufferPointer<UInt8>, lineFeedAt i: Int) -> Bool {
        b[i] == 0x0A && b[i + 1] == 0x20 && b[i + 2] == UInt8(ascii: "<") && startsName(b[i + 3])
    }

    @inline(__always)
    private static func startsName(_ c: UInt8) -> Bool {
        (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || c == UInt8(ascii: "_") || c >= 0x80
    }

    private func dispatch(_ chunk: ParseChunk) throws {
        firstPending = false
        guard order.push([chunk]) else {
            // The player stopped at an error: it is the first in file order.
            throw stopWith(state.failure ?? InputError(file: file, message: "reading stopped"))
        }
        if chunk.sequential { chunk.parsed.signal() } else { work.push([chunk]) }
    }

    func finish() throws {
        if let failure = state.failure { throw stopWith(failure) }
        endMapping()
        let whole = firstPending
        try dispatch(ParseChunk(bytes: current, first: whole, last: true, sequential: whole || sequentialOnly))
        current = []
        stop()
        if let failure = state.failure { throw failure }
        if !state.sawRoot {
            throw InputError(
                file: file, location: state.endLocation,
                message: "no root element: the file ends before <HealthData> (empty or not an export)")
        }
    }

    func settle() throws {
        guard running else {
            if let failure = state.failure { throw failure }
            return
        }
        endMapping()
        if state.failure == nil, !current.isEmpty || firstPending {
            // The bytes so far, read on without the end of input: an error in them comes first.
            try? dispatch(ParseChunk(bytes: current, first: firstPending, last: false, sequential: true))
            current = []
        }
        stop()
        if let failure = state.failure { throw failure }
    }

    private func stopWith(_ failure: InputError) -> InputError {
        stop()
        return failure
    }

    /// Lets the player finish what is queued (or, after a failure, drop it), then waits for
    /// every thread.
    private func stop() {
        guard running else { return }
        running = false
        if state.failure != nil { order.discardAndClose() } else { order.close() }
        played.wait()
        state.stopWorkers()
        // Never discarded: the player may be waiting for a queued chunk's `parsed`.
        work.close()
        for _ in 0..<workerCount { workersDone.wait() }
    }
}
