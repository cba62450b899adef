import Foundation

/// The parallel read's chunk byte arrays kept for reuse: a fixed number of 1–2 MiB buffers
/// that go round between the reading thread (fills one), the workers (parse it) and the player
/// (hands it back), instead of one malloc and free per chunk.
///
/// Why: a chunk's bytes are allocated on the reading thread and freed on another. After the
/// first free of a buffer that size, glibc raises its dynamic mmap threshold and serves the
/// next ones from heap arenas, which fragment: peak RSS of the 2-thread read was 20–27 MB above
/// the 1-thread one (docs/export-xml.md, "Memory of the parallel read"). Buffers that are never freed cannot
/// fragment anything, and cost nothing to fault in again.
///
/// At most `limit` buffers are kept; one handed back beyond that is freed. The driver holds at
/// most N + 2 chunks, one the reading thread may be waiting to queue and the one it is filling,
/// so `limit` = N + 4 keeps every one.
// @unchecked Sendable: guarded by its own lock; the threads only hand buffers back and forth.
final class ChunkByteSpares: @unchecked Sendable {
    private let lock = NSLock()
    private var buffers: [[UInt8]] = []
    let limit: Int
    /// The capacity a new buffer is made with: a chunk's bytes plus one read, so that filling it
    /// does not grow it (each growth is a malloc, a copy and a free).
    let initialCapacity: Int

    init(limit: Int, initialCapacity: Int) {
        self.limit = max(0, limit)
        self.initialCapacity = max(0, initialCapacity)
    }

    /// How many buffers are kept now.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return buffers.count
    }

    /// Takes `bytes` (leaving it empty), empties it keeping its capacity and keeps it, unless
    /// `limit` are kept already.
    func recycle(_ bytes: inout [UInt8]) {
        // Swapped out, not copied: the kept array must be the only reference to its storage, or
        // `removeAll(keepingCapacity:)` would copy it.
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        guard taken.capacity > 0 else { return }
        taken.removeAll(keepingCapacity: true)
        lock.lock()
        if buffers.count < limit {
            buffers.append(taken)
            taken = []
        }
        lock.unlock()
    }

    /// An empty buffer: a kept one, or a new one of `initialCapacity`.
    func reuse() -> [UInt8] {
        lock.lock()
        let kept = buffers.popLast()
        lock.unlock()
        if let kept { return kept }
        var fresh: [UInt8] = []
        fresh.reserveCapacity(initialCapacity)
        return fresh
    }
}
