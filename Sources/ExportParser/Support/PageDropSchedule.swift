/// Which bytes of a mapped file to drop from the process (`MappedFile.release`), given the parts
/// its readers are done with, in whatever order they finish.
///
/// Why batches: every `madvise(MADV_DONTNEED)` ends with a TLB flush, and with it an interrupt of
/// each other core running the process. Dropping each 512 KiB chunk as it was done made one such
/// flush per chunk, 5,900 on the 3 GB export: `tlb_finish_mmu` under `madvise` was 5 % of
/// `explain --date`'s samples (perf), the other core's interrupt on top. The parts come done
/// nearly in file order (each worker takes the next chunk), so this keeps the done prefix of the
/// file (`done`) and drops it `batch` bytes at a time: one flush where there were eight.
///
/// A part done before the parts in front of it waits (at most `waitingLimit` of them; past that,
/// a part that never comes, or comes late, must not keep the file's pages mapped: each waiting
/// part is dropped alone, as before the batches, and the prefix goes on from the last of them, so
/// the parts after it are batched again). A part wholly before the prefix (the first chunk, done
/// after the second began the prefix, or the late part) is dropped alone too.
struct PageDropSchedule {
    /// The kernel maps pages around a fault by blocks of this size (`MappedFile.faultAroundBytes`).
    let block: Int
    /// Drop the done prefix when it has grown this much past what was dropped.
    let batch: Int
    static let waitingLimit = 32

    /// Every byte from the first part done up to here is done; nil before any part.
    private(set) var done: Int?
    /// Bytes below this (from the first part's block on) have been dropped.
    private(set) var dropped = 0
    /// Parts done after a gap: start → end.
    private var waiting: [Int: Int] = [:]

    init(block: Int, batch: Int) {
        precondition(block > 0 && batch >= block, "a batch holds whole blocks")
        self.block = block
        self.batch = batch
    }

    /// The part `range` is done: the ranges to drop now (block-aligned, disjoint from those given
    /// before except for the blocks a part dropped alone shares with its neighbours).
    mutating func release(_ range: Range<Int>) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        guard var end = done else {
            done = range.upperBound
            dropped = floor(range.lowerBound)
            return takeBatch()
        }
        if range.lowerBound == end {
            end = range.upperBound
            while let next = waiting.removeValue(forKey: end) { end = next }
            done = end
            return takeBatch()
        }
        if range.lowerBound < end {
            return [whole(range)]
        }
        waiting[range.lowerBound] = range.upperBound
        guard waiting.count > Self.waitingLimit else { return [] }
        let parts = waiting.sorted { $0.key < $1.key }
        waiting = [:]
        // Past the gap: the prefix goes on from the last part dropped, whose blocks went whole.
        let last = parts[parts.count - 1].value
        done = last
        dropped = (last + block - 1) / block * block
        return parts.map { whole($0.key..<$0.value) }
    }

    /// The done prefix past `dropped` when it is at least a batch, up to its last whole block (the
    /// block it ends in may still be read by the next part, and goes with the next batch).
    private mutating func takeBatch() -> [Range<Int>] {
        guard let end = done, end - dropped >= batch else { return [] }
        let to = floor(end)
        defer { dropped = to }
        return [dropped..<to]
    }

    /// The blocks `range` touches, whole: a fault maps its block's pages that are in the page
    /// cache, a neighbour's among them (`MappedFile.release`).
    private func whole(_ range: Range<Int>) -> Range<Int> {
        floor(range.lowerBound)..<(range.upperBound + block - 1) / block * block
    }

    private func floor(_ offset: Int) -> Int { offset / block * block }
}
