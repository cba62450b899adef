import ArgumentParser
import ExportParser
import Foundation

/// `--threads`, shared by every command that reads an Apple Health export (convert, compare,
/// explain): how many threads parse export.xml (docs/export-xml.md, "How it is read").
struct ThreadsOption: ParsableArguments {
    @Option(
        name: .customLong("threads"),
        help: ArgumentHelp(
            "Threads that parse an export.xml: its elements are cut into chunks parsed side by side and played in file order, so the outputs are the same for any number. 1 reads with one parser. Default: the number of active processors.",
            valueName: "n"))
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--threads must be at least 1") }
    }

    /// Makes the count the readers' default.
    func apply() {
        ParseThreads.count = count ?? ProcessInfo.processInfo.activeProcessorCount
    }
}
