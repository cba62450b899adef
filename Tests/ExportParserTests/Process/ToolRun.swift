import Foundation
import XCTest

@testable import ExportParser

/// The built `health-import` run as a user runs it (`swift build` first), and a byte-level
/// snapshot of what a run may change: every file under a folder and every row of a store.
enum ToolRun {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var printed: String { stdout + stderr }
    }

    /// Runs `health-import ARGS` in `directory` and waits for it; skips the test when the tool
    /// is not built.
    static func run(_ args: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        let tool = TestPaths.tool
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { throw XCTSkip("no built health-import at \(tool.path)") }
        let p = Process()
        p.executableURL = tool
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        var env = ["PATH": "/usr/bin:/bin"]
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS"] { env[name] = ProcessInfo.processInfo.environment[name] }
        p.environment = env.merging(environment) { $1 }
        let scratch = try TestPaths.temporaryDirectory("toolrun")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out"), err = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// Every file under `folder` (relative path → its bytes), the store files left out, and
    /// the rows of every table of each store found there (`health.sqlite` and any `*.sqlite`),
    /// as text, sorted: two snapshots are equal when nothing a user can see changed.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return out }
        let base = folder.standardizedFileURL.path
        for case let url as URL in walker {
            let path = url.standardizedFileURL.path
            let name = String(path.dropFirst(base.count))
            if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile != true {
                out[name + "/"] = Data()
                continue
            }
            if name.hasSuffix("-wal") || name.hasSuffix("-shm") { continue }
            if name.hasSuffix(".sqlite") {
                out[name + " (rows)"] = Data(try storeRows(path).utf8)
            } else {
                out[name] = try Data(contentsOf: url)
            }
        }
        return out
    }

    /// Every row of every table of the store at `path` but those `except` names, one line a row,
    /// tables in name order.
    static func storeRows(_ path: String, except: Set<String> = []) throws -> String {
        let db = try SQLiteConnection(path: path, readOnly: true)
        let tables = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var text = ""
        while try tables.step() {
            let table = tables.text(0) ?? ""
            if except.contains(table) { continue }
            let columns = try db.prepare("SELECT name FROM pragma_table_info(?1)")
            columns.bind(1, table)
            var names: [String] = []
            while try columns.step() { names.append("quote(\"\(columns.text(0) ?? "")\")") }
            let rows = try db.prepare("SELECT \(names.joined(separator: " || '|' || ")) FROM \"\(table)\"")
            var lines: [String] = []
            while try rows.step() { lines.append(rows.text(0) ?? "") }
            text += "[\(table)]\n" + lines.sorted().joined(separator: "\n") + "\n"
        }
        return text
    }

    /// Asserts that two snapshots are equal, naming the first entries that differ.
    static func assertUnchanged(
        _ before: [String: Data], _ after: [String: Data], _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        XCTAssertEqual(changed, [], "\(what): changed under the folder", file: file, line: line)
    }
}
