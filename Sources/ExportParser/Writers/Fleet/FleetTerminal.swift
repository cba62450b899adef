/// The fleet report on the terminal: one line a person, worst first; then per field how many
/// people it holds and fails for (the fields failing for anyone), the causes most people share,
/// and the counts. Colours (ANSI) only when asked.
enum FleetTerminal {
    /// `assembled`: a `--report` run, whose people's own reports are where their workers wrote
    /// them, not necessarily under this `outDir`.
    static func render(_ report: FleetReport, outDir: String, color: Bool, shard: FleetShard? = nil, assembled: Bool = false) -> String {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text }
        var lines: [String] = []
        let width = min(24, report.people.map(\.person.count).max() ?? 0)
        let statusWidth = FleetStatus.allCases.map(\.words.count).max()!
        for p in report.people {
            let mark: String
            let code: String
            switch p.status {
            case .appStopped: (mark, code) = ("■", "1;31")
            case .notReady: (mark, code) = ("✗", "31")
            case .notEnoughData: (mark, code) = ("–", "33")
            case .ready: (mark, code) = ("✓", "32")
            }
            let name = p.person + String(repeating: " ", count: max(0, width - p.person.count))
            let status = p.status.words + String(repeating: " ", count: statusWidth - p.status.words.count)
            lines.append(paint("\(mark) \(name)  \(status)", code) + "  " + p.reason)
        }
        let failing = report.fields.filter { !$0.fails.isEmpty }
        if !failing.isEmpty {
            lines.append("")
            lines.append("Per field, across people:")
            let w = failing.map { GapFinder.name($0.field).count }.max()!
            for f in failing {
                let name = GapFinder.name(f.field)
                let who = f.fails.prefix(5).joined(separator: ", ") + (f.fails.count > 5 ? ", \(f.fails.count - 5) more" : "")
                lines.append(
                    "  \(name)\(String(repeating: " ", count: w - name.count))  holds for \(f.holds), fails for \(f.fails.count) (\(who))")
            }
            let clean = report.fields.count - failing.count
            if clean > 0 { lines.append("  \(clean) other \(clean == 1 ? "field holds" : "fields hold") for everyone compared") }
        }
        if !report.causes.isEmpty {
            lines.append("")
            lines.append("Most common reasons:")
            for c in report.causes.prefix(Self.causesShown) {
                lines.append("  \(c.people.count) \(c.people.count == 1 ? "person" : "people"): \(c.cause)")
            }
        }
        lines.append(contentsOf: coverageLines(report.coverage, shard: shard))
        lines.append("")
        let counts = report.counts.filter { $0.people > 0 }.map { "\($0.people) \($0.status.words)" }.joined(separator: ", ")
        lines.append(verdictLine(report, counts: counts, shard: shard, paint: paint))
        let base = shard?.fleetFileBase ?? "fleet"
        let own =
            assembled
            ? "each one's own PERSON/compare.html under the --out its worker was given"
            : "each one's own in \(outDir)/PERSON/compare.html"
        lines.append("Report: \(outDir)/\(base).html (every person in \(base).csv and \(base).json; \(own))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The last word: READY only when everyone is ready and (for `--report`) covered; a run
    /// that compared no one says so rather than "all 0 people"; a report missing people or with
    /// stale verdicts says how many, even when everyone it holds is ready.
    static func verdictLine(
        _ report: FleetReport, counts: String, shard: FleetShard?, paint: (String, String) -> String
    ) -> String {
        func people(_ n: Int) -> String { "\(n) \(n == 1 ? "person" : "people")" }
        let n = report.people.count
        let c = report.coverage
        if n == 0, c.isComplete {
            return paint("NO ONE TO CHECK", "1;33") + ": " + (shard.map { "shard \($0) holds none of the store's people" } ?? "no people")
        }
        if report.allReady { return paint("READY", "1;32") + ": all \(people(n))" }
        var gaps: [String] = []
        if !c.missingPeople.isEmpty { gaps.append("\(people(c.missingPeople.count)) without a verdict") }
        if !c.stalePeople.isEmpty { gaps.append("\(c.stalePeople.count) stale \(c.stalePeople.count == 1 ? "verdict" : "verdicts")") }
        let held = gaps.isEmpty ? people(n) : "\(people(n)) with a verdict"
        return paint("NOT ALL READY", "1;31") + ": \(held): \(counts)" + (gaps.isEmpty ? "" : "; " + gaps.joined(separator: ", "))
    }

    static let causesShown = 8

    /// What a `--shard` run covered, and what a `--report` lacks: who has no verdict (and in
    /// which shards), whose verdict is stale.
    static func coverageLines(_ c: FleetCoverage, shard: FleetShard?) -> [String] {
        var lines: [String] = []
        func few(_ names: [String]) -> String {
            names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", \(names.count - 5) more" : "")
        }
        if let shard { lines += ["", "Shard \(shard) of the store's people (the others are other shards'); --report joins them."] }
        if !c.missingPeople.isEmpty {
            lines += [
                "",
                "No verdict yet for \(c.missingPeople.count) \(c.missingPeople.count == 1 ? "person" : "people") (\(few(c.missingPeople))): "
                    + "run shard \(c.missingShards.joined(separator: ", ")) (compare --everyone --shard K/N)",
            ]
        }
        if !c.stalePeople.isEmpty {
            lines += [
                "",
                "Stale: \(c.stalePeople.count) \(c.stalePeople.count == 1 ? "verdict was" : "verdicts were") made before newer data or with other options (\(few(c.stalePeople))); run their shards again",
            ]
        }
        return lines
    }
}
