import ArgumentParser
import ExportParser
import Foundation

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show how one field's value on one date was made: the samples, the rule and what each counted.",
        discussion: """
            Reads the inputs in full as convert does (the value needs the whole day book) and lists \
            the samples the rule met on the date. A summed field shows every sample touching the date \
            with the part it counted (in the field's unit) and which source the overlap rule gave each \
            stretch of time; a mean, a latest or a min/max value the samples and the one(s) used; a \
            sleep field the night's window, the chosen source and the stage intervals; workouts where \
            each figure came from. The counted parts add up to the value, which is the payload's.

            --store FILE [--person ID] explains from a store instead: the person's stored records \
            around the date (export.xml imports and HAE imports, merged as convert merges inputs).

            FIELD is a payload path as compare names it (metrics.step_count, \
            metrics.heart_rate_samples.max, sleep.total_hours, workouts) or its CSV column. Payload JSON \
            inputs hold no samples: their value is shown as written.

            Exit status: 0, or 2 for bad input or usage (an unknown field or a date without data lists \
            what exists).

            Examples:
              health-import explain export.zip --date 2026-03-14 --field metrics.step_count
              health-import explain export.zip hae.json --date 2026-03-14 --field sleep.total_hours --format json
              health-import explain --store out/health.sqlite --person ann --date 2026-03-14 --field metrics.step_count
            """
    )

    @Argument(help: ArgumentHelp("export.zip, export.xml, HAE JSON or payload JSON, as for convert.", valueName: "input"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The date, YYYY-MM-DD. Example: --date 2026-03-14", valueName: "date"))
    var date: String

    @Option(help: ArgumentHelp("The payload field. Example: --field metrics.step_count", valueName: "field"))
    var field: String

    @OptionGroup var timezone: TimeZoneOption
    @OptionGroup var threads: ThreadsOption

    @Option(
        help: ArgumentHelp(
            "Explain from a store instead of inputs: the person's stored records around the date (a SQLite file, or PostgreSQL: postgres://USER@HOST:PORT/DB). Example: --store out/health.sqlite",
            valueName: "file|url"))
    var store: String?

    @Option(help: ArgumentHelp("With --store: whose records (default me). Example: --person ann", valueName: "id"))
    var person = "me"

    @Option(
        help: ArgumentHelp(
            "Source names (or parts of them), highest priority first, as for convert. Example: --source-priority \"Apple Watch,iPhone\"",
            valueName: "list"))
    var sourcePriority: String?

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: ArgumentHelp("text (aligned, default) or json.", valueName: "format"))
    var format: Format = .text

    func validate() throws {
        try CommandErrors.check { try request.validate() }
    }

    private var request: ExplainRequest {
        ExplainRequest(
            inputs: inputs, date: date, field: field, timeZoneName: timezone.name,
            sourcePriority: sourcePriority.map { $0.split(separator: ",").map { String($0) } }, storePath: store, person: person)
    }

    func run() throws {
        threads.apply()
        do {
            let job = try ExplainJob(request)
            // A progress line on a terminal while the inputs are read, as convert shows it.
            let display = ProgressDisplay(enabled: true)
            job.progress = { display.show($0) }
            let outcome = try display.clearing { try job.run() }
            print(format == .json ? outcome.json : outcome.text, terminator: "")
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 2)
        }
    }
}
