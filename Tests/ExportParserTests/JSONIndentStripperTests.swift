import XCTest

@testable import ExportParser

/// `JSONIndentStripper` takes out the spaces and tabs after each line feed, in place, chunk by
/// chunk; `StrippedRuns` turns an offset in what is left back into the file's.
final class JSONIndentStripperTests: XCTestCase {
    /// Strips `text` cut into chunks ending at `cuts` (offsets into `text`), one stripper for the
    /// whole text as the prefetcher uses it. Returns each chunk's (file offset, stripped bytes,
    /// runs as (position, removed through) pairs).
    private func strip(_ text: [UInt8], cuts: [Int] = []) -> [(base: Int, bytes: [UInt8], runs: [(Int, Int)], map: StrippedRuns)] {
        var stripper = JSONIndentStripper()
        var out: [(base: Int, bytes: [UInt8], runs: [(Int, Int)], map: StrippedRuns)] = []
        var start = 0
        for end in (cuts.filter { $0 > 0 && $0 < text.count } + [text.count]) where end > start {
            var chunk = Array(text[start..<end])
            let runs = StrippedRuns(chunkSize: max(chunk.count, 1))
            let n = chunk.withUnsafeMutableBufferPointer { stripper.strip($0.baseAddress!, count: $0.count, runs: runs) }
            let pairs = (0..<runs.count).map { (Int(runs.positions[$0]), Int(runs.removedThrough[$0])) }
            XCTAssertEqual(runs.positions[runs.count], Int32.max, "the sentinel")
            out.append((start, Array(chunk[0..<n]), pairs, runs))
            start = end
        }
        return out
    }

    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testTheIndentationAfterEachLineFeedGoesAndNothingElse() {
        // {⏎··"a": 1,⏎⇥"b": [⏎····2⏎··]⏎}   (31 bytes; ⏎ line feed, · space, ⇥ tab)
        // file offsets: `{`0 ⏎1, ··2-3 (run of 2), `"a": 1,`4-10 ⏎11, ⇥12 (run of 1),
        // `"b": [`13-18 ⏎19, ····20-23 (run of 4), `2`24 ⏎25, ··26-27 (run of 2), `]`28 ⏎29 `}`30.
        // Left: {⏎"a": 1,⏎"b": [⏎2⏎]⏎}   31 - (2 + 1 + 4 + 2) = 22 bytes. The space after each
        // colon stays: it follows no line feed.
        let text = bytes("{\n  \"a\": 1,\n\t\"b\": [\n    2\n  ]\n}")
        XCTAssertEqual(text.count, 31)
        let chunks = strip(text)
        XCTAssertEqual(chunks.count, 1)
        XCTAssertEqual(String(decoding: chunks[0].bytes, as: UTF8.self), "{\n\"a\": 1,\n\"b\": [\n2\n]\n}")
        // Each run sits where its bytes were taken out, in the stripped bytes: after `{⏎` (2),
        // after `"a": 1,⏎` (2 + 8 = 10), after `"b": [⏎` (10 + 7 = 17), after `2⏎` (19); the
        // bytes taken out so far: 2, 3, 7, 9.
        XCTAssertEqual(chunks[0].runs.map { $0.0 }, [2, 10, 17, 19])
        XCTAssertEqual(chunks[0].runs.map { $0.1 }, [2, 3, 7, 9])
        // Offsets just past a byte: stripped 2 is just past `⏎` (file 1), so file 2, before the
        // run; stripped 3 is just past `"` (file 4): 3 + 2 = 5; stripped 11 is just past the
        // `"` of "b" (file 13): 11 + 3 = 14; stripped 22, the end: 22 + 9 = 31.
        let map = chunks[0].map
        XCTAssertEqual(map.removed(before: 0), 0)
        XCTAssertEqual(map.removed(before: 2), 0)
        XCTAssertEqual(map.removed(before: 3), 2)
        XCTAssertEqual(map.removed(before: 10), 2)
        XCTAssertEqual(map.removed(before: 11), 3)
        XCTAssertEqual(map.removed(before: 18), 7)
        XCTAssertEqual(map.removed(before: 20), 9)
        XCTAssertEqual(map.removed(before: 22), 9)
    }

    func testStringsAndSpacesWithinALineStayAsTheyAre() {
        // A string holding spaces and an escaped line feed and tab (`\n`, `\t`: two bytes each),
        // then spaces between tokens: no byte of the line follows a raw line feed, so nothing
        // goes. Then a carriage return and a line feed: both stay, the two spaces after go.
        let line = "[\"a  b\\n  c\\t d\",  1 ]\r\n  2"
        let chunks = strip(bytes(line))
        XCTAssertEqual(String(decoding: chunks[0].bytes, as: UTF8.self), "[\"a  b\\n  c\\t d\",  1 ]\r\n2")
        // `["a  b\n  c\t d",  1 ]` is 22 bytes ([ " a · · b \ n · · c \ t · d " , · · 1 · ]),
        // `\r⏎` 2 more: the run is at 24.
        XCTAssertEqual(chunks[0].runs.map { $0.0 }, [24])
        XCTAssertEqual(chunks[0].runs.map { $0.1 }, [2])
    }

