import Foundation
import XCTest

@testable import ExportParser

/// `compare --from D`'s HAE side through the window (docs/hae.md, "The window read") on the
/// public HAE samples: files other people's phones wrote, in layouts the hand-written fixtures
/// and the generator may not (iOS's `"key" : value`, a body wrapped in an array, day-aggregated
/// metrics keyed in every order, `date`/`qty` datums without a source, sleep segments, workouts
/// v1 and v2). For each file, windows before its data, on its first date, inside it, on its
/// last date and after it: the days compare builds through the window are the full read's
/// (values on the window's dates; dates, fields and sources elsewhere), and so is every file
/// compare writes, byte for byte. The samples are read from ../shared (not copied into the
/// project: some state no licence) and the test is skipped with the reason when they are absent.
final class HAEPublicWindowReadTests: ParseThreadsTestCase {
    /// A full read's days as compare holds them, or the read's error.
    private func fullDays(_ path: String) -> (days: [String: ComparableDay]?, error: String?) {
        do {
            let book = DayBook(options: try DayOptions(timeZoneName: nil))
            _ = try HAEReader(path: path).read(into: book)
            let sources = ComparableDay.sourceSet(book.sourceNames)
            return (Dictionary(uniqueKeysWithValues: book.finish().map { ($0.date, ComparableDay($0, sourceSet: sources)) }), nil)
        } catch {
            return (nil, "\(error)")
        }
    }

    /// An export.xml with 100 steps at noon UTC on every date of `days`: compare needs data on a
    /// side in every window, and this side's rows sit beside the HAE side's values.
    private func native(_ days: ClosedRange<Int>) throws -> String {
        typealias C = CompareWindowCensusTests
        let body = days.map { d in
            C.record(C.steps, "100", start: CivilDate.isoDate(d) + " 12:00:00 +0000", end: CivilDate.isoDate(d) + " 12:10:00 +0000")
        }.joined()
        let path = try TestPaths.temporaryDirectory("hae-public-native").appendingPathComponent("export.xml")
        try Data(C.export(body, exportDate: CivilDate.isoDate(days.upperBound + 1) + " 08:00:00 +0000").utf8).write(to: path)
        return path.path
    }

    /// Every file compare writes and its terminal text (or the error) of one run.
    private func outputs(_ native: String, _ hae: String, from: String, days: Int, window: Bool) throws -> [String: Data] {
        let out = try TestPaths.temporaryDirectory("hae-public-window").appendingPathComponent("out")
        let job = try CompareJob(CompareRequest(native: [native], hae: [hae], days: days, from: from, outDir: out.path))
        job.windowRead = window
        do {
            let outcome = try job.run()
            var files = try FixtureCheck.files(out)
            // The terminal text names the folder; one name for both runs.
            files["terminal"] = Data(outcome.terminalText(color: false).replacingOccurrences(of: out.path, with: "OUT").utf8)
            return files
        } catch {
            return ["error": Data("\(error)".replacingOccurrences(of: out.path, with: "OUT").utf8)]
        }
    }

    /// The windows of a file whose data runs from `first` to `last` (day numbers): `days` each.
    private func windows(first: Int, last: Int) -> [(from: Int, days: Int)] {
        [
            (first - 30, 7),  // a month before: every datum is far from it
            (first - 3, 1),  // its reach ends at `first`'s midnight UTC
            (first, 1), (first, 7),  // the first date
            ((first + last) / 2, 1),  // inside
            (last, 1), (max(first, last - 6), 7),  // the last date
            (last + 3, 1), (last + 30, 7),  // after
        ]
    }

    func testTheHAESideThroughTheWindowIsTheFullReadsOnThePublicHAESamples() throws {
        try TestPaths.requirePublicSamples()
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.publicHAE.path).filter { $0.hasSuffix(".json") }
            .sorted()
        XCTAssertFalse(names.isEmpty)
        ParseThreads.count = 2
        var skipped = 0, windowsRead = 0, fellBack: [String] = []
        for name in names {
            let path = TestPaths.publicHAE.appendingPathComponent(name).path
            let full = fullDays(path)
            guard let fullDays = full.days else {
                // A file a full read refuses: the window read refuses it with the same sentence.
                let skipper = HAEWindowSkipper(days: 0...0)
                var reader = HAEReader(path: path)
                reader.window = skipper
                XCTAssertThrowsError(try reader.read(into: DayBook(options: try DayOptions(timeZoneName: nil)))) { error in
                    XCTAssertEqual("\(error)", full.error, name)
                }
                continue
            }
            let dates = fullDays.keys.compactMap { CivilDate.parseISODate($0) }.sorted()
            guard let first = dates.first, let last = dates.last else { continue }
            // Every window's dates, and a week either side.
            let native = try native((first - 37)...(last + 37))
            for (from, days) in windows(first: first, last: last) {
                let label = "\(name) --from \(CivilDate.isoDate(from)) --days \(days)"
                let window = Comparison.Window(from: from, to: from + days - 1)
                // The days through the window (nil: the census could not stand for a full read,
                // and compare reads the file in full).
                let read = try CompareHAEWindowSide.read(path, options: try DayOptions(timeZoneName: nil), window: window, progress: nil)
                if let read {
                    windowsRead += 1
                    XCTAssertEqual(read.keys.sorted(), fullDays.keys.sorted(), label)
                    for (date, f) in fullDays {
                        guard let w = read[date], let day = CivilDate.parseISODate(date) else { continue }
                        if day >= window.from && day <= window.to {
                            XCTAssertEqual(w.values, f.values, "\(label) \(date)")
                        } else {
                            XCTAssertEqual(w.values.keys.sorted(), f.values.keys.sorted(), "\(label) \(date)")
                        }
                        XCTAssertEqual(w.inputSources, f.inputSources, "\(label) \(date)")
                    }
                } else {
                    fellBack.append(label)
                }
                let skipper = HAEWindowSkipper(days: window.from...window.to)
                var reader = HAEReader(path: path)
                reader.window = skipper
                _ = try reader.read(into: DayBook(options: try DayOptions(timeZoneName: nil)))
                skipped += skipper.skipped
                // Every file compare writes, through the window and in full.
                let a = try outputs(native, path, from: CivilDate.isoDate(from), days: days, window: true)
                let b = try outputs(native, path, from: CivilDate.isoDate(from), days: days, window: false)
                XCTAssertNil(b["error"].map { String(decoding: $0, as: UTF8.self) }, label)
                XCTAssertEqual(Set(a.keys), Set(b.keys), label)
                for (file, data) in b.sorted(by: { $0.key < $1.key }) where a[file] != data {
                    XCTFail("\(label): \(file) differs:\n\(FixtureCheck.firstDifference(data, a[file] ?? Data()))")
                }
            }
        }
        // The samples do reach the skipping: the day-aggregated ones (Cornflower's, Jimmy
        // Little's) have datums of the recognised layouts far from most windows.
        XCTAssertGreaterThan(skipped, 0)
        XCTAssertGreaterThan(windowsRead, 0)
        print("HAE public window reads: \(windowsRead) stood, \(fellBack.count) read in full (\(fellBack)), \(skipped) datums skipped")
    }
}
