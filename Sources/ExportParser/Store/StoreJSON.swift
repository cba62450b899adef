/// Small JSON text builders for the store's `…_json` columns (readable with SQLite's json
/// functions). Only what the store writes: objects of string values.
enum StoreJSON {
    /// `{"key":"value",…}` in input order; a repeated key is kept (SQLite's `json_extract`
    /// returns the first).
    static func object(_ entries: [MetadataEntry]) -> String {
        var out = "{"
        out.reserveCapacity(entries.count * 24 + 2)
        for (i, e) in entries.enumerated() {
            if i > 0 { out += "," }
            appendString(e.key, to: &out)
            out += ":"
            appendString(e.value, to: &out)
        }
        out += "}"
        return out
    }

    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
