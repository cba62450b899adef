import ArgumentParser
import ExportParser
import Foundation

struct People: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "List the persons a store holds: imports, first and last date, rows per kind.",
        discussion: """
            The starting point of gdpr-export and erase: the ids they take are the ones listed here.

            Example:
              health-import people --store out/health.sqlite
            """
    )

    @Option(help: ArgumentHelp("The SQLite store. Example: --store out/health.sqlite", valueName: "file"))
    var store: String

    func run() throws {
        do {
            let people = try PeopleJob(PeopleRequest(storePath: store)).run()
            for line in PeopleJob.lines(people, storePath: store) { print(line) }
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 1)
        }
    }
}
