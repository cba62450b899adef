import XCTest

@testable import ExportParser

/// `RecordStartTag`: the one walk of a `Record`'s start tag that gives compare's census and the
/// window test their attributes. Each tag is written by hand; the caller's count stops before the
/// tag's `>`, as `ExportWindow.keep` measures it. Expected values are the bytes between the
/// quotes, read off the tag.
final class RecordStartTagTests: XCTestCase {
    /// The walk's attributes as strings (absent: nil), or nil when the walk gives up; `memo`
    /// as a worker keeps it from one tag to the next (a fresh one by default).
    private func walk(_ tag: String) -> [String: String]? {
        var memo = RecordStartTag.Memo()
        return walk(tag, memo: &memo)?.fields
    }

    private func walk(_ tag: String, memo: inout RecordStartTag.Memo) -> (
        fields: [String: String], typeEntry: Int, deviceIs: (watch: Bool, reference: Bool)?
    )? {
        let bytes = Array(tag.utf8)
        return bytes.withUnsafeBufferPointer { b in
            guard let r = RecordStartTag(b.baseAddress!, b.count, memo: &memo) else { return nil }
            var out: [String: String] = [:]
            let fields: [(String, RecordStartTag.Text?)] = [
                ("type", r.type), ("sourceName", r.sourceName), ("device", r.device), ("unit", r.unit), ("value", r.value),
                ("startDate", r.startDate), ("endDate", r.endDate),
            ]
            for (name, text) in fields {
                if let t = text { out[name] = String(decoding: UnsafeBufferPointer(start: t.at, count: t.count), as: UTF8.self) }
            }
            return (out, r.typeEntry, r.deviceIs)
        }
    }

    private let device =
        "&lt;&lt;HKDevice: 0x281a42883&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3.1&gt;"

    func testApplesOrder() {
        // Apple's nine attributes, one space apart; `sourceVersion` and `creationDate` are walked
        // over and not given.
        let tag =
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Anna’s Apple Watch\" sourceVersion=\"10.3.1\" "
            + "device=\"\(device)\" unit=\"count\" creationDate=\"2011-01-01 08:11:53 +0100\" "
            + "startDate=\"2011-01-01 07:54:00 +0100\" endDate=\"2011-01-01 08:00:00 +0100\" value=\"851\"/"
        XCTAssertEqual(
            walk(tag),
            [
                "type": "HKQuantityTypeIdentifierStepCount", "sourceName": "Anna’s Apple Watch", "device": device, "unit": "count",
                "value": "851", "startDate": "2011-01-01 07:54:00 +0100", "endDate": "2011-01-01 08:00:00 +0100",
            ])
        // The same tag opening an element with children (no `/` before `>`).
        XCTAssertEqual(walk(String(tag.dropLast()))?["value"], "851")
    }

    func testAnotherOrderAndOtherWhiteSpace() {
        // Two spaces, a tab, a line feed and a CR-LF between attributes, a space before `/`; no
        // device, no sourceName.
        let tag =
            "<Record  value=\"2.5\"\tendDate=\"2024-03-31 03:00:00 +0200\"\nunit=\"km\"\r\nstartDate=\"2024-03-31 01:59:59 +0100\" "
            + "type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" /"
        XCTAssertEqual(
            walk(tag),
            [
                "value": "2.5", "endDate": "2024-03-31 03:00:00 +0200", "unit": "km", "startDate": "2024-03-31 01:59:59 +0100",
                "type": "HKQuantityTypeIdentifierDistanceWalkingRunning",
            ])
    }

    func testValuesHoldingEqualsAndCharacterReferences() {
        // `=` inside a value is the value's; a character reference is left as written (the
        // census decides on it: `model&#58;Watch,` is a watch to the reader).
        let tag = "<Record sourceName=\"a=b\" device=\"&lt;&lt;HKDevice: 0x1&gt;, model&#58;Watch, &gt;\" type=\"T\"/"
        XCTAssertEqual(walk(tag), ["sourceName": "a=b", "device": "&lt;&lt;HKDevice: 0x1&gt;, model&#58;Watch, &gt;", "type": "T"])
    }

