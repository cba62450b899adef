import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// Makes a fixture and checks it against the converter and compare (docs/fixtures.md).
enum FixtureCheck {
    /// Generates a fixture into a new temporary folder.
    static func make(
        days: Int, start: String = FixtureRequest.defaultStart, seed: UInt64 = 1, zone: String = FixtureRequest.defaultTimeZone,
        profile: String = "runner", units: String = "metric", variant: String? = nil, locale: String? = nil,
        haeStyle: String = "days", haeBodies: String? = nil, exportOffsets: String = "export", name: String = #function
    ) throws -> URL {
        let dir = try TestPaths.temporaryDirectory(name)
        var request = FixtureRequest(
            days: days, start: start, seed: seed, timeZoneName: zone, profile: profile, units: units, outDir: dir.path,
            variant: variant, locale: locale, haeStyle: haeStyle, haeBodies: haeBodies)
        request.exportOffsets = exportOffsets
        let outcome = try FixtureJob(request).run()
        XCTAssertEqual(outcome.days, days)
        return dir
    }

    /// Every file under `dir`, relative path to contents.
    static func files(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(atPath: dir.path)!
        while let name = e.nextObject() as? String {
            var isDir: ObjCBool = false
            let path = dir.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue {
                out[name] = FileManager.default.contents(atPath: path)
            }
        }
        return out
    }

    /// `convert` of the fixture's export (zip or xml) writes exactly `expected/`: every payload
    /// file, payloads.json and daily.csv byte for byte.
    static func assertConvertReproducesExpected(
        _ fixture: URL, input: String = "export.zip", _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let out = fixture.appendingPathComponent("converted-" + input)
        _ = try ConvertJob(ConvertRequest(inputs: [fixture.appendingPathComponent(input).path], outDir: out.path)).run()
        let expected = fixture.appendingPathComponent("expected")
        let want = try files(expected.appendingPathComponent("payloads"))
        let got = try files(out.appendingPathComponent("payloads"))
        XCTAssertEqual(Set(got.keys), Set(want.keys), "\(label): payload dates", file: file, line: line)
        for (name, data) in want.sorted(by: { $0.key < $1.key }) where got[name] != data {
            XCTFail("\(label): \(name) differs:\n\(firstDifference(data, got[name] ?? Data()))", file: file, line: line)
        }
        for name in ["payloads.json", "daily.csv"] {
            let a = FileManager.default.contents(atPath: expected.appendingPathComponent(name).path)
            let b = FileManager.default.contents(atPath: out.appendingPathComponent(name).path)
            XCTAssertNotNil(a, file: file, line: line)
            XCTAssertTrue(a == b, "\(label): \(name) differs", file: file, line: line)
        }
    }

    /// compare of the export (or of another native side, such as `expected/payloads`) against
    /// the HAE twin over the whole range exits 0, with compare's tolerances or those of the
    /// `tolerances` file.
    static func assertCompareAgrees(
        _ fixture: URL, native: String = "export.zip", days: Int, start: String, tolerances: String? = nil, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let request = CompareRequest(
            native: [fixture.appendingPathComponent(native).path], hae: [fixture.appendingPathComponent("hae.json").path],
            days: days, from: start, tolerancesPath: tolerances, outDir: fixture.appendingPathComponent("compare").path)
        let outcome = try CompareJob(request).run()
        XCTAssertEqual(outcome.exitStatus, 0, "\(label): \(outcome.terminalText(color: false))", file: file, line: line)
    }

    /// The first differing line of two texts, for a readable failure.
    static func firstDifference(_ a: Data, _ b: Data) -> String {
        let x = String(decoding: a, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let y = String(decoding: b, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(x.count, y.count) where (i < x.count ? x[i] : "") != (i < y.count ? y[i] : "") {
            return "line \(i + 1): expected \(i < x.count ? x[i] : "<none>") | got \(i < y.count ? y[i] : "<none>")"
        }
        return "(same text)"
    }
}
