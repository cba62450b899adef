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
/// `i + 8 <= count` only; `same` compares `count` bytes of two buffers of that length.
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
}
