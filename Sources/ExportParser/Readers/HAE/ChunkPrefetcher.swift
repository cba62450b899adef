import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file's bytes in chunks one step ahead of the thread that parses them, on a thread of
/// its own (`read-ahead`): the parsing thread of an HAE file is the critical path of its read
/// (yajl plus the recording of its events), and `pread`'s copy out of the page cache was ≈ 6 % of
/// that thread's time (45–50 CPU ms on the 300 MB benchmark file; docs/hae.md, "Leaner datums").
/// The other core has time to spare during that pass, so the copy moves there.
///
/// The chunks are exactly the reads the parsing loop made itself, in the same order: from
/// `from`, up to `to` (the end of the file when nil), at most `chunkSize` bytes each, and ending
/// at every offset in `splits` too; a short read is followed by a read from where it ended,
/// `EINTR` is retried, and the sequence ends after the first empty read (the end) or the first
/// failed one (its `errno`). So the parser sees the same chunks at the same offsets.
///
/// Use: `next()` for each chunk in turn, `done(with:)` when its bytes are no longer needed (yajl
/// keeps no pointer into a chunk after `yajl_parse` returns), `stop()` before dropping it (also
/// when the parse ends early): it waits for the thread, which then holds nothing.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the `slots` buffers are
/// allocated in `init` and freed in `deinit`, after `stop` has waited for the thread. A slot is
/// written by the reading thread only while it is free and read by the parsing thread only
/// while it is filled; `free` and `filled` (semaphores) hand each slot from one to the other, so
/// the two never touch one slot at once and the semaphores order the writes before the reads.
// @unchecked Sendable: each slot belongs to one side at a time (see above); `stopping` is behind a lock.
final class ChunkPrefetcher: @unchecked Sendable {
    /// One read: its offset, its bytes (`count` of them) or the `errno` of a failed read.
    /// `fileCount` is how many bytes were read (0 at the end of the range); `count` is less when
    /// the indentation was stripped, and `runs` then says where it was.
    struct Chunk {
        let offset: Int64
        let bytes: UnsafeMutablePointer<UInt8>
        let count: Int
        let fileCount: Int
        let runs: StrippedRuns?
        let error: Int32?
    }

    static let threadName = "read-ahead"

    /// What the thread uses: its own object, so that a prefetcher dropped without `stop` still
    /// stops it (its `deinit` runs; the thread never holds the prefetcher itself).
    // @unchecked Sendable: as the prefetcher (slots handed over by the semaphores, the flag locked).
    private final class Shared: @unchecked Sendable {
        let slots: [UnsafeMutablePointer<UInt8>]
        /// Each slot's runs of stripped indentation (empty when not stripping).
        let runs: [StrippedRuns]
        let results: UnsafeMutablePointer<Chunk?>
        let free: DispatchSemaphore
        let filled = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var stopping = false

        init(slotCount: Int, chunkSize: Int, stripping: Bool) {
            slots = (0..<slotCount).map { _ in .allocate(capacity: chunkSize) }
            runs = stripping ? (0..<slotCount).map { _ in StrippedRuns(chunkSize: chunkSize) } : []
            results = .allocate(capacity: slotCount)
            results.initialize(repeating: nil, count: slotCount)
            // Made at 0 and then raised: libdispatch stops the process when a semaphore is freed
            // below the value it was made with, as this one is when a parse stops early.
            free = DispatchSemaphore(value: 0)
            for _ in 0..<slotCount { free.signal() }
        }

        deinit {
            results.deinitialize(count: slots.count)
            results.deallocate()
            for s in slots { s.deallocate() }
        }

        var isStopping: Bool {
            lock.lock()
            defer { lock.unlock() }
            return stopping
        }

        func requestStop() {
            lock.lock()
            stopping = true
            lock.unlock()
        }
    }

    private let shared: Shared
    private var nextSlot = 0
    private var stopped = false

    /// Starts reading. At most `slotCount` chunks are read and not yet given back (2: one being
    /// parsed, one being read). With `stripIndentation`, each chunk's JSON indentation is taken
    /// out on this thread (`JSONIndentStripper`), which has time to spare while yajl's is the
    /// critical path (docs/hae.md, "Indentation taken out before yajl").
    init(
        fd: Int32, from: Int64, to: Int64?, chunkSize: Int, splits: [Int64] = [], slotCount: Int = 2,
        stripIndentation: Bool = false
    ) {
        precondition(slotCount >= 1 && chunkSize > 0)
        let shared = Shared(slotCount: slotCount, chunkSize: chunkSize, stripping: stripIndentation)
        self.shared = shared
        NamedThread.start(Self.threadName) {
            defer { shared.ended.signal() }
            var offset = from
            var slot = 0
            var stripper = JSONIndentStripper()
            while true {
                shared.free.wait()
                if shared.isStopping { return }
                let buffer = shared.slots[slot]
                let chunk: Chunk
                let runs = stripIndentation ? shared.runs[slot] : nil
                if let to, offset >= to {
                    chunk = Chunk(offset: offset, bytes: buffer, count: 0, fileCount: 0, runs: nil, error: nil)
                } else {
                    let want = Self.readSize(at: offset, to: to, chunkSize: chunkSize, splits: splits)
                    let n: Int, failure: Int32?
                    do throws(POSIXFile.Failure) {
                        n = try POSIXFile.pread(fd, into: buffer, count: want, at: offset)
                        failure = nil
                    } catch {
                        n = -1
                        failure = error.code
                    }
                    let read = Swift.max(n, 0)
                    let count = runs.map { stripper.strip(buffer, count: read, runs: $0) } ?? read
                    chunk = Chunk(offset: offset, bytes: buffer, count: count, fileCount: read, runs: runs, error: failure)
                    if n > 0 { offset += Int64(n) }
                }
                // The slot is the parsing thread's from here until `done(with:)`.
                shared.results[slot] = chunk
                shared.filled.signal()
                if chunk.fileCount == 0 { return }
                slot = (slot + 1) % slotCount
            }
        }
    }

    deinit { stop() }

    /// How many bytes one read at `offset` asks for: at most `chunkSize`, and never past `to` or
    /// the next of `splits`. The one rule for the prefetcher's reads and for a parse that reads
    /// for itself, so both see the same chunks.
    static func readSize(at offset: Int64, to: Int64?, chunkSize: Int, splits: [Int64]) -> Int {
        var want = to.map { Int(Swift.min(Int64(chunkSize), $0 - offset)) } ?? chunkSize
        if let split = splits.first(where: { $0 > offset }) { want = Int(Swift.min(Int64(want), split - offset)) }
        return want
    }

    /// The next chunk, waiting for it if it is not read yet. After a chunk with `fileCount` 0
    /// (the end, or a failed read) there is none: do not call again.
    func next() -> Chunk {
        shared.filled.wait()
        let chunk = shared.results[nextSlot]!
        nextSlot = (nextSlot + 1) % shared.slots.count
        return chunk
    }

    /// Gives a chunk's buffer back to be read into (in the order `next` gave them).
    func done(with chunk: Chunk) {
        shared.free.signal()
    }

    /// Stops the thread (a read under way finishes first) and waits for it. Safe to call more
    /// than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        shared.requestStop()
        shared.free.signal()  // wakes the thread if it waits for a slot
        shared.ended.wait()
    }
}
