/// The sums a `SumBook` resolved early (their pieces freed when the waiting pieces ran over
/// budget), in key and metric order: 16 bytes a sum (the key and metric packed in one integer),
/// in one array of its exact size.
///
/// Why not the dictionary of `MetricSlots` by day it was (issue 24): these sums live until the
/// end of the input, about fifteen a date, and a dictionary's table, a slots array a day and
/// their growth held 10.3 MB of a 6 GB export's read peak (12,205 dates); at 24 bytes an entry
/// this was 5.5 MB (a merge holds the old array and the new), at 16 bytes two thirds of that.
/// A lookup (`contains`, once a change of key in the sum book) is a binary search.
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
    private(set) var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    func contains(_ key: SumPieceLog.Key) -> Bool {
        let packed = Entry.pack(key)
        var (lo, hi) = (0, entries.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].packed < packed { lo = mid + 1 } else { hi = mid }
        }
        return lo < entries.count && entries[lo].packed == packed
    }

    /// Adds sums resolved together, given in key order with each key once: a key already here
    /// gets the new sum added to its own (`old + new`), a new one `0 + new`, as the dictionary's
    /// `+=` from its default 0 did (the same bits, −0 included).
    mutating func add(sorted batch: [Entry]) {
        guard !batch.isEmpty else { return }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + batch.count)
        var (i, j) = (0, 0)
        while i < entries.count || j < batch.count {
            if j == batch.count || (i < entries.count && entries[i].packed < batch[j].packed) {
                merged.append(entries[i])
                i += 1
            } else if i < entries.count, entries[i].packed == batch[j].packed {
                merged.append(Entry(packed: batch[j].packed, value: entries[i].value + batch[j].value))
                i += 1
                j += 1
            } else {
                merged.append(Entry(packed: batch[j].packed, value: 0 + batch[j].value))
                j += 1
            }
        }
        entries = merged
    }
}

extension ResolvedSums.Entry {
    fileprivate init(packed: Int64, value: Double) {
        self.packed = packed
        self.value = value
    }
}
