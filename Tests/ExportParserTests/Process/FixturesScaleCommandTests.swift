import Foundation
import XCTest

@testable import ExportParser

/// `fixtures --scale` run as a user runs it (what it writes is checked in-process in
/// `FixturesScaleTests`).
final class FixturesScaleCommandTests: XCTestCase {
    /// The command refuses them with exit status 2 and the sentence, before writing anything.
    func testTheCommandExitsWithStatus2OnABadCombination() throws {
        let tool = TestPaths.tool
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { throw XCTSkip("no built health-import at \(tool.path)") }
        let dir = try TestPaths.temporaryDirectory()
        let p = Process()
        p.executableURL = tool
        p.arguments = ["fixtures", "--scale", "100", "--days", "7", "--out", dir.appendingPathComponent("out").path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 2, text)
        XCTAssertTrue(text.contains("give --days or --scale, not both"), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }
}
