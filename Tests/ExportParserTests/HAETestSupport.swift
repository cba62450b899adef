import Foundation
import XCTest

@testable import ExportParser

enum HAEFixtures {
    /// A hand-written fixture under Tests/ExportParserTests/Fixtures/hae.
    static func path(_ name: String) -> String {
        if let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/hae") { return url.path }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hae/\(name)").path
    }

    /// A real file from the shared public samples (read in place, never copied into the repo).
    static let publicDirectory = TestPaths.publicHAE.path
    static func publicPath(_ name: String) -> String { TestPaths.publicHAE.appendingPathComponent(name).path }

    /// The byte offset of `marker` in a file, to check reported offsets.
    static func offset(of marker: String, in path: String) -> Int64? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data), m = Array(marker.utf8)
        guard m.count <= bytes.count else { return nil }
        for i in 0...(bytes.count - m.count) where bytes[i] == m[0] && Array(bytes[i..<(i + m.count)]) == m { return Int64(i) }
        return nil
    }

    static func read(_ path: String, details: Bool = false) throws -> (CollectingSink, ReadReport) {
        let sink = CollectingSink(details: details)
        let report = try HAEReader(path: path).read(into: sink)
        return (sink, report)
    }
}

/// `yyyy-MM-dd HH:mm:ss ±HHMM` to a Timestamp, for expected values.
func ts(_ s: String, file: StaticString = #filePath, line: UInt = #line) -> Timestamp {
    guard let t = TimestampParser.parse(s) else {
        XCTFail("bad timestamp in test: \(s)", file: file, line: line)
        return Timestamp(seconds: 0, offset: 0)
    }
    return t
}
