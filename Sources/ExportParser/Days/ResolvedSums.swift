/// The sums a `SumBook` resolved early (their pieces freed when the waiting pieces ran over
/// budget), in key and metric order: 24 bytes a sum, in one array of its exact size.
///
/// Why not the dictionary of `MetricSlots` by day it was (issue 24): these sums live until the
/// end of the input, about fifteen a date, and a dictionary's table, a slots array a day and
/// their growth held 10.3 MB of a 6 GB export's read peak (12,205 dates); this is 4.3 MB.
/// A lookup (`contains`, once a change of key in the sum book) is a binary search.
struct ResolvedSums {
    struct Entry {
        var key: SumPieceLog.Key
        var value: Double
    }
    private(set) var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    func contains(_ key: SumPieceLog.Key) -> Bool {
        var (lo, hi) = (0, entries.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].key < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < entries.count && entries[lo].key == key
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
            if j == batch.count || (i < entries.count && entries[i].key < batch[j].key) {
                merged.append(entries[i])
                i += 1
            } else if i < entries.count, entries[i].key == batch[j].key {
                merged.append(Entry(key: batch[j].key, value: entries[i].value + batch[j].value))
                i += 1
                j += 1
            } else {
                merged.append(Entry(key: batch[j].key, value: 0 + batch[j].value))
                j += 1
            }
        }
        entries = merged
    }
}
