/// The compare report on the terminal: the summary, the rows that are not `match` in aligned
/// columns, the gaps, and the verdict. Colours (ANSI) only when asked: the CLI asks when stdout
/// is a terminal and `NO_COLOR` is not set.
enum CompareTerminal {
    static func render(_ report: CompareReport, outDir: String, color: Bool) -> String {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text }
        let s = CompareSummary(report)
        let from = CivilDate.isoDate(report.window.from), to = CivilDate.isoDate(report.window.to)
        var lines: [String] = []
        switch report.mode {
        case .validate:
            lines.append(
                "Compared \(from) … \(to) (\(report.window.count) \(report.window.count == 1 ? "date" : "dates")): \(s.fields) fields, \(report.rows.count) values: "
                    + "\(s.matches) match, \(s.mismatches) mismatch, \(s.onlyNative) only native, \(s.onlyHAE) only HAE, "
                    + "\(s.notComparable) not comparable; workouts: \(s.workoutsMatched) matched, \(s.workoutsUnmatched) on one side only; "
                    + "\(report.gaps.count) gaps")
        case .monitor:
            let checked = report.monitored.map { $0.from == $0.to ? "date, \($0.from)," : "dates, \($0.from) … \($0.to)," } ?? "dates"
            lines.append(
                "Monitored the native side's last \(checked) for every field it had in \(from) … \(to): \(report.gaps.count) gaps")
        }
        for (side, n) in [("native", report.supersededSyncs.native), ("HAE", report.supersededSyncs.hae)] where n > 0 {
            lines.append(
                "The \(side) side's payload JSON holds several syncs of a date: \(n) earlier \(n == 1 ? "sync was" : "syncs were") superseded by the latest device_sync_timestamp"
            )
        }
        for i in report.ignoredKeys {
            lines.append("Ignored in \(i.input), keys no payload field has: \(i.listed)")
        }
        let odd = report.rows.filter { $0.status != .match }
        if !odd.isEmpty {
            lines.append("")
            lines.append("Not matching:")
            let header = ["date", "field", "native", "HAE", "difference", "tolerance", "status"]
            var table = [header]
            for r in odd {
                let field = r.workout.map { r.field + " (" + $0 + ")" } ?? GapFinder.name(r.field)
                let diff = CompareText.difference(r)
                table.append([
                    r.date, field, CompareText.shown(r.native, decimals: r.decimals), CompareText.shown(r.hae, decimals: r.decimals),
                    diff, r.tolerance?.description ?? "", r.status.rawValue,
                ])
            }
            let widths = header.indices.map { i in table.map { $0[i].count }.max() ?? 0 }
            for (n, row) in table.enumerated() {
                var cells: [String] = []
                for (i, cell) in row.enumerated() {
                    // Numbers right-aligned, text left-aligned.
                    let padded =
                        (2...4).contains(i) ? cell.leftPad(widths[i]) : cell + String(repeating: " ", count: widths[i] - cell.count)
                    cells.append(padded)
                }
                var line = "  " + cells.joined(separator: "  ")
                while line.hasSuffix(" ") { line.removeLast() }
                if n == 0 {
                    line = paint(line, "1")
                } else if odd[n - 1].status == .mismatch || odd[n - 1].field == "workouts" {
                    line = paint(line, "31")
                } else if odd[n - 1].status != .notComparable {
                    line = paint(line, "33")
                }
                lines.append(line)
            }
        }
        if !report.gaps.isEmpty {
            lines.append("")
            lines.append("Gaps:")
            for g in report.gaps { lines.append("  " + paint(g.sentence, "31")) }
        }
        lines.append("")
        var problems: [String] = []
        func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) " + (n == 1 ? one : many) }
        if s.mismatches > 0 { problems.append(plural(s.mismatches, "value out of tolerance", "values out of tolerance")) }
        if s.workoutsUnmatched > 0 { problems.append(plural(s.workoutsUnmatched, "workout on one side only", "workouts on one side only")) }
        if !report.gaps.isEmpty { problems.append(plural(report.gaps.count, "gap", "gaps")) }
        let verdict =
            report.failed
            ? paint("FAILED", "1;31") + ": " + problems.joined(separator: ", ")
            : paint("PASSED", "1;32")
                + (report.mode == .validate ? ": every comparable value within tolerance, no gap" : ": no gap")
        lines.append(verdict)
        lines.append("Report: \(outDir)/compare.html (every row in compare.csv and compare.json)")
        return lines.joined(separator: "\n") + "\n"
    }
}
