/// A few values keyed by metric index (`Metric.index`), kept in the order first added: what one
/// date, one fringe slot near midnight or one sum day holds per metric.
///
/// Why not `[Int: Value]`: these maps live until the end of the input, one set per date and
/// eight or so per date's fringe slots (45,180 slots and 5,648 dates in a 15-year export), and
/// most hold one to a dozen metrics. A Swift dictionary costs a hashed table of at least two
/// buckets plus its header, and keeps its capacity when its entries are removed; this is one
/// array of (metric, value) that a removal can empty and free. A lookup is a scan of those few
/// entries, no hashing. (Issue 24: with dictionaries, these maps were ≈ 30 MB of the 3 GB
/// export's heap peak; docs/export-xml.md, "Memory".)
///
/// The order of iteration is the order of first insertion, which no output depends on (every
/// use folds values per metric).
struct MetricSlots<Value>: Sequence {
    private var entries: [(metric: Int, value: Value)] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    @inline(__always)
    private func position(_ metric: Int) -> Int? {
        var i = 0
        while i < entries.count {
            if entries[i].metric == metric { return i }
            i += 1
        }
        return nil
    }

    /// The value of `metric`; setting nil removes it.
    subscript(metric: Int) -> Value? {
        get { position(metric).map { entries[$0].value } }
        set {
            if let i = position(metric) {
                if let newValue {
                    entries[i].value = newValue
                } else {
                    entries.remove(at: i)
                    if entries.isEmpty { entries = [] }
                }
            } else if let newValue {
                append(metric, newValue)
            }
        }
    }

    /// The value of `metric`, added as `defaultValue()` first when missing; modified in place.
    subscript(metric: Int, default defaultValue: @autoclosure () -> Value) -> Value {
        get { position(metric).map { entries[$0].value } ?? defaultValue() }
        _modify {
            let i: Int
            if let found = position(metric) {
                i = found
            } else {
                append(metric, defaultValue())
                i = entries.count - 1
            }
            yield &entries[i].value
        }
    }

    /// Adds an entry in room for exactly the entries held, not the doubled room an array's
    /// append makes (5 entries in room for 8): a map gains an entry only for a metric new to its
    /// date, a few times a date, and every date's maps live until the end of the input (issue 24:
    /// 5.6 MB of accumulators at the read's peak of a 33-year export).
    @inline(__always)
    private mutating func append(_ metric: Int, _ value: Value) {
        if entries.count == entries.capacity { entries.reserveCapacity(entries.count + 1) }
        entries.append((metric, value))
    }

    /// Room for this many entries (tests).
    var capacity: Int { entries.capacity }

    /// Removes the entries `shouldRemove` accepts; an emptied map frees its storage.
    mutating func removeAll(where shouldRemove: (_ metric: Int, _ value: Value) throws -> Bool) rethrows {
        try entries.removeAll { try shouldRemove($0.metric, $0.value) }
        if entries.isEmpty { entries = [] }
    }

    func makeIterator() -> IndexingIterator<[(metric: Int, value: Value)]> { entries.makeIterator() }
}

extension MetricSlots: Sendable where Value: Sendable {}
