import XCTest

@testable import ExportParser

/// `RecordStartTag.Template`: a tag that is the last walked tag's bytes up to its first date (the
/// device's address aside) is read from the template, and reads exactly what the walk reads of
/// it with the same memo (values, the type's memo entry, the device's answers); any other tag
/// is refused and walked. The samples' records are read both ways in `RecordStartTagLayoutTests`.
final class RecordStartTagTemplateTests: XCTestCase {
    private struct Reading: Equatable {
        var fields: [String]
        var typeEntry: Int
        var deviceIs: [Bool]?
    }

    private func reading(_ r: RecordStartTag) -> Reading {
        let texts = [r.type, r.sourceName, r.device, r.unit, r.value, r.startDate, r.endDate]
        return Reading(
            fields: texts.map { t in t.map { String(decoding: UnsafeBufferPointer(start: $0.at, count: $0.count), as: UTF8.self) } ?? "-" },
            typeEntry: r.typeEntry, deviceIs: r.deviceIs.map { [$0.watch, $0.reference] })
    }

    /// The walk's reading of `tag` (`readInApplesOrder`, else `readAnyOrder`), on `memo`.
    private func walk(_ tag: String, memo: inout RecordStartTag.Memo) -> Reading? {
        Array(tag.utf8).withUnsafeBufferPointer { b in
            var r = RecordStartTag()
            guard r.readInApplesOrder(b.baseAddress!, b.count, memo: &memo) || r.readAnyOrder(b.baseAddress!, b.count, memo: &memo)
            else { return nil }
            return reading(r)
        }
    }

    /// The template's reading of `tag`, nil when it refuses it.
    private func fromTemplate(_ tag: String, memo: inout RecordStartTag.Memo) -> Reading? {
        Array(tag.utf8).withUnsafeBufferPointer { b in
            var r = RecordStartTag()
            guard r.readLikeTemplate(b.baseAddress!, b.count, memo: &memo) else { return nil }
            return reading(r)
        }
    }

    /// An Apple record tag (the caller's count stops before `>`).
    private func tag(
        type: String = "HKQuantityTypeIdentifierHeartRate", source: String = "Anna’s Apple Watch", version: String? = "10.3.1",
        address: String? = "281a42883",
        rest: String = "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3.1",
        unit: String? = "count/min", creation: String? = "2011-12-29 20:08:36 +0200", start: String = "2011-12-29 19:57:09 +0200",
        end: String = "2011-12-29 19:57:09 +0200", value: String? = "170", close: String = "/"
    ) -> String {
        var parts = ["type=\"\(type)\"", "sourceName=\"\(source)\""]
        if let version { parts.append("sourceVersion=\"\(version)\"") }
        if let address { parts.append("device=\"&lt;&lt;HKDevice: 0x\(address)&gt;, \(rest)&gt;\"") }
        if let unit { parts.append("unit=\"\(unit)\"") }
        if let creation { parts.append("creationDate=\"\(creation)\"") }
        parts.append("startDate=\"\(start)\"")
        parts.append("endDate=\"\(end)\"")
        if let value { parts.append("value=\"\(value)\"") }
        return "<Record " + parts.joined(separator: " ") + close
    }

    func testATagLikeTheLastIsReadFromTheTemplate() throws {
        var memo = RecordStartTag.Memo()
        XCTAssertNotNil(walk(tag(), memo: &memo))
        // Another address (9 hex digits, then 2, then 12), other dates, another value, no value,
        // an element with children (no `/`): each the template's, read as the walk reads it.
        let next = [
            tag(
                address: "28d0172be", creation: "2011-12-29 20:00:02 +0200", start: "2011-12-29 19:58:10 +0200",
                end: "2011-12-29 19:58:10 +0200", value: "96"),
            tag(address: "1f"), tag(address: "123456789abc"), tag(value: nil), tag(close: ""),
        ]
        for t in next {
            var copy = memo
            let walked = try XCTUnwrap(walk(t, memo: &copy), t)
            let templated = try XCTUnwrap(fromTemplate(t, memo: &memo), t)
            XCTAssertEqual(templated, walked, t)
        }
        // The device with address 1f: its text runs from `&lt;` to the rest's last `&gt;`, its
        // count the template's less 7 (9 hex digits then 2).
        let short = try XCTUnwrap(fromTemplate(tag(address: "1f"), memo: &memo))
        XCTAssertEqual(
            short.fields[2],
            "&lt;&lt;HKDevice: 0x1f&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3.1&gt;")
        XCTAssertEqual(short.fields[3], "count/min")  // the unit after the address: moved by the 7
        XCTAssertEqual(short.deviceIs, [true, false])
        XCTAssertEqual(short.typeEntry, 0)  // a fresh memo's first type
    }

