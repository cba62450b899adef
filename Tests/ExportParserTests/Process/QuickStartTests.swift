import Foundation
import XCTest

/// Two commands on a bare machine: the README's quick start is two commands, the
/// first of which (`scripts/quickstart.sh`) installs the system libraries that are missing,
/// asking before it uses apt when not root. Run here with stand-ins for `dpkg`, `id` and
/// `apt-get`, and with `HEALTH_IMPORT_SETUP_ONLY=1` (the set-up alone, no build).
final class QuickStartTests: XCTestCase {
    static let script = TestPaths.repoRoot.appendingPathComponent("scripts/quickstart.sh")
    static let packages = "libxml2-dev libsqlite3-dev libyajl-dev zlib1g-dev libisal-dev libpq-dev libssl-dev"

    /// Runs the script with `dpkg` saying every package is (or is not) installed and `id -u`
    /// printing `uid`; returns its status, its output and the apt-get calls it made.
    private func run(installed: Bool, uid: Int) throws -> (status: Int32, output: String, apt: String) {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let aptLog = dir.appendingPathComponent("apt.log")
        let fakes = [
            "dpkg": "exit \(installed ? 0 : 1)",
            "id": "echo \(uid)",
            "apt-get": "echo \"$*\" >> '\(aptLog.path)'",
        ]
        for (name, body) in fakes {
            let file = bin.appendingPathComponent(name)
            try Data("#!/bin/sh\n\(body)\n".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [Self.script.path]
        p.environment = ["PATH": bin.path + ":/usr/bin:/bin", "HEALTH_IMPORT_SETUP_ONLY": "1"]
        p.standardInput = FileHandle.nullDevice  // no terminal to ask on
        let out = dir.appendingPathComponent("out.txt")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let h = try FileHandle(forWritingTo: out)
        p.standardOutput = h
        p.standardError = h
        try p.run()
        p.waitUntilExit()
        let apt = (try? String(contentsOf: aptLog, encoding: .utf8)) ?? ""
        return (p.terminationStatus, try String(contentsOf: out, encoding: .utf8), apt)
    }

    func testAsRootItInstallsWhatIsMissing() throws {
        let r = try run(installed: false, uid: 0)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(r.apt, "update -qq\ninstall -y -qq \(Self.packages)\n")
    }

    func testNotRootWithoutATerminalItNamesTheCommandAndInstallsNothing() throws {
        let r = try run(installed: false, uid: 1000)
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("sudo apt-get install \(Self.packages)"), r.output)
        XCTAssertEqual(r.apt, "")
    }

    func testWithEverythingInstalledItInstallsNothing() throws {
        let r = try run(installed: true, uid: 1000)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(r.output, "")
        XCTAssertEqual(r.apt, "")
    }

    /// The README's quick start: exactly two commands, the set-up-and-convert script, then the tests.
    func testTheREADMEQuickStartIsTheseTwoCommands() throws {
        let readme = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "## Quick start").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        let commands = block.split(separator: "\n").map { $0.components(separatedBy: "#")[0].trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(commands, ["bash scripts/quickstart.sh", "swift test"])
    }
}
