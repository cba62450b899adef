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

    @Option(
        help: ArgumentHelp(
            "The store: a SQLite file, or a PostgreSQL database of received data, postgres://USER@HOST:PORT/DB (password from PGPASSWORD). Example: --store out/health.sqlite",
            valueName: "file|url"))
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