    func testIndentationCutByAChunksEndGoesOnInTheNext() {
        // `[⏎······1]`: 10 bytes, the run of 6 spaces at file 2-7. Cut after file 4: the first
        // chunk `[⏎··` keeps `[⏎` (a run of 2 at 2); the second `····1]` keeps `1]` (a run of 4
        // at 0: its bytes lie before the chunk's first kept byte).
        let text = bytes("[\n      1]")
        let chunks = strip(text, cuts: [4])
        XCTAssertEqual(chunks.map { String(decoding: $0.bytes, as: UTF8.self) }, ["[\n", "1]"])
        XCTAssertEqual(chunks[0].runs.map { $0.0 }, [2])
        XCTAssertEqual(chunks[0].runs.map { $0.1 }, [2])
        XCTAssertEqual(chunks[1].runs.map { $0.0 }, [0])
        XCTAssertEqual(chunks[1].runs.map { $0.1 }, [4])
        // yajl reports the `1` at stripped 1 of the second chunk (just past it): 4 + 1 + 4 = 9,
        // the file's offset just past the `1` (file 8).
        XCTAssertEqual(chunks[1].base + 1 + chunks[1].map.removed(before: 1), 9)
    }

    func testAChunkOfIndentationOnlyLeavesNothing() {
        // `1⏎` | `····` | `··2`: the middle chunk is all indentation (a run of 4 at 0, nothing
        // left); the last loses its 2 leading spaces.
        let chunks = strip(bytes("1\n      2"), cuts: [2, 6])
        XCTAssertEqual(chunks.map { $0.bytes.count }, [2, 0, 1])
        XCTAssertEqual(chunks[1].runs.map { $0.0 }, [0])
        XCTAssertEqual(chunks[1].runs.map { $0.1 }, [4])
        XCTAssertEqual(chunks[2].runs.map { $0.1 }, [2])
    }

    func testALineFeedAtEveryPlaceOfTheWordsCopied() {
        // Once 8 bytes or more are out, lines are copied eight bytes at a time: a line feed at
        // each place of a word must end the line there. `indentation` spaces first (the run that
        // makes the word copy safe), then lines of 1 to 20 letters, each indented by `step`
        // spaces: each line keeps its letters and line feed. 16 and 3: more and more bytes out;
        // 10 and 0: no line adds to the 10 bytes out.
        for (indentation, step) in [(16, 3), (10, 0)] {
            var text = "{\n" + String(repeating: " ", count: indentation)
            var expected = "{\n"
            for length in 1...20 {
                let letters = String(repeating: "x", count: length)
                text += letters + "\n" + String(repeating: " ", count: step)
                expected += letters + "\n"
            }
            text += "}"
            expected += "}"
            let chunks = strip(bytes(text))
            XCTAssertEqual(String(decoding: chunks[0].bytes, as: UTF8.self), expected, "\(indentation), \(step)")
            // 16 + 20 × 3 = 76 bytes out in 21 runs; 10 in one run.
            XCTAssertEqual(chunks[0].runs.count, step == 0 ? 1 : 21)
            XCTAssertEqual(chunks[0].runs.last?.1, indentation + 20 * step)
        }
    }

    /// Random texts of spaces, tabs, line feeds, carriage returns, quotes and letters, cut at
    /// random places, against the rule as a byte-at-a-time loop: the bytes left, and for each
    /// byte left the file offset the runs give back (one past it, as yajl reports, minus one).
    func testRandomTextsInRandomChunksAgreeWithTheRule() {
        var random = SeededRandom(defaultSeed: 24_1127)
        let alphabet = bytes("       \t\n\n\r\"ab{")
        for round in 0..<400 {
            let length = Int.random(in: 0...300, using: &random)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
            // The rule: a space or tab goes when everything since the last line feed went.
            var kept: [UInt8] = []
            var origin: [Int] = []
            var afterLineFeed = false
            for (i, b) in text.enumerated() {
                if afterLineFeed && (b == 0x20 || b == 0x09) { continue }
                kept.append(b)
                origin.append(i)
                afterLineFeed = b == 0x0A
            }
            let cuts = (0..<Int.random(in: 0...4, using: &random)).map { _ in Int.random(in: 0...max(length, 1), using: &random) }.sorted()
            let chunks = strip(text, cuts: cuts)
            XCTAssertEqual(chunks.flatMap { $0.bytes }, kept, "seed \(random.seed), round \(round), cuts \(cuts)")
            var q = 0
            for c in chunks {
                for local in 0..<c.bytes.count {
                    let file = c.base + (local + 1) + c.map.removed(before: local + 1) - 1
                    XCTAssertEqual(file, origin[q], "seed \(random.seed), round \(round), cuts \(cuts), byte \(q)")
                    q += 1
                }
            }
        }
    }
}