    func testADateNotTwentyFiveBytes() {
        // 20 bytes (`Z` for the offset): found by its quote.
        XCTAssertEqual(walk("<Record startDate=\"2011-01-01 07:54:00Z\" type=\"T\"/")?["startDate"], "2011-01-01 07:54:00Z")
        // `startDate="x" a="1234567890123456789"`: from the value's first byte `x` (0), the quote
        // at 1, ` a=` 2–4, `"` 5, nineteen digits 6–24, the quote at 25 where a date's must be.
        // The value is `x`, and `a` another attribute.
        XCTAssertEqual(walk("<Record startDate=\"x\" a=\"1234567890123456789\" type=\"T\"/"), ["startDate": "x", "type": "T"])
        // 26 bytes: the byte at 25 is `0`, not the quote; found by its quote at 26.
        XCTAssertEqual(walk("<Record endDate=\"2011-01-01 07:54:00 +01000\"/")?["endDate"], "2011-01-01 07:54:00 +01000")
        // 24 bytes and the quote, then the tag's end: no byte at 25 to test.
        XCTAssertEqual(walk("<Record endDate=\"2011-01-01 07:54:00 +010\"")?["endDate"], "2011-01-01 07:54:00 +010")
    }

    func testOtherLayoutsGiveUp() {
        // A raw `>` in a value ends the tag there (`keep` stops at the first `>`): no closing quote.
        XCTAssertNil(walk("<Record type=\"T\" sourceName=\"a"))
        // A date's value without its closing quote at the tag's end.
        XCTAssertNil(walk("<Record type=\"T\" startDate=\"2011-01-01 07:54:00 +0100"))
        // Single quotes; white space around `=`; no space between two attributes.
        XCTAssertNil(walk("<Record type='T'/"))
        XCTAssertNil(walk("<Record type = \"T\"/"))
        XCTAssertNil(walk("<Record type=\"T\"unit=\"count\"/"))
        // An attribute this walk reads given twice (libxml2's fatal error, left to it).
        XCTAssertNil(walk("<Record type=\"A\" unit=\"count\" type=\"B\"/"))
        XCTAssertNil(walk("<Record startDate=\"2011-01-01 07:54:00 +0100\" startDate=\"2011-01-01 07:54:00 +0100\"/"))
        // A name holding a space (`a b`), and a `/` that is not the tag's last byte.
        XCTAssertNil(walk("<Record a b=\"1\" type=\"T\"/"))
        XCTAssertNil(walk("<Record type=\"T\"/ unit=\"count\"/"))
        // Names that only start or end like one read: other attributes, not given.
        XCTAssertEqual(walk("<Record types=\"A\" xtype=\"B\" startDates=\"C\" sourceNamE=\"D\" creationDat=\"E\"/"), [:])
    }

    private func record(type: String, device: String) -> String {
        "<Record type=\"\(type)\" sourceName=\"S\" device=\"\(device)\" unit=\"count\" value=\"1\"/"
    }

