import XCTest

@testable import ExportParser

/// `RecordStartTag.readInApplesOrder`, the walk's straight path for the layout Apple writes: it
/// must take every tag written so, give exactly what the any-order walk gives for it (values,
/// the memo's type entry, the device's answers), and leave every other layout to that walk.
/// Tags are written by hand, then every `Record` of the checked-in sample and of the public
/// samples is read both ways.
final class RecordStartTagLayoutTests: XCTestCase {
    /// What a walk gives, comparable: the seven values as strings (absent: "-"), the type's memo
    /// entry and the device's answers; nil when the walk refuses the tag.
    private struct Reading: Equatable {
        var fields: [String]
        var typeEntry: Int
        var deviceIs: [Bool]?
    }

    private enum Path { case applesOrder, anyOrder, both }

    private func read(_ tag: [UInt8], _ path: Path, memo: inout RecordStartTag.Memo) -> Reading? {
        tag.withUnsafeBufferPointer { b in
            var r = RecordStartTag()
            let ok: Bool
            switch path {
            case .applesOrder: ok = r.readInApplesOrder(b.baseAddress!, b.count, memo: &memo)
            case .anyOrder: ok = r.readAnyOrder(b.baseAddress!, b.count, memo: &memo)
            case .both: ok = r.read(b.baseAddress!, b.count, memo: &memo)
            }
            guard ok else { return nil }
            let texts = [r.type, r.sourceName, r.device, r.unit, r.value, r.startDate, r.endDate]
            return Reading(
                fields: texts.map { t in
                    t.map { String(decoding: UnsafeBufferPointer(start: $0.at, count: $0.count), as: UTF8.self) } ?? "-"
                },
                typeEntry: r.typeEntry, deviceIs: r.deviceIs.map { [$0.watch, $0.reference] })
        }
    }

    private func read(_ tag: String, _ path: Path) -> Reading? {
        var memo = RecordStartTag.Memo()
        return read(Array(tag.utf8), path, memo: &memo)
    }

    private let device =
        "&lt;&lt;HKDevice: 0x281a42883&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3.1&gt;"

