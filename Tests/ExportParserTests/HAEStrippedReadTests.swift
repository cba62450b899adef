import Foundation
import XCTest

@testable import ExportParser

/// The main pass hands yajl each chunk without its indentation (`JSONIndentStripper`); every
/// result, offset and message must be the file's, as if yajl had read every byte.
final class HAEStrippedReadTests: XCTestCase {
    /// An indented HAE document as Health Auto Export writes one (two spaces a level), with what
    /// makes offsets matter: a metric whose `name` and `units` come after its `data` (waited for,
    /// or re-read from its byte range with a small pending limit), a metric outside the catalog
    /// (skipped at its offset), a datum without a date (skipped at its offset), a sleep night and
    /// a workout.
    static let document = """
        {
          "data": {
            "metrics": [
              {
                "data": [
                  {
                    "date": "2024-03-01 08:00:00 +0000",
                    "qty": 5,
                    "source": "Watch"
                  },
                  {
                    "qty": 7,
                    "source": "Watch"
                  },
                  {
                    "date": "2024-03-01 09:00:00 +0000",
                    "qty": 11,
                    "source": "Watch"
                  }
                ],
                "name": "step_count",
                "units": "count"
              },
              {
                "name": "active_energy",
                "units": "furlong",
                "data": [
                  {
                    "date": "2024-03-01 08:00:00 +0000",
                    "qty": 3
                  }
                ]
              },
              {
                "name": "made_up_metric",
                "units": "count",
                "data": [
                  {
                    "date": "2024-03-01 08:00:00 +0000",
                    "qty": 1
                  }
                ]
              },
              {
        \t\t"name": "sleep_analysis",
        \t\t"units": "hr",
        \t\t"data": [
        \t\t  {
        \t\t    "date": "2024-03-02",
        \t\t    "asleep": 7.5,
        \t\t    "inBed": 8,
        \t\t    "sleepStart": "2024-03-01 23:00:00 +0000",
        \t\t    "sleepEnd": "2024-03-02 07:00:00 +0000",
        \t\t    "inBedStart": "2024-03-01 22:45:00 +0000",
        \t\t    "inBedEnd": "2024-03-02 07:00:00 +0000",
        \t\t    "source": "Watch"
        \t\t  }
        \t\t]
              }
            ],
            "workouts": [
              {
                "name": "Outdoor Run",
                "start": "2024-03-01 07:00:00 +0000",
                "end": "2024-03-01 07:30:00 +0000",
                "activeEnergyBurned": {"qty": 300, "units": "kcal"}
              }
            ]
          }
        }

        """

    private func file(_ text: String, bytes prefix: [UInt8] = []) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hae-stripped-\(UUID().uuidString).json")
        try Data(prefix + Array(text.utf8)).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// Everything a read gives, as text: the samples, nights, workouts and extras with every
    /// field, the report's counts and skip locations (sorted: dictionaries have no order), or
    /// the error with its location and message.
    private func outcome(_ path: String, strip: Bool, splits: [Int64] = [], pendingLimit: Int = 50_000) -> String {
        var reader = HAEReader(path: path, pendingLimit: pendingLimit)
        reader.stripIndentation = strip
        reader.splits = splits
        let sink = CollectingSink(details: true)
        do {
            let report = try reader.read(into: sink)
            func sorted<V>(_ d: [String: V]) -> String { d.keys.sorted().map { "\($0)=\(d[$0]!)" }.joined(separator: "; ") }
            return [
                "samples \(sink.samples)", "metadata \(sink.metadataEntries)", "nights \(sink.sleepSummaries)",
                "workouts \(sink.workouts)", "extras \(sink.extras)", "records \(sorted(report.recordsByType))",
                "skips \(sorted(report.skips))", "examples \(sorted(report.skipExamples.mapValues { $0.map(\.description) }))",
                "storeOnly \(sorted(report.storeOnly))", "bytes \(report.bytesRead)",
            ].joined(separator: "\n")
        } catch {
            return "error \(error)"
        }
    }

