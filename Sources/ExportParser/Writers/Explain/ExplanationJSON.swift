/// `explain --format json`: `date`, `field`, `value` exactly as the payload writes it, `rule`, and
/// the samples each with its `counted` part (full precision, so they add up to `exact_value`).
enum ExplanationJSON {
    /// Decimals for the parts: finer than any payload field, so their sum is the value's.
    static let partDecimals = 9

    static func render(_ e: Explanation) -> String {
        func num(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: partDecimals) } ?? .null }
        func str(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
        var top: [(String, JSONValue)] = [
            ("date", .string(e.date)),
            ("field", .string(e.field.name)),
            ("value", e.value.map { PayloadEncoder.json($0, of: e.field) } ?? .null),
        ]
        if let n = e.number { top.append(("exact_value", num(n))) }
        top += [("unit", str(e.field.unit)), ("rule", .string(e.rule))]
        if let from = e.from { top.append(("from", .string(from))) }
        top.append(
            (
                "samples",
                .array(
                    e.samples.map { s in
                        var o: [(String, JSONValue)] = [("start", .string(s.start)), ("end", .string(s.end))]
                        if let t = s.text { o.append(("kind", .string(t))) }
                        if s.value != nil { o.append(("value", num(s.value))) }
                        o += [("source", .string(s.source)), ("device", str(s.device))]
                        if s.onDate != nil { o.append(("on_date", num(s.onDate))) }
                        o += [("counted", num(s.counted)), ("used", .bool(s.used))]
                        if let n = s.note { o.append(("note", .string(n))) }
                        return .object(o)
                    })
            ))
        if !e.stretches.isEmpty {
            top.append(
                (
                    "stretches",
                    .array(
                        e.stretches.map { st in
                            .object([
                                ("source", .string(st.source)), ("rank", .number(Double(st.rank), decimals: 0)),
                                ("seconds", .number(Double(st.seconds), decimals: 0)),
                                ("spans", .array(st.spans.map { .object([("start", .string($0.start)), ("end", .string($0.end))]) })),
                            ])
                        })
                ))
        }
        top.append(("counted_total", num(e.countedTotal)))
        if !e.otherInputs.isEmpty {
            top.append(
                (
                    "other_inputs",
                    .array(
                        e.otherInputs.map { o in
                            .object([("input", .string(o.input)), ("value", o.value.map { PayloadEncoder.json($0, of: e.field) } ?? .null)])
                        })
                ))
        }
        top.append(("notes", .array(e.notes.map { .string($0) })))
        return JSONValue.object(top).render() + "\n"
    }
}
