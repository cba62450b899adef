/// Turns repeated byte strings (source names, units, metric names) into shared `String`s
/// without allocating a String per occurrence: a file holds a handful of distinct sources but
/// one per datum. Entries are found by an FNV-1a hash of the bytes and confirmed byte by byte.
///
/// Capped so a file with endless distinct values (ids, free text) cannot grow it without bound;
/// past the cap values are decoded directly.
struct HAEByteInterner {
    private var slots: [UInt64: [Int]] = [:]
    /// The entry found last: sources repeat datum after datum, so most lookups end here.
    private var lastHit = -1
    private var bytes: [[UInt8]] = []
    private(set) var strings: [String] = []
    let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    @inline(__always)
    mutating func intern(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        if count == 0 { return "" }
        if lastHit >= 0, bytes[lastHit].count == count,
           bytes[lastHit].withUnsafeBufferPointer({ b in memcmpEqual(b.baseAddress!, p, count) }) {
            return strings[lastHit]
        }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<count { h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01B3 }
        if let candidates = slots[h] {
            for c in candidates where bytes[c].count == count {
                if bytes[c].withUnsafeBufferPointer({ b in memcmpEqual(b.baseAddress!, p, count) }) {
                    lastHit = c
                    return strings[c]
                }
            }
        }
        let s = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        guard strings.count < capacity else { return s }
        slots[h, default: []].append(strings.count)
        bytes.append(Array(UnsafeBufferPointer(start: p, count: count)))
        strings.append(s)
        return s
    }

    @inline(__always)
    private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while i < n { if a[i] != b[i] { return false }; i += 1 }
        return true
    }
}
