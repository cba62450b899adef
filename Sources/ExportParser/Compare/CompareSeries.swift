/// One compared field over the window, for the page's chart: both sides' values by date, the
/// tolerance band around the HAE value, and each date's status. In-bed times are charted as
/// hours from the date's midnight (23:30 the evening before is −0.5).
struct CompareSeries: Sendable {
    struct Point: Sendable {
        var date: String
        var native: Double?
        var hae: Double?
        /// The values that match the HAE value: nil where HAE has none.
        var band: ClosedRange<Double>?
        var status: CompareRow.Status?
    }
    var field: String
    var unit: String?
    var tolerance: Tolerance?
    var points: [Point]

    var hasMismatch: Bool { points.contains { $0.status == .mismatch } }

    static func build(
        native: [String: ComparableDay], hae: [String: ComparableDay], window: Comparison.Window,
        comparison: Comparison
    ) -> [CompareSeries] {
        var byField: [String: [String: CompareRow]] = [:]
        var order: [String] = []
        for r in comparison.rows where r.workout == nil {
            if byField[r.field] == nil { order.append(r.field) }
            byField[r.field, default: [:]][r.date] = r
        }
        let fieldOrder = Dictionary(
            OutputFields.all.enumerated().compactMap { i, f in f.payloadPath.map { ($0, i) } }, uniquingKeysWith: { a, _ in a })
        order.sort { (fieldOrder[$0] ?? .max) < (fieldOrder[$1] ?? .max) }
        return order.compactMap { field in
            let rows = byField[field]!
            // The field's tolerance and unit from its rows in date order, the first that states
            // each: a dictionary's order changes from process to process, and a row of another
            // status (not comparable: no tolerance) made the chart's band and caption differ
            // between two runs of the same input.
            let dated = rows.keys.sorted().map { rows[$0]! }
            let tolerance = dated.first { $0.tolerance != nil }?.tolerance
            let rowUnit = dated.first { $0.unit != nil }?.unit
            var points: [Point] = []
            for date in window.dates {
                let r = rows[date]
                let a = r.flatMap { chartValue($0.native, date: date) }, b = r.flatMap { chartValue($0.hae, date: date) }
                points.append(
                    Point(date: date, native: a, hae: b, band: b.flatMap { band(around: $0, tolerance) }, status: r?.status))
            }
            guard points.contains(where: { $0.native != nil || $0.hae != nil }) else { return nil }  // text such as a source
            let unit = field.hasPrefix("sleep.in_bed") ? "local time" : rowUnit
            return CompareSeries(field: field, unit: unit, tolerance: tolerance, points: points)
        }
    }

    /// A number, or an in-bed time as hours from the date's midnight; nil for other text.
    static func chartValue(_ s: OutputField.Scalar?, date: String) -> Double? {
        switch s {
        case .number(let n)?: return n
        case .text(let t)?:
            let u = Array(t.utf8)
            guard u.count >= 16, ISOTimestamp.parse(t) != nil, let day = CivilDate.parseISODate(String(t.prefix(10))),
                let own = CivilDate.parseISODate(date), let h = Int(String(t.dropFirst(11).prefix(2))),
                let m = Int(String(t.dropFirst(14).prefix(2)))
            else { return nil }
            return Double(day - own) * 24 + Double(h) + Double(m) / 60
        case nil: return nil
        }
    }

    static func band(around v: Double, _ t: Tolerance?) -> ClosedRange<Double>? {
        guard let t else { return nil }
        switch t.measure {
        case .relative(let f): return (v - abs(v) * f)...(v + abs(v) * f)
        case .absolute(let a): return (v - a)...(v + a)
        case .minutes(let m): return (v - m / 60)...(v + m / 60)
        }
    }
}
