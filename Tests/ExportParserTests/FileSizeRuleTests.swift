import Foundation
import XCTest

/// The house rule on file size (CONTRIBUTING.md, issue 43 §3): no Swift file under Sources/ is
/// over 500 lines, so a file holds one job and a change to one kind of element, rule or event
/// is read and reviewed on its own. A file may be longer only when it is on `allowed` with the
/// reason; an entry that is no longer needed fails too, so the list stays short and true.
final class FileSizeRuleTests: XCTestCase {
    static let limit = 500

    /// Files allowed over the limit, by path under the repository, with why.
    static let allowed: [String: String] = [
        // One SQL text a schema version; a released migration is never edited (its own doc
        // comment), so splitting it would only move frozen text between files.
        "Sources/ExportParser/Store/StoreSchema.swift": "the store's migrations, append-only SQL text"
    ]

    /// Lines as an editor numbers them: a last line without a line feed counts.
    static func lineCount(_ text: String) -> Int {
        var n = 0
        var sawText = false
        for b in text.utf8 {
            if b == 0x0A {
                n += 1
                sawText = false
            } else {
                sawText = true
            }
        }
        return n + (sawText ? 1 : 0)
    }

    func testLineCountCountsAsAnEditorDoes() {
        XCTAssertEqual(Self.lineCount(""), 0)
        // three line feeds: three lines
        XCTAssertEqual(Self.lineCount("a\nb\nc\n"), 3)
        // two line feeds and a last line without one: 2 + 1 = 3 (wc -l says 2)
        XCTAssertEqual(Self.lineCount("a\nb\nc"), 3)
        // an empty line between two: "a", "", "b" = 3
        XCTAssertEqual(Self.lineCount("a\n\nb\n"), 3)
    }

    func testNoSourceFileIsOverTheLimit() throws {
        let root = TestPaths.repoRoot
        let sources = root.appendingPathComponent("Sources")
        guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
            return XCTFail("cannot list \(sources.path)")
        }
        var seen = 0
        var over: [String: Int] = [:]
        for case let url as URL in walk where url.pathExtension == "swift" {
            seen += 1
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            let lines = Self.lineCount(try String(contentsOf: url, encoding: .utf8))
            if lines > Self.limit { over[relative] = lines }
        }
        // The walk found the sources (a wrong root would pass with nothing to check).
        XCTAssertGreaterThan(seen, 100)
        for (path, lines) in over.sorted(by: { $0.key < $1.key }) where Self.allowed[path] == nil {
            XCTFail(
                "\(path) has \(lines) lines, over \(Self.limit): split it by what it handles (or list it in "
                    + "FileSizeRuleTests.allowed with a reason)")
        }
        for path in Self.allowed.keys.sorted() where over[path] == nil {
            XCTFail("\(path) is listed in FileSizeRuleTests.allowed but is not over \(Self.limit) lines (or is gone): take it off")
        }
    }
}
