import Foundation

/// The metadata objects (`sample_records.metadata_json` texts) of one import that were given a
/// name id (`StoreSample.metadata`), found by their exact bytes, on the decoding thread.
///
/// Why: most records with metadata carry one of a few objects (a heart-rate record's
/// `{"HKMetadataKeyHeartRateMotionContext":"2"}`: 64 k of the 69 k objects of a 40 MB export).
/// Given an id like a unit or a zone, such an object is made into a string once and bound by the
/// writer in place (`Statement.bindStatic`), instead of a new string a record that the decoding
/// thread validates and allocates, the writer's SQLite copies and both threads free.
///
/// Bounded: at most `limit` objects of at most `longest` bytes each (about 400 KB over the
/// decoding and writer threads' copies); any other object is handed over as its own text, as
/// before. Found by their bytes (a 64-bit FNV-1a, then a byte comparison), not by `String`
/// equality, which treats canonically equivalent texts (a composed and a decomposed "é") as
/// equal though their bytes, and so the stored texts, differ.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `find` and `add` read the
/// `count` bytes of the buffer they are given (`ExportBytes.bytes`, valid until the buffer's next
/// append: the caller appends nothing meanwhile); `hash` loads 8 bytes at offsets `i` with
/// `i + 8 <= count` only; `same` compares `count` bytes of two buffers of that length;
/// `appendObject` reads each text inside the range `MetadataEntryTexts` gives for it, within the
/// bytes of its buffer, and `isPlainJSONText` loads words as `hash` does.
struct MetadataTexts {
    static let limit = 1024
    static let longest = 128

    /// Open addressing, twice as many slots as objects at most: each slot holds an index into
    /// `texts` or -1.
    private var slots = [Int32](repeating: -1, count: 2 * MetadataTexts.limit)
    private var hashes = [UInt64](repeating: 0, count: 2 * MetadataTexts.limit)
    private var texts: [[UInt8]] = []
    private var ids: [Int32] = []

    /// Where `bytes` was found (its id) or would go (`slot`), and its hash.
    struct Probe {
        let id: Int32?
        let slot: Int
        let hash: UInt64
    }

    func find(_ bytes: UnsafeRawBufferPointer) -> Probe {
        let h = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        // Ends: fewer objects than slots, so an empty slot comes.
        while slots[slot] >= 0 {
            let k = Int(slots[slot])
            if hashes[slot] == h, Self.same(texts[k], bytes) { return Probe(id: ids[k], slot: slot, hash: h) }
            slot = (slot + 1) & mask
        }
        return Probe(id: nil, slot: slot, hash: h)
    }

    /// FNV-1a's step over 8 bytes at a time, then a final mix so the low bits that pick the slot
    /// depend on every byte (a byte at a time cost 270 instructions an object of 45 bytes).
    /// Only for this table: not stored, unlike `FNV1a`.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* prime
            i += 8
        }
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* prime
            i += 1
        }
        h ^= h >> 32
        h = h &* 0xd6e8_feb8_6659_fd93
        return h ^ (h >> 32)
    }

    private static func same(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count
            && a.withUnsafeBytes { a in
                guard let pa = a.baseAddress, let pb = b.baseAddress else { return a.count == 0 }
                return memcmp(pa, pb, a.count) == 0
            }
    }

    /// Whether an object of `count` bytes not yet here can be given an id.
    func canAdd(_ count: Int) -> Bool { texts.count < Self.limit && count <= Self.longest }

    /// Records `bytes` under `id` at the slot `find` returned (with no change in between).
    mutating func add(_ bytes: UnsafeRawBufferPointer, id: Int32, at probe: Probe) {
        precondition(canAdd(bytes.count) && probe.id == nil && slots[probe.slot] < 0)
        slots[probe.slot] = Int32(texts.count)
        hashes[probe.slot] = probe.hash
        texts.append(Array(bytes))
        ids.append(id)
    }

    var count: Int { texts.count }

    /// The store's `metadata_json` text of a record's entries, left in `out` (cleared first): the
    /// text `JSONText.appendObject` makes of `texts.entries` (`MetadataObjectTests`), written from
    /// the reader's bytes without a String an entry. A text that needs no escaping (nearly every
    /// key and value) is copied between quotes whole; any other goes through
    /// `ExportBytes.appendJSONString`, which escapes byte by byte.
    static func appendObject(_ texts: MetadataEntryTexts, to out: ExportBytes) {
        out.clear()
        out.append(0x7B)
        texts.bytes.withUnsafeBytes { all in
            let base = all.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for i in 0..<2 * texts.count {
                if i > 0 { out.append(i % 2 == 0 ? 0x2C : 0x3A) }
                let r = texts.range(ofText: i)
                let p = base + r.lowerBound
                if isPlainJSONText(p, r.count) {
                    out.reserve(r.count + 2)
                    out.append(0x22)
                    out.append(p, r.count)
                    out.append(0x22)
                } else {
                    out.appendJSONString(p, r.count)
                }
            }
        }
        out.append(0x7D)
    }

    /// Whether the `count` bytes at `p` (UTF-8) are a JSON string's text as they are: no byte
    /// below 0x20, no `"` and no `\`. Eight bytes at a time: a byte-at-a-time test was most of
    /// what the metadata objects cost on a 40 MB export. The word tests are the "has a byte less
    /// than n" and "has a zero byte" bit tricks, exact in saying whether any byte matches, bytes
    /// from 0x80 (UTF-8 beyond ASCII, plain here) included.
    @inline(__always)
    static func isPlainJSONText(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let quote = x ^ (ones &* 0x22), backslash = x ^ (ones &* 0x5C)
            var hit = (x &- ones &* 0x20) & ~x
            hit |= (quote &- ones) & ~quote
            hit |= (backslash &- ones) & ~backslash
            if hit & high != 0 { return false }
            i += 8
        }
        while i < count {
            let c = p[i]
            if c < 0x20 || c == 0x22 || c == 0x5C { return false }
            i += 1
        }
        return true
    }
}
