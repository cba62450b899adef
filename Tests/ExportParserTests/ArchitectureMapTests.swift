import Foundation
import XCTest

/// docs/architecture.md stays true of the tree where that can be checked (issue 43 §5): every
/// folder of the library is in its folders table and every folder the table names exists, and
/// every path the map names (`Readers/Input/JSONDateScan`, `Sources/CISAL/shim.h`) is a file or
/// folder of the repository. A move that forgets the map fails here.
final class ArchitectureMapTests: XCTestCase {
    private func map() throws -> String {
        try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    }

    /// The first column of "The library's folders", as written (`` `Compare/`, `Explain/` ``).
    func testTheFoldersTableIsTheLibrarysFolders() throws {
        let text = try map()
        let start = try XCTUnwrap(text.range(of: "## The library's folders"))
        let end = try XCTUnwrap(text.range(of: "\n## ", range: start.upperBound..<text.endIndex))
        var named = Set<String>()
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let first = line.dropFirst(2).prefix { $0 != "|" }
            let folder = try NSRegularExpression(pattern: #"`(\w+)/`"#)
            let s = String(first)
            for m in folder.matches(in: s, range: NSRange(s.startIndex..., in: s)) {
                named.insert(String(s[Range(m.range(at: 1), in: s)!]))
            }
        }
        let root = TestPaths.repoRoot.appendingPathComponent("Sources/ExportParser").path
        let folders = try FileManager.default.contentsOfDirectory(atPath: root).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder) && isFolder.boolValue
        }
        XCTAssertEqual(named.sorted(), Set(folders).sorted())
    }

    /// A path in backquotes with a `/` names a file or folder: as written from the repository's
    /// root, or under Sources/ExportParser/, with or without `.swift`. The map's templates for a
    /// new command and its globs are not paths (`Commands/NameRequest.swift`,
    /// `Sources/HealthFixtures/*Planner.swift`), nor is an output file's name (`payloads/DATE.json`).
    func testEveryPathTheMapNamesExists() throws {
        XCTAssertEqual(try Self.missingPaths(in: map()), [], "docs/architecture.md names paths that do not exist")
    }

    /// The check finds a path that is not there, and takes a file named without `.swift`, one
    /// from the root and one under Sources/ExportParser/.
    func testThePathCheckFindsAMissingPath() throws {
        let text = "`Store/Nowhere`, `Support/POSIXFile`, `Sources/CISAL/shim.h`, `docs/store.md`, `Readers/Input/JSONDateScan`"
        XCTAssertEqual(try Self.missingPaths(in: text), ["Store/Nowhere"])
    }

    static func missingPaths(in text: String) throws -> [String] {
        let quoted = try NSRegularExpression(pattern: #"`([A-Za-z][\w/+.*-]*/[\w+.*-]+)`"#)
        let templates: Set<String> = [
            "Commands/NameRequest.swift", "Sources/HealthImport/Name.swift", "Sources/HealthFixtures/*Planner.swift",
            "payloads/DATE.json",
        ]
        let root = TestPaths.repoRoot.path
        var missing: [String] = []
        for m in quoted.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let path = String(text[Range(m.range(at: 1), in: text)!])
            guard !templates.contains(path) else { continue }
            let candidates = [path, "Sources/ExportParser/" + path, "Sources/ExportParser/" + path + ".swift", path + ".swift"]
            if !candidates.contains(where: { FileManager.default.fileExists(atPath: root + "/" + $0) }) { missing.append(path) }
        }
        return missing
    }
}
