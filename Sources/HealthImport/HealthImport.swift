import ArgumentParser
import ExportParser

/// `health-import`: the command line over the ExportParser library. No logic lives here.
struct HealthImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health-import",
        abstract: "Turn Apple Health exports and Health Auto Export JSON into daily payloads, a CSV and a SQLite store.",
        discussion: """
            Inputs are detected by content: export.zip (the Health app's "Export All Health Data"), \
            the export.xml inside it, or Health Auto Export JSON.

            Example:
              health-import convert ~/Downloads/export.zip --timezone Europe/Amsterdam --out out
            """,
        version: ExportParserVersion.current,
        subcommands: [
            Convert.self, Compare.self, Explain.self, Push.self, Receive.self, Fixtures.self, People.self, GDPRExport.self, Erase.self,
        ]
    )
}
