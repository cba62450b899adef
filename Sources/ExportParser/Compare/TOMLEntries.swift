import TOMLKit

/// The flat `key = value` table of a TOML tolerances file, values as text (`"2%"`, `1`).
enum TOMLEntries {
    static func parse(_ text: String, file: String) throws -> [(String, String)] {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw InputError(
                file: file, location: InputLocation(line: e.source.begin.line, column: e.source.begin.column),
                message: "not valid TOML: \(e.description)")
        }
        return try table.map { key, value in
            if let s = value.string { return (key, s) }
            if let n = value.double { return (key, String(n)) }
            if let n = value.int { return (key, String(n)) }
            throw InputError(
                file: file, location: InputLocation(path: key), message: "a tolerance is a number or a text such as \"2%\" or \"10 min\"")
        }
    }
}
