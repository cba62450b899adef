import ExportParser

/// The fixture folder's `README.md`: what is in it and the command that made it.
enum FixtureReadme {
    static func text(_ request: FixtureRequest, days: [FinishedDay]) -> [UInt8] {
        let first = days.first?.date ?? request.start, last = days.last?.date ?? request.start
        let name = request.exportName
        return Array(
            """
            # Synthetic Apple Health fixture

            Made by `health-import` (no real person's data):

            ```sh
            \(request.commandLine)
            ```

            The same command (with any `--out`) writes the same bytes on every machine.
            \(days.count) dates, \(first) to \(last), profile `\(request.profile)`, \(request.units) units, zone `\(request.timeZoneName)`.

            | file | what it is |
            |---|---|
            | `\(name).xml` | the Health app's export of those dates: records from an iPhone, an Apple Watch and third-party apps, correlations, workouts, daily rings |
            | `\(name).zip` | the same, zipped as the Health app shares it (`apple_health_export/\(name).xml`, `export_cda.xml`, `workout-routes/*.gpx`) |
            | `hae.json` | what Health Auto Export (export version 2, \(request.haeStyle == "samples" ? "Summarize off: one datum a sample, heart rate a reading at a time" : "summarised by day")) would have written for the same dates |
            \(bodiesRow(request))| `expected/payloads/DATE.json`, `expected/payloads.json`, `expected/daily.csv` | what `health-import convert \(name).zip` must write: made from the plan, never by running the converter |
            | `plan.json` | the plan: each date's values as decided before any sample was written |

            Check the converter against it:

            ```sh
            health-import convert \(name).zip --out out --no-store && diff -r out/payloads expected/payloads && cmp out/daily.csv expected/daily.csv
            health-import compare --native \(name).zip --hae hae.json --days \(days.count) --from \(request.start)
            ```

            """.utf8)
    }

    /// The README's row for the REST bodies, when `--hae-bodies` asked for them (ends in a line end).
    static func bodiesRow(_ request: FixtureRequest) -> String {
        guard let period = request.haeBodies else { return "" }
        let mixed = request.haeBodiesStyle.map { ($0 == "samples") != (request.haeStyle == "samples") } ?? false
        let style =
            request.haeBodiesStyle == "samples"
            ? " (Summarize off: one datum a sample)" : request.haeBodiesStyle == "days" ? " (summarised by day)" : ""
        let cut =
            period == "since"
            ? "\"Since Last Sync\": each body holds what is new since the previous sync"
            : "the default period: each body holds the previous day and today so far, so windows overlap"
        return
            "| `hae-bodies/NNNN-DATETIME.json`, `hae-bodies.jsonl` | the REST bodies HAE's API automation would have POSTed instead\(style), four syncs a day (\(cut)), one file a body and one body a line; converted together they give the days `hae.json` gives"
            + (mixed ? " (a date given both ways counts once: the samples win)" : "") + " |\n"
    }
}
