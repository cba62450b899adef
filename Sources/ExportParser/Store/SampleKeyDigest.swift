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
/// Two samples that differ in any of these get different digests unless the 64-bit FNV-1a
/// collides; among samples of one person, type and start, that is a chance of about n²/2⁶⁵ for
/// n such samples, and a collision would store the second as a duplicate of the first.
///
/// The writer computes it from the bound values (`SampleRows`), the version 6 migration from a
/// stored row's columns (`StoreSchema.fillSampleKeyDigests`); both go through `digest` here.
enum SampleKeyDigest {
    /// The digest, as the signed integer SQLite stores. `valueText` and `unit` are UTF-8 bytes
    /// (nil or empty alike). The bytes digested, in order: the end epoch and the source id as 8
    /// bytes each, least significant first; a tag byte (1 for a value, 0 for none) and the value's
    /// IEEE 754 bits as 8 bytes (0 for none, and for -0); the value text; 0xFF; the unit; 0xFF;
    /// the metadata digest as 8 bytes. 0xFF never occurs in UTF-8, so no text runs into the next.
    @inline(__always)
    static func digest(
        endEpoch: Int64, sourceID: Int64, value: Double?, valueText: UnsafeRawBufferPointer?,
        unit: UnsafeRawBufferPointer?, metadataDigest: UInt64
    ) -> Int64 {
        var h = FNV1a()
        h.add(UInt64(bitPattern: endEpoch))
        h.add(UInt64(bitPattern: sourceID))
        // A fixed width for the value (a tag byte and 8 bytes), so no value text can pass for one.
        if let value, !value.isNaN {
            h.add(byte: 1)
            h.add(value == 0 ? 0 : value.bitPattern)
        } else {
            h.add(byte: 0)
            h.add(0 as UInt64)
        }
        if let valueText, let base = valueText.baseAddress {
            h.add(base.assumingMemoryBound(to: UInt8.self), valueText.count)
        }
        h.separate()
        if let unit, let base = unit.baseAddress { h.add(base.assumingMemoryBound(to: UInt8.self), unit.count) }
        h.separate()
        h.add(metadataDigest)
        return Int64(bitPattern: h.value)
    }
}
