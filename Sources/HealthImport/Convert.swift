import ArgumentParser
import ExportParser
import Foundation

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert exports into one payload a day, payloads.json, daily.csv and the SQLite store.",
        discussion: """
            Writes under --out: payloads/YYYY-MM-DD.json (one POST /sync/healthkit body a day), \
            payloads.json ({"data": [...]} in date order), daily.csv (one row a date) and the SQLite \
            store health.sqlite (every record, workout and day, per person; importing the same file \
            again changes nothing). Files are replaced atomically and created with mode 0600; \
            nothing is replaced when an input fails.

            Examples:
              health-import convert export.zip
              health-import convert export.xml --timezone Australia/Sydney --from 2026-03-01 --to 2026-03-31
              health-import convert export.zip --source-priority "Apple Watch,Oura,iPhone"
              health-import convert export.zip HealthAutoExport-2026-01-01-2026-03-31.json --person ann --store ann.sqlite
            """
    )

    @Argument(help: ArgumentHelp("export.zip, export.xml or Health Auto Export .json files (detected by content).", valueName: "input"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Output folder (created if missing). Example: --out out/2026-03", valueName: "dir"))
    var out = "out"

    @OptionGroup var timezone: TimeZoneOption
    @OptionGroup var threads: ThreadsOption

    @Option(
        help: ArgumentHelp("First date to write, YYYY-MM-DD (the whole input is still read). Example: --from 2026-03-01", valueName: "date")
    )
    var from: String?

    @Option(help: ArgumentHelp("Last date to write, YYYY-MM-DD, inclusive. Example: --to 2026-03-31", valueName: "date"))
    var to: String?

    @Option(
        help: ArgumentHelp(
            "Source names (or parts of them), highest priority first, used where sources overlap for summed metrics. Default: \"Apple Watch,iPhone\", then others alphabetically. Example: --source-priority \"Apple Watch,Oura,iPhone\"",
            valueName: "list"))
    var sourcePriority: String?

    @Option(
        help: ArgumentHelp(
            "SQLite store to add this import to (default: DIR/health.sqlite under --out; not PostgreSQL, which holds received data only). Example: --store ~/health/ann.sqlite",
            valueName: "file"))
    var store: String?

    @Flag(
        help:
            "Convert the Health Auto Export bodies receive stored in --store for --person (no input files; the store is read, not written)."
    )
    var received = false

    @Flag(help: "Do not write the SQLite store.")
    var noStore = false

    @Option(
        help: ArgumentHelp(
            "Whose data this is: keys every row of the store, so one store can hold several people. Example: --person ann", valueName: "id")
    )
    var person = "me"

    @Flag(help: "No progress display and no summary; errors are still printed.")
    var quiet = false

    func validate() throws {
        if noStore && store != nil { throw ValidationError("--store and --no-store exclude each other") }
        if received && store == nil { throw ValidationError("--received reads the bodies receive stored: give --store FILE") }
        try CommandErrors.check { try request.validate() }
    }

    private var request: ConvertRequest {
        let priority = sourcePriority.map { $0.split(separator: ",").map { String($0) } }
        let storePath = noStore ? nil : (store ?? (out as NSString).appendingPathComponent("health.sqlite"))
        return ConvertRequest(
            inputs: inputs, outDir: out, timeZoneName: timezone.name, from: from, to: to, sourcePriority: priority,
            storePath: storePath, person: person, received: received)
    }

    func run() throws {
        threads.apply()
        do {
            let job = try ConvertJob(request)
            let display = ProgressDisplay(enabled: !quiet)
            job.progress = { display.show($0) }
            let outcome = try job.run()
            display.clear()
            for line in outcome.warnings { CommandErrors.say(line) }
            if !quiet { for line in outcome.summaryLines() { print(line) } }
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 1)
        }
    }
}
