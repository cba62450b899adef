import ArgumentParser
import ExportParser
import Foundation

struct Erase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Delete every row of one person from a store, unrecoverably, and print a receipt.",
        discussion: """
            One transaction removes the person's rows from every table, imports included (only the \
            shared list of HealthKit type names stays). SQLite's secure_delete overwrites the deleted \
            bytes, a checkpoint truncates the -wal file and VACUUM rebuilds the store. Prints the rows \
            removed per table as a receipt (no health values in it), also written to --receipt FILE.

            On a terminal, the person's id must be typed back to confirm; elsewhere --yes is required \
            (without it nothing is erased and the exit status is 2). A store another process is writing \
            is waited for (10 s), then left untouched.

            Examples:
              health-import erase --store out/health.sqlite --person ann
              health-import erase --store out/health.sqlite --person ann --yes --receipt ann-erased.txt
            """
    )

    @Option(
        help: ArgumentHelp(
            "The store: a SQLite file, or a PostgreSQL database of received data, postgres://USER@HOST:PORT/DB (password from PGPASSWORD). Example: --store out/health.sqlite",
            valueName: "file|url"))
    var store: String

    @Option(help: ArgumentHelp("Whose data (an id `people` lists). Example: --person ann", valueName: "id"))
    var person: String

    @Flag(help: "Do not ask for the id to be typed back (needed when not on a terminal).")
    var yes = false

    @Option(help: ArgumentHelp("Also write the receipt to this file (0600). Example: --receipt ann-erased.txt", valueName: "file"))
    var receipt: String?

    func validate() throws {
        if person.isEmpty { throw ValidationError("--person needs a non-empty id") }
        if !yes && isatty(STDIN_FILENO) != 1 {
            throw ValidationError(
                "erase asks for the person's id to be typed back on a terminal; without a terminal give --yes. Nothing was erased.")
        }
    }

    func run() throws {
        do {
            let job = try EraseJob(EraseRequest(storePath: store, person: person, receiptPath: receipt))
            if !yes {
                FileHandle.standardError.write(
                    Data(
                        "This erases every row of \"\(person)\" from \(store); it cannot be undone.\nType the person's id to confirm: ".utf8
                    ))
                guard let typed = readLine(), typed.trimmingCharacters(in: .whitespaces) == person else {
                    CommandErrors.say("the id typed does not match \"\(person)\"; nothing was erased.")
                    throw ExitCode(1)
                }
            }
            let receipt = try job.run()
            print(receipt.text, terminator: "")
            if let unfinished = receipt.unfinished {
                CommandErrors.say(unfinished)
                throw ExitCode(1)
            }
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 1)
        }
    }
}
