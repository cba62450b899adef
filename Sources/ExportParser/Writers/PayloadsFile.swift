/// The text of `payloads/DATE.json` and `payloads.json` ({"data": [...]} with each payload two
/// levels in), made from one payload's rendering. `convert` writes them, and `fixtures` writes
/// its `expected/` with the same functions, so the two agree byte for byte.
package enum PayloadsFile {
    /// What payloads.json starts with (all of it when there is no day).
    package static func opening(empty: Bool) -> String {
        empty ? "{\n  \"data\": []\n}\n" : "{\n  \"data\": [\n"
    }

    /// A day's file: the payload (`JSONValue.bytes()`) and a line break.
    package static func dayFile(_ payload: [UInt8]) -> [UInt8] {
        payload + [0x0A]
    }

    /// The payload as a member of payloads.json, then `,` or, for the last, the closing. The
    /// payload's text two levels in is the same text with four more spaces after each line
    /// break (a rendered string holds no raw line break), so it is rendered once.
    package static func member(_ payload: [UInt8], last: Bool) -> [UInt8] {
        var out = indent
        out.reserveCapacity(payload.count * 5 / 4 + 16)
        // A line at a time, not a byte at a time (an append a byte was a tenth of a day's rendering).
        var start = 0
        for i in payload.indices where payload[i] == 0x0A {
            out.append(contentsOf: payload[start...i])
            out += indent
            start = i + 1
        }
        out.append(contentsOf: payload[start...])
        out += (last ? "\n  ]\n}\n" : ",\n").utf8
        return out
    }

    private static let indent: [UInt8] = Array("    ".utf8)
}
