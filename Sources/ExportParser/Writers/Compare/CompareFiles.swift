import Foundation

/// Writes a compare report under `--out`: `compare.csv` and `compare.json` with every row, and
/// `compare.html`. All three are staged under temporary names (mode 0600) and put in place
/// together only once all are written.
enum CompareFiles {
    static func write(_ report: CompareReport, to dir: String) throws {
        try OutputFiles.makeDirectory(dir)
        let csv = try OutputFiles.Staged(dir + "/compare.csv")
        let json = try OutputFiles.Staged(dir + "/compare.json")
        let html = try OutputFiles.Staged(dir + "/compare.html")
        // The page (its charts most of the three files' making) on a thread of its own while
        // the table and the JSON are made: the end of a window read is the critical path.
        let page = BackgroundValue(name: "compare html") { CompareHTML.render(report) }
        try csv.append(CompareCSV.render(report))
        try json.append(CompareJSON.render(report).render() + "\n")
        try html.append(page.value())
        try csv.commit()
        try json.commit()
        try html.commit()
    }
}

/// Numbers and values of a compare row as the files write them.
enum CompareText {
    /// "not enough data: 5 of the 7 dates have data (compare again later, or give --days 5)".
    static func notEnoughDates(_ short: (have: Int, need: Int)) -> String {
        "not enough data: \(short.have) of the \(short.need) dates have data (compare again once there are \(short.need), or give --days \(max(1, short.have)))"
    }

    /// A value at full precision but without float noise (6 decimals at most).
    static func number(_ v: Double) -> String { JSONValue.format(v, decimals: 6) }

    static func value(_ s: OutputField.Scalar?) -> String {
        switch s {
        case .number(let n)?: return number(n)
        case .text(let t)?: return t
        case nil: return ""
        }
    }

    /// native − HAE for a person: `+500 (+5 %)`, `−1,000 (−10 %)`; sleep durations in minutes
    /// (`−12 min`), in-bed times in minutes already. Signed as the verdict's exceptions sign the
    /// same difference (`FieldVerdict.exceptionText`): the per cent carries the difference's
    /// sign (the relative difference itself is |native − HAE| / |HAE|), both with "−".
    static func difference(_ r: CompareRow) -> String {
        guard var d = r.difference else { return "" }
        let sign = d >= 0 ? "+" : "−"
        if r.unit == "hr", case .minutes? = r.tolerance?.measure {
            d *= 60
            return sign + JSONValue.format(abs(d), decimals: 0) + " min"
        }
        if r.unit == "min", r.field.hasPrefix("sleep.in_bed") { return sign + JSONValue.format(abs(d), decimals: 0) + " min" }
        var text = sign + JSONValue.format(abs(d), decimals: max(r.decimals, 1))
        if let rel = r.relativeDifference, rel.isFinite { text += " (" + sign + JSONValue.format(rel * 100, decimals: 1) + " %)" }
        return text
    }

    /// As the payload shows it (the field's decimals), for the terminal and the page.
    static func shown(_ s: OutputField.Scalar?, decimals: Int) -> String {
        switch s {
        case .number(let n)?: return JSONValue.format(n, decimals: decimals)
        case .text(let t)?: return t
        case nil: return "—"
        }
    }
}

/// `compare.csv`: RFC 4180 as daily.csv, one line a row, every row.
enum CompareCSV {
    static let header = ["date", "field", "workout", "native", "hae", "difference", "relative_difference", "tolerance", "unit", "status"]

