import Foundation
import XCTest

@testable import ExportParser

/// Workers sharing one `--out` (pods whose PIDs are alike) must not clobber each other's
/// temporary files: two files staged at once for one path, as two workers would, both commit,
/// the later one's content wins, and the result is 0600.
final class OutputFilesTemporaryTests: XCTestCase {
    func testTwoStagedWritersOfOnePathDoNotClobber() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("fleet.json").path
        // One process stands in for two pods with the same PID: the same getpid().
        XCTAssertNotEqual(OutputFiles.temporaryName(for: path), OutputFiles.temporaryName(for: path))
        let first = try OutputFiles.Staged(path)
        try first.append("first\n")
        let second = try OutputFiles.Staged(path)
        try second.append("second\n")
        try first.commit()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "first\n")
        try second.commit()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "second\n")
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        // No temporary left behind.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["fleet.json"])
    }
}
