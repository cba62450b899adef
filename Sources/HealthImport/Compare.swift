import ArgumentParser
import ExportParser
import Foundation

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare native HealthKit data with Health Auto Export data, date by date and field by field.",
        discussion: """
            The migration check: both sides go through the same readers and rules as convert (or are \
            payload JSON as the app sends it: a folder of DATE.json, a payloads.json, a file of \
            {"data": [...]} bodies). Every field of every date in the window is a row: native value, HAE \
            value, difference, the tolerance applied and a status (match, mismatch, only-native, \
            only-hae, not-comparable). Workouts are paired by type, start within 2 minutes and duration \
            within 5 %. Gaps (a date or a field a side stopped delivering) are reported apart. The report \
            states each side first (kind of input, files, dates, sources), then a verdict per field \
            ("step_count 7/7 dates within ±2 %"), then the rows; each mismatch names the \
            `health-import explain` command that shows how each side's value was made.

            Mixed-up inputs are refused (exit 2, one sentence): an HAE file as --native, an export as \
            --hae, both sides the same bytes, or both sides identical on every value (the same data \
            given twice). Payload JSON is allowed on either side.

            Writes compare.csv, compare.json and compare.html under --out. Exit status: 0 when \
            everything comparable is within tolerance and there is no gap, 1 when not (or when fewer \
            dates than --days have data and --from is not given), 2 for bad input or usage.

            --everyone (with --store): every person of the store through this same check, side by \
            side; fleet.json, fleet.csv and fleet.html in --out and each person's report in \
            --out/PERSON/. Exit 0 when everyone is ready, 1 when anyone is not. Each person's verdict \
            is also stored. --shard K/N (K from 0, as $JOB_COMPLETION_INDEX) checks only the people \
            whose SHA-256 of the id, first 8 bytes mod N, is K: N workers cover everyone once, each \
            writing fleet-K-of-N.*. --report then builds the fleet report from every shard's stored verdicts, naming who has \
            none yet or a stale one (exit 1 then).

            Examples:
              health-import compare --native export.zip --hae HealthAutoExport.json
              health-import compare --native export.zip --hae hae.json --from 2026-03-14 --days 7 --timezone Europe/Amsterdam
              health-import compare --native out/payloads --hae hae-payloads.json --tolerances tolerances.toml
              health-import compare --native export.zip --hae hae.json --monitor 3
              health-import compare --native out/payloads --monitor 3 --until 2026-03-22
              health-import compare --store out/health.sqlite --person ann
              health-import compare --store received.sqlite --everyone --days 7 --out fleet
              health-import compare --store received.sqlite --everyone --shard 0/4 --out fleet
              health-import compare --store received.sqlite --everyone --report --out fleet
            """
    )

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Native inputs: export.zip, export.xml or payload JSON. Example: --native export.zip", valueName: "input"))
    var native: [String] = []

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("HAE inputs: Health Auto Export .json or payload JSON. Example: --hae HealthAutoExport.json", valueName: "input")
    )
    var hae: [String] = []

    // Optional so that --report can tell --days 7 given from the default.
    @Option(help: ArgumentHelp("How many dates to compare (default: 7). Example: --days 7", valueName: "n"))
    var days: Int?

    @Option(
        help: ArgumentHelp(
            "First date compared, YYYY-MM-DD (default: the window ends on the last date both sides cover). Example: --from 2026-03-14",
            valueName: "date"))
    var from: String?

    @OptionGroup var timezone: TimeZoneOption
    @OptionGroup var threads: ThreadsOption

    @Option(
        help: ArgumentHelp(
            "A JSON or TOML file of tolerances by field kind (sum, avg, latest, min, max, count, sleep-duration, sleep-time) or payload field (metrics.step_count), e.g. sum = \"3%\". Example: --tolerances tolerances.toml",
            valueName: "file"))
    var tolerances: String?

    @Option(
        help: ArgumentHelp(
            "After HAE is switched off: check the native side's N dates up to today (or --until), instead of comparing values, each field by how often it came in the --days dates before them; dates the app stopped sending are gaps. Example: --monitor 3",
            valueName: "n"))
    var monitor: Int?

    @Option(
        help: ArgumentHelp(
            "With --monitor: the last date judged, YYYY-MM-DD, for data of the past (default: today in the person's zone). No --hae is needed with it. Example: --until 2026-03-22",
            valueName: "date"))
    var until: String?

    @Option(
        help: ArgumentHelp(
            "Folder for compare.csv, compare.json and compare.html (created if missing). Example: --out out/ann-compare", valueName: "dir"))
    var out = "out/compare"

    @Option(
        help: ArgumentHelp(
            "Take both sides from a store instead: native from its export.xml imports, HAE from its HAE imports, or the bodies receive took (a SQLite file, or PostgreSQL: postgres://USER@HOST:PORT/DB). Example: --store out/health.sqlite",
            valueName: "file|url"))
    var store: String?

    @Option(help: ArgumentHelp("With --store: whose imports (default me). Example: --person ann", valueName: "id"))
    var person = "me"

    @Flag(
        help: ArgumentHelp(
            "With --store: every person of the store, each through the single-person check, side by side; writes fleet.json, fleet.csv, fleet.html and each person's report in --out/PERSON/. Exit 0 when everyone is ready."
        ))
    var everyone = false

    @Option(
        help: ArgumentHelp(
            "With --everyone: only shard K of N (K from 0 to N-1, as Kubernetes' $JOB_COMPLETION_INDEX): the people whose SHA-256 of the id, first 8 bytes big-endian, mod N is K. Example: --shard 0/4",
            valueName: "K/N"))
    var shard: String?

    @Flag(
        help: ArgumentHelp(
            "With --everyone: the fleet report from the verdicts earlier --everyone runs stored (every shard's), comparing no one again; names the people without a verdict or with a stale one."
        ))
    var report = false

    @Option(
        help: ArgumentHelp(
            "With --everyone: an id every worker of one fleet run shares (a Kubernetes Job's uid), stored with the verdicts; with --report, only that run's verdicts count as current. Example: --run-id \"$JOB_UID\"",
            valueName: "id"))
    var runID: String?

    @Flag(help: "Print nothing; the exit status says the result.")
    var quiet = false

    func validate() throws {
        try CommandErrors.check {
            _ = try shard.map(FleetShard.init)
            try request.validate()
        }
    }

    private var request: CompareRequest {
        var r = CompareRequest(
            native: native, hae: hae, days: days ?? 7, from: from, timeZoneName: timezone.name, tolerancesPath: tolerances,
            outDir: out, monitor: monitor, until: until, storePath: store, person: person, everyone: everyone)
        // --shard was parsed in validate(); a text it refused never gets here.
        r.shard = shard.flatMap { try? FleetShard($0) }
        r.reportOnly = report
        r.runID = runID
        r.daysGiven = days != nil
        return r
    }

    func run() throws {
        threads.apply()
        if everyone { return try runFleet() }
        do {
            let job = try CompareJob(request)
            // A progress line on a terminal while the inputs are read, as convert shows it.
            let display = ProgressDisplay(enabled: !quiet)
            job.progress = { display.show($0) }
            let outcome = try display.clearing { try job.run() }
            try finish(outcome.terminalText, exitStatus: outcome.exitStatus)
        } catch let error as UserFacingError {
            // Bad input and usage alike: the check could not be made.
            throw CommandErrors.report(error, exitCode: 2)
        }
    }

    /// `--everyone`: the fleet report, with people done / all on a terminal.
    private func runFleet() throws {
        do {
            let display = ProgressDisplay(enabled: !quiet)
            let outcome = try display.clearing { try FleetJob(request).run { done, all in display.showPeople(done, of: all) } }
            try finish(outcome.terminalText, exitStatus: outcome.exitStatus)
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 2)
        }
    }

    /// The report on stdout (coloured on a terminal unless NO_COLOR; nothing with --quiet), then
    /// the exit status.
    private func finish(_ text: (Bool) -> String, exitStatus: Int32) throws {
        if !quiet {
            let color = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            print(text(color), terminator: "")
        }
        if exitStatus != 0 { throw ExitCode(exitStatus) }
    }
}
