import ArgumentParser

/// A first argument that is no command (`conver`): ArgumentParser would say "2 unexpected
/// arguments"; this names the command it most likely meant.
enum CommandSuggestion {
    /// The sentence for `word` when it is not a command and looks like a misspelled one (or
    /// is no option either); nil when `word` is a command or an option.
    static func sentence(for word: String) -> String? {
        let names = HealthImport.configuration.subcommands.map { $0._commandName } + ["help"]
        if word.hasPrefix("-") || names.contains(word) { return nil }
        let nearest = names.map { ($0, distance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        let list = names.filter { $0 != "help" }.joined(separator: ", ")
        if let (name, d) = nearest, d <= max(2, name.count / 3) {
            return "health-import: \"\(word)\" is not a command. Did you mean \"\(name)\"? The commands: \(list)."
        }
        return "health-import: \"\(word)\" is not a command. The commands: \(list)."
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