    func testATagThatDiffersBeforeItsDatesIsWalked() throws {
        let others = [
            tag(type: "HKQuantityTypeIdentifierStepCount"), tag(source: "Anna’s iPhone"), tag(version: "10.3.2"), tag(version: nil),
            tag(rest: "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch7,1, software:10.3.1"), tag(address: nil),
            tag(unit: "count/s"), tag(unit: nil), tag(creation: nil),
            // An address holding an `m` or a quote, or longer than its 16 bytes: not an address.
            tag(address: "28m0172be"), tag(address: "28\"0172be"), tag(address: "123456789abcdef01"),
        ]
        for t in others {
            var memo = RecordStartTag.Memo()
            XCTAssertNotNil(walk(tag(), memo: &memo))
            XCTAssertNil(fromTemplate(t, memo: &memo), t)
            // `read` walks it: the walk's reading, or its refusal.
            var copy = memo
            let walked = walk(t, memo: &copy)
            let read = Array(t.utf8).withUnsafeBufferPointer { b -> Reading? in
                var r = RecordStartTag()
                return r.read(b.baseAddress!, b.count, memo: &memo) ? reading(r) : nil
            }
            XCTAssertEqual(read, walked, t)
        }
    }

    func testTheDatesAndValueAreReadAsTheWalkReadsThem() throws {
        var memo = RecordStartTag.Memo()
        XCTAssertNotNil(walk(tag(), memo: &memo))
        // A date of 26 bytes (its end searched), a value before a raw `>` cut the tag (no quote:
        // refused by both), a space before `/` (refused by the straight walk; the template
        // refuses it too, the any-order walk reads it).
        let cases = [
            tag(start: "2011-12-29 19:57:09 +02:00"), String(tag(close: "").dropLast(2)), String(tag().dropLast()) + " /",
        ]
        for t in cases {
            var copy = memo
            let straight = Array(t.utf8).withUnsafeBufferPointer { b -> Reading? in
                var r = RecordStartTag()
                return r.readInApplesOrder(b.baseAddress!, b.count, memo: &copy) ? reading(r) : nil
            }
            XCTAssertEqual(fromTemplate(t, memo: &memo), straight, t)
        }
        XCTAssertEqual(fromTemplate(cases[0], memo: &memo)?.fields[5], "2011-12-29 19:57:09 +02:00")
    }

    func testEveryWalkForgetsTheTemplate() throws {
        var memo = RecordStartTag.Memo()
        XCTAssertNotNil(walk(tag(), memo: &memo))
        XCTAssertTrue(memo.template.valid)
        // A tag of another layout (two spaces) goes to the any-order walk, which may change the
        // memo: the template is forgotten, and the next tag like the first is walked again.
        let other = tag().replacingOccurrences(of: "\" sourceName", with: "\"  sourceName")
        XCTAssertNotNil(walk(other, memo: &memo))
        XCTAssertFalse(memo.template.valid)
        XCTAssertNil(fromTemplate(tag(address: "1f"), memo: &memo))
        // A straight walk that refuses its tag forgets it as well.
        XCTAssertNotNil(walk(tag(), memo: &memo))
        XCTAssertTrue(memo.template.valid)
        var r = RecordStartTag()
        let refused = Array(tag(close: "/ x").utf8).withUnsafeBufferPointer { r.readInApplesOrder($0.baseAddress!, $0.count, memo: &memo) }
        XCTAssertFalse(refused)
        XCTAssertFalse(memo.template.valid)
    }
}
