import ArgumentParser
import ExportParser
import Foundation

// Usage errors exit with 2, as most command-line tools do (ArgumentParser's default is 64):
// `compare` promises 0 (all within tolerance), 1 (something is not) and 2 (bad input or usage).
if let first = CommandLine.arguments.dropFirst().first, let sentence = CommandSuggestion.sentence(for: first) {
    FileHandle.standardError.write(Data((sentence + "\n").utf8))
    exit(2)
}
// Before any thread hashes, and before libpq could set OpenSSL up with its exit handler.
CryptoLibrary.setUp()
do {
    var command = try HealthImport.parseAsRoot()
    try command.run()
} catch {
    if HealthImport.exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data((HealthImport.fullMessage(for: error) + "\n").utf8))
        exit(2)
    }
    HealthImport.exit(withError: error)
}