    func testAnIndentedFileReadsTheSameStrippedOrNot() throws {
        let path = try file(Self.document)
        for limit in [50_000, 1] {
            let stripped = outcome(path, strip: true, pendingLimit: limit)
            XCTAssertEqual(stripped, outcome(path, strip: false, pendingLimit: limit), "pending limit \(limit)")
            XCTAssertFalse(stripped.hasPrefix("error"), stripped)
        }
        // The offsets are the file's: each skipped datum at its `{` (the map yajl reported just
        // past it).
        var reader = HAEReader(path: path, pendingLimit: 1)
        reader.stripIndentation = true
        let report = try reader.read(into: CollectingSink(details: false))
        let text = Array(Self.document.utf8)
        func offset(of marker: String) -> Int64 {
            let m = Array(marker.utf8)
            return Int64((0...(text.count - m.count)).first { Array(text[$0..<($0 + m.count)]) == m }!)
        }
        let dateless = try XCTUnwrap(report.skipExamples["HAE datum without a parseable date"]?.first)
        XCTAssertEqual(dateless.path, "data.metrics[0].data[1].date")
        // `{`, a line feed and 12 spaces, then `"qty": 7`: the `{` is 14 bytes before it.
        XCTAssertEqual(dateless.byteOffset, offset(of: "\"qty\": 7") - 14)
        let furlong = try XCTUnwrap(report.skipExamples["unknown unit 'furlong' for HAE metric active_energy"]?.first)
        XCTAssertEqual(furlong.path, "data.metrics[1].data[0]")
        // `{`, a line feed and 12 spaces, `"date": "2024-03-01 08:00:00 +0000",` (36 bytes), a
        // line feed and 12 spaces, then `"qty": 3`: the `{` is 14 + 36 + 1 + 12 = 63 bytes before.
        XCTAssertEqual(furlong.byteOffset, offset(of: "\"qty\": 3") - 63)
    }

    func testEveryCutGivesTheSameReadStrippedOrNot() throws {
        let path = try file(Self.document)
        let count = Self.document.utf8.count
        // Cuts at every offset, two bytes apart too (a chunk of two bytes, of a line feed and
        // the indentation's start, or of indentation alone).
        for at in stride(from: 1, to: count, by: 3) {
            let splits = [Int64(at), Int64(at + 2)]
            XCTAssertEqual(
                outcome(path, strip: true, splits: splits, pendingLimit: 1), outcome(path, strip: false, splits: splits, pendingLimit: 1),
                "cut at \(at)")
        }
    }

    /// Broken documents: each error names the file's offset and quotes the file's bytes, as the
    /// unstripped read does, wherever the chunks are cut.
    func testErrorsNameTheFilesOffsetAndText() throws {
        let document = Self.document
        let breaks: [(String, String)] = [
            // A line feed inside a string, indentation after it: yajl stops at the line feed.
            ("\"source\": \"Watch\"\n", "\"source\": \"Wat\n          ch\"\n"),
            // A stray letter after indentation.
            ("\"qty\": 11,", "\"qty\": 11,\n            x"),
            // Two numbers with only a line feed and indentation between them.
            ("\"qty\": 5,", "\"qty\": 5\n            6,"),
            // A missing comma between two keys on two lines.
            ("\"units\": \"count\"\n      },", "\"units\": \"count\"\n        \"x\": 1\n      },"),
            // The file ends inside indentation.
            ("\"workouts\": [", "\"workouts\": [\n      "),
        ]
        for (original, broken) in breaks {
            var text = document
            if original == "\"workouts\": [" {
                text = String(document[..<document.range(of: original)!.lowerBound]) + broken
            } else {
                text = document.replacingOccurrences(of: original, with: broken, options: [], range: document.range(of: original))
            }
            let path = try file(text)
            let stripped = outcome(path, strip: true)
            XCTAssertTrue(stripped.hasPrefix("error"), "\(broken): \(stripped)")
            XCTAssertEqual(stripped, outcome(path, strip: false), broken)
            for at in stride(from: 1, to: text.utf8.count, by: 37) {
                let splits = [Int64(at), Int64(at + 1)]
                XCTAssertEqual(
                    outcome(path, strip: true, splits: splits), outcome(path, strip: false, splits: splits), "\(broken), cut at \(at)")
            }
        }
    }

    func testALineFeedInAStringIsRefusedAtTheLineFeed() throws {
        // {⏎··"data":·"a⏎····b"}   `{`0 ⏎1 ··2-3 `"data"`4-9 `:`10 ·11 `"`12 `a`13 ⏎14: yajl
        // stops at the line feed, offset 14 in the file (the spaces after it are taken out before
        // yajl reads them, so the stripped offset is 12: 12 + the 2 bytes of the first run).
        let path = try file("{\n  \"data\": \"a\n    b\"}")
        var reader = HAEReader(path: path)
        reader.stripIndentation = true
        XCTAssertThrowsError(try reader.read(into: CollectingSink(details: false))) { error in
            let e = error as? InputError
            XCTAssertEqual(e?.location?.byteOffset, 14)
            XCTAssertTrue(e?.message.contains("invalid character inside string") == true, "\(String(describing: e))")
            // The excerpt is the file's 15 bytes up to and including the line feed, with line
            // feeds shown as spaces: `{···"data":·"a·`.
            XCTAssertTrue(e?.message.hasSuffix("near: …{   \"data\": \"a ") == true, "\(String(describing: e?.message))")
        }
    }

