import CYajl
import Foundation

/// The two-thread main pass over a HAE file: yajl's callbacks (on the reading thread) only record
/// events onto `HAEEventTape`s; a player thread plays them into the walker, and so into the day
/// book and the store, through a `TapePipeline` (tapes recycled, at most four waiting).
///
/// Threading: the walker (and the sinks behind it) is used only by the player thread until
/// `finish` has waited for it (see `TapePipeline`). Hence `@unchecked Sendable`.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): it records yajl's callbacks
/// onto the current tape through copies of the tape's pointers, refreshed whenever the tape is
/// replaced or grows, so it never writes through a stale one; yajl's bytes are copied before the
/// callback returns (`copy`: loads and stores only inside the token's bytes and the room
/// reserved). It reaches the callbacks through `Unmanaged` as `HAEReader` says.
// @unchecked Sendable: its walker is used only by the player thread until `finish` has waited for it.
final class HAETapePlayer: @unchecked Sendable {
    let walker: HAEDocumentWalker
    /// Set by the reader (`beginChunk`): the file offset of the chunk yajl is parsing, and the
    /// handle.
    private(set) var chunkBase: Int64 = 0
    var handle: yajl_handle?
    /// `compare`'s window read (nil: a full read): told of the structure as the events come, it
    /// says when the reader may skip datums (`HAEWindowSkipper`).
    let window: HAEWindowSkipper?
    /// The same, for the callbacks (every key, string and container): reached through
    /// `Unmanaged`, as the player itself is (`window` keeps it alive), since a strong reference
    /// was retained and released around each call (perf: 3 % of the window read's reading
    /// thread for the keys and strings; objdump: the containers' too).
    private let windowRef: Unmanaged<HAEWindowSkipper>?
    /// Where in the chunk the bytes now given to yajl begin: a window read gives a chunk in
    /// pieces around the runs it skips, and yajl counts its offsets from each piece's start.
    private(set) var pieceStart = 0
    /// The chunk offset just past the `}` of the last object yajl closed (window reads only).
    private(set) var lastEndMap = -1
    /// Where the chunk's indentation was taken out (`StrippedRuns`): `runPositions` ends with the
    /// sentinel `Int32.max`; `runCursor` is the first run not yet before yajl's offset, and
    /// `removedSoFar` the bytes taken out before it. yajl's offsets only grow within a chunk, so
    /// each event moves the cursor forward past the runs it passed (about one a line).
    private var runs: StrippedRuns
    private var runPositions: UnsafePointer<Int32>
    private var runRemoved: UnsafePointer<Int32>
    private var runCursor = 0
    private var removedSoFar = 0
    /// The runs of a chunk read as it is: none (the sentinel alone).
    private let noRuns = StrippedRuns(chunkSize: 2)
    /// Whether any event was recorded (an all-whitespace file has none).
    var recordedAny: Bool { eventCount > 0 || handedOverOffset != nil }
    /// The byte offset yajl had reached at the last event: the reader stops a file in which no
    /// token ends for too long (yajl would hold the whole token in memory). Read from the tape
    /// once a chunk, not kept per event (the recording is the reading thread's extra work over
    /// yajl's, on the critical path: docs/hae.md, "The reading thread and the writing").
    var lastEventOffset: Int64 { eventCount > 0 ? events[eventCount - 1].offset : handedOverOffset ?? 0 }
    /// The offset of the last event of the last tape handed over (nil before the first).
    private var handedOverOffset: Int64?
    typealias Failure = (message: String, offset: Int64, path: String)

    private var tape = HAEEventTape()
    // The current tape's storage, written here directly (see `HAEEventTape`).
    private var events: UnsafeMutablePointer<HAEEventTape.Event>
    private var eventCount = 0
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCount = 0
    private var byteCapacity: Int
    private let pipeline: TapePipeline<HAEEventTape>
    private var finishing = false
    private let shared = Shared()
    /// The decoder thread's name, as `perf` and `top -H` show it (see `NamedThread`): without it
    /// a profile cannot tell its work (page faults, retains) from the reading thread's
    /// (docs/hae.md, "What limits it").
    static let threadName = "hae-decoder"

    /// Why the walker stopped, with where (set by the player thread, read after `finish`).
    // @unchecked Sendable: written before the player's end is signalled, read after it.
    private final class Shared: @unchecked Sendable {
        var failure: Failure?
    }

    init(walker: HAEDocumentWalker, window: HAEWindowSkipper? = nil) {
        self.walker = walker
        self.window = window
        windowRef = window.map { Unmanaged.passUnretained($0) }
        runs = noRuns
        runPositions = UnsafePointer(noRuns.positions)
        runRemoved = UnsafePointer(noRuns.removedThrough)
        events = tape.events
        bytes = tape.bytes
        byteCapacity = tape.byteCapacity
        walker.handle = nil  // offsets come from the tape
        pipeline = TapePipeline(
            consumer: walker, threadName: HAETapePlayer.threadName,
            begin: { walker in
                // The sinks are this thread's from now on: the thread's start orders its accesses after
                // the previous feeder's (one body of an HAE set after another, each on its own thread).
                walker.sink.takeOver()
            },
            play: { [shared] t, walker in
                if t.play(into: walker) { return true }
                shared.failure = (walker.fatalMessage ?? "reading stopped", walker.currentOffset, walker.currentPath())
                return false
            })
    }

