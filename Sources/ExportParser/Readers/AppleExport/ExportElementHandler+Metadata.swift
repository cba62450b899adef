import Foundation

/// `MetadataEntry`: a record's (into its digest, its time zone, and with details the entries'
/// texts lent to the sink or a correlation member's entries), a correlation's, a workout's and
/// its children's. A record's metadata is read from the attribute bytes on the hot path (the
/// heart-rate records each carry one); its texts are copied straight from those bytes.
extension ExportElementHandler {
    /// A `MetadataEntry` under `parent` (the element it is the metadata of).
    func metadata(_ attrs: AttributeList, parent: Element, depth: Int) {
        var keyIndex = -1, valueIndex = -1
        for i in 0..<attrs.count {
            if attrs.nameIs(i, "key") { keyIndex = i } else if attrs.nameIs(i, "value") { valueIndex = i }
        }
        guard keyIndex >= 0 else { return }
        let isTimeZone = attrs.valueCount(keyIndex) == 10 && Self.same(attrs.valueStart(keyIndex), "HKTimeZone", 10)
        switch parent {
        case .record where rec.active:
            rec.hasMetadata = true
            rec.metadataDigest.add(attrs.valueStart(keyIndex), attrs.valueCount(keyIndex))
            rec.metadataDigest.separate()
            if valueIndex >= 0 { rec.metadataDigest.add(attrs.valueStart(valueIndex), attrs.valueCount(valueIndex)) }
            rec.metadataDigest.separate()
            if isTimeZone, valueIndex >= 0 { rec.timeZoneName = internedString(attrs.valueStart(valueIndex), attrs.valueCount(valueIndex)) }
            if details {
                if rec.member {
                    rec.metadata.append(entry(attrs, keyIndex, valueIndex))
                } else {
                    appendToRecordMetadata(attrs, keyIndex, valueIndex)
                }
            }
        case .correlation:
            if details { correlation?.metadata.append(entry(attrs, keyIndex, valueIndex)) }
        case .workout:
            // A workout's metadata is a detail but for its zone (the day book's and the
            // timeline's; about five entries a workout, a String each).
            if isTimeZone { workout?.timeZoneName = valueIndex >= 0 ? attrs.string(valueIndex) : "" }
            if details { workout?.metadata.append(entry(attrs, keyIndex, valueIndex)) }
        case .workoutActivity:
            if details { activity?.metadata.append(entry(attrs, keyIndex, valueIndex)) }
        case .workoutEvent:
            if details { event?.metadata.append(entry(attrs, keyIndex, valueIndex)) }
        default:
            break
        }
    }

    /// A top-level record's entry as its two texts (`recordMetadata`), as `entry` would read them
    /// (`MetadataObjectTests`) without making Strings of them: a value String an entry, an
    /// array of entries and the store's object built again from them were 130 M of the decoding
    /// thread's instructions on a 40 MB export (docs/store.md, store6).
    func appendToRecordMetadata(_ attrs: AttributeList, _ k: Int, _ v: Int) {
        appendText(attrs.valueStart(k), attrs.valueCount(k))
        if v >= 0 { appendText(attrs.valueStart(v), attrs.valueCount(v)) } else { recordMetadata.endText() }
    }

    /// An attribute value's text (`XMLText.string`): its bytes as they are when `XMLText.string`
    /// would keep them (`keepsBytes`: nearly every key and value), else that String's (invalid
    /// UTF-8 repaired, `&#38;` read as `&`).
    private func appendText(_ p: UnsafePointer<UInt8>, _ count: Int) {
        if Self.keepsBytes(p, count) {
            recordMetadata.bytes.append(p, count)
        } else {
            recordMetadata.bytes.append(XMLText.string(p, count))
        }
        recordMetadata.endText()
    }

    /// Whether `XMLText.string` gives the `count` bytes at `p` back as they are: ASCII without
    /// `&` (a reference libxml2 left in, decoded by `XMLText.string`; a byte from 0x80 is UTF-8
    /// that it checks). Eight bytes at a time (a byte-at-a-time test was most of the 67 M
    /// instructions the metadata cost on a 40 MB export): the high bits first, then the "has a
    /// zero byte" bit trick on the word with `&` turned into zero, exact in saying whether any
    /// byte is `&`.
    @inline(__always)
    static func keepsBytes(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let amp = x ^ (ones &* 0x26)
            if (x | ((amp &- ones) & ~amp)) & high != 0 { return false }
            i += 8
        }
        while i < count {
            let c = p[i]
            if c >= 0x80 || c == 0x26 { return false }
            i += 1
        }
        return true
    }

    /// Keys repeat on every record (`HKMetadataKeyHeartRateMotionContext`): interned. Values are
    /// often unique (sync identifiers), so they are not.
    func entry(_ attrs: AttributeList, _ k: Int, _ v: Int) -> MetadataEntry {
        MetadataEntry(key: internedString(attrs.valueStart(k), attrs.valueCount(k)), value: v >= 0 ? attrs.string(v) : "")
    }
}
