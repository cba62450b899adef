/// A 64-bit FNV-1a digest, fed byte by byte. It tells records apart by their metadata
/// (`Sample.metadataDigest`) without keeping the metadata: cheap on the hot path, stable across
/// runs and platforms (unlike `Hasher`, which is seeded per process), so it can be stored.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `add` reads `count` bytes at
/// `p`, valid for the call (a tape value or a string's storage).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    mutating func add(_ p: UnsafePointer<UInt8>, _ count: Int) {
        var h = value
        for i in 0..<count { h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01b3 }
        value = h
    }

    /// A byte no UTF-8 text contains, between fields, so ("ab", "c") and ("a", "bc") differ.
    @inline(__always)
    mutating func separate() { value = (value ^ 0xFF) &* 0x0000_0100_0000_01b3 }

    mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { b in if let base = b.baseAddress { add(base, b.count) } }
    }

    /// A 64-bit word, its eight bytes low first (a number or a time fed as its bits, not as text).
    @inline(__always)
    mutating func add(word: UInt64) {
        var h = value
        for shift in stride(from: 0, to: 64, by: 8) { h = (h ^ (word >> UInt64(shift) & 0xFF)) &* 0x0000_0100_0000_01b3 }
        value = h
    }

    /// One byte (a tag, or whether an optional is there).
    @inline(__always)
    mutating func add(byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }

    /// A substring's UTF-8 bytes, as `add(String(s))` would feed them, without the copy.
    mutating func add(_ s: Substring) {
        for b in s.utf8 { add(byte: b) }
    }
}
