/// The natural key of a sample past its (person, type, start) as one 64-bit number:
/// `sample_records.key_digest` (schema version 6), the last column of the samples' unique
/// natural-key index `(person, type_id, start_epoch, key_digest)`.
///
/// Why: the index used to hold the key's columns themselves (end, source, value, value text,
/// unit, metadata digest), 59 bytes an entry on the benchmark's 3 GB export; with the digest an
/// entry takes 31. The index shrank by 176 MB, the table grew by 56 MB (this column), and the
/// store file went from 1,206 to 1,086 MB. The writer's instructions hardly moved (SQLite's
/// fewer index columns against the digest): what it saves is bytes written (docs/store.md,
/// "Then (store7)").
///
/// The digest keeps the old index's equality: two samples of one person, type and start have
/// the same digest when the old index held them equal, that is when
/// - their end epochs and source ids are equal,
/// - their values are both NULL or equal numbers (SQLite compares REAL by value, so 0 and -0
///   are one; a NaN is stored as NULL),
/// - their value texts are equal, NULL counting as "" (the old index's `ifnull(value_text, '')`),
/// - their units likewise, and their metadata digests are equal.
/// Two samples that differ in one of these get different digests (a text unless its 64-bit
/// FNV-1a collides); samples that differ in several collide only by chance: among samples of one person,
/// type and start, about n²/2⁶⁵ for n such samples. A collision would store the second as a
/// duplicate of the first.
///
/// The writer computes it from the bound values (`SampleRows`), the version 6 migration from a
/// stored row's columns (`StoreSchema.fillSampleKeyDigests`); both go through `digest` here.
enum SampleKeyDigest {
    /// The digest, as the signed integer SQLite stores, of seven 64-bit words: the end epoch,
    /// the source id, a value tag (1 for a value, 0 for none), the value's IEEE 754 bits (0 for
    /// none, and for -0), the value text's `textHash`, the unit's `textHash` and the metadata
    /// digest. Each word goes in through `step`, a bijection of the state for a given word, so two
    /// keys that differ in exactly one word always get different digests; `finish` is
    /// MurmurHash3's 64-bit finaliser. Words rather than bytes: the writer digests every sample,
    /// and a byte-wise FNV-1a over the same 45 bytes took 1.5 % of the 3 GB store run (perf).
    @inline(__always)
    static func digest(
        endEpoch: Int64, sourceID: Int64, value: Double?, valueTextHash: UInt64, unitHash: UInt64, metadataDigest: UInt64
    ) -> Int64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        step(&h, UInt64(bitPattern: endEpoch))
        step(&h, UInt64(bitPattern: sourceID))
        if let value, !value.isNaN {
            step(&h, 1)
            step(&h, value == 0 ? 0 : value.bitPattern)
        } else {
            step(&h, 0)
            step(&h, 0)
        }
        step(&h, valueTextHash)
        step(&h, unitHash)
        step(&h, metadataDigest)
        return Int64(bitPattern: finish(h))
    }

    /// A text's hash for `digest`: FNV-1a 64 of its UTF-8 bytes (nil and empty alike: the offset
    /// basis, as the old index's `ifnull(…, '')` made NULL and "" one).
    @inline(__always)
    static func textHash(_ bytes: UnsafeRawBufferPointer?) -> UInt64 {
        var h = FNV1a()
        if let bytes, let base = bytes.baseAddress { h.add(base.assumingMemoryBound(to: UInt8.self), bytes.count) }
        return h.value
    }

    /// `textHash` of a String's UTF-8 (nil and "" alike).
    @inline(__always)
    static func textHash(_ text: String?) -> UInt64 {
        guard var text else { return textHash(nil as UnsafeRawBufferPointer?) }
        return text.withUTF8 { textHash(UnsafeRawBufferPointer($0)) }
    }

    /// `h ^= w`, then an xorshift, an odd multiplication and an xorshift: each invertible.
    @inline(__always)
    static func step(_ h: inout UInt64, _ w: UInt64) {
        var x = h ^ w
        x ^= x >> 32
        x = x &* 0xD6E8_FEB8_6659_FD93
        x ^= x >> 29
        h = x
    }

    @inline(__always)
    static func finish(_ h: UInt64) -> UInt64 {
        var x = h
        x ^= x >> 33
        x = x &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x = x &* 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}
