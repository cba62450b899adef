/// The sum rule's waiting pieces (`SumBook`), in arrival order, in blocks of a fixed size; each
/// stretch of consecutive pieces with one key (a date, or a fringe slot) and metric is a run.
///
/// Why not an array per key and metric, as before (issue 24): a 15-year export keeps up to the
/// piece budget (400,000) waiting, spread over tens of thousands of small arrays whose growth
/// slack and headers more than doubled the 12.8 MB of the pieces themselves (heaptrack: 27 MB of
/// the 3 GB export's heap peak). Here a piece is 24 bytes (its start is kept relative to its
/// run's first piece), blocks never grow or move, and a run begins at each change of key,
/// which an export's order (grouped by type, in date order within a type) makes rare: a run is
/// 24 bytes, about six pieces long on the generated 15-year export.
///
/// Groups are handed out by key and metric, each with its pieces in arrival order; the sum rule
/// (`SumResolver`) sorts them itself, so no result depends on how they were stored.
struct SumPieceLog {
    /// A key (a date, or a fringe slot: `FringeKey`) and a metric index.
    struct Key: Hashable, Comparable {
        var key: Int
        var metric: Int32

        static func < (a: Key, b: Key) -> Bool { a.key != b.key ? a.key < b.key : a.metric < b.metric }
    }

    /// A piece as stored: `SumPiece` less its start, which is `startDelta` after its run's `base`.
    private struct Stored {
        var startDelta: Int32
        var length: Int32
        var source: Int32
        var fingerprint: UInt32
        var value: Double
    }

    /// `count` consecutive pieces with one key and metric (24 bytes: `count` fills the key's
    /// padding). Where a run's pieces begin is the sum of the counts before it.
    private struct Run {
        var key: Key
        var count: Int32
        var base: Int64
    }

    /// The runs, in fixed blocks of `size` (24 KiB) rather than one array: an array grows by
    /// doubling, so at the piece budget the runs (about one for every few pieces) sat in up to
    /// twice their room, and each doubling held the old and the new storage together, where the
    /// heap peaks at a budget resolution (issue 24). Blocks never move; emptied ones are freed.
    private struct Runs {
        /// Runs a block: a power of two, so that a run's block and place are a shift and a mask.
        static let shift = 10
        static let size = 1 << shift
        private var blocks: [[Run]] = []
        private(set) var count = 0

        var isEmpty: Bool { count == 0 }
        var indices: Range<Int> { 0..<count }
        var last: Run? { count == 0 ? nil : self[count - 1] }

        subscript(i: Int) -> Run {
            @inline(__always) get { blocks[i >> Self.shift][i & (Self.size - 1)] }
            @inline(__always) _modify { yield &blocks[i >> Self.shift][i & (Self.size - 1)] }
        }

        @inline(__always)
        mutating func append(_ run: Run) {
            if count == blocks.count << Self.shift {
                var block: [Run] = []
                block.reserveCapacity(Self.size)
                blocks.append(block)
            }
            blocks[blocks.count - 1].append(run)
            count += 1
        }

        /// Keeps the first `n` runs; the blocks after them are freed.
        mutating func truncate(to n: Int) {
            let needed = (n + Self.size - 1) >> Self.shift
            blocks.removeLast(blocks.count - needed)
            if needed > 0 { blocks[needed - 1].removeLast(blocks[needed - 1].count - (n - ((needed - 1) << Self.shift))) }
            count = n
            if n == 0 { blocks = [] }
        }

        func map<T>(_ transform: (Run) -> T) -> [T] {
            var out: [T] = []
            out.reserveCapacity(count)
            for block in blocks { for r in block { out.append(transform(r)) } }
            return out
        }
    }

    /// Pieces a block (24 bytes each: 96 KiB, served from the heap rather than its own mapping).
    static let blockSize = 4096
    private var blocks: [[Stored]] = []
    private var runs = Runs()
    /// Pieces held.
    private(set) var count = 0
    /// Runs before this one were handed out by `forEachNewGroup`: a piece that comes later never
    /// joins them (it begins a run of its own), so each call hands out exactly what came since.
    private var handedOut = 0

    var isEmpty: Bool { count == 0 }

    /// Runs held: at least the number of groups (each key and metric has one run or more).
    var runCount: Int { runs.count }

    /// Adds a piece under `key` and `metric`. Returns whether it began a run (its key and metric
    /// differ from the piece before it).
    @inline(__always)
    @discardableResult
    mutating func append(_ piece: SumPiece, key: Key) -> Bool {
        if runs.count > handedOut, let last = runs.last, last.key == key, last.count < Int32.max,
            let delta = Int32(exactly: piece.start - last.base)
        {
            store(Stored(startDelta: delta, length: piece.length, source: piece.source, fingerprint: piece.fingerprint, value: piece.value))
            runs[runs.count - 1].count += 1
            return false
        }
        runs.append(Run(key: key, count: 1, base: piece.start))
        store(Stored(startDelta: 0, length: piece.length, source: piece.source, fingerprint: piece.fingerprint, value: piece.value))
        return true
    }

