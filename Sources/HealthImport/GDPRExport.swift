import ArgumentParser
import ExportParser
import Foundation

struct GDPRExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gdpr-export",
        abstract: "Write everything a store holds about one person: JSON Lines and CSV per kind, a README and a manifest.",
        discussion: """
            Every import, record with its metadata, HRV beat list, correlation, workout (with its \
            statistics, events, parts and routes), activity summary, characteristic, extra item, sleep \
            summary and daily value of the person, each kind as NAME.jsonl and NAME.csv, with README.txt \
            (what every file and column means, and the units) and manifest.json (person, time, versions, \
            every file's rows, bytes and sha256). Into a new folder, or one zip when --out ends in .zip. \
            Files are created 0600. Memory stays flat whatever the person's size.

            Examples:
              health-import gdpr-export --store out/health.sqlite --person ann --out ann-export
              health-import gdpr-export --store out/health.sqlite --person ann --out ann-export.zip
            """
    )

    @Option(
        help: ArgumentHelp(
            "The store: a SQLite file, or a PostgreSQL database of received data, postgres://USER@HOST:PORT/DB (password from PGPASSWORD). Example: --store out/health.sqlite",
            valueName: "file|url"))
    var store: String

    @Option(help: ArgumentHelp("Whose data (an id `people` lists). Example: --person ann", valueName: "id"))
    var person: String

    @Option(help: ArgumentHelp("A folder or a .zip that does not exist yet. Example: --out ann-export.zip", valueName: "path"))
    var out: String

    @Flag(help: "Print nothing on success; errors are still printed.")
    var quiet = false

    func validate() throws {
        if person.isEmpty { throw ValidationError("--person needs a non-empty id") }
    }

    func run() throws {
        do {
            let outcome = try GDPRExportJob(GDPRExportRequest(storePath: store, person: person, outPath: out)).run()
            if !quiet { for line in outcome.summaryLines() { print(line) } }
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 1)
        }
    }
}
