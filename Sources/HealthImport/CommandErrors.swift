import ArgumentParser
import ExportParser
import Foundation

/// How every command reports the library's errors, so they all read alike: option problems
/// found by a request's `validate()` become ArgumentParser's usage errors (exit 2, with the
/// usage line); every other `UserFacingError` (input, output, store, push) goes through
/// `report`: one sentence on stderr and the command's exit status. A command catches
/// `UserFacingError`, never one kind of it, so no kind escapes in another format.
enum CommandErrors {
    static func check(_ validate: () throws -> Void) throws {
        do { try validate() } catch let e as UsageError { throw ValidationError(e.message) }
    }

    static func report(_ error: UserFacingError, exitCode: Int32) -> ExitCode {
        say(error.description)
        return ExitCode(error is UsageError ? 2 : exitCode)
    }

    /// One sentence on stderr, as `report` writes an error (`health-import: …`).
    static func say(_ sentence: String) {
        FileHandle.standardError.write(Data(("health-import: " + sentence + "\n").utf8))
    }
}