    @inline(__always)
    private mutating func store(_ s: Stored) {
        if count == blocks.count * Self.blockSize {
            var block: [Stored] = []
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(s)
        count += 1
    }

    @inline(__always)
    private func piece(_ i: Int, of run: Run) -> SumPiece {
        let s = blocks[i / Self.blockSize][i % Self.blockSize]
        return SumPiece(
            start: run.base + Int64(s.startDelta), length: s.length, value: s.value, source: s.source, fingerprint: s.fingerprint)
    }

    /// Where each run's pieces begin.
    private var firsts: [Int] {
        var out: [Int] = []
        out.reserveCapacity(runs.count)
        var first = 0
        for i in runs.indices {
            let run = runs[i]
            out.append(first)
            first += Int(run.count)
        }
        return out
    }

    /// Hands `body` every key and metric of the runs numbered in `order`, in key order, with its
    /// pieces in arrival order; a group `wantsPieces` declines gets none (nothing is copied).
    private func groups(
        of order: consuming [Int], wantsPieces: (Key) -> Bool = { _ in true }, _ body: (Key, [SumPiece]) -> Void
    ) {
        let firsts = firsts
        // Run numbers by key, then by position (a stable sort keeps the arrival order). Sorted in
        // the caller's array, which is given, not copied (8 bytes a run, held beside the pieces).
        var order = order
        order.sort { a, b in runs[a].key != runs[b].key ? runs[a].key < runs[b].key : a < b }
        var pieces: [SumPiece] = []
        var i = 0
        while i < order.count {
            let key = runs[order[i]].key
            let copying = wantsPieces(key)
            pieces.removeAll(keepingCapacity: true)
            while i < order.count, runs[order[i]].key == key {
                if copying {
                    let run = runs[order[i]], first = firsts[order[i]]
                    for p in first..<first + Int(run.count) { pieces.append(piece(p, of: run)) }
                }
                i += 1
            }
            body(key, pieces)
        }
    }

    /// Every key and metric held, in key order, with its pieces in arrival order (none for a
    /// key and metric `wantsPieces` declines: its total is known already).
    func forEachGroup(wantsPieces: (Key) -> Bool = { _ in true }, _ body: (Key, [SumPiece]) -> Void) {
        groups(of: Array(runs.indices), wantsPieces: wantsPieces, body)
    }

    /// Hands `body` (in key order) every key and metric of the runs added since the last call,
    /// with the pieces of those runs only, in arrival order. A key and metric that also has pieces
    /// from before that call is handed out with the new ones alone: the caller tells it apart.
    mutating func forEachNewGroup(_ body: (Key, [SumPiece]) -> Void) {
        guard handedOut < runs.count else { return }
        let new = Array(handedOut..<runs.count)
        handedOut = runs.count
        groups(of: new, body)
    }

    /// Hands `body` (in key order) the keys and metrics `take` accepts, each with its pieces, and
    /// removes them: the pieces left move down over the freed places, and emptied blocks are freed.
    mutating func removeGroups(where take: (Key) -> Bool, _ body: (Key, [SumPiece]) -> Void) {
        let taking = runs.map { take($0.key) }
        guard taking.contains(true) else { return }
        groups(of: runs.indices.filter { taking[$0] }, body)
        // The kept runs move down in place (`runsKept <= i`), as their pieces do: a second array
        // of runs would be held beside the first at the heap's peak (`recordsEnded`).
        var runsKept = 0
        var write = 0, read = 0
        var handedOutKept = 0
        for i in runs.indices {
            let run = runs[i]
            defer { read += Int(run.count) }
            if taking[i] { continue }
            if i < handedOut { handedOutKept += 1 }
            // `write <= read`: every place below a kept piece is either kept already or freed.
            for p in read..<read + Int(run.count) {
                blocks[write / Self.blockSize][write % Self.blockSize] = blocks[p / Self.blockSize][p % Self.blockSize]
                write += 1
            }
            runs[runsKept] = run
            runsKept += 1
        }
        runs.truncate(to: runsKept)
        handedOut = handedOutKept
        count = write
        let blocksNeeded = (write + Self.blockSize - 1) / Self.blockSize
        blocks.removeLast(blocks.count - blocksNeeded)
        if blocksNeeded > 0 {
            blocks[blocksNeeded - 1].removeLast(blocks[blocksNeeded - 1].count - (write - (blocksNeeded - 1) * Self.blockSize))
        }
    }
}
