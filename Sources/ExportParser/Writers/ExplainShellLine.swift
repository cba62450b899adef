/// The `health-import explain` command line, as a POSIX shell reads it back, that shows how one
/// side's value of a row was made, named beside each mismatch so a person can see why before
/// deciding. Inputs that are payload
/// JSON are left out (a payload holds values, not the samples they came from); a side with only
/// those has no command.
struct ExplainShellLine: Sendable {
    var inputs: [String]
    var timeZoneName: String?
    var store: (path: String, person: String)?

    static func forSide(_ inputs: [String], timeZoneName: String?) -> ExplainShellLine {
        ExplainShellLine(inputs: inputs.filter { !PayloadReader.isPayloadInput($0) }, timeZoneName: timeZoneName)
    }

    /// `health-import explain export.zip --date 2024-03-04 --field metrics.step_count --timezone Australia/Sydney`;
    /// nil when the side has no input explain reads.
    func line(date: String, field: String) -> String? {
        var words = ["health-import", "explain"]
        if let store {
            words += ["--store", store.path, "--person", store.person]
        } else {
            guard !inputs.isEmpty else { return nil }
            words += inputs
        }
        words += ["--date", date, "--field", field]
        if store == nil, let timeZoneName { words += ["--timezone", timeZoneName] }
        return words.map(Self.quoted).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back: as is when it holds only safe characters, else in
    /// single quotes.
    static func quoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,")
        if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
