import XCTest

@testable import ExportParser

/// The window read's recogniser (docs/hae.md, "The window read") takes only a subset of JSON that
/// yajl reads as one array element: anything else is refused and left to yajl.
final class HAEDatumRecogniserTests: XCTestCase {
    private let quantity =
        #"{"startDate": "2026-03-01 10:00:00 +0100", "endDate": "2026-03-01 10:05:00 +0100", "qty": 12.5, "source": "Anna’s Watch"}"#

    /// The datum of `text` (a unit when it starts with a comma), or nil.
    private func recognise(_ text: String) -> HAEDatumRecogniser.Datum? {
        // A byte after the text: a unit never reaches the buffer's end.
        let bytes = Array(text.utf8) + [0x0A]
        return bytes.withUnsafeBufferPointer { b in
            let p = b.baseAddress!
            let r =
                text.first(where: { !$0.isWhitespace }) == ","
                ? HAEDatumRecogniser.unit(p, from: 0, to: b.count) : HAEDatumRecogniser.object(p, from: 0, to: b.count)
            guard let (d, end) = r else { return nil }
            return end == b.count - 1 ? d : nil
        }
    }

    func testAQuantityDatumAndItsFields() throws {
        let d = try XCTUnwrap(recognise(quantity))
        // 2026-03-01 10:00 +0100 = 09:00 UTC: 20,513 days × 86,400 + 32,400 = 1,772,355,600.
        XCTAssertEqual(d.start, Timestamp(seconds: 1_772_355_600, offset: 3600))
        XCTAssertEqual(d.end, Timestamp(seconds: 1_772_355_900, offset: 3600))
        XCTAssertEqual(d.value, 12.5)
        XCTAssertFalse(d.isBucket)
        XCTAssertFalse(d.isDated)
        XCTAssertEqual(d.lastKey, .source)
        // The source's bytes: "Anna’s Watch" is 14 bytes (’ is three).
        XCTAssertEqual(d.source.count, 14)
    }

