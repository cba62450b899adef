/// Minimal JSON text building for the few places that keep something as JSON (extra elements,
/// counts in the store). The payload writer has its own, ordered encoder.
enum JSONText {
    static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    static func object(_ entries: [MetadataEntry]) -> String {
        "{" + entries.map { quote($0.key) + ":" + quote($0.value) }.joined(separator: ",") + "}"
    }
}
