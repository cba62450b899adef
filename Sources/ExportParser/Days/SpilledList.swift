import Foundation

/// An append-only list of plain values kept for the end of the input, whose full blocks wait in
/// an unnamed temporary file (`SpillFile`) instead of memory until `restore` brings them back:
/// what the day book holds during the read only for its finish (the sleep samples, the
/// running-mechanics samples, the heart rate kept for workouts: `HeartRateSamples` reads its
/// blocks back one at a time with `forEachBlock` instead of restoring them).
///
/// Why: export.xml lists every record before its workouts and activity summaries, so the read's
/// last stretch, where memory peaks, holds all of them; the finish starts after the parser's
/// tapes and chunks are freed (≈ 15 MB) and can take them back. Issue 24: the sleep samples of a
/// 6.4 GB, 33-year export were 8.3 MB of its read's 82 MB heap peak. Memory holds one block
/// (`blockSize` values) during the read. When no temporary file can be written (a read-only or
/// full disk), the full blocks stay in memory, as before.
///
/// A copy shares the file: only one copy may go on appending (the day book copies a list only
/// after `restore` has emptied it, or hands it over whole).
struct SpilledList<Element: BitwiseCopyable> {
    private let blockSize: Int
    private var block: [Element] = []
    /// Full blocks that could not be written to the spill file (after the first failure, all).
    private var held: [[Element]] = []
    private var spill: SpillFile?
    private var spillFailed = false
    /// Full blocks in the spill file, each `blockSize` values, in the order appended.
    private var spilledBlocks = 0
    private(set) var count = 0

    init(blockSize: Int = 4096) { self.blockSize = max(1, blockSize) }

    /// Values in memory now: the current block and blocks that could not be spilled.
    var inMemory: Int { block.count + held.count * blockSize }

    @inline(__always)
    mutating func append(_ e: Element) {
        if block.isEmpty { block.reserveCapacity(blockSize) }
        block.append(e)
        count += 1
        if block.count == blockSize { spillBlock() }
    }

    private mutating func spillBlock() {
        if !spillFailed {
            if spill == nil { spill = SpillFile() }
            if let file = spill, file.append(block) {
                spilledBlocks += 1
                block.removeAll(keepingCapacity: true)
                return
            }
            spillFailed = true
        }
        held.append(block)
        block = []
    }

    /// Hands `body` every block, in the order appended (a block read back from the file goes
    /// through one buffer, reused), then the values not yet in a full block. The list is unchanged.
    func forEachBlock(_ body: ([Element]) throws -> Void) rethrows {
        if let spill, spilledBlocks > 0 {
            // Zero bytes, each overwritten by the read before it is looked at (`read` fills the
            // whole buffer or stops the process).
            // (`memset`, not a typed initialisation: the memory stays bound to `Element`.)
            var buffer = [Element](unsafeUninitializedCapacity: blockSize) { raw, initialized in
                if let base = raw.baseAddress { memset(base, 0, raw.count * MemoryLayout<Element>.stride) }
                initialized = raw.count
            }
            for i in 0..<spilledBlocks {
                spill.read(chunk: i, into: &buffer)
                try body(buffer)
            }
        }
        for part in held { try body(part) }
        try body(block)
    }

    /// Every value, in the order appended, in memory again; this list is empty afterwards (and
    /// its file closed).
    mutating func restore() -> BlockList<Element> {
        defer { self = SpilledList(blockSize: blockSize) }
        var out = BlockList<Element>(blockSize: blockSize)
        forEachBlock { part in for e in part { out.append(e) } }
        return out
    }
}
