/// Eight bytes of a text tested at once as a `UInt64` (loaded little-endian, byte k of the text
/// is byte k of the word): the scans of a start tag that search for a quote, an `=` or a date's
/// end, where a `memchr` call for a span of a few words cost more than its search
/// (`ExportWindow.first`, `RecordStartTag`).
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
}
