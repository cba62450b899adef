import ArgumentParser
import ExportParser
import Foundation

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert exports into one payload a day, payloads.json, daily.csv (and the store).",
        discussion: """
            Writes under --out: payloads/YYYY-MM-DD.json (one POST /sync/healthkit body a day), \
            payloads.json ({"data": [...]} in date order) and daily.csv (one row a date). Files are \
            replaced atomically and created with mode 0600; nothing is replaced when an input fails.

            Examples:
              health-import convert export.zip
              health-import convert export.xml --timezone Australia/Sydney --from 2026-03-01 --to 2026-03-31
              health-import convert export.zip --source-priority "Apple Watch,Oura,iPhone"
            """
    )

    @Argument(help: ArgumentHelp("export.zip, export.xml or Health Auto Export .json files (detected by content).", valueName: "input"))
    var inputs: [String]

    @Option(help: ArgumentHelp("Output folder (created if missing). Example: --out out/2026-03", valueName: "dir"))
    var out = "out"

    @Option(help: ArgumentHelp("IANA time zone that decides each sample's calendar day. Without it, each sample's own recorded UTC offset is used. Example: --timezone Europe/Amsterdam", valueName: "zone"))
    var timezone: String?

    @Option(help: ArgumentHelp("First date to write, YYYY-MM-DD (the whole input is still read). Example: --from 2026-03-01", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Last date to write, YYYY-MM-DD, inclusive. Example: --to 2026-03-31", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("Source names (or parts of them), highest priority first, used where sources overlap for summed metrics. Default: \"Apple Watch,iPhone\", then others alphabetically. Example: --source-priority \"Apple Watch,Oura,iPhone\"", valueName: "list"))
    var sourcePriority: String?

    @Flag(help: "No progress display and no summary; errors are still printed.")
    var quiet = false

    func run() throws {
        let priority = sourcePriority.map { $0.split(separator: ",").map { String($0) } }
        let request = ConvertRequest(inputs: inputs, outDir: out, timeZoneName: timezone, from: from, to: to, sourcePriority: priority)
        do {
            let job = try ConvertJob(request)
            let display = ProgressDisplay(enabled: !quiet)
            job.progress = { display.show($0) }
            let outcome = try job.run()
            display.clear()
            if !quiet { for line in outcome.summaryLines() { print(line) } }
        } catch let error as InputError {
            FileHandle.standardError.write(Data(("health-import: " + error.description + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
