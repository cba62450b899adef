import Foundation

/// `compare.html`: one self-contained page (inline CSS and SVG; no script, font or image from
/// anywhere) for the person deciding whether to switch HAE off: the verdict and summary first,
/// then the gaps and the values out of tolerance, one small chart per compared field (native
/// against HAE over the window, with the tolerance band around HAE), and the workouts side by side.
enum CompareHTML {
    static func render(_ report: CompareReport) -> String {
        let s = CompareSummary(report)
        let from = CivilDate.isoDate(report.window.from), to = CivilDate.isoDate(report.window.to)
        var h = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Native vs HAE, \(from) – \(to)</title>
            <style>\(css)</style></head><body>
            <h1>Native HealthKit vs Health Auto Export</h1>
            <p class="window">\(report.mode == .validate ? "Validation" : "Monitoring") window \(from) – \(to) (\(datesText(report)))</p>

            """
        if !report.sides.isEmpty {
            h +=
                "<table class=\"sides\"><thead><tr><th>side</th><th>input</th><th>files</th><th>dates</th><th>sources</th></tr></thead><tbody>"
            for side in report.sides {
                h +=
                    "<tr><td>\(side.side.name)</td><td>\(escape(side.kind))</td><td>\(side.files.map { "<code>" + escape($0) + "</code>" }.joined(separator: "<br>"))</td>"
                    + "<td>\(escape(side.range))</td><td>\(escape(side.sources.isEmpty ? "none named" : side.sources.joined(separator: ", ")))</td></tr>"
            }
            h += "</tbody></table>\n"
        }
        for w in report.warnings { h += "<p class=\"warning\"><b>Warning:</b> \(escape(w))</p>\n" }
        let verdict = report.failed ? "Not ready to switch HAE off" : "Native data matches HAE"
        h += "<section class=\"verdict \(report.failed ? "fail" : "pass")\"><h2>\(verdict)</h2>"
        if let short = report.notEnoughDates { h += "<p class=\"short\"><b>\(escape(CompareText.notEnoughDates(short)))</b></p>" }
        let verdicts = report.verdicts
        if !verdicts.isEmpty {
            h += "<ul class=\"fields\">"
            for v in verdicts {
                let mark = v.status == .pass ? "✓" : v.status == .fail ? "✗" : "–"
                h += "<li class=\"\(v.status.rawValue)\"><span class=\"mark\">\(mark)</span> \(escape(v.sentence))</li>"
            }
            h += "</ul>"
        }
        if let nc = FieldVerdict.notComparableLine(report.rows) { h += "<p class=\"nc\">\(escape(nc))</p>" }
        h += "<ul class=\"counts\">"
        if report.mode == .validate {
            for (label, n, cls) in [
                ("match", s.matches, "match"), ("mismatch", s.mismatches, "mismatch"), ("only native", s.onlyNative, "only"),
                ("only HAE", s.onlyHAE, "only"), ("not comparable", s.notComparable, "nc"),
                ("workouts matched", s.workoutsMatched, "match"), ("workouts on one side", s.workoutsUnmatched, "mismatch"),
            ] {
                h += "<li class=\"\(cls)\"><b>\(n)</b> \(label)</li>"
            }
        }
        h += "<li class=\"\(report.gaps.isEmpty ? "match" : "mismatch")\"><b>\(report.gaps.count)</b> gaps</li></ul>"
        h += "<p>\(s.fields) fields compared over \(s.dates) dates. Every row is in compare.csv and compare.json.</p></section>\n"

        if !report.gaps.isEmpty {
            h += "<section><h2>Gaps</h2><ul class=\"gaps\">"
            for g in report.gaps { h += "<li>\(escape(g.sentence))</li>" }
            h += "</ul></section>\n"
        }
        let odd = report.rows.filter { $0.status != .match && $0.status != .notComparable }
        if !odd.isEmpty {
            h +=
                "<section><h2>Not matching</h2><table><thead><tr><th>date</th><th>field</th><th>native</th><th>HAE</th><th>difference</th><th>tolerance</th><th>status</th></tr></thead><tbody>"
            for r in odd {
                let field = r.workout.map { r.field + " (" + $0 + ")" } ?? r.field
                let diff = CompareText.difference(r)
                h +=
                    "<tr class=\"\(r.status.rawValue)\"><td>\(r.date)</td><td>\(escape(field))</td><td class=\"n\">\(escape(CompareText.shown(r.native, decimals: r.decimals)))</td>"
                    + "<td class=\"n\">\(escape(CompareText.shown(r.hae, decimals: r.decimals)))</td><td class=\"n\">\(escape(diff))</td>"
                    + "<td>\(escape(r.tolerance?.description ?? ""))</td><td>\(r.status.rawValue)</td></tr>"
            }
            h += "</tbody></table>"
            let explained = odd.filter { $0.status == .mismatch }.map { ($0, report.explainLines($0)) }.filter { !$0.1.isEmpty }
            if !explained.isEmpty {
                h += "<h3>How each side's value was made</h3><ul class=\"explain\">"
                for (r, lines) in explained {
                    h += "<li>\(r.date) \(escape(GapFinder.name(r.field))):"
                    for (label, line) in lines { h += "<br>\(escape(label)): <code>\(escape(line))</code>" }
                    h += "</li>"
                }
                h += "</ul>"
            }
            h += "</section>\n"
        }
        if !report.series.isEmpty {
            h +=
                "<section><h2>Field by field</h2><p class=\"legend\"><span class=\"key native\"></span> native <span class=\"key hae\"></span> HAE <span class=\"key band\"></span> tolerance around HAE <span class=\"key bad\"></span> out of tolerance <span class=\"key missing\"></span> a side has no value</p><div class=\"charts\">"
            for series in report.series { h += chart(series) }
            h += "</div></section>\n"
        }
        let workoutRows = report.rows.filter { $0.field.hasPrefix("workouts") }
        if !workoutRows.isEmpty {
            h +=
                "<section><h2>Workouts</h2><table><thead><tr><th>date</th><th>workout</th><th>figure</th><th>native</th><th>HAE</th><th>status</th></tr></thead><tbody>"
            for r in workoutRows {
                let figure = r.field == "workouts" ? "(on one side only)" : String(r.field.dropFirst("workouts.".count))
                h +=
                    "<tr class=\"\(r.status.rawValue)\"><td>\(r.date)</td><td>\(escape(r.workout ?? ""))</td><td>\(escape(figure))</td>"
                    + "<td class=\"n\">\(escape(CompareText.shown(r.native, decimals: r.decimals)))</td><td class=\"n\">\(escape(CompareText.shown(r.hae, decimals: r.decimals)))</td><td>\(r.status.rawValue)</td></tr>"
            }
            h += "</tbody></table></section>\n"
        }
        h +=
            "<footer>Made by health-import compare. Tolerances: sums ±2 %, averages ±3 %, latest readings ±1 %, heart-rate min/max ±1 bpm, sleep durations ±10 min, in-bed times ±15 min, unless a tolerances file said otherwise.</footer>\n</body></html>\n"
        return h
    }

    /// `7 dates`, or `14 dates with data of 60` when some of the window's dates have none.
    static func datesText(_ report: CompareReport) -> String {
        let n = report.comparison?.datesWithData ?? report.window.count
        let dates = "\(n) \(n == 1 ? "date" : "dates")"
        return n == report.window.count ? dates : dates + " with data of \(report.window.count)"
    }

    /// One field's chart: an SVG of both sides over the window.
    static func chart(_ s: CompareSeries) -> String {
        let w = 320.0, hgt = 150.0, left = 44.0, right = 8.0, top = 10.0, bottom = 24.0
        var values: [Double] = []
        for p in s.points {
            values += [p.native, p.hae].compactMap { $0 }
            if let b = p.band { values += [b.lowerBound, b.upperBound] }
        }
        var lo = values.min() ?? 0, hi = values.max() ?? 1
        if hi - lo < 1e-9 { lo -= 1; hi += 1 }
        let pad = (hi - lo) * 0.08
        lo -= pad; hi += pad
        let n = s.points.count
        func x(_ i: Int) -> Double { left + (n > 1 ? Double(i) * (w - left - right) / Double(n - 1) : (w - left - right) / 2) }
        func y(_ v: Double) -> Double { top + (hi - v) / (hi - lo) * (hgt - top - bottom) }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        // In-bed times are hours from the date's midnight: labelled as clock times.
        let clock = s.field.hasPrefix("sleep.in_bed")
        func label(_ v: Double) -> String { clock ? clockTime(v) : axisLabel(v) }
        var svg =
            "<svg viewBox=\"0 0 \(Int(w)) \(Int(hgt))\" width=\"\(Int(w))\" height=\"\(Int(hgt))\" role=\"img\" aria-label=\"\(escape(s.field)): native against HAE\">"
        // Axes: three labelled levels and the first and last date.
        for v in [lo + pad, (lo + hi) / 2, hi - pad] {
            svg += "<line x1=\"\(f(left))\" x2=\"\(f(w - right))\" y1=\"\(f(y(v)))\" y2=\"\(f(y(v)))\" class=\"grid\"/>"
            svg += "<text x=\"\(f(left - 4))\" y=\"\(f(y(v) + 3))\" class=\"axis\" text-anchor=\"end\">\(escape(label(v)))</text>"
        }
        if let first = s.points.first {
            svg += "<text x=\"\(f(x(0)))\" y=\"\(f(hgt - 6))\" class=\"axis\" text-anchor=\"start\">\(first.date.dropFirst(5))</text>"
        }
        if n > 1, let last = s.points.last {
            svg += "<text x=\"\(f(x(n - 1)))\" y=\"\(f(hgt - 6))\" class=\"axis\" text-anchor=\"end\">\(last.date.dropFirst(5))</text>"
        }
        // The band, in runs of consecutive dates that have one.
        for run in runs(s.points.indices.filter { s.points[$0].band != nil }) {
            let upper = run.map { "\(f(x($0))),\(f(y(s.points[$0].band!.upperBound)))" }
            let lower = run.reversed().map { "\(f(x($0))),\(f(y(s.points[$0].band!.lowerBound)))" }
            if run.count == 1 {
                let i = run[0]
                svg +=
                    "<rect x=\"\(f(x(i) - 4))\" y=\"\(f(y(s.points[i].band!.upperBound)))\" width=\"8\" height=\"\(f(max(1, y(s.points[i].band!.lowerBound) - y(s.points[i].band!.upperBound))))\" class=\"band\"/>"
            } else {
                svg += "<polygon points=\"\((upper + lower).joined(separator: " "))\" class=\"band\"/>"
            }
        }
        for (key, cls) in [(\CompareSeries.Point.hae, "hae"), (\CompareSeries.Point.native, "native")] {
            for run in runs(s.points.indices.filter { s.points[$0][keyPath: key] != nil }) where run.count > 1 {
                svg +=
                    "<polyline points=\"\(run.map { "\(f(x($0))),\(f(y(s.points[$0][keyPath: key]!)))" }.joined(separator: " "))\" class=\"line \(cls)\"/>"
            }
            for (i, p) in s.points.enumerated() {
                guard let v = p[keyPath: key] else { continue }
                let bad = p.status == .mismatch && cls == "native"
                svg +=
                    "<circle cx=\"\(f(x(i)))\" cy=\"\(f(y(v)))\" r=\"\(bad ? 4.5 : 2.5)\" class=\"dot \(cls)\(bad ? " bad" : "")\"><title>\(p.date) \(cls): \(escape(label(v)))</title></circle>"
            }
        }
        // A date where a side has no value: a hollow mark under the plot, named in its title.
        var missing = 0
        for (i, p) in s.points.enumerated() where p.native == nil || p.hae == nil {
            missing += 1
            let which = p.native == nil && p.hae == nil ? "no value on either side" : p.native == nil ? "no native value" : "no HAE value"
            svg +=
                "<rect x=\"\(f(x(i) - 3.5))\" y=\"\(f(hgt - bottom + 3))\" width=\"7\" height=\"7\" class=\"missing\"><title>\(p.date): \(which)</title></rect>"
        }
        svg += "</svg>"
        let note = missing == 0 ? "" : "<span class=\"gapnote\">missing on \(missing) \(missing == 1 ? "date" : "dates")</span>"
        let title = escape(GapFinder.name(s.field)) + (s.unit.map { " <span class=\"unit\">" + escape($0) + "</span>" } ?? "")
        return
            "<figure class=\"\(s.hasMismatch ? "chart bad" : "chart")\"><figcaption>\(title) <span class=\"tol\">\(escape(s.tolerance?.description ?? "not compared"))</span>\(note)</figcaption>\(svg)</figure>"
    }

    /// Consecutive indices grouped: [0, 1, 3] → [[0, 1], [3]].
    static func runs(_ indices: [Int]) -> [[Int]] {
        var out: [[Int]] = []
        for i in indices {
            if let last = out.last?.last, last == i - 1 { out[out.count - 1].append(i) } else { out.append([i]) }
        }
        return out
    }

    /// −1.5 → `22:30`, 6.25 → `06:15`.
    static func clockTime(_ hours: Double) -> String {
        var minutes = Int((hours * 60).rounded()) % 1440
        if minutes < 0 { minutes += 1440 }
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    static func axisLabel(_ v: Double) -> String {
        abs(v) >= 100
            ? JSONValue.format(v, decimals: 0) : abs(v) >= 10 ? JSONValue.format(v, decimals: 1) : JSONValue.format(v, decimals: 2)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    static let css = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d1d1f}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 8px}.window{color:#555;margin:0 0 16px}
        section{margin:0 0 24px}.verdict{border-radius:8px;padding:14px 18px}.verdict.pass{background:#e7f6ea;border:1px solid #6cc381}
        .verdict.fail{background:#fdecec;border:1px solid #e58c8c}.counts{list-style:none;padding:0;margin:8px 0;display:flex;flex-wrap:wrap;gap:8px 18px}
        .counts b{font-size:18px}.counts .mismatch b{color:#b42318}.counts .match b{color:#1e7b34}.counts .only b{color:#9a6700}
        .gaps li{color:#b42318}table{border-collapse:collapse;width:100%;font-size:13px}th,td{padding:4px 8px;border-bottom:1px solid #e4e4e7;text-align:left}
        td.n{text-align:right;font-variant-numeric:tabular-nums}tr.mismatch td{background:#fdecec}tr.only-native td,tr.only-hae td{background:#fff6dd}
        tr.not-comparable td{color:#666}.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:12px}
        .chart{margin:0;border:1px solid #e4e4e7;border-radius:6px;padding:6px}.chart.bad{border-color:#e58c8c;background:#fff8f8}
        figcaption{font-weight:600;font-size:13px}.unit,.tol{font-weight:400;color:#666}.tol{float:right}
        .grid{stroke:#eee}.axis{font-size:10px;fill:#777}.band{fill:#f5a524;opacity:.18}.line{fill:none;stroke-width:1.6}
        .line.native{stroke:#2563eb}.line.hae{stroke:#d97706;stroke-dasharray:4 3}.dot.native{fill:#2563eb}.dot.hae{fill:#d97706}
        .dot.bad{fill:#fff;stroke:#dc2626;stroke-width:2.2}.legend{color:#555;font-size:12px}.key{display:inline-block;width:14px;height:8px;margin:0 4px 0 10px}
        .key.native{background:#2563eb}.key.hae{background:#d97706}.key.band{background:#f5a524;opacity:.35}.key.bad{border:2px solid #dc2626;border-radius:50%;width:6px;height:6px}
        td:first-child,th:first-child{white-space:nowrap}.sides{margin:0 0 16px}.warning{background:#fff4d6;border-left:4px solid #d99a00;padding:8px 12px}.sides code{font-size:12px}
        .fields{list-style:none;padding:0;margin:8px 0 10px;columns:2 420px}.fields li{padding:1px 0;break-inside:avoid}
        .fields .fail{color:#b42318;font-weight:600}.fields .one-sided{color:#9a6700}.fields .pass .mark{color:#1e7b34}.nc{color:#555;margin:4px 0}
        .explain{font-size:12px}.explain code{word-break:break-all}h3{font-size:14px;margin:12px 0 4px}
        .missing{fill:#fff;stroke:#9ca3af;stroke-width:1.4}.key.missing{border:1.5px solid #9ca3af;width:6px;height:6px}.gapnote{display:block;font-weight:400;color:#9a6700;font-size:11px}
        footer{color:#777;font-size:12px;border-top:1px solid #e4e4e7;padding-top:8px}
        """
}
