/// The compare report on the terminal: the summary, the rows that are not `match` in aligned
/// columns, the gaps, and the verdict. Colours (ANSI) only when asked: the CLI asks when stdout
/// is a terminal and `NO_COLOR` is not set.
enum CompareTerminal {
    static func render(_ report: CompareReport, outDir: String, color: Bool) -> String {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text }
        let s = CompareSummary(report)
        let from = CivilDate.isoDate(report.window.from), to = CivilDate.isoDate(report.window.to)
        var lines: [String] = report.sides.map(\.sentence)
        switch report.mode {
        case .validate:
            lines.append(
                "Compared \(datesText(report)): \(s.fields) fields, \(report.rows.count) values: "
                    + "\(s.matches) match, \(s.mismatches) mismatch, \(s.onlyNative) only native, \(s.onlyHAE) only HAE, "
                    + "\(s.notComparable) not comparable; workouts: \(s.workoutsMatched) matched, \(s.workoutsUnmatched) on one side only; "
                    + "\(report.gaps.count) \(report.gaps.count == 1 ? "gap" : "gaps")")
            let verdicts = report.verdicts
            if !verdicts.isEmpty {
                lines.append("")
                lines.append("Per field:")
                for v in verdicts {
                    let mark = v.status == .pass ? "✓" : v.status == .fail ? "✗" : "–"
                    let line = "  \(mark) " + v.sentence
                    lines.append(v.status == .fail ? paint(line, "31") : v.status == .oneSided ? paint(line, "33") : line)
                }
            }
            if let nc = FieldVerdict.notComparableLine(report.rows) { lines.append("  " + nc) }
        case .monitor:
            let checked = report.monitored.map { $0.from == $0.to ? "date \($0.from)" : "dates \($0.from) … \($0.to)" } ?? "dates"
            let until = report.monitoredUntil.map { " (up to \($0))" } ?? ""
            lines.append(
                "Monitored the native side's \(checked)\(until), each field by its cadence in \(from) … \(to): \(report.gaps.count) \(report.gaps.count == 1 ? "gap" : "gaps")"
            )
        }
        for (side, n) in [("native", report.supersededSyncs.native), ("HAE", report.supersededSyncs.hae)] where n > 0 {
            lines.append(
                "The \(side) side's payload JSON holds several syncs of a date: \(n) earlier \(n == 1 ? "sync was" : "syncs were") superseded by the latest device_sync_timestamp"
            )
        }
        for i in report.ignoredKeys {
            lines.append("Ignored in \(i.input), keys no payload field has: \(i.listed)")
        }
        for sentence in report.skippedBodies { lines.append("Skipped: " + sentence) }
        let odd = report.rows.filter { $0.status != .match && $0.status != .notComparable }
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
        let explained = odd.filter { $0.status == .mismatch }
        if !explained.isEmpty, !report.explainLines(explained[0]).isEmpty {
            lines.append("")
            lines.append("How each side's value was made:")
            for r in explained.prefix(Self.explainedRows) {
                lines.append("  \(r.date) \(r.workout.map { GapFinder.name(r.field) + " (" + $0 + ")" } ?? GapFinder.name(r.field))")
                for (label, line) in report.explainLines(r) {
                    lines.append("    \(label + ":")\(String(repeating: " ", count: max(0, 7 - label.count))) \(line)")
                }
            }
            if explained.count > Self.explainedRows {
                lines.append("  (\(explained.count - Self.explainedRows) more in compare.json and compare.html)")
            }
        }
        if !report.gaps.isEmpty {
            lines.append("")
            lines.append("Gaps:")
            for g in report.gaps { lines.append("  " + paint(g.sentence, "31")) }
        }
        lines.append("")
        for w in report.warnings { lines.append(paint("Warning: ", "1;33") + w) }
        var problems: [String] = []
        func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) " + (n == 1 ? one : many) }
        if s.mismatches > 0 { problems.append(plural(s.mismatches, "value out of tolerance", "values out of tolerance")) }
        if s.workoutsUnmatched > 0 { problems.append(plural(s.workoutsUnmatched, "workout on one side only", "workouts on one side only")) }
        if !report.gaps.isEmpty { problems.append(plural(report.gaps.count, "gap", "gaps")) }
        if let short = report.notEnoughDates { problems.append(CompareText.notEnoughDates(short)) }
        let verdict =
            report.failed
            ? paint("FAILED", "1;31") + ": " + problems.joined(separator: ", ")
            : paint("PASSED", "1;32")
                + (report.mode == .validate ? ": every comparable value within tolerance, no gap" : ": no gap")
        lines.append(verdict)
        lines.append("Report: \(outDir)/compare.html (every row in compare.csv and compare.json)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mismatches whose explain commands the terminal prints (all are in the files).
    static let explainedRows = 3

    /// `2024-03-01 … 2024-03-07 (7 dates)`; when some dates of the window have no data on either
    /// side, how many were compared: `14 dates with data in 2024-03-01 … 2024-04-29 (a 60-date window)`.
    static func datesText(_ report: CompareReport) -> String {
        let from = CivilDate.isoDate(report.window.from), to = CivilDate.isoDate(report.window.to)
        let n = report.comparison?.datesWithData ?? report.window.count
        if n == report.window.count { return "\(from) … \(to) (\(n) \(n == 1 ? "date" : "dates"))" }
        return "\(n) \(n == 1 ? "date" : "dates") with data in \(from) … \(to) (a \(report.window.count)-date window)"
    }
}