    static func render(_ report: CompareReport) -> String {
        var out = header.joined(separator: ",") + "\r\n"
        for r in report.rows {
            // Numbers as they are (a negative difference is a number); text through the one
            // CSV field writer.
            let cells = [
                CSVWriter.field(r.date), CSVWriter.field(r.field), CSVWriter.field(r.workout ?? ""), cell(r.native), cell(r.hae),
                r.difference.map(CompareText.number) ?? "", r.relativeDifference.map(CompareText.number) ?? "",
                CSVWriter.field(r.tolerance?.description ?? ""), CSVWriter.field(r.unit ?? ""), CSVWriter.field(r.status.rawValue),
            ]
            out += cells.joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// A value cell: a number as it is, a text (a sleep source) as a CSV text cell.
    private static func cell(_ s: OutputField.Scalar?) -> String {
        if case .text(let t)? = s { return CSVWriter.field(t) }
        return CompareText.value(s)
    }
}

/// `compare.json`: the window, the summary, every row and every gap.
enum CompareJSON {
    static func render(_ report: CompareReport) -> JSONValue {
        func num(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 6) } ?? .null }
        func scalar(_ s: OutputField.Scalar?) -> JSONValue {
            switch s {
            case .number(let n)?: return .number(n, decimals: 6)
            case .text(let t)?: return .string(t)
            case nil: return .null
            }
        }
        let rows: [JSONValue] = report.rows.map { r in
            .object([
                ("date", .string(r.date)), ("field", .string(r.field)), ("workout", r.workout.map(JSONValue.string) ?? .null),
                ("native", scalar(r.native)), ("hae", scalar(r.hae)), ("difference", num(r.difference)),
                ("relative_difference", num(r.relativeDifference)), ("tolerance", r.tolerance.map { .string($0.description) } ?? .null),
                ("unit", r.unit.map(JSONValue.string) ?? .null), ("status", .string(r.status.rawValue)),
                (
                    "explain",
                    r.status == .mismatch
                        ? .object(report.explainLines(r).map { ($0.label.lowercased(), .string($0.line)) }) : .null
                ),
            ])
        }
        let sides: [JSONValue] = report.sides.map { side in
            .object([
                ("side", .string(side.side.rawValue)), ("kind", .string(side.kind)), ("files", .array(side.files.map(JSONValue.string))),
                ("from", side.first.map(JSONValue.string) ?? .null), ("to", side.last.map(JSONValue.string) ?? .null),
                ("dates", .number(Double(side.dates), decimals: 0)), ("sources", .array(side.sources.map(JSONValue.string))),
            ])
        }
        let verdicts: [JSONValue] = report.verdicts.map { v in
            .object([
                ("field", .string(v.field)), ("status", .string(v.status.rawValue)),
                ("compared", .number(Double(v.compared), decimals: 0)), ("within", .number(Double(v.within), decimals: 0)),
                ("tolerance", v.tolerance.map { .string($0.description) } ?? .null),
                (
                    "exceptions",
                    .array(
                        v.exceptions.map { e in
                            .object([("date", .string(e.date)), ("status", .string(e.status.rawValue)), ("text", .string(e.text))])
                        })
                ),
                ("sentence", .string(v.sentence)),
            ])
        }
        let gaps: [JSONValue] = report.gaps.map { g in
            .object([
                ("kind", .string(g.kind.rawValue)), ("side", .string(g.side.rawValue)), ("date", .string(g.date)),
                ("field", g.field.map(JSONValue.string) ?? .null), ("sentence", .string(g.sentence)),
            ])
        }
        let s = CompareSummary(report)
        return .object([
            ("mode", .string(report.mode.rawValue)),
            ("sides", .array(sides)),
            ("verdict", .array(verdicts)),
            ("not_comparable", FieldVerdict.notComparableLine(report.rows).map(JSONValue.string) ?? .null),
            (
                "window",
                .object([
                    ("from", .string(CivilDate.isoDate(report.window.from))), ("to", .string(CivilDate.isoDate(report.window.to))),
                    ("days", .number(Double(report.window.count), decimals: 0)),
                ])
            ),
            (
                "summary",
                .object([
                    ("dates", .number(Double(s.dates), decimals: 0)), ("fields", .number(Double(s.fields), decimals: 0)),
                    ("rows", .number(Double(report.rows.count), decimals: 0)),
                    ("match", .number(Double(s.matches), decimals: 0)), ("mismatch", .number(Double(s.mismatches), decimals: 0)),
                    ("only_native", .number(Double(s.onlyNative), decimals: 0)), ("only_hae", .number(Double(s.onlyHAE), decimals: 0)),
                    ("not_comparable", .number(Double(s.notComparable), decimals: 0)),
                    ("gaps", .number(Double(report.gaps.count), decimals: 0)),
                    (
                        "not_enough_data",
                        report.notEnoughDates.map { .string(CompareText.notEnoughDates($0)) } ?? .null
                    ),
                    ("passed", .bool(!report.failed)),
                ])
            ),
            ("rows", .array(rows)),
            ("gaps", .array(gaps)),
            (
                "monitored",
                report.monitored.map {
                    .object([
                        ("from", .string($0.from)), ("to", .string($0.to)), ("until", report.monitoredUntil.map(JSONValue.string) ?? .null),
                    ])
                } ?? .null
            ),
            ("warnings", .array(report.warnings.map(JSONValue.string))),
            (
                "superseded_syncs",
                .object([
                    ("native", .number(Double(report.supersededSyncs.native), decimals: 0)),
                    ("hae", .number(Double(report.supersededSyncs.hae), decimals: 0)),
                ])
            ),
            (
                "ignored_keys",
                .array(
                    report.ignoredKeys.map { i in
                        .object([
                            ("input", .string(i.input)),
                            (
                                "keys",
                                .object(i.keys.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value), decimals: 0)) })
                            ),
                        ])
                    })
            ),
            ("skipped_bodies", .array(report.skippedBodies.map { .string($0) })),
        ])
    }
}

/// The counts a person reads first.
struct CompareSummary {
    var dates: Int
    var fields: Int
    var matches = 0, mismatches = 0, onlyNative = 0, onlyHAE = 0, notComparable = 0
    var workoutsMatched = 0, workoutsUnmatched = 0

    init(_ report: CompareReport) {
        dates = report.comparison?.datesWithData ?? report.window.count
        fields = report.comparison?.fieldsCompared ?? 0
        for r in report.rows {
            switch r.status {
            case .match: matches += 1
            case .mismatch: mismatches += 1
            case .onlyNative: onlyNative += 1
            case .onlyHAE: onlyHAE += 1
            case .notComparable: notComparable += 1
            }
            if r.field == "workouts" { workoutsUnmatched += 1 }
        }
        workoutsMatched = Set(report.rows.filter { $0.field.hasPrefix("workouts.") }.map { $0.date + ($0.workout ?? "") }).count
    }
}