    func testAByteOrderMarkBeforeIndentedJSON() throws {
        // The mark (3 bytes) is skipped before yajl reads the first chunk, so the chunk's runs
        // move 3 bytes towards its start: every offset stays the file's, 3 more than without it.
        let path = try file(Self.document, bytes: [0xEF, 0xBB, 0xBF])
        for limit in [50_000, 1] {
            XCTAssertEqual(outcome(path, strip: true, pendingLimit: limit), outcome(path, strip: false, pendingLimit: limit))
            for at in [5, 64, 400] {
                XCTAssertEqual(
                    outcome(path, strip: true, splits: [Int64(at)], pendingLimit: limit),
                    outcome(path, strip: false, splits: [Int64(at)], pendingLimit: limit), "cut at \(at)")
            }
        }
        var reader = HAEReader(path: path, pendingLimit: 1)
        reader.stripIndentation = true
        let report = try reader.read(into: CollectingSink(details: false))
        let text = Array(Self.document.utf8), m = Array("\"qty\": 7".utf8)
        let qty = (0...(text.count - m.count)).first { Array(text[$0..<($0 + m.count)]) == m }!
        // As in the document without the mark (its `{` 14 bytes before `"qty": 7`), plus 3.
        XCTAssertEqual(report.skipExamples["HAE datum without a parseable date"]?.first?.byteOffset, Int64(3 + qty - 14))

        // A broken one: EF BB BF, then `{⏎··"data":·x}`; yajl stops just past `x` at file
        // 3 + 12 = 15 (`{`3 ⏎4 ··5-6 `"data"`7-12 `:`13 ·14 `x`15): offset 16, found again in
        // the file's own bytes.
        let broken = try file("{\n  \"data\": x}", bytes: [0xEF, 0xBB, 0xBF])
        XCTAssertEqual(outcome(broken, strip: true), outcome(broken, strip: false))
        var brokenReader = HAEReader(path: broken)
        brokenReader.stripIndentation = true
        XCTAssertThrowsError(try brokenReader.read(into: CollectingSink(details: false))) { error in
            XCTAssertEqual((error as? InputError)?.location?.byteOffset, 16)
        }
    }

    /// When a stripped read's error cannot be found again in the file (the file changed under
    /// the reader), the error's offset in the stripped bytes is mapped back instead. yajl may
    /// move an error's offset back to the offending token's start, which is a run's edge: the
    /// run counts then. Each stripped offset below is worked out from yajl's rule (it moves back
    /// by the token's length, or a string's content length); the file's offset is what a read
    /// that strips nothing reports, and worked out by hand too.
    func testAnErrorOffsetAtARunsEdgeCountsTheRun() throws {
        let cases: [(text: String, stripped: Int, file: Int64)] = [
            // `{"a":·5⏎······6}`: `{`0 `"a"`1-3 `:`4 ·5 `5`6 ⏎7 ······8-13 `6`14. The number 6
            // stands where a comma must: yajl moves back to the `6`, 14. Stripped, `{"a":·5⏎6}`,
            // the `6` is at 8, on the edge of the run of 6 there: 8 + 6 = 14.
            ("{\"a\": 5\n      6}", 8, 14),
            // `{"a":·1⏎····"b":·2}`: `"b"` at 12-14, ending at 15; yajl moves back by its content
            // (1): 14. Stripped, `"b"` at 8-10, ending at 11, back to 10; the run of 4 at 8
            // lies before: 10 + 4 = 14.
            ("{\"a\": 1\n    \"b\": 2}", 10, 14),
            // `{"a":·"x⏎··y"}`: the line feed at 8 refused at the line feed, 8, in both; the run
            // of 2 after it, at 9, does not count.
            ("{\"a\": \"x\n  y\"}", 8, 8),
        ]
        for c in cases {
            let path = try file(c.text)
            var plain = HAEReader(path: path)
            plain.stripIndentation = false
            XCTAssertThrowsError(try plain.read(into: CollectingSink(details: false)), c.text) { error in
                XCTAssertEqual((error as? InputError)?.location?.byteOffset, c.file, c.text)
            }
            var bytes = Array(c.text.utf8)
            let runs = StrippedRuns(chunkSize: bytes.count)
            var stripper = JSONIndentStripper()
            _ = bytes.withUnsafeMutableBufferPointer { stripper.strip($0.baseAddress!, count: $0.count, runs: runs) }
            let player = HAETapePlayer(walker: HAEDocumentWalker(sink: CollectingSink(details: false)))
            player.beginChunk(base: 0, runs: runs)
            XCTAssertEqual(player.fileOffset(errorAt: c.stripped), c.file, c.text)
            _ = player.finish()
        }
    }

    func testThePublicSamplesReadTheSameStrippedOrNot() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: HAEFixtures.publicDirectory)) ?? []
        let files = names.filter { $0.hasSuffix(".json") }.sorted()
        try XCTSkipIf(files.isEmpty, "no public HAE samples at \(HAEFixtures.publicDirectory)")
        for name in files {
            let path = HAEFixtures.publicPath(name)
            XCTAssertEqual(outcome(path, strip: true), outcome(path, strip: false), name)
            XCTAssertEqual(outcome(path, strip: true, pendingLimit: 1), outcome(path, strip: false, pendingLimit: 1), name)
        }
    }
}
