import Foundation

/// `compare`'s walked workouts (docs/export-xml.md, "The census"): a top-level `Workout` outside
/// the window is read from its bytes instead of by libxml2 when what a date outside the window
/// takes from it is certain from them: its type, source and dates (its start tag) and its own
/// `HKTimeZone` entry (a `MetadataEntry` right under it, the last one). Those give the day book
/// the workout's date and source (the report's dates and sources), its run (the running samples'
/// dates: `WindowCensus.runDates`), the timeline's entry, in file order, and the latest data.
/// Its figures, statistics, activities, events and routes are not walked: a date outside the
/// window is never compared (`CompareWindowSide`).
///
/// Workouts are the last 1 % of a real export's bytes and were read whole, every one holding an
/// `HKTimeZone` entry: libxml2 tokenised them and the one thread that plays the tapes handled
/// them, alone at the file's end (docs/performance.md).
///
/// What is not walked is read, as before: a tag or line not in Apple's layout (one element a
/// line, attributes `name="value"`), an attribute the walk reads given twice, a child element
/// other than the workout's own, an end tag that does not close the element it should, a text
/// the reader would decode otherwise (`plain`). A workout's identity (which copies of a sync
/// count once, `WorkoutIdentity`) needs its children: the day book tells when a walked workout's
/// start is another's (`DayBook.walkedWorkout`).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): as in `ExportWindow`, the
/// pointers are into the chunk a worker is scanning, read within the counts the caller measured.
extension ExportWindow {
    /// Whether the workout whose start tag is `tag` (`tagCount` bytes to its `>`), dated `start`
    /// to `end` by the scan, becomes a walked element (in `seen.walked`, at the kept bytes'
    /// count) instead of going to libxml2.
    func walkWorkout(
        _ tag: UnsafePointer<UInt8>, _ tagCount: Int, _ start: Timestamp, _ end: Timestamp, segment: (at: UnsafePointer<UInt8>, count: Int),
        seen: inout Seen
    ) -> Bool {
        var type: Text?, source: Text?, startText: Text?, endText: Text?
        // An attribute the walk reads given twice is an error to the reader: read.
        let walked = Self.forEachAttribute(tag, tagCount) { name, value in
            if Self.named(name, "workoutActivityType") { return RecordStartTag.setOnce(&type, value) }
            if Self.named(name, "sourceName") { return RecordStartTag.setOnce(&source, value) }
            if Self.named(name, "startDate") { return RecordStartTag.setOnce(&startText, value) }
            if Self.named(name, "endDate") { return RecordStartTag.setOnce(&endText, value) }
            return true
        }
        // The dates the scan found are the ones the reader reads.
        guard walked, let s = startText, let e = endText, TimestampParser.parse(s.at, s.count) == start,
            TimestampParser.parse(e.at, e.count) == end
        else { return false }
        var w = WalkedElement(kind: .workout, start: start, end: end, deviceIsWatch: false, sourceFirst: 0, sourceCount: 0, value: 0)
        if tag[tagCount - 1] != UInt8(ascii: "/") {
            let after = segment.at.distance(to: tag) + tagCount + 1
            guard let zone = Self.ownZone(segment.at, from: after, segment.count) else { return false }
            if let z = zone {
                guard let first = seen.walked.text(z, .zone) else { return false }
                (w.zoneFirst, w.zoneCount) = (first, Int32(z.count))
            }
        }
        if let t = type {
            guard let first = seen.walked.text(t, .type) else { return false }
            (w.typeFirst, w.typeCount) = (first, Int32(t.count))
        }
        // No `sourceName` is the reader's empty source.
        let name = source ?? (segment.at, 0)
        guard let first = seen.walked.text(name, .source) else { return false }
        (w.sourceFirst, w.sourceCount) = (first, Int32(name.count))
        seen.walked.elements.append(w)
        seen.walked.places.append(seen.keptBytes)
        return true
    }

    /// The elements a workout holds that the walk knows (`ExportElementHandler.start`): any
    /// other is read.
    private static let workoutChildren: [StaticString] = [
        "MetadataEntry", "WorkoutStatistics", "WorkoutEvent", "WorkoutActivity", "WorkoutRoute", "FileReference", "Location",
    ]

