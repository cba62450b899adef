/// Where `JSONIndentStripper` took bytes out of one chunk, so that an offset in the stripped
/// bytes (what yajl reports) can be turned back into the file's.
///
/// Run `i` is `positions[i]`: the offset in the stripped chunk at which bytes were taken out (the
/// removed bytes lay just before the byte now at that offset), and `removedThrough[i]`: how many
/// bytes were taken out of the chunk up to and including that run. Positions ascend strictly
/// (a run always follows a kept line feed). `positions[count]` is `Int32.max`, a sentinel: a
/// forward scan (`HAETapePlayer`) needs no bounds check.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): two buffers allocated in
/// `init` for the most runs a chunk can hold (half its bytes: each run follows a line feed that
/// stays, and takes out at least one byte) plus the sentinel, freed in `deinit`. The stripper
/// writes them on the read-ahead thread and the parser reads them after the prefetcher's
/// hand-over (`ChunkPrefetcher`), never both at once.
// @unchecked Sendable: written by one thread, then handed over through the prefetcher's semaphores.
final class StrippedRuns: @unchecked Sendable {
    let positions: UnsafeMutablePointer<Int32>
    let removedThrough: UnsafeMutablePointer<Int32>
    private(set) var count = 0
    let capacity: Int

    /// Room for the runs of a chunk of at most `chunkSize` bytes.
    init(chunkSize: Int) {
        precondition(chunkSize > 0 && chunkSize < Int(Int32.max))
        capacity = chunkSize / 2 + 1
        positions = .allocate(capacity: capacity + 1)
        removedThrough = .allocate(capacity: capacity + 1)
        positions[0] = Int32.max
    }

    deinit {
        positions.deallocate()
        removedThrough.deallocate()
    }

    /// Says that the first `n` runs are written (the stripper writes `positions` and
    /// `removedThrough` directly, then calls this once a chunk); sets the sentinel.
    func setCount(_ n: Int) {
        precondition(n <= capacity)
        count = n
        positions[n] = Int32.max
    }

    /// How many bytes were taken out before stripped offset `position`: the runs that lie
    /// strictly before it. An event's offset is just past the last byte of its token, and a
    /// token never ends with the line feed a run follows, so a run at exactly `position` lies
    /// after what was reported. (An error's offset may be a token's start instead: yajl moves it
    /// back. `HAEReader` therefore finds an error again in the file's own bytes.)
    func removed(before position: Int) -> Int {
        var low = 0, high = count  // the first run at or after `position` is in low...high
        while low < high {
            let mid = (low + high) / 2
            if Int(positions[mid]) < position { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : Int(removedThrough[low - 1])
    }

    /// Moves every run `by` bytes towards the chunk's start: the reader skips a byte-order mark
    /// at the start of the stripped bytes (no run lies inside it: it holds no line feed).
    func shift(by n: Int) {
        for i in 0..<count { positions[i] -= Int32(n) }
    }
}
