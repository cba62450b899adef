import Foundation

/// The bytes of one start tag as the window scan reads them (`ExportWindow`): its attributes and
/// dates found in place, by their rarest byte and a compare, never decoded. Beside the scan
/// because every test of an element it makes goes through these, and apart from it so that the
/// scan's file holds the scan.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): as in `ExportWindow`, the
/// pointers are into the chunk a worker is scanning, valid for the scan's call, read within the
/// tag's count the caller measured (a date's words only inside its 25 bytes).
extension ExportWindow {
    /// Whether the bytes hold `&#`, a character reference's start: searched from the `#`, rare in
    /// a start tag, where a search from `&` would stop at every `&lt;` of a device.
    @inline(__always)
    static func hasCharacterReference(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var at = p + 1
        let end = p + count
        while at < end, let f = memchr(at, 0x23, end - at) {
            let hash = UnsafePointer(f.assumingMemoryBound(to: UInt8.self))
            if hash[-1] == 0x26 { return true }
            at = hash + 1
        }
        return false
    }

    /// Whether the tag holds `model:Watch,`: found by its `W`, rarer than the `m` of `name`,
    /// `manufacturer` and `model` a search for the whole text stopped at.
    static func hasWatchModel(_ tag: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard count > 12 else { return false }
        var at = tag + 6
        let stop = tag + count - 5
        while at < stop, let f = memchr(at, 0x57, stop - at) {
            let w = UnsafePointer(f.assumingMemoryBound(to: UInt8.self))
            if same(w - 6, "model:"), same(w + 1, "atch,") { return true }
            at = w + 1
        }
        return false
    }

    /// ` sourceName="`'s value, found by its rare `N` (not at every space, as from its first byte).
    @inline(__always)
    static func sourceName(_ tag: UnsafePointer<UInt8>, _ count: Int) -> (at: UnsafePointer<UInt8>, count: Int)? {
        guard count > 13 else { return nil }
        var at = tag + 7
        let stop = tag + count - 6
        while at < stop, let f = memchr(at, 0x4E, stop - at) {
            let n = UnsafePointer(f.assumingMemoryBound(to: UInt8.self))
            at = n + 1
            guard same(n - 7, " source"), same(n + 1, "ame=\"") else { continue }
            let v = n + 6
            guard let q = memchr(v, 0x22, tag + count - v) else { return nil }
            return (v, v.distance(to: q.assumingMemoryBound(to: UInt8.self)))
        }
        return nil
    }

    /// Whether the bytes at `p` begin with `needle` (the caller checked there are enough).
    @inline(__always)
    static func same(_ p: UnsafePointer<UInt8>, _ needle: StaticString) -> Bool {
        memcmp(p, needle.utf8Start, needle.utf8CodeUnitCount) == 0
    }

    /// The first `needle` in `count` bytes at `p` (no `memmem` in Swift's Glibc module): `memchr`
    /// for its first byte, then a compare; the needles are short and a tag a few hundred bytes.
    @inline(__always)
    static func find(_ p: UnsafePointer<UInt8>, _ count: Int, _ needle: StaticString) -> UnsafePointer<UInt8>? {
        let k = needle.utf8CodeUnitCount
        guard count >= k else { return nil }
        let first = Int32(needle.utf8Start[0])
        var at = p
        let last = p + (count - k)
        while at <= last {
            guard let f = memchr(at, first, last - at + 1) else { return nil }
            let c = UnsafePointer(f.assumingMemoryBound(to: UInt8.self))
            if same(c, needle) { return c }
            at = c + 1
        }
        return nil
    }

    /// The bytes of the attribute `key` (` name="`) up to its closing quote, in place.
    @inline(__always)
    static func attribute(_ tag: UnsafePointer<UInt8>, _ count: Int, _ key: StaticString) -> (at: UnsafePointer<UInt8>, count: Int)? {
        guard let f = find(tag, count, key) else { return nil }
        let v = f + key.utf8CodeUnitCount
        let left = count - tag.distance(to: v)
        guard left > 0, let q = memchr(v, 0x22, left) else { return nil }
        return (v, v.distance(to: q.assumingMemoryBound(to: UInt8.self)))
    }