    /// A workout's children from `from` (after its start tag's `>`) to the segment's end, when
    /// they are one element a line, each line a start tag, an empty-element tag or the end tag
    /// of the element open (`</Workout>` last): the last `HKTimeZone` entry right under the
    /// workout (its `value`, empty when it has none, as the reader takes it), or `.some(nil)`
    /// for none. Nil for anything else.
    static func ownZone(_ p: UnsafePointer<UInt8>, from: Int, _ n: Int) -> Text?? {
        var zone: Text?
        // The open children's names, by their index in `workoutChildren`.
        var open: [Int] = []
        var i = from
        while true {
            guard i < n, p[i] == 0x0A else { return nil }
            i += 1
            while i < n, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
            guard i + 2 < n, p[i] == UInt8(ascii: "<") else { return nil }
            let lineEnd = memchr(p + i, 0x0A, n - i).map { p.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
            // One tag, ending the line: no other `<` in it (a comment, a second element).
            guard p[lineEnd - 1] == UInt8(ascii: ">"), memchr(p + i + 1, 0x3C, lineEnd - i - 1) == nil else { return nil }
            if p[i + 1] == UInt8(ascii: "/") {
                let name = (at: p + i + 2, count: lineEnd - 1 - (i + 2))
                guard let closing = open.popLast() else {
                    // `</Workout>`, and nothing after it but white space.
                    guard named(name, "Workout") else { return nil }
                    for k in lineEnd..<n where p[k] != 0x20 && p[k] != 0x0A && p[k] != 0x09 { return nil }
                    return .some(zone)
                }
                guard named(name, workoutChildren[closing]) else { return nil }
                i = lineEnd
                continue
            }
            let tagCount = lineEnd - 1 - i
            var nameCount = 1
            while nameCount < tagCount, p[i + nameCount] != 0x20, p[i + nameCount] != UInt8(ascii: "/") { nameCount += 1 }
            guard let child = workoutChildren.firstIndex(where: { named((p + i + 1, nameCount - 1), $0) }) else { return nil }
            // The workout's own entry (an activity's, event's or route's is a detail, and the
            // other children give the book nothing): its attributes walked, a key the reader
            // would decode otherwise may be the zone's.
            if child == 0, open.isEmpty {
                var key: Text?, value: Text?
                let attributes = forEachAttribute(p + i, tagCount) { name, v in
                    if named(name, "key") { return RecordStartTag.setOnce(&key, v) }
                    if named(name, "value") { return RecordStartTag.setOnce(&value, v) }
                    return true
                }
                guard attributes else { return nil }
                if let key {
                    guard plain(key.at, key.count) else { return nil }
                    if key.count == 10, same(key.at, "HKTimeZone") { zone = value ?? (p + i, 0) }
                }
            }
            if p[lineEnd - 2] != UInt8(ascii: "/") { open.append(child) }
            i = lineEnd
        }
    }

    /// Calls `body` with each attribute's name and value of the tag at `tag` (`count` bytes from
    /// its `<` to its `>`), in order, while it returns true: true when the tag is its name, then
    /// `name="value"` pairs after white space, then `/` or nothing. False for anything else
    /// (another quote, white space around `=`, a name holding white space, a quote, markup or a
    /// `:`, a namespace prefix the reader resolves), which the reader may read otherwise.
    static func forEachAttribute(_ tag: UnsafePointer<UInt8>, _ count: Int, _ body: (Text, Text) -> Bool) -> Bool {
        var i = 1
        while i < count, tag[i] != 0x20, tag[i] != 0x0A, tag[i] != 0x09, tag[i] != UInt8(ascii: "/") { i += 1 }
        while true {
            let spaced = i
            while i < count, tag[i] == 0x20 || tag[i] == 0x0A || tag[i] == 0x09 { i += 1 }
            if i == count { return true }
            if tag[i] == UInt8(ascii: "/") { return i == count - 1 }
            guard i > spaced else { return false }
            let nameStart = i
            while i < count, tag[i] != UInt8(ascii: "=") {
                let c = tag[i]
                if c <= 0x20 || c == 0x22 || c == 0x27 || c == UInt8(ascii: ":") || c == UInt8(ascii: "<") || c == UInt8(ascii: ">")
                    || c == UInt8(ascii: "/")
                {
                    return false
                }
                i += 1
            }
            guard i + 1 < count, i > nameStart, tag[i + 1] == 0x22 else { return false }
            let valueStart = i + 2
            guard let q = RecordStartTag.quote(tag, from: valueStart, count) else { return false }
            guard body((tag + nameStart, i - nameStart), (tag + valueStart, q - valueStart)) else { return false }
            i = q + 1
        }
    }

    /// Whether a name's (or value's) bytes are `literal`.
    @inline(__always)
    static func named(_ name: Text, _ literal: StaticString) -> Bool {
        name.count == literal.utf8CodeUnitCount && same(name.at, literal)
    }
}
