import Foundation
import XCTest

@testable import ExportParser

/// Inputs that are not regular readable files: a directory, a FIFO (this hung: `open`
/// waited for a writer), an unreadable file. Each is refused before anything is read.
final class HostileInputFileTests: XCTestCase {
    /// A directory given as input is the list of its files (docs/usage.md, "A folder is the list of its files"): one that
    /// holds none convert reads (here an export's CDA document and a note) is refused, naming
    /// what it holds.
    func testDirectoryIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("a-folder")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try Data("<ClinicalDocument/>".utf8).write(to: URL(fileURLWithPath: input + "/export_cda.xml"))
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: input + "/notes.txt"))
        let why = ["is a folder without an Apple Health export", "export_cda.xml (an XML file that is not an Apple Health export.xml"]
        try bench.assertToolRefuses(input, mentioning: why)
        try bench.assertJobRefuses(input, mentioning: why)
    }

    /// A FIFO with no writer: refused at once (the file type is checked on a non-blocking open).
    func testFIFOIsRefusedWithoutHanging() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("pipe")
        XCTAssertEqual(mkfifo(input, 0o600), 0)
        let run = try bench.assertToolRefuses(input, mentioning: ["FIFO"], timeout: 20)
        XCTAssertLessThan(run.seconds, 10)
        try bench.assertJobRefuses(input, mentioning: ["FIFO"])
    }

    /// A file without read permission. Root reads any file, so as root this checks only that
    /// the file (readable to root) is handled like any other; the refusal needs a normal user.
    func testUnreadableFileIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("locked.xml")
        try StoreKillTests.exportXML(records: 10).write(toFile: input, atomically: true, encoding: .utf8)
        chmod(input, 0)
        defer { chmod(input, 0o600) }
        if access(input, R_OK) == 0 {
            throw XCTSkip("running as root (uid \(getuid())): a mode-000 file is still readable, so no refusal can be observed")
        }
        try bench.assertToolRefuses(input, mentioning: ["permission denied"])
        try bench.assertJobRefuses(input, mentioning: ["permission denied"])
    }

    /// A path that does not exist.
    func testMissingFileIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        try bench.assertToolRefuses(bench.path("nowhere.zip"), mentioning: ["no such file"])
    }
}
