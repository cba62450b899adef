/// Minimal JSON text building for the few places that keep something as JSON (extra elements,
/// counts in the store). The payload writer has its own, ordered encoder.
package enum JSONText {
    package static func quote(_ s: String) -> String {
        let out = ExportBytes(capacity: s.utf8.count + 16)
        out.appendJSONString(s)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    static func object(_ entries: [MetadataEntry]) -> String {
        let out = ExportBytes(capacity: 256)
        appendObject(entries, to: out)
        return out.string
    }

    /// `{"key":"value",…}` of `entries` in order, left in `buffer` (cleared first): what `object`
    /// returns, built in a buffer the store's writers reuse record after record.
    static func appendObject(_ entries: [MetadataEntry], to buffer: ExportBytes) {
        buffer.clear()
        buffer.append(0x7B)
        for (i, e) in entries.enumerated() {
            if i > 0 { buffer.append(0x2C) }
            buffer.appendJSONString(e.key)
            buffer.append(0x3A)
            buffer.appendJSONString(e.value)
        }
        buffer.append(0x7D)
    }
}
