import Foundation

/// `MetadataEntry`: a record's (into its digest, its time zone, and with details the store's
/// `metadata_json` object or a correlation member's entries), a correlation's, a workout's and
/// its children's. A record's metadata is read from the attribute bytes on the hot path (the
/// heart-rate records each carry one); the JSON object is written straight from those bytes.
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
                    appendToMetadataObject(attrs, keyIndex, valueIndex)
                }
            }
        case .correlation:
            if details { correlation?.metadata.append(entry(attrs, keyIndex, valueIndex)) }
        case .workout:
            let e = entry(attrs, keyIndex, valueIndex)
            if isTimeZone { workout?.timeZoneName = e.value }
            workout?.metadata.append(e)
        case .workoutActivity:
            activity?.metadata.append(entry(attrs, keyIndex, valueIndex))
        case .workoutEvent:
            event?.metadata.append(entry(attrs, keyIndex, valueIndex))
        default:
            break
        }
    }

    /// The store's `metadata_json` text of a top-level record's entries (`metadataObject`): the
    /// text `JSONText.appendObject` makes of the entries `entry` would make
    /// (`MetadataObjectTests`), without their Strings: a value String an entry, an array of
    /// entries and the object built again from them were 130 M of the decoding thread's
    /// instructions on a 40 MB export (docs/store.md, store6).
    func appendToMetadataObject(_ attrs: AttributeList, _ k: Int, _ v: Int) {
        metadataObject.append(metadataObject.count == 0 ? 0x7B : 0x2C)
        Self.appendJSONText(attrs.valueStart(k), attrs.valueCount(k), to: metadataObject)
        metadataObject.append(0x3A)
        if v >= 0 {
            Self.appendJSONText(attrs.valueStart(v), attrs.valueCount(v), to: metadataObject)
        } else {
            metadataObject.appendJSONString(nil, 0)
        }
    }

    /// An attribute value as the JSON string of its text (`XMLText.string`): the bytes copied
    /// between quotes when none needs escaping or decoding (`isPlainJSONText`: nearly every key
    /// and value), else escaped (`appendJSONString`) when they are ASCII without `&`, which
    /// `XMLText.string` keeps unchanged, else through that String (invalid UTF-8 repaired,
    /// `&#38;` read as `&`).
    static func appendJSONText(_ p: UnsafePointer<UInt8>, _ count: Int, to out: ExportBytes) {
        if isPlainJSONText(p, count) {
            out.reserve(count + 2)
            out.append(0x22)
            out.append(p, count)
            out.append(0x22)
            return
        }
        var ascii = true
        for i in 0..<count where p[i] >= 0x80 || p[i] == 0x26 {
            ascii = false
            break
        }
        if ascii { out.appendJSONString(p, count) } else { out.appendJSONString(XMLText.string(p, count)) }
    }

    /// Whether the `count` bytes at `p` are a JSON string's text as they are: no byte below 0x20,
    /// `"` or `\` (escaped in JSON), `&` (decoded by `XMLText.string`) or from 0x80 (UTF-8 that
    /// `XMLText.string` checks). Eight bytes at a time: a byte-at-a-time test of five conditions
    /// was most of the 67 M instructions the metadata objects cost on a 40 MB export. The word
    /// tests are the "has a byte less than n" and "has a zero byte" bit tricks, exact in saying
    /// whether any byte matches; a byte with its high bit set is caught by `x & high` first.
    @inline(__always)
    static func isPlainJSONText(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let quote = x ^ (ones &* 0x22), backslash = x ^ (ones &* 0x5C), amp = x ^ (ones &* 0x26)
            var hit = x | ((x &- ones &* 0x20) & ~x)
            hit |= (quote &- ones) & ~quote
            hit |= (backslash &- ones) & ~backslash
            hit |= (amp &- ones) & ~amp
            if hit & high != 0 { return false }
            i += 8
        }
        while i < count {
            let c = p[i]
            if c < 0x20 || c >= 0x80 || c == 0x22 || c == 0x5C || c == 0x26 { return false }
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