    /// Apple's record, its optional attributes left out as `omit` says; the caller's count stops
    /// before `>`, so a self-closing tag ends with `/`.
    private func apples(omit: Set<String> = [], selfClosing: Bool = true) -> String {
        let attributes: [(String, String)] = [
            ("type", "HKQuantityTypeIdentifierStepCount"), ("sourceName", "Anna’s Apple Watch"), ("sourceVersion", "10.3.1"),
            ("device", device), ("unit", "count"), ("creationDate", "2011-01-01 08:11:53 +0100"),
            ("startDate", "2011-01-01 07:54:00 +0100"), ("endDate", "2011-01-01 08:00:00 +0100"), ("value", "851"),
        ]
        let body = attributes.filter { !omit.contains($0.0) }.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: " ")
        return "<Record " + body + (selfClosing ? "/" : "")
    }

    func testApplesLayoutTakesTheStraightPath() throws {
        // The nine attributes: the values between the quotes, read off the tag.
        let whole = try XCTUnwrap(read(apples(), .applesOrder))
        XCTAssertEqual(
            whole.fields,
            [
                "HKQuantityTypeIdentifierStepCount", "Anna’s Apple Watch", device, "count", "851", "2011-01-01 07:54:00 +0100",
                "2011-01-01 08:00:00 +0100",
            ])
        // A fresh memo: the type is its first entry (0); the device's rest holds `model:Watch,`
        // and no `&#`.
        XCTAssertEqual(whole.typeEntry, 0)
        XCTAssertEqual(whole.deviceIs, [true, false])
        // Every optional attribute left out, alone and all at once (a sleep sample has no unit,
        // an app's sample no device, …), and the tag of an element with children: each taken,
        // as the any-order walk reads it.
        let optional: [Set<String>] = [
            [], ["sourceVersion"], ["device"], ["unit"], ["creationDate"], ["value"],
            ["sourceVersion", "device", "unit", "creationDate", "value"],
        ]
        for omit in optional {
            for selfClosing in [true, false] {
                let tag = apples(omit: omit, selfClosing: selfClosing)
                let straight = read(tag, .applesOrder)
                XCTAssertNotNil(straight, tag)
                XCTAssertEqual(straight, read(tag, .anyOrder), tag)
            }
        }
        // Without a device and a unit the values are "-" there.
        XCTAssertEqual(read(apples(omit: ["device", "unit"]), .applesOrder)?.fields[2...3], ["-", "-"])
    }

    func testOtherLayoutsAreLeftToTheAnyOrderWalk() {
        let base = apples()
        let others: [String] = [
            // Two spaces, a tab, a line feed between two attributes.
            base.replacingOccurrences(of: "\" sourceName", with: "\"  sourceName"),
            base.replacingOccurrences(of: "\" unit", with: "\"\tunit"),
            base.replacingOccurrences(of: "\" value", with: "\"\nvalue"),
            // A space before the `/`; an attribute after `value`; `unit` before `device`.
            String(base.dropLast()) + " /",
            String(base.dropLast()) + " foo=\"1\"/",
            apples(omit: ["unit"]).replacingOccurrences(of: "sourceVersion=", with: "unit=\"count\" sourceVersion="),
            // `type` given again after `value` (the any-order walk refuses it too).
            String(base.dropLast()) + " type=\"X\"/",
            // No `sourceName`; no `endDate`; no `startDate`; `type` not first.
            apples(omit: ["sourceName"]), apples(omit: ["endDate"]), apples(omit: ["startDate"]),
            "<Record sourceName=\"S\" type=\"T\" startDate=\"2011-01-01 07:54:00 +0100\" endDate=\"2011-01-01 08:00:00 +0100\"/",
            // A `/` that is not the last byte; a raw `>` ended the tag inside `value` (no quote).
            base + " x",
            String(base.dropLast(3)),
        ]
        for tag in others {
            XCTAssertNil(read(tag, .applesOrder), tag)
            // `read` is then the any-order walk's answer, a reading or a refusal.
            XCTAssertEqual(read(tag, .both), read(tag, .anyOrder), tag)
        }
        // The first six are read by the any-order walk (the others it refuses as well, or reads
        // without the attribute left out).
        for tag in others.prefix(6) { XCTAssertNotNil(read(tag, .anyOrder), tag) }
        XCTAssertNil(read(others[6], .anyOrder))
    }

    /// Every `Record` start tag in `path`'s first `limit` bytes, as `ExportWindow.keep` gives the
    /// walk one: from `<` to before the first `>`.
    private func recordTags(_ path: String, limit: Int = 8 << 20) throws -> [[UInt8]] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw XCTSkip("\(path) is absent") }
        defer { try? handle.close() }
        let bytes = [UInt8](handle.readData(ofLength: limit))
        var tags: [[UInt8]] = []
        let open = Array("<Record ".utf8)
        var i = 0
        while i + open.count < bytes.count {
            guard bytes[i] == UInt8(ascii: "<"), bytes[i..<(i + open.count)].elementsEqual(open) else {
                i += 1
                continue
            }
            guard let gt = bytes[i...].firstIndex(of: UInt8(ascii: ">")) else { break }
            tags.append(Array(bytes[i..<gt]))
            i = gt
        }
        return tags
    }

    /// Both walks over the same tags, each with its memo as a worker keeps it from tag to tag:
    /// where the straight path takes a tag, the same reading; where not, `read`'s is the
    /// any-order walk's. The count it took.
    private func compareWalks(_ tags: [[UInt8]], file: String) -> Int {
        var straightMemo = RecordStartTag.Memo(), anyMemo = RecordStartTag.Memo(), bothMemo = RecordStartTag.Memo()
        var taken = 0
        for tag in tags {
            let any = read(tag, .anyOrder, memo: &anyMemo)
            if let straight = read(tag, .applesOrder, memo: &straightMemo) {
                taken += 1
                XCTAssertEqual(straight, any, "\(file): \(String(decoding: tag, as: UTF8.self))")
            }
            XCTAssertEqual(read(tag, .both, memo: &bothMemo), any, "\(file): \(String(decoding: tag, as: UTF8.self))")
        }
        return taken
    }

    func testTheCheckedInSampleReadsAlikeBothWays() throws {
        let tags = try recordTags(TestPaths.samples.appendingPathComponent("export.xml").path)
        // samples/export.xml: 149 records, every one written in Apple's layout.
        XCTAssertEqual(tags.count, 149)
        XCTAssertEqual(compareWalks(tags, file: "samples/export.xml"), 149)
    }

    func testThePublicSamplesReadAlikeBothWays() throws {
        let dir = TestPaths.publicSamples.appendingPathComponent("export")
        guard let names = try? FileManager.default.subpathsOfDirectory(atPath: dir.path) else {
            throw XCTSkip("the public samples (../shared/samples-public) are absent")
        }
        var files = 0
        for name in names.sorted() where name.hasSuffix(".xml") {
            let tags = try recordTags(dir.appendingPathComponent(name).path)
            guard !tags.isEmpty else { continue }
            files += 1
            _ = compareWalks(tags, file: name)
        }
        if files == 0 { throw XCTSkip("no public export.xml holds a Record") }
    }
}
