/// Eight bytes of a text tested at once as a `UInt64` (loaded little-endian, byte k of the text
/// is byte k of the word): the scans of a start tag that search for a quote, an `=` or a date's
/// end, where a `memchr` call for a span of a few words cost more than its search
/// (`ExportWindow.first`, `RecordStartTag`), and the compare of two short texts in place.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `equal` loads eight bytes
/// at a time only inside the `n` bytes its caller says both pointers hold.
enum WordBytes {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that equals `byte` (the zero-byte test of `word ^
    /// byte × ones`). The lowest flag is exact and so is `!= 0`: a borrow can set a flag only
    /// above a true match, never where there is none below it.
    @inline(__always)
    static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// Whether the `n` bytes at `a` and at `b` are the same: eight at a time, the last eight
    /// (overlapping the ones before) when `n` is not a multiple of eight, every load inside the
    /// `n`. The compiler makes a `memcmp` of an unknown count a loop over single bytes (260
    /// instructions for a type's name, callgrind); the census's type and source names, the HAE
    /// recogniser's source and the HAE key table compare here.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        guard n >= 8 else {
            for k in 0..<n where a[k] != b[k] { return false }
            return true
        }
        var k = 0
        while k &+ 8 <= n {
            if x.loadUnaligned(fromByteOffset: k, as: UInt64.self) != y.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
            k &+= 8
        }
        return k == n
            || x.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
    }

    /// Whether the `n` bytes at `a` and at `b` are the same, sixteen at a time with the
    /// differences gathered and tested once (the last sixteen overlapping the ones before), every
    /// load inside the `n`: for texts of a hundred bytes or more that are mostly the same
    /// (`RecordStartTag.Template`), where `equal` tests each word and libc's `memcmp` became
    /// a loop over single bytes (perf: a fifth of a parse worker's samples).
    @inline(__always)
    static func sameLong(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard n >= 16 else { return equal(a, b, n) }
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        var diff = SIMD2<UInt64>()
        var k = 0
        while k &+ 16 <= n {
            diff |= x.loadUnaligned(fromByteOffset: k, as: SIMD2<UInt64>.self) ^ y.loadUnaligned(fromByteOffset: k, as: SIMD2<UInt64>.self)
            k &+= 16
        }
        if k < n {
            diff |=
                x.loadUnaligned(fromByteOffset: n &- 16, as: SIMD2<UInt64>.self)
                ^ y.loadUnaligned(fromByteOffset: n &- 16, as: SIMD2<UInt64>.self)
        }
        return diff == SIMD2<UInt64>()
    }
}