    func testAHeartRateBucketInAnyOrderAndADatedBucket() throws {
        let hr = try XCTUnwrap(recognise(#"{"source": "W", "Max": 70, "date": "2026-03-01 08:00:00 +0100", "Avg": 60, "Min": 50}"#))
        XCTAssertTrue(hr.isBucket)
        XCTAssertEqual([hr.minimum, hr.value, hr.maximum], [50, 60, 70])
        XCTAssertEqual(hr.start, hr.end)
        XCTAssertEqual(hr.lastKey, .min)
        let dated = try XCTUnwrap(recognise(#"{"date": "2026-03-01 00:00:00 +0100", "qty": 7369, "source": "W|P"}"#))
        XCTAssertTrue(dated.isDated)
        XCTAssertFalse(dated.isBucket)
    }

    func testAUnitIsACommaThenADatumWithJSONWhiteSpaceAround() {
        XCTAssertNotNil(recognise(",\n" + quantity))
        XCTAssertNotNil(recognise(" \t\r\n,\r\n\t " + quantity))
        XCTAssertNil(recognise(";" + quantity))
        XCTAssertNil(recognise(",," + quantity))
    }

    /// Strings: no escape, no control byte, well-formed UTF-8 only.
    func testStringsWithAnEscapeAControlByteOrBadUTF8AreRefused() {
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: "Anna’s", with: #"Anna\u2019s"#)))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: "Anna’s", with: #"Anna\"s"#)))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: "Anna’s", with: "Anna\ts")))
        for bad: [UInt8] in [[0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80]] {
            let text = Array(#"{"date": "2026-03-01 00:00:00 +0100", "qty": 1, "source": "a"#.utf8) + bad + Array(#""}"#.utf8) + [0x0A]
            let got = text.withUnsafeBufferPointer { HAEDatumRecogniser.object($0.baseAddress!, from: 0, to: $0.count) }
            XCTAssertNil(got, "\(bad)")
        }
        // The same past the first sixteen plain bytes (read eight at a time).
        for bad in [#"\n"#, "\u{1}", "\u{7F}x\\"] {
            XCTAssertNil(recognise(quantity.replacingOccurrences(of: "Anna’s Watch", with: "Sixteen plain by" + bad)), bad)
        }
        XCTAssertNotNil(recognise(quantity.replacingOccurrences(of: "Anna’s Watch", with: "Sixteen plain by\u{7F}")))
        // Four-byte UTF-8 (an emoji) is taken.
        XCTAssertNotNil(recognise(quantity.replacingOccurrences(of: "Anna’s", with: "Anna 🏃")))
    }

    /// Numbers: JSON's grammar exactly.
    func testNumbersFollowJSONsGrammar() {
        for good in ["0", "-0", "12", "12.5", "0.5", "1e3", "1E+3", "2.5e-3", "-7"] {
            XCTAssertNotNil(recognise(quantity.replacingOccurrences(of: "12.5", with: good)), good)
        }
        for bad in ["01", "1.", ".5", "-", "+1", "1e", "1e+", "0x1", "NaN", "1.5.2", "\"12\"", "null", "[1]"] {
            XCTAssertNil(recognise(quantity.replacingOccurrences(of: "12.5", with: bad)), bad)
        }
    }

    /// Exactly one of the three key sets, each key once, spelled as HAE writes it.
    func testOtherKeysAKeyTwiceOrAMissingKeyAreRefused() {
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: #""qty": 12.5"#, with: #""qty": 12.5, "qty": 3"#)))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: #""qty": 12.5"#, with: #""qty": 12.5, "value": "Core""#)))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: #", "qty": 12.5"#, with: "")))
        XCTAssertNil(recognise(#"{"date": "2026-03-01 08:00:00 +0100", "min": 50, "avg": 60, "max": 70, "source": "W"}"#))
        XCTAssertNil(recognise(#"{"date": "2026-03-01 08:00:00 +0100", "Min": 50, "Avg": 60, "Max": 70}"#))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: #""qty": 12.5"#, with: #""qty": {"v": 1}"#)))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: "}", with: ",}")))
        // Keys longer or shorter than ours, or one of ours spelled with an escape (yajl's "qty").
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: #""qty""#, with: #""qty2""#)))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: #""source""#, with: #""sourc""#)))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: #""qty""#, with: #""q\u0074y""#)))
        XCTAssertNil(recognise(quantity.replacingOccurrences(of: "2026-03-01 10:00:00 +0100", with: "2026-03-01")))
        XCTAssertNil(recognise(String(quantity.dropLast())))
    }

    /// The memo (`HAEDatumRecogniser.Memo`) gives what the full path gives: a date sharing the
    /// last one's day and offset costs its time only, a source equal to the last one's is
    /// compared, and anything else, or a time out of range, goes the full way (and is refused
    /// as it was). Each datum is read with the memo the datums before left, and without one.
    func testTheMemoGivesTheFullPathsAnswers() {
        let datums = [
            quantity,
            // The same day and offset, another time: 10:20 +0100 = 09:20 UTC.
            quantity.replacingOccurrences(of: "10:00:00", with: "10:20:00"),
            // Another offset on the same day: 10:00 +0200 = 08:00 UTC.
            quantity.replacingOccurrences(of: "10:00:00 +0100", with: "10:00:00 +0200"),
            // A source longer than the last, starting with it; then one shorter.
            quantity.replacingOccurrences(of: "Anna’s Watch", with: "Anna’s Watch 2"),
            quantity.replacingOccurrences(of: "Anna’s Watch", with: "Anna’s"),
            // The remembered day with a time out of range, a letter or no colon: refused.
            quantity.replacingOccurrences(of: "10:00:00", with: "24:00:00"),
            quantity.replacingOccurrences(of: "10:00:00", with: "10:6a:00"),
            quantity.replacingOccurrences(of: "10:00:00", with: "10-00:00"),
            // The remembered source with an escape or a control byte after it: refused.
            quantity.replacingOccurrences(of: "Anna’s Watch", with: #"Anna’s Watch\""#),
            quantity.replacingOccurrences(of: "Anna’s Watch", with: "Anna’s Watch\u{1}"),
            // A leap second, as the parser takes it; a 12-hour date (not the 25-byte layout).
            quantity.replacingOccurrences(of: "10:00:00", with: "10:59:60"),
            quantity.replacingOccurrences(of: "2026-03-01 10:00:00 +0100", with: "2026-03-01 10:00:00 AM +0100"),
        ]
        var memo = HAEDatumRecogniser.Memo()
        var answers: [HAEDatumRecogniser.Datum?] = []
        for text in datums {
            let bytes = Array(text.utf8) + [0x0A]
            let remembered = bytes.withUnsafeBufferPointer {
                HAEDatumRecogniser.object($0.baseAddress!, from: 0, to: $0.count, memo: &memo)
            }
            let fresh = recognise(text)
            XCTAssertEqual(remembered?.0.start, fresh?.start, text)
            XCTAssertEqual(remembered?.0.end, fresh?.end, text)
            XCTAssertEqual(remembered?.0.source, fresh?.source, text)
            XCTAssertEqual(remembered?.1, fresh == nil ? nil : bytes.count - 1, text)
            answers.append(fresh)
        }
        // 2026-03-01 is day 20,513: midnight UTC 1,772,323,200; 09:20 UTC is 33,600 s later.
        XCTAssertEqual(answers[1]?.start, Timestamp(seconds: 1_772_356_800, offset: 3600))
        XCTAssertEqual(answers[2]?.start, Timestamp(seconds: 1_772_352_000, offset: 7200))
        // "Anna’s Watch 2" is 16 bytes, "Anna’s" 8.
        XCTAssertEqual(answers[3]?.source.count, 16)
        XCTAssertEqual(answers[4]?.source.count, 8)
        XCTAssertEqual(answers[5...9].map { $0 == nil }, [true, true, true, true, true])
        // 10:59:60 +0100 = 10:00:00 UTC: 36,000 s after midnight UTC.
        XCTAssertEqual(answers[10]?.start, Timestamp(seconds: 1_772_359_200, offset: 3600))
        XCTAssertEqual(answers[11]?.start, Timestamp(seconds: 1_772_355_600, offset: 3600))
    }

    /// White space as Health Auto Export indents: runs of spaces longer than eight, tabs and
    /// carriage returns between them, and a unit cut inside its indentation (not taken).
    func testIndentationOfAnyLengthIsWhiteSpace() {
        let twelve = String(repeating: " ", count: 12), ten = String(repeating: " ", count: 10)
        let indented = quantity.replacingOccurrences(of: ", ", with: ",\n" + twelve)
            .replacingOccurrences(of: "{", with: "{\n" + twelve)
            .replacingOccurrences(of: "}", with: "\n" + ten + "}")
        XCTAssertNotNil(recognise(",\n" + ten + indented))
        XCTAssertNotNil(recognise(",\r\n \t         \t  " + quantity))
        // A form feed in the indentation is no JSON white space (yajl takes it: left to yajl).
        XCTAssertNil(recognise(",\n         \u{0C} " + quantity))
        let text = Array((",\n" + String(repeating: " ", count: 21)).utf8)
        let cut = text.withUnsafeBufferPointer { HAEDatumRecogniser.unit($0.baseAddress!, from: 0, to: $0.count) }
        XCTAssertNil(cut)
        XCTAssertEqual(text.withUnsafeBufferPointer { HAEDatumRecogniser.skipSpace($0.baseAddress!, 1, $0.count) }, text.count)
    }
}
