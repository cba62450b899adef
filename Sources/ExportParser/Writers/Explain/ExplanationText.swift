import Foundation

/// `explain`'s text: the value and the rule in one line each, the sources' stretches (sum), then
/// one aligned row a sample with the part it counted, and the counted total beside the value.
enum ExplanationText {
    static func render(_ e: Explanation) -> String {
        let unit = e.field.unit.map { " " + $0 } ?? ""
        let partDecimals = min(6, (e.field.decimals ?? 0) + 2)
        func num(_ v: Double?) -> String { v.map { JSONValue.format($0, decimals: partDecimals) } ?? "" }
        var out = "\(e.field.name) on \(e.date): \(valueText(e))\(e.value == nil ? "" : unit)\n"
        out += "rule: \(e.rule)\n"
        if let from = e.from { out += "from: \(from)\n" }
        for o in e.otherInputs { out += "also read: \(o.input): \(o.value.map { valueText(e, $0) } ?? "no value")\n" }
        if !e.stretches.isEmpty {
            out += "\ntime each source won (priority order):\n"
            out += table(
                e.stretches.map { st in
                    [
                        "\(st.rank)", st.source, minutes(st.seconds),
                        st.spans.map { short($0.start) + "–" + short($0.end) }.joined(separator: ", "),
                    ]
                }, right: [0, 2])
        }
        if !e.samples.isEmpty {
            let hasValue = e.samples.contains { $0.value != nil }
            let hasOnDate = e.samples.contains { $0.onDate != nil }
            let hasText = e.samples.contains { $0.text != nil }
            var header = ["start", "end"]
            if hasText { header.append("kind") }
            header += ["source", "device"]
            if hasValue { header.append("value") }
            if hasOnDate { header.append("on date") }
            header += ["counted", "note"]
            var rows = [header]
            for s in e.samples {
                var r = [s.start, s.end]
                if hasText { r.append(s.text ?? "") }
                r += [s.source, s.device ?? ""]
                if hasValue { r.append(num(s.value)) }
                if hasOnDate { r.append(num(s.onDate)) }
                r += [s.counted.map { num($0) } ?? (s.used ? "used" : ""), s.note ?? (s.used ? "" : "not used")]
                rows.append(r)
            }
            let numeric = Set(header.enumerated().filter { ["value", "on date", "counted"].contains($0.element) }.map(\.offset))
            out += "\n\(e.samples.count) samples:\n" + table(rows, right: numeric)
        } else {
            out += "\nno samples\n"
        }
        if let total = e.countedTotal {
            // The parts are the payload's own terms, so they add up to it; should they not, say so
            // rather than print an equation that does not hold.
            if let n = e.number, abs(total - n) > 1e-6 * max(1, abs(n)) {
                out +=
                    "\ncounted in all: \(num(total))\(unit), NOT the payload's \(valueText(e))\(unit): the samples listed are incomplete\n"
            } else {
                out += "\ncounted in all: \(num(total))\(unit) = the payload's \(valueText(e))\(unit)\n"
            }
        }
        for n in e.notes { out += "note: \(n)\n" }
        return out
    }

    private static func valueText(_ e: Explanation) -> String {
        e.value.map { valueText(e, $0) } ?? "no value"
    }

    private static func valueText(_ e: Explanation, _ v: OutputField.Value) -> String {
        switch v {
        case .number(let n): return JSONValue.format(n, decimals: e.field.numberDecimals)
        case .text(let t): return t
        case .workouts(let list): return "\(list.count) workouts"
        }
    }

    /// `2026-03-14T07:55:00+01:00` as `03-14 07:55:00`.
    private static func short(_ iso: String) -> String {
        guard iso.count >= 19 else { return iso }
        let a = iso.index(iso.startIndex, offsetBy: 5), b = iso.index(iso.startIndex, offsetBy: 19)
        return String(iso[a..<b]).replacingOccurrences(of: "T", with: " ")
    }

    private static func minutes(_ seconds: Int64) -> String {
        JSONValue.format(Double(seconds) / 60, decimals: 1) + " min"
    }

    /// Columns padded to their widest cell; `right` names the columns aligned right (numbers).
    private static func table(_ rows: [[String]], right: Set<Int>) -> String {
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: width)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        return rows.map { r in
            r.enumerated().map { i, c in
                let pad = String(repeating: " ", count: widths[i] - c.count)
                return right.contains(i) ? pad + c : (i == r.count - 1 ? c : c + pad)
            }.joined(separator: "  ").trimmingSuffix()
        }.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The text without trailing spaces.
    fileprivate func trimmingSuffix() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