    typealias Text = (at: UnsafePointer<UInt8>, count: Int)  // a value's bytes in place

    /// The texts of `startDate` and `endDate` (nil when absent or unclosed), found in one
    /// pass: each `D` of the tag followed by `ate="` and preceded by ` start` or ` end`. A record's
    /// tag holds four or five `D`s (`HKDevice`, `creationDate`, the two dates); a search for each
    /// key from its leading space stopped at every attribute, twice (perf: 10.7 % of the run).
    @inline(__always)
    static func dates(_ tag: UnsafePointer<UInt8>, _ count: Int) -> (Text?, Text?) {
        var start: Text?, end: Text?
        guard count > 12 else { return (nil, nil) }
        var at = tag + 6
        let stop = tag + count
        while at + 5 < stop, let f = memchr(at, 0x44, stop - at - 5) {
            var d = UnsafePointer(f.assumingMemoryBound(to: UInt8.self))
            at = d + 1
            guard d[1] == 0x61, d[2] == 0x74, d[3] == 0x65, d[4] == 0x3D, d[5] == 0x22 else { continue }
            // Apple writes `creationDate`, `startDate` and `endDate` one after the other, each
            // value 25 bytes: after one, the next `D` is looked for where it must be
            // (`nextDate`) before a search, which would stop there first (the bytes between
            // hold no `D`): two `memchr` calls a record fewer. A value is passed over whole, so
            // a 25-byte `creationDate` that spells ` startDate=` inside is not taken for the
            // start, as the search alone took it (and kept the record as unreadable): the dates
            // found are the attributes libxml2 reads (`WindowDateAttributesTests`).
            while true {
                let isStart = d[-1] == 0x74 && d[-2] == 0x72 && d[-3] == 0x61 && d[-4] == 0x74 && d[-5] == 0x73 && d[-6] == 0x20
                let isEnd = !isStart && d[-1] == 0x64 && d[-2] == 0x6E && d[-3] == 0x65 && d[-4] == 0x20
                let v = d + 6
                guard isStart || isEnd else {
                    // Another date (`creationDate`): passed over only when its value is 25 bytes
                    // without a quote (a quote inside would end it early, and what follows could
                    // be the dates themselves).
                    guard RecordStartTag.isDate(tag, tag.distance(to: v), count), let next = nextDate(after: v + 25, stop) else { break }
                    d = next
                    at = d + 1
                    continue
                }
                var length = 25
                if v + 25 >= stop || v[25] != 0x22 {
                    guard let q = memchr(v, 0x22, stop - v) else { return (start, end) }
                    length = v.distance(to: q.assumingMemoryBound(to: UInt8.self))
                }
                if isStart { start = (v, length) } else { end = (v, length) }
                at = v + length
                if start != nil, end != nil { return (start, end) }
                guard let next = nextDate(after: v + length, stop) else { break }
                d = next
                at = d + 1
            }
        }
        return (start, end)
    }

    /// The `D` of ` startDate="` or ` endDate="` right after the closing quote at `quote`, or
    /// nil (then the search goes on from the quote). Compared as words: ` startDa` and `te="`,
    /// ` endDate` and `="` (little-endian on every host, as `reach` loads its words big-endian).
    @inline(__always)
    static func nextDate(after quote: UnsafePointer<UInt8>, _ stop: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        let p = UnsafeRawPointer(quote + 1)
        if quote + 13 <= stop {
            let w = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
            if w == 0x6144_7472_6174_7320, UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) == 0x223D_6574 {
                return quote + 7
            }
            if w == 0x6574_6144_646E_6520, UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt16.self)) == 0x223D {
                return quote + 5
            }
        }
        return nil
    }
}
