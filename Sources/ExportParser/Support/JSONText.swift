/// Minimal JSON text building for the few places that keep something as JSON (extra elements,
/// counts in the store). The payload writer has its own, ordered encoder.
package enum JSONText {
    package static func quote(_ s: String) -> String {
        let out = ExportBytes(capacity: s.utf8.count + 16)
        out.appendJSONString(s)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    static func object(_ entries: [MetadataEntry]) -> String {
        "{" + entries.map { quote($0.key) + ":" + quote($0.value) }.joined(separator: ",") + "}"
    }
}
