import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// Options with fixed choices list them in `--help` (they are enums in the command line), and
/// the lists are the library's own: a profile or a body kind added to one and not the other
/// fails here.
final class HelpChoicesTests: XCTestCase {
    /// `--help` with its wrapped lines joined (ArgumentParser breaks lines at 80 columns).
    private func help(_ command: String) throws -> String {
        let r = try ToolRun.run([command, "--help"])
        XCTAssertEqual(r.status, 0, r.printed)
        return r.stdout.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    func testFixedChoicesAreListedAndAreTheLibrarys() throws {
        let fixtures = try help("fixtures")
        let profiles = FixtureProfile.all.map(\.name).joined(separator: ", ")
        XCTAssertTrue(fixtures.contains("(values: \(profiles); default: runner)"), fixtures)
        XCTAssertTrue(fixtures.contains("(values: metric, imperial; default: metric)"), fixtures)
        let scaleFiles = FixtureOptions.ScaleFile.allCases.map(\.rawValue).joined(separator: ", ")
        XCTAssertTrue(fixtures.contains("(values: \(scaleFiles))"), fixtures)
        for list in ["ios16-dtd", "zh_CN", "days, samples", "default, since", "export, sample; default: export"] {
            XCTAssertTrue(fixtures.contains("(values: \(list)"), list)
        }
        let push = try help("push")
        let bodies = PushBody.allCases.map(\.rawValue).joined(separator: ", ")
        XCTAssertTrue(push.contains("(values: \(bodies); default: wrapped)"), push)
        XCTAssertTrue(try help("explain").contains("(values: text, json; default: text)"))
    }

    /// `--store` names PostgreSQL where the command takes a postgres:// URL (StoreAccess.open,
    /// .keeper) and says it does not where the command refuses one (StoreAccess.importStore).
    func testStoreHelpNamesPostgreSQLWhereItIsTaken() throws {
        var takers = ["compare", "explain", "people", "gdpr-export", "erase"]
        #if !WITHOUT_RECEIVE
            takers.insert("receive", at: 0)
        #endif
        for command in takers {
            XCTAssertTrue(try help(command).contains("postgres://USER@HOST:PORT/DB"), command)
        }
        for command in ["convert", "push"] {
            let text = try help(command)
            XCTAssertTrue(text.contains("not PostgreSQL, which holds received data only"), command)
            XCTAssertFalse(text.contains("postgres://"), command)
        }
    }

    /// A value that is not a choice is refused before anything is written: exit 2, naming the
    /// option and the values.
    func testAnotherValueIsRefusedWithTheChoices() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try ToolRun.run(["fixtures", "--days", "2", "--profile", "athlete", "--out", "fx"], in: dir)
        XCTAssertEqual(r.status, 2, r.printed)
        XCTAssertTrue(r.stderr.contains("--profile"), r.stderr)
        XCTAssertTrue(r.stderr.contains("'shift-worker'"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("fx").path))
    }
}
