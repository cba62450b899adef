/// Minimal JSON text building for the few places that keep something as JSON (extra elements,
/// counts in the store). The payload writer has its own, ordered encoder.
enum JSONText {
    static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `s` as a JSON string: `"` and `\` escaped, `\n` `\r` `\t` by name, other control
    /// characters as `\u00XX`; everything else, non-ASCII included, as its UTF-8 bytes.
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            out.reserveCapacity(out.count + bytes.count + 2)
            out.append(0x22)
            var start = 0
            for (i, c) in bytes.enumerated() where c < 0x20 || c == 0x22 || c == 0x5C {
                out.append(contentsOf: bytes[start..<i])
                start = i + 1
                switch c {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]])
                }
            }
            out.append(contentsOf: bytes[start...])
            out.append(0x22)
        }
    }

    static func object(_ entries: [MetadataEntry]) -> String {
        "{" + entries.map { quote($0.key) + ":" + quote($0.value) }.joined(separator: ",") + "}"
    }
}