    func testATypeAndADeviceFoundAgain() {
        var memo = RecordStartTag.Memo()
        let watch = "&lt;&lt;HKDevice: 0x281a42883&gt;, name:Apple Watch, model:Watch, hardware:Watch6,2&gt;"
        let phone = "&lt;&lt;HKDevice: 0x2866447c9&gt;, name:iPhone, model:iPhone, hardware:iPhone12,1&gt;"
        // First met: searched, kept as the memo's first type entry (0) and device entry; the
        // device's watch test made on its rest `&gt;, name:Apple Watch, model:Watch, …`.
        let first = walk(record(type: "HKQuantityTypeIdentifierStepCount", device: watch), memo: &memo)
        XCTAssertEqual(first?.typeEntry, 0)
        XCTAssertEqual(first?.deviceIs?.watch, true)
        XCTAssertEqual(first?.deviceIs?.reference, false)
        // Another address (eight digits where the first had nine), the same rest: found again,
        // the same entries, the value given whole.
        let again = walk(
            record(
                type: "HKQuantityTypeIdentifierStepCount",
                device: "&lt;&lt;HKDevice: 0x28d6e113&gt;, name:Apple Watch, model:Watch, hardware:Watch6,2&gt;"), memo: &memo)
        XCTAssertEqual(again?.typeEntry, 0)
        XCTAssertEqual(again?.deviceIs?.watch, true)
        XCTAssertEqual(again?.fields["device"], "&lt;&lt;HKDevice: 0x28d6e113&gt;, name:Apple Watch, model:Watch, hardware:Watch6,2&gt;")
        // A phone: a second device entry, not a watch; then the watch's entry found again.
        XCTAssertEqual(walk(record(type: "HKQuantityTypeIdentifierStepCount", device: phone), memo: &memo)?.deviceIs?.watch, false)
        XCTAssertEqual(walk(record(type: "HKQuantityTypeIdentifierStepCount", device: watch), memo: &memo)?.deviceIs?.watch, true)
        // A type whose bytes begin as a remembered one's (`HKQuantityTypeIdentifierStepCount` and
        // 3 more bytes): no quote after the remembered 33, so a new entry (1), its bytes whole.
        let longer = walk(record(type: "HKQuantityTypeIdentifierStepCountXYZ", device: phone), memo: &memo)
        XCTAssertEqual(longer?.typeEntry, 1)
        XCTAssertEqual(longer?.fields["type"], "HKQuantityTypeIdentifierStepCountXYZ")
        // A rest that begins as the watch's but goes on otherwise: not the watch's entry (its
        // quote is not where the remembered rest ends); searched, and it is no watch
        // (`model:Watch` without its comma).
        let other = walk(record(type: "T", device: "&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch hardware&gt;"), memo: &memo)
        XCTAssertEqual(other?.deviceIs?.watch, false)
        XCTAssertEqual(other?.fields["device"], "&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch hardware&gt;")
    }

    func testDevicesTheMemoLeavesToTheCensus() {
        var memo = RecordStartTag.Memo()
        // An `m` in the address (`0xm`): `model:Watch,` might start there, so no answer (nil);
        // the census tests the whole value.
        let m = walk(record(type: "T", device: "&lt;&lt;HKDevice: 0xmodel:Watch,&gt;"), memo: &memo)
        XCTAssertNil(m?.deviceIs)
        XCTAssertEqual(m?.fields["device"], "&lt;&lt;HKDevice: 0xmodel:Watch,&gt;")
        // A `#` in the address: no answer. No `&` in the 16 bytes after `0x`: no answer.
        XCTAssertNil(walk(record(type: "T", device: "&lt;&lt;HKDevice: 0x1#&gt;, x"), memo: &memo)?.deviceIs)
        XCTAssertNil(walk(record(type: "T", device: "&lt;&lt;HKDevice: 0x0123456789abcdef0&gt;"), memo: &memo)?.deviceIs)
        // A quote in the address ends the value there (`&lt;&lt;HKDevice: 0x12`); `3` follows
        // it with no space: the walk gives up.
        XCTAssertNil(walk("<Record device=\"&lt;&lt;HKDevice: 0x12\"3&gt;, model:Watch,&gt;\" type=\"T\"/", memo: &memo))
        // Another layout (no `HKDevice`): no answer.
        XCTAssertNil(walk(record(type: "T", device: "model:Watch, name:X"), memo: &memo)?.deviceIs)
        // A character reference in the rest: told (reference), and `model&#58;Watch,` is no watch
        // to the bytes (the census reads such a record).
        let ref = walk(record(type: "T", device: "&lt;&lt;HKDevice: 0xab&gt;, model&#58;Watch, &gt;"), memo: &memo)
        XCTAssertEqual(ref?.deviceIs?.watch, false)
        XCTAssertEqual(ref?.deviceIs?.reference, true)
    }
}
