import ArgumentParser
import ExportParser
import Foundation

/// How the commands report the library's errors: option problems found by a request's
/// `validate()` become ArgumentParser's usage errors (exit 2, with the usage line); every other
/// error is one sentence on stderr and the command's exit status.
enum Usage {
    static func check(_ validate: () throws -> Void) throws {
        do { try validate() } catch let e as UsageError { throw ValidationError(e.message) }
    }

    static func report(_ error: UserFacingError, exitCode: Int32) -> ExitCode {
        FileHandle.standardError.write(Data(("health-import: " + error.description + "\n").utf8))
        return ExitCode(error is UsageError ? 2 : exitCode)
    }
}