    deinit { _ = finish() }

    /// yajl is about to parse a chunk read at file offset `base`, stripped as `runs` says (nil:
    /// as read). The runs must stay as they are until the next chunk begins.
    func beginChunk(base: Int64, runs: StrippedRuns?) {
        chunkBase = base
        self.runs = runs ?? noRuns
        runPositions = UnsafePointer(self.runs.positions)
        runRemoved = UnsafePointer(self.runs.removedThrough)
        runCursor = 0
        removedSoFar = 0
        pieceStart = 0
        lastEndMap = -1
    }

    /// yajl is about to parse the chunk's bytes from `start` (stripped offsets, ascending).
    func beginPiece(at start: Int) { pieceStart = start }

    /// The file offset of yajl's error offset `consumed` in the current chunk. Unlike an event's,
    /// an error's offset may be moved back to the start of the offending token, which can be a
    /// run's edge: a run exactly there lies before it (`removed(before: consumed + 1)`). An
    /// offset just past a byte never sits on a run's edge unless that byte is the line feed the
    /// run follows, and yajl reports a line feed it refuses at the line feed, not past it.
    /// (`HAEReader` finds a stripped read's error again in the file's own bytes; this is the
    /// answer when it cannot.)
    func fileOffset(errorAt consumed: Int) -> Int64 {
        let consumed = pieceStart + consumed
        return chunkBase + Int64(consumed + runs.removed(before: consumed + 1))
    }

    /// The file offset yajl has reached at this event: its offset in the chunk, plus the bytes
    /// taken out before it (the runs strictly before it: `StrippedRuns.removed(before:)`).
    @inline(__always)
    private func eventOffset() -> Int64 {
        offset(atChunk: pieceStart &+ Int(truncatingIfNeeded: yajl_get_bytes_consumed(handle)))
    }

    /// The file offset of chunk offset `consumed`, which is never before the last one asked.
    @inline(__always)
    private func offset(atChunk consumed: Int) -> Int64 {
        var i = runCursor
        // Stops at the sentinel (`Int32.max`) at the latest.
        while Int(runPositions[i]) < consumed {
            removedSoFar = Int(runRemoved[i])
            i &+= 1
        }
        runCursor = i
        return chunkBase &+ Int64(truncatingIfNeeded: consumed &+ removedSoFar)
    }

    /// Records one event; false when the player has stopped (the callback then stops yajl).
    /// Wrapping arithmetic: the counts stay under the tape's limits (checked after each event)
    /// and offsets under the file's size, so no overflow check is needed per event.
    @inline(__always)
    func record(_ kind: HAEEventTape.Kind) -> Bool {
        let n = eventCount
        events[n] = HAEEventTape.Event(kind: kind, length: 0, start: 0, offset: eventOffset())
        eventCount = n &+ 1
        return n &+ 1 >= HAEEventTape.eventLimit ? handOver() : true
    }

    @inline(__always)
    func record(_ kind: HAEEventTape.Kind, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let at = room(for: n)
        Self.copy(p, n, to: bytes + at)
        let e = eventCount
        // `n` fits in Int32: the reader stops any token longer than `HAEReader.tokenLimit`.
        events[e] = HAEEventTape.Event(
            kind: kind, length: Int32(truncatingIfNeeded: n), start: Int32(truncatingIfNeeded: at), offset: eventOffset())
        eventCount = e &+ 1
        byteCount = at &+ n
        return e &+ 1 >= HAEEventTape.eventLimit || at &+ n >= HAEEventTape.byteLimit ? handOver() : true
    }

    /// Where the next `n` bytes of the tape go (`byteCount`): the tape's buffer grown first when
    /// they do not fit.
    @inline(__always)
    private func room(for n: Int) -> Int {
        if byteCount &+ n > byteCapacity {
            tape.byteCount = byteCount
            tape.reserveBytes(n)
            bytes = tape.bytes
            byteCapacity = tape.byteCapacity
        }
        return byteCount
    }

    /// A container opens: recorded, and the window read told.
    @inline(__always)
    private func open(_ kind: HAEEventTape.Kind) -> Bool {
        let ok = record(kind)
        let offset = lastEventOffset
        windowRef?._withUnsafeGuaranteedRef { $0.open(isArray: kind == .startArray, offset: offset) }
        return ok
    }

    /// A container closes: recorded, and the window read told (with where an object ended).
    @inline(__always)
    private func close(_ kind: HAEEventTape.Kind) -> Bool {
        let ok = record(kind)
        if let windowRef {
            windowRef._withUnsafeGuaranteedRef { $0.close() }
            if kind == .endMap { lastEndMap = pieceStart &+ Int(truncatingIfNeeded: yajl_get_bytes_consumed(handle)) }
        }
        return ok
    }

