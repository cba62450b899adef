/// An ordered JSON value: the payload's keys keep the order of docs/payload.md, and numbers
/// carry the decimals they are rounded to on the wire.
package indirect enum JSONValue: Equatable, Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    /// A number rounded half away from zero to `decimals` places.
    case number(Double, decimals: Int)
    case bool(Bool)
    case null

    package static func == (a: JSONValue, b: JSONValue) -> Bool { a.render(indent: nil) == b.render(indent: nil) }

    /// JSON text; `indent` spaces per level, or compact when nil.
    package func render(indent: Int? = 2, level: Int = 0) -> String {
        String(decoding: bytes(indent: indent, level: level), as: UTF8.self)
    }

    /// The same text as UTF-8 bytes. Written byte by byte rather than by joining strings: a
    /// convert of years of days renders thousands of payloads, and string pieces made it a
    /// tenth of the HAE run's time.
    package func bytes(indent: Int? = 2, level: Int = 0) -> [UInt8] {
        let out = ExportBytes(capacity: 2048)
        write(into: out, indent: indent, level: level)
        return Array(out.bytes)
    }

    func write(into out: ExportBytes, indent: Int?, level: Int) {
        func newline(_ l: Int) {
            guard let indent else { return }
            out.append(0x0A)
            for _ in 0..<(indent * l) { out.append(0x20) }
        }
        switch self {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .string(let s): out.appendJSONString(s)
        case .number(let v, let d): out.appendRounded(v, decimals: d)
        case .array(let items):
            if items.isEmpty {
                out.append("[]")
                return
            }
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                newline(level + 1)
                item.write(into: out, indent: indent, level: level + 1)
            }
            newline(level)
            out.append(0x5D)
        case .object(let members):
            if members.isEmpty {
                out.append("{}")
                return
            }
            out.append(0x7B)
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out.append(0x2C) }
                newline(level + 1)
                out.appendJSONString(k)
                out.append(0x3A)
                if indent != nil { out.append(0x20) }
                v.write(into: out, indent: indent, level: level + 1)
            }
            newline(level)
            out.append(0x7D)
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
