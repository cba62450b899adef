import Foundation

/// Who may POST to `receive`, and whose data a request is: one key for one person
/// (`--api-key-file`, as `push` reads it) or a file of `PERSON KEY` lines (`--keys`). Keys are held
/// as their sha256 only and a presented key is compared with every one of them, byte by byte to
/// the end, so neither the answer's time nor an early exit tells how much of a key was right.
/// No key is ever logged, stored or put in a message.
public struct ReceiveKeys: Sendable {
    struct Entry: Sendable {
        let person: String
        let digest: [UInt8]
    }
    let entries: [Entry]

    /// `--api-key-file FILE` (mode 0600, or HEALTH_IMPORT_API_KEY when nil) for `person`.
    public static func single(file: String?, person: String, environment: [String: String]) throws -> ReceiveKeys {
        try checkPerson(person, source: "--person")
        let key = try APIKey.load(file: file, environment: environment)
        return ReceiveKeys(entries: [Entry(person: person, digest: digest(key.value))])
    }

    /// `--keys FILE`: mode 0600 like an API key file; one `PERSON KEY` a line, `#` comments and
    /// blank lines skipped. A key given to two persons is refused (a request would be both).
    public static func file(_ path: String) throws -> ReceiveKeys {
        let text = try APIKey.read(path, limit: 1 << 20)
        var entries: [Entry] = []
        var seen: [[UInt8]: String] = [:]
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let at = "line \(i + 1)"
            guard parts.count == 2 else {
                throw InputError(file: path, message: "\(at): expected PERSON KEY (two words separated by a space)")
            }
            let person = String(parts[0])
            try checkPerson(person, source: "\(path): \(at)")
            let key = String(parts[1])
            guard key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw InputError(file: path, message: "\(at): the key holds characters an HTTP header cannot carry")
            }
            let d = digest(key)
            if let other = seen[d] {
                throw InputError(
                    file: path, message: "\(at): the same key is given to \(other) and \(person); each person needs a key of their own")
            }
            seen[d] = person
            entries.append(Entry(person: person, digest: d))
        }
        guard !entries.isEmpty else { throw InputError(file: path, message: "holds no PERSON KEY line") }
        return ReceiveKeys(entries: entries)
    }

    /// The person whose key `presented` is, or nil for none (or no key at all).
    public func person(forKey presented: String?) -> String? {
        guard let presented, !presented.isEmpty else { return nil }
        let d = Self.digest(presented)
        var found: String?
        // Every entry is compared in full, whatever matched before.
        for e in entries where Self.equalInConstantTime(e.digest, d) { found = e.person }
        return found
    }

    public var persons: [String] { entries.map(\.person) }

    static func digest(_ key: String) -> [UInt8] { Array(SHA256.hash(data: Data(key.utf8))) }

    /// Whether two digests of equal length are equal, reading every byte of both.
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<a.count { diff |= a[i] ^ b[i] }
        return diff == 0
    }

    static func checkPerson(_ person: String, source: String) throws {
        guard !person.isEmpty, person.utf8.count <= 200,
            person.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace && $0.value >= 0x20 })
        else {
            throw UsageError("--person", "\(source): a person id must be a non-empty word without spaces")
        }
    }
}