    /// The reader skipped a run of datums (`HAEWindowSkipper.run`) that ends at chunk offset
    /// `end`: one event for the walker, at the file offset where the run ends, carrying what the
    /// walker needs (`HAEDocumentWalker.skipped`).
    func recordSkip(_ run: HAEWindowSkipper.Run) -> Bool {
        var words: (Int32, Int32, Int32, Int32, Int32) = (run.count, run.holds, run.firstNotMidnight, run.sign, Int32(run.lastKey.rawValue))
        let n = MemoryLayout.size(ofValue: words)
        let at = room(for: n)
        withUnsafeBytes(of: &words) { UnsafeMutableRawPointer(bytes + at).copyMemory(from: $0.baseAddress!, byteCount: n) }
        let e = eventCount
        events[e] = HAEEventTape.Event(
            kind: .skipped, length: Int32(n), start: Int32(truncatingIfNeeded: at), offset: offset(atChunk: run.end))
        eventCount = e &+ 1
        byteCount = at &+ n
        return e &+ 1 >= HAEEventTape.eventLimit || at &+ n >= HAEEventTape.byteLimit ? handOver() : true
    }

    /// Copies `n` bytes from `source` to `target` (not overlapping). A token is most often a
    /// key, a number or a date of 2 to 32 bytes: those are copied with two loads and two stores
    /// that may overlap each other (never reading or writing outside the `n` bytes) instead of a
    /// call to `memmove` (about 15 instructions of the ≈ 60 an event costs this thread).
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, _ n: Int, to target: UnsafeMutablePointer<UInt8>) {
        let s = UnsafeRawPointer(source), t = UnsafeMutableRawPointer(target)
        func two<T>(_: T.Type) {
            let k = MemoryLayout<T>.size
            let a = s.loadUnaligned(as: T.self), b = s.loadUnaligned(fromByteOffset: n &- k, as: T.self)
            t.storeBytes(of: a, as: T.self)
            t.storeBytes(of: b, toByteOffset: n &- k, as: T.self)
        }
        switch n {
        case 16...32: two(SIMD16<UInt8>.self)
        case 8..<16: two(UInt64.self)
        case 4..<8: two(UInt32.self)
        case 1..<4:
            for i in 0..<n { target[i] = source[i] }
        case 0: break
        default: target.update(from: source, count: n)
        }
    }

    /// Closes the current tape (its counts written back) and hands it to the decoder thread.
    private func handOver() -> Bool {
        if eventCount > 0 { handedOverOffset = events[eventCount - 1].offset }
        tape.eventCount = eventCount
        tape.byteCount = byteCount
        let accepted = pipeline.push(tape)
        tape = pipeline.spares.reuse()
        events = tape.events
        bytes = tape.bytes
        byteCapacity = tape.byteCapacity
        eventCount = 0
        byteCount = 0
        return accepted
    }

    /// Hands over what is recorded and waits until the walker has played it all. Returns why the
    /// walker stopped, if it did. Safe to call more than once.
    func finish() -> Failure? {
        if finishing { return shared.failure }
        finishing = true
        if eventCount > 0 { _ = handOver() }
        pipeline.finish()
        return shared.failure
    }

    /// yajl's callbacks for the main pass: record and return. The context is the player.
    static let callbacks: yajl_callbacks = {
        @inline(__always) func with(_ ctx: UnsafeMutableRawPointer?, _ body: (HAETapePlayer) -> Bool) -> Int32 {
            Unmanaged<HAETapePlayer>.fromOpaque(ctx!)._withUnsafeGuaranteedRef(body) ? 1 : 0
        }
        var c = yajl_callbacks()
        c.yajl_null = { ctx in with(ctx) { $0.record(.null) } }
        c.yajl_boolean = { ctx, v in with(ctx) { $0.record(v != 0 ? .true : .false) } }
        c.yajl_number = { ctx, p, n in
            with(ctx) { $0.record(.number, UnsafeRawPointer(p!).assumingMemoryBound(to: UInt8.self), Int(n)) }
        }
        c.yajl_string = { ctx, p, n in
            with(ctx) {
                $0.windowRef?._withUnsafeGuaranteedRef { w in if w.wantsKeys { w.string(p!, Int(n)) } }
                return $0.record(.string, p!, Int(n))
            }
        }
        c.yajl_start_map = { ctx in with(ctx) { $0.open(.startMap) } }
        c.yajl_map_key = { ctx, p, n in
            with(ctx) {
                $0.windowRef?._withUnsafeGuaranteedRef { w in if w.wantsKeys { w.mapKey(p!, Int(n)) } }
                return $0.record(.key, p!, Int(n))
            }
        }
        c.yajl_end_map = { ctx in with(ctx) { $0.close(.endMap) } }
        c.yajl_start_array = { ctx in with(ctx) { $0.open(.startArray) } }
        c.yajl_end_array = { ctx in with(ctx) { $0.close(.endArray) } }
        return c
    }()
}
