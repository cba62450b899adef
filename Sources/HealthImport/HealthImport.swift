import ArgumentParser
import ExportParser

/// `health-import`: the command line over the ExportParser library. No logic lives here.
///
/// Every command states its `commandName`: without it ArgumentParser derives the name from the
/// type's name (`String(describing:)`, a demangling and conformance scan), for every command
/// at every start (`CommandSuggestion` lists them all): 12 M of the 84 M instructions a
/// `convert` of an empty file ran before its work began (docs/hae.md, "Rendering and start-up").
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
        subcommands: [Convert.self, Compare.self, Explain.self, Push.self] + receiveCommand + [
            Fixtures.self, People.self, GDPRExport.self, Erase.self,
        ]
    )
}

#if WITHOUT_RECEIVE
    /// A build without `receive`'s HTTP server (Package.swift, HEALTH_IMPORT_WITHOUT_RECEIVE: CI's
    /// AddressSanitizer build).
    private let receiveCommand: [any ParsableCommand.Type] = []
#else
    private let receiveCommand: [any ParsableCommand.Type] = [Receive.self]
#endif
