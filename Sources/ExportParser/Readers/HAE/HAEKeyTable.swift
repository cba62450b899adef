/// Finds the `HAEKey` for an object key's bytes with, usually, one comparison: an open hash on
/// (length, first byte, last byte) points at the one spelling that can match; the few slots two
/// spellings share fall back to scanning the spellings of that length.
///
/// The walker keeps its own copy (`let`) so the hot path reads plain stored arrays instead of
/// going through a lazily initialised global on every key.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `lookup` reads `count` bytes
/// at `p` (a yajl or tape key, valid for the call) and compares them with its own table's bytes
/// inside `withUnsafeBufferPointer`; `count` is checked against the longest key first.
struct HAEKeyTable {
    static let shared = HAEKeyTable()
    static let maxLength = 24
    private static let collision: UInt8 = 255

    /// Spellings sorted by byte length; `ranges[n]` are those of length n.
    private let sorted: [(StaticString, HAEKey)]
    private let ranges: [Range<Int>]
    /// Per hash slot: index + 1 into `sorted`, 0 for none, `collision` for several.
    private let slots: [UInt8]

    init() {
        sorted = HAEKey.spellings.sorted { $0.0.utf8CodeUnitCount < $1.0.utf8CodeUnitCount }
        let sorted = sorted
        ranges = (0...Self.maxLength).map { n in
            let lo = sorted.firstIndex { $0.0.utf8CodeUnitCount == n } ?? 0
            let hi = sorted.lastIndex { $0.0.utf8CodeUnitCount == n }.map { $0 + 1 } ?? 0
            return lo..<Swift.max(lo, hi)
        }
        var t = [UInt8](repeating: 0, count: 256)
        for (i, e) in sorted.enumerated() {
            let n = e.0.utf8CodeUnitCount, p = e.0.utf8Start
            let h = Self.hash(n, p[0], p[n - 1])
            t[h] = t[h] == 0 ? UInt8(i + 1) : Self.collision
        }
        slots = t
    }

    @inline(__always)
    private static func hash(_ n: Int, _ first: UInt8, _ last: UInt8) -> Int {
        (n &* 37 &+ Int(first) &* 7 &+ Int(last) &* 3) & 255
    }

    @inline(__always)
    func lookup(_ p: UnsafePointer<UInt8>, _ count: Int) -> HAEKey {
        guard count > 0, count <= Self.maxLength else { return .unknown }
        let slot = slots[Self.hash(count, p[0], p[count - 1])]
        if slot == 0 { return .unknown }
        return sorted.withUnsafeBufferPointer { table in
            if slot != Self.collision {
                let e = table[Int(slot) - 1]
                return e.0.utf8CodeUnitCount == count && WordBytes.equal(e.0.utf8Start, p, count) ? e.1 : .unknown
            }
            for i in ranges[count] where WordBytes.equal(table[i].0.utf8Start, p, count) { return table[i].1 }
            return .unknown
        }
    }
}
