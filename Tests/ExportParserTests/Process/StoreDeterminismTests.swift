import Foundation
import XCTest

@testable import ExportParser

/// A store is a function of its input: the same export converted in separate processes (each
/// with its own Dictionary seed) stores the same day sums, bit for bit.
final class StoreDeterminismTests: XCTestCase {
    /// Three basal-energy records in three quarter-hours just after a local midnight (fringe
    /// slots, no `--timezone`), added into one day. In floating point the order matters:
    /// time order (0 + 0.1) + 0.2 = 0.30000000000000004, + 0.3 = 0.6000000000000001, while
    /// (0.3 + 0.2) + 0.1 = 0.5 + 0.1 = 0.6 exactly (the double nearest 0.6). Before the fix the
    /// slots were walked in Dictionary order, and six runs of main at 158ca11 on this file
    /// stored 0.6 or 0.5999999999999999 by process.
    private static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-01 10:00:00 +0100"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierBasalEnergyBurned" sourceName="Ann’s iPhone" unit="kcal" creationDate="2024-01-10 00:06:00 +0100" startDate="2024-01-10 00:05:00 +0100" endDate="2024-01-10 00:06:00 +0100" value="0.1"/>
         <Record type="HKQuantityTypeIdentifierBasalEnergyBurned" sourceName="Ann’s iPhone" unit="kcal" creationDate="2024-01-10 00:21:00 +0100" startDate="2024-01-10 00:20:00 +0100" endDate="2024-01-10 00:21:00 +0100" value="0.2"/>
         <Record type="HKQuantityTypeIdentifierBasalEnergyBurned" sourceName="Ann’s iPhone" unit="kcal" creationDate="2024-01-10 00:36:00 +0100" startDate="2024-01-10 00:35:00 +0100" endDate="2024-01-10 00:36:00 +0100" value="0.3"/>
        </HealthData>

        """

    private func basal(_ store: String) throws -> Double? {
        let db = try SQLiteConnection(path: store, readOnly: true)
        let q = try db.prepare("SELECT value FROM day_values WHERE date = '2024-01-10' AND field = 'basal_calories'")
        return try q.step() ? q.double(0) : nil
    }

    func testDaySumsAreTheSameInEveryProcess() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.export.write(to: dir.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        // Time order, worked above: 0.1 + 0.2 + 0.3 = 0.6000000000000001 (one ulp above 0.6).
        let expected = (0.1 + 0.2) + 0.3
        XCTAssertNotEqual(expected, 0.6)
        // Six processes: with a per-process seed, some walk the slots in another order.
        for run in 1...6 {
            let out = "out\(run)"
            let r = try ToolRun.run(["convert", "export.xml", "--out", out, "--store", "\(out)/s.sqlite"], in: dir)
            XCTAssertEqual(r.status, 0, r.printed)
            let v = try basal(dir.appendingPathComponent("\(out)/s.sqlite").path)
            XCTAssertEqual(v?.bitPattern, expected.bitPattern, "run \(run): \(String(describing: v))")
        }
    }
}
