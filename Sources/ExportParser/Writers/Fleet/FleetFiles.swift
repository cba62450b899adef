/// Writes the fleet report under `--out`: `BASE.json`, `BASE.csv` and `BASE.html` (`fleet`, or
/// `fleet-K-of-N` for a `--shard` worker), staged under temporary names (mode 0600) and put in
/// place together once all three are written.
enum FleetFiles {
    static func write(_ report: FleetReport, to dir: String, base: String = "fleet") throws {
        try OutputFiles.makeDirectory(dir)
        let json = try OutputFiles.Staged(dir + "/\(base).json")
        let csv = try OutputFiles.Staged(dir + "/\(base).csv")
        let html = try OutputFiles.Staged(dir + "/\(base).html")
        try json.append(FleetJSON.render(report).render() + "\n")
        try csv.append(FleetCSV.render(report))
        try html.append(FleetHTML.render(report))
        try json.commit()
        try csv.commit()
        try html.commit()
    }
}

/// `fleet.json`: `{"people": [...], "fields": [...], "causes": [...], "summary": {...}}`.
enum FleetJSON {
    static func render(_ report: FleetReport) -> JSONValue {
        func int(_ n: Int) -> JSONValue { .number(Double(n), decimals: 0) }
        let people: [JSONValue] = report.people.map { p in
            .object([
                ("person", .string(p.person)), ("ready", .bool(p.ready)), ("status", .string(p.status.rawValue)),
                ("exit_status", int(Int(p.exitStatus))), ("reason", .string(p.reason)),
                (
                    "fields",
                    .array(
                        p.failing.map { f in
                            .object([
                                ("field", .string(f.field)), ("dates", .array(f.dates.map(JSONValue.string))), ("text", .string(f.text)),
                            ])
                        })
                ),
                ("native_dates", p.nativeDates.map(int) ?? .null), ("hae_dates", p.haeDates.map(int) ?? .null),
                ("report", p.report.map(JSONValue.string) ?? .null),
            ])
        }
        let fields: [JSONValue] = report.fields.map { f in
            .object([
                ("field", .string(f.field)), ("holds", int(f.holds)), ("fails", int(f.fails.count)),
                ("failing_people", .array(f.fails.map(JSONValue.string))),
            ])
        }
        let causes: [JSONValue] = report.causes.map { c in
            .object([("cause", .string(c.cause)), ("people", .array(c.people.map(JSONValue.string)))])
        }
        return .object([
            ("mode", .string(report.mode.rawValue)), ("days", int(report.days)),
            ("monitor", report.monitor.map(int) ?? .null), ("until", report.until.map(JSONValue.string) ?? .null),
            (
                "summary",
                .object(
                    [("people", int(report.people.count)), ("all_ready", .bool(report.allReady))]
                        + report.counts.map { ($0.status.rawValue, int($0.people)) })
            ),
            ("people", .array(people)), ("fields", .array(fields)), ("causes", .array(causes)),
            (
                "coverage",
                .object([
                    ("complete", .bool(report.coverage.isComplete)),
                    ("missing_people", .array(report.coverage.missingPeople.map(JSONValue.string))),
                    ("missing_shards", .array(report.coverage.missingShards.map(JSONValue.string))),
                    ("stale_people", .array(report.coverage.stalePeople.map(JSONValue.string))),
                ])
            ),
        ])
    }
}

/// `fleet.csv`: one line a person, RFC 4180 through the one CSV field writer.
enum FleetCSV {
    static let header = ["person", "status", "ready", "exit_status", "failing_fields", "native_dates", "hae_dates", "reason", "report"]

    static func render(_ report: FleetReport) -> String {
        var out = header.joined(separator: ",") + "\r\n"
        for p in report.people {
            let fields = p.failing.map { "\($0.field) (\($0.dates.joined(separator: " ")))" }.joined(separator: "; ")
            let cells = [
                CSVWriter.field(p.person), CSVWriter.field(p.status.rawValue), p.ready ? "true" : "false", String(p.exitStatus),
                CSVWriter.field(fields), p.nativeDates.map(String.init) ?? "", p.haeDates.map(String.init) ?? "",
                CSVWriter.field(p.reason), CSVWriter.field(p.report ?? ""),
            ]
            out += cells.joined(separator: ",") + "\r\n"
        }
        return out
    }
}
