/// The sums a `SumBook` resolved early (their pieces freed when the waiting pieces ran over
/// budget), in key and metric order: 16 bytes a sum (the key and metric packed in one integer),
/// in fixed blocks of `blockSize` sums.
///
/// Why not the dictionary of `MetricSlots` by day it was (issue 24): these sums live until the
/// end of the input, about fifteen a date, and a dictionary's table, a slots array a day and
/// their growth held 10.3 MB of a 6 GB export's read peak (12,205 dates); at 24 bytes an entry
/// in one array this was 5.5 MB, at 16 bytes two thirds of that.
///
/// Why blocks, not one array of its exact size: a batch is merged in when the records end
/// (`recordsEnded`), which is the heap's peak of a large export, and a merge into a new array
/// held the old array and the new one together there (2 × 2.9 MB at 12,205 dates). The merge
/// here writes new blocks while it frees each old block it has read to the end, so it holds
/// the old sums, the batch and two blocks (`add(sorted:)`).
///
/// A lookup (`contains`, once a change of key in the sum book) is a binary search for the block
/// (by its last sum), then within it.
struct ResolvedSums {
    struct Entry {
        /// `key.key × 256 + key.metric`: ordered as (key, metric) is, metric indices being below
        /// 256 (the catalog has a few dozen) and keys far below 2^55 (days and quarter-hours).
        fileprivate var packed: Int64
        var value: Double

        init(key: SumPieceLog.Key, value: Double) {
            precondition(key.metric >= 0 && key.metric < 256, "a metric index beyond the packed key's 8 bits")
            packed = Int64(key.key) << 8 | Int64(key.metric)
            self.value = value
        }

        var key: SumPieceLog.Key { SumPieceLog.Key(key: Int(packed >> 8), metric: Int32(packed & 0xFF)) }

        fileprivate static func pack(_ key: SumPieceLog.Key) -> Int64 { Int64(key.key) << 8 | Int64(key.metric) }
    }

    /// Sums a block (16 bytes each: 64 KiB, served from the heap rather than its own mapping).
    let blockSize: Int
    /// Every block full but the last, each reserved for `blockSize` sums.
    private var blocks: [[Entry]] = []
    /// Sums held.
    private(set) var count = 0

    init(blockSize: Int = 4096) {
        precondition(blockSize > 0, "a block holds at least one sum")
        self.blockSize = blockSize
    }

    var isEmpty: Bool { count == 0 }

    /// How many sums each block holds (tests).
    var blockCounts: [Int] { blocks.map(\.count) }

    /// Every sum, in key and metric order.
    var entries: FlattenSequence<[[Entry]]> { blocks.joined() }

    func contains(_ key: SumPieceLog.Key) -> Bool {
        let packed = Entry.pack(key)
        // The first block whose last sum is not below the key: the only one that can hold it.
        var (lo, hi) = (0, blocks.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if blocks[mid][blocks[mid].count - 1].packed < packed { lo = mid + 1 } else { hi = mid }
        }
        guard lo < blocks.count else { return false }
        let block = blocks[lo]
        let b = block.span
        var (first, last) = (0, b.count)
        while first < last {
            let mid = (first + last) / 2
            if b[mid].packed < packed { first = mid + 1 } else { last = mid }
        }
        return first < b.count && b[first].packed == packed
    }

    /// Adds sums resolved together, given in key order with each key once: a key already here
    /// gets the new sum added to its own (`old + new`), a new one `0 + new`, as the dictionary's
    /// `+=` from its default 0 did (the same bits, −0 included).
    mutating func add(sorted batch: [Entry]) {
        guard !batch.isEmpty else { return }
        var merge = beginMerge()
        for e in batch { merge.put(e) }
        endMerge(merge)
    }

    /// Begins adding sums as they are resolved (`Merge.put`, in key order, each key once), with
    /// no list of them made first: the sum book's early resolution hands them over one group at
    /// a time, and its list of a whole resolution (16 bytes a sum, grown by doubling) was held
    /// beside the pieces being resolved at the read's heap peak (`recordsEnded`; issue 24).
    /// The sums are moved into the merge: this holds none until `endMerge`.
    mutating func beginMerge() -> Merge {
        let m = Merge(old: blocks, blockSize: blockSize)
        blocks = []
        count = 0
        return m
    }

    /// Ends a merge begun by `beginMerge`: the old sums after the last one put are added, and the
    /// merged sums are these from now on.
    mutating func endMerge(_ merge: consuming Merge) {
        var m = merge
        if m.puts == 0 {
            // Nothing put: the old blocks as they were (no copy).
            (blocks, count) = (m.old, m.oldCount)
            return
        }
        m.emitOld(below: .max)
        if !m.out.isEmpty { m.blocks.append(m.out) }
        (blocks, count) = (m.blocks, m.count)
    }

    /// A merge of new sums into old ones (`beginMerge`): it writes new blocks while it frees each
    /// old block it has read to the end, so it holds the old sums and two blocks, never a second
    /// copy of them all.
    struct Merge {
        fileprivate var old: [[Entry]]
        fileprivate let oldCount: Int
        fileprivate let blockSize: Int
        /// The old block and the place in it read next.
        private var b = 0, i = 0
        fileprivate var blocks: [[Entry]] = []
        fileprivate var out: [Entry] = []
        fileprivate var count = 0
        fileprivate private(set) var puts = 0
        private var lastPut = Int64.min

        fileprivate init(old: [[Entry]], blockSize: Int) {
            self.old = old
            self.oldCount = old.reduce(0) { $0 + $1.count }
            self.blockSize = blockSize
        }

        /// Adds a sum resolved: `old + new` for a key already held, `0 + new` for a new one. Keys
        /// come in increasing order.
        mutating func put(_ e: Entry) {
            precondition(e.packed > lastPut, "sums are put in key order, each key once")
            lastPut = e.packed
            puts += 1
            emitOld(below: e.packed)
            if b < old.count, old[b][i].packed == e.packed {
                emit(Entry(packed: e.packed, value: old[b][i].value + e.value))
                advance()
            } else {
                emit(Entry(packed: e.packed, value: 0 + e.value))
            }
        }

        /// Emits the old sums whose key is below `packed`.
        fileprivate mutating func emitOld(below packed: Int64) {
            while b < old.count, old[b][i].packed < packed {
                emit(old[b][i])
                advance()
            }
        }

        /// The next old sum; a block read to its end is freed.
        private mutating func advance() {
            i += 1
            if i == old[b].count {
                old[b] = []
                b += 1
                i = 0
            }
        }

        private mutating func emit(_ e: Entry) {
            if out.count == blockSize {
                blocks.append(out)
                out = []
            }
            if out.isEmpty { out.reserveCapacity(blockSize) }
            out.append(e)
            count += 1
        }
    }
}

extension ResolvedSums.Entry {
    fileprivate init(packed: Int64, value: Double) {
        self.packed = packed
        self.value = value
    }
}
