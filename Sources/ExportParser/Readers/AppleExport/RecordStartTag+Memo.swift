/// The walk's memo (`RecordStartTag.Memo`): the types and device rests a worker met last, and
/// the last tag walked (`Template`). Beside the walk, not in it, because it is the walk's state
/// from tag to tag.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): an entry's bytes are
/// compared with a tag's in place, word by word, below the count the caller measured.
extension RecordStartTag {
    /// The last types and device rests (`deviceEnd`) a worker's walk met, four of each, their
    /// bytes as zero-padded words: records come in runs of one type, from two or three devices,
    /// so a value is most often found again by comparing it a word at a time with one met,
    /// which proves where it ends (the one met held no quote, and a quote follows here); the
    /// search for its quote and the tests of its bytes are then not made again (a type's
    /// lookup; a device's watch test, a few `memchr` calls).
    struct Memo {
        static let types = 0, devices = 1
        private static let entries = 4, words = 32
        private var bytes = [UInt64](repeating: 0, count: 2 * entries * words)
        /// Per entry: its byte count (-1: empty), and what the reader of the kind keeps with it
        /// (-1: nothing yet): a type's index in `ExportWindow.Seen.types`, a device rest's
        /// watch (1) and reference (2) bits.
        private var counts = [Int](repeating: -1, count: 2 * entries)
        var payload = [Int](repeating: -1, count: 2 * entries)
        /// The last tag `readInApplesOrder` read, for the next (`Template`).
        var template = Template()
        private var next = [0, 0]
        /// Per kind, the entry found or kept last: tried first (records come in runs of one type
        /// and one device), before the others in order.
        private var last = [0, Self.entries]

        /// The entry of `kind` whose bytes are those at `from`, followed by a quote there; and
        /// the quote's index.
        mutating func recall(_ kind: Int, _ tag: UnsafePointer<UInt8>, from: Int, _ count: Int) -> (Int, Int)? {
            let first = last[kind]
            if matches(first, tag, from: from, count) { return (first, from + counts[first]) }
            for entry in (kind * Self.entries)..<((kind + 1) * Self.entries) where entry != first {
                if matches(entry, tag, from: from, count) {
                    last[kind] = entry
                    return (entry, from + counts[entry])
                }
            }
            return nil
        }

        /// Whether `entry`'s bytes are those at `from`, followed by a quote there.
        @inline(__always)
        private func matches(_ entry: Int, _ tag: UnsafePointer<UInt8>, from: Int, _ count: Int) -> Bool {
            let n = counts[entry]
            guard n >= 0, from + n < count, tag[from + n] == 0x22 else { return false }
            return bytes.withUnsafeBufferPointer { same($0.baseAddress! + entry * Self.words, n, tag + from, room: count - from) }
        }

        /// Whether `n` bytes at `p` are the entry's `words` (`room`: the bytes readable at `p`).
        /// The words' differences are gathered, not tested one by one: the bytes are most often
        /// the entry's, so every word is read anyway, and one test is left to predict.
        @inline(__always)
        private func same(_ words: UnsafePointer<UInt64>, _ n: Int, _ p: UnsafePointer<UInt8>, room: Int) -> Bool {
            var k = 0
            var diff: UInt64 = 0
            while k + 8 <= n {
                diff |= UInt64(littleEndian: UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self)) ^ words[k / 8]
                k += 8
            }
            guard k < n else { return diff == 0 }
            let last = words[k / 8]  // byte j at bits 8j, as the loads are read
            if k + 8 <= room {
                let mask: UInt64 = (1 << UInt64(8 * (n - k))) - 1
                return diff == 0 && UInt64(littleEndian: UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self)) & mask == last
            }
            guard diff == 0 else { return false }
            for j in k..<n where p[j] != UInt8(truncatingIfNeeded: last >> UInt64(8 * (j - k))) { return false }
            return true
        }

        /// Keeps `n` bytes at `p` as an entry of `kind` (the oldest replaced; its payload
        /// cleared); its index, or -1 when longer than an entry holds.
        mutating func store(_ kind: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
            guard n <= Self.words * 8 else { return -1 }
            let entry = kind * Self.entries + next[kind]
            next[kind] = (next[kind] + 1) % Self.entries
            let base = entry * Self.words
            for w in 0..<((n + 7) / 8) {
                var word: UInt64 = 0
                for j in 0..<min(8, n - w * 8) { word |= UInt64(p[w * 8 + j]) << UInt64(8 * j) }
                bytes[base + w] = word
            }
            counts[entry] = n
            payload[entry] = -1
            last[kind] = entry
            return entry
        }
    }
}
