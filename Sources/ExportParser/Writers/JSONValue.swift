/// An ordered JSON value: the payload's keys keep the order of docs/payload.md, and numbers
/// carry the decimals they are rounded to on the wire.
indirect enum JSONValue: Equatable, Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    /// A number rounded half away from zero to `decimals` places.
    case number(Double, decimals: Int)
    case bool(Bool)
    case null

    static func == (a: JSONValue, b: JSONValue) -> Bool { a.render(indent: nil) == b.render(indent: nil) }

    /// JSON text; `indent` spaces per level, or compact when nil.
    func render(indent: Int? = 2, level: Int = 0) -> String {
        var out = ""
        write(into: &out, indent: indent, level: level)
        return out
    }

    private func write(into out: inout String, indent: Int?, level: Int) {
        let nl = indent == nil ? "" : "\n"
        let pad = { (l: Int) in indent.map { String(repeating: " ", count: $0 * l) } ?? "" }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .string(let s): out += JSONText.quote(s)
        case .number(let v, let d): out += Self.format(v, decimals: d)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + nl
            for (i, item) in items.enumerated() {
                out += pad(level + 1)
                item.write(into: &out, indent: indent, level: level + 1)
                out += (i + 1 < items.count ? "," : "") + nl
            }
            out += pad(level) + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{" + nl
            for (i, (k, v)) in members.enumerated() {
                out += pad(level + 1) + JSONText.quote(k) + (indent == nil ? ":" : ": ")
                v.write(into: &out, indent: indent, level: level + 1)
                out += (i + 1 < members.count ? "," : "") + nl
            }
            out += pad(level) + "}"
        }
    }

    /// Rounds for the wire (never before aggregation) and prints the shortest form:
    /// `8432`, `6.2`, `97.05`.
    static func format(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "null" }
        let r = round(v, decimals: decimals)
        if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
        return "\(r)"
    }

    static func round(_ v: Double, decimals: Int) -> Double {
        let p = pow10(decimals)
        let r = (v * p).rounded(.toNearestOrAwayFromZero) / p
        return r == 0 ? 0 : r  // no "-0"
    }

    private static func pow10(_ d: Int) -> Double {
        var p = 1.0
        for _ in 0..<max(0, d) { p *= 10 }
        return p
    }
}
