import Foundation

/// The window read (issue 42): the dates a command asks about, and the byte scan that decides,
/// per top-level element of export.xml, whether the element can reach them. `ParallelSAXDriver`'s
/// workers run it on each chunk before libxml2 sees the chunk: the elements that cannot reach
/// the window are cut out of the bytes, so libxml2 tokenises only a sliver of a long export.
///
/// An element is kept (docs/export-xml.md, "The window read") when
/// - its start tag's `startDate`/`endDate` overlap the window widened by `margin` on each side
///   (two days: the widest UTC offsets, samples crossing midnight, nights that start the evening
///   before, workouts and the samples inside them all fall in it; as `StoreDateReplay` plays a
///   store's records);
/// - it is a sleep sample that starts before the window's end: sleep sessions chain samples
///   across any number of dates (`SleepSessions`), so every earlier one is kept, as
///   `DateWindowRecorder` holds them;
/// - an `ActivitySummary` whose `dateComponents` date falls in the window;
/// - it holds `HKTimeZone` anywhere (its metadata, or a correlation member's): the zone in force
///   at the window is set by the last entry before it, however far back, so every entry is kept
///   and the timeline is the whole file's;
/// - its device is an Apple Watch and no element kept so far by this scanner had its source:
///   the sum and sleep rules rank a watch source first wherever its samples are, so one record
///   per watch source tells the book;
/// - it has no date the scan can read (`ExportDate`, `Me`, an element of another layout).
///
/// `compare` (`census`): every element but a `Record`, a `Correlation` or a `Workout` is kept
/// too; a record is cut only into the census of what it tells the report (`WindowCensus`, whose
/// comment says which records can be; the others are kept), a plain sleep record only into a
/// walked sample played in its place (`walkSleep`), a workout in Apple's layout only into a
/// walked workout played in its place (`walkWorkout`; the others are kept), and a correlation
/// outside the window is cut (the day book takes nothing from one).
///
/// The cut is made where `ParallelSAXDriver` cuts (a line feed, one space, a start tag), so what
/// is left is whole top-level elements in file order. Line numbers of what is left are not the
/// file's: a window read that meets an error reads the file again in full, whose error is the
/// one reported (`ExplainJob`).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the scan walks a chunk's
/// array through its buffer pointer with `memchr`, never past its count (a date's first ten
/// bytes loaded as words only inside its 25), and moves the kept elements down with `memmove`
/// inside the same buffer; it runs over every byte of the file.
struct ExportWindow: Sendable {
    /// The window in UTC seconds, margins included: an element is kept when it overlaps
    /// [from, to).
    let from: Int64
    let to: Int64

    static let margin: Int64 = 2 * 86_400
    /// `reach`'s bounds: a date's first ten bytes (`yyyy-MM-dd`, big-endian words) at or below
    /// `before` (`from`'s day less two) end before `from` at any offset (under 19 h), and at or
    /// above `after` (`to`'s day plus one) start after `to`.
    let before: (UInt64, UInt16), after: (UInt64, UInt16)
    /// `compare`: every element but a `Record` or `Correlation` is kept, and the records cut go
    /// into a census (`WindowCensus`), which the workers add here as they end.
    let census: WindowCensusCollector?
    /// The elements the scan has passed, for the progress line (`ConvertProgress.reporter`).
    let tally = WindowScanTally()

    /// The local dates `days` (day numbers since 1970-01-01), whatever the zone.
    init(days: ClosedRange<Int>, census: WindowCensusCollector? = nil) {
        from = Int64(days.lowerBound) * 86_400 - Self.margin
        to = Int64(days.upperBound + 1) * 86_400 + Self.margin
        self.census = census
        before = Self.key(CivilDate.isoDate(Int(from / 86_400) - 2)) ?? (0, 0)
        after = Self.key(CivilDate.isoDate(Int(to / 86_400) + 1)) ?? (.max, .max)
    }

    private static func key(_ date: String) -> (UInt64, UInt16)? {
        let u = Array(date.utf8)
        guard CivilDate.parseISODate(date) != nil else { return nil }  // 10 bytes: digits and dashes
        return (u[0..<8].reduce(0) { $0 << 8 | UInt64($1) }, UInt16(u[8]) << 8 | UInt16(u[9]))
    }

    /// Where a 25-byte date text stands: surely before the window, after, or near (then parsed);
    /// digits compared as words (a bound beyond years 0000–9999 decides nothing; a byte not a
    /// digit makes a date the reader skips, which a cut leaves unread: `keep`).
    enum Reach { case before, after, near }
    @inline(__always)
    private func reach(_ v: UnsafePointer<UInt8>) -> Reach {
        guard v[4] == 0x2D, v[7] == 0x2D, v[10] == 0x20 else { return .near }
        let high = UInt64(bigEndian: UnsafeRawPointer(v).loadUnaligned(as: UInt64.self))
        let low = UInt16(bigEndian: UnsafeRawPointer(v + 8).loadUnaligned(as: UInt16.self))
        if high < before.0 || high == before.0 && low <= before.1 { return .before }
        if high > after.0 || high == after.0 && low >= after.1 { return .after }
        return .near
    }

    /// What one worker has kept of the watch sources (raw `sourceName` bytes), and its census.
    struct Seen {
        var watchSources: [[UInt8]] = []
        var kept = 0, dropped = 0
        var census = WindowCensus()
        /// The types met (raw bytes) and, by the same index, what the census knows of each
        /// (`CensusType`); and 64 slots by a hash of the name's tail, each the index of the last
        /// type met there (-1: none), tried first.
        var typeNames: [[UInt8]] = [], types: [CensusType] = []
        var typeSlots = [Int](repeating: -1, count: 64)
        /// The last source name, whether the census can take it (`WindowCensus.isPlainName`) and
        /// its index in the census's sources once it is there.
        var lastSource: (name: [UInt8], plain: Bool, census: Int?)?
        /// `compare`: the day of the last date parsed (`censusTimestamp`).
        var day = DayMemo()
        /// `compare`: the last `Record` start tag walked, and the types and devices the walk met
        /// (`RecordStartTag.Memo`).
        var record = RecordStartTag()
        var tagMemo = RecordStartTag.Memo()
        /// `compare`: the chunk's sleep samples and workouts walked instead of kept (`walkSleep`,
        /// `walkWorkout`), and the bytes kept of the chunk so far (where the next one cut sits
        /// among them).
        var walked = WalkedElements(), keptBytes = 0

        /// Whether `source` (a `sourceName`'s bytes) is a watch source kept already: compared as
        /// words (`elementsEqual` went byte by byte, two fifths of the census's samples).
        @inline(__always)
        func knowsWatch(_ source: (at: UnsafePointer<UInt8>, count: Int)) -> Bool {
            for known in watchSources where known.count == source.count {
                if known.withUnsafeBufferPointer({ source.count == 0 || WordBytes.equal($0.baseAddress!, source.at, source.count) }) {
                    return true
                }
            }
            return false
        }
    }

    /// A worker is done: its census goes to the read's.
    func collect(_ seen: Seen) {
        census?.add(seen.census)
    }

    /// Cuts out of `bytes` the top-level elements that cannot reach the window.
    func filter(_ bytes: inout [UInt8], seen: inout Seen) {
        let n = bytes.count
        guard n > 4 else { return }
        let passed = seen.kept + seen.dropped
        let newCount = bytes.withUnsafeMutableBufferPointer { b -> Int in
            let p = b.baseAddress!
            var write = 0
            seen.keptBytes = 0
            // A kept element moves down over the ones cut before it: below the bytes still scanned.
            scan(UnsafePointer(p), n, seen: &seen) { from, to in
                if write != from { memmove(p + write, p + from, to - from) }
                write += to - from
            }
            return write
        }
        if newCount < n { bytes.removeLast(n - newCount) }
        tally.add(seen.kept + seen.dropped - passed)
    }

    /// Appends to `kept` the top-level elements of `source` (a mapped chunk of export.xml, never
    /// written: `MappedFile`) that can reach the window, as `filter` leaves them in place.
    func filter(_ source: UnsafeRawBufferPointer, into kept: inout [UInt8], seen: inout Seen) {
        guard let base = source.baseAddress, source.count > 0 else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        guard source.count > 4 else { return kept.append(contentsOf: UnsafeBufferPointer(start: p, count: source.count)) }
        let passed = seen.kept + seen.dropped
        seen.keptBytes = kept.count
        scan(p, source.count, seen: &seen) { from, to in kept.append(contentsOf: UnsafeBufferPointer(start: p + from, count: to - from)) }
        tally.add(seen.kept + seen.dropped - passed)
    }

    /// Splits `n` bytes at `p` into segments, one top-level element each, and passes those to keep
    /// to `keepSegment` (from, to), in file order.
    @inline(__always)
    private func scan(_ p: UnsafePointer<UInt8>, _ n: Int, seen: inout Seen, keepSegment: (Int, Int) -> Void) {
        // Segments run from one boundary (a line feed before a top-level element, or before a
        // line at column 0) to the next; the first from 0 (a prolog, or the element a chunk
        // after the first begins with).
        var segStart = 0
        var zone = false
        // Whether the chunk holds a `#` at all, which a character reference (`&#…;`) needs:
        // real chunks hold none (the DTD's `#REQUIRED` aside), and one search of the chunk
        // spares one of every tag and metadata key below.
        let references = memchr(p, 0x23, n) != nil
        var i = 0
        // The first `>` at or after the last segment's tag (`n`: none left in the chunk).
        var gtAt = -1
        while true {
            var next: Int?
            // A top-level start tag as Apple writes it (`\n <`): its `>` found once, for the
            // segment's end and for `keep`. A tag closed in place with a line feed and a boundary
            // after it is the whole segment (most records: their line is not searched for its
            // line feed as well); otherwise the line feeds are searched from the tag's end. A line
            // feed inside an element's tag is white space between attributes (no `<` can follow
            // it in well-formed XML), so no boundary and no metadata line is passed over; a
            // comment, PI or CDATA section that holds one is kept whole, as the pieces it was cut
            // into before were each kept (`keep`: `<!`, `<?`, no `>`).
            var tagEnd: Int?
            let topLevel = segStart + 3 < n && p[segStart] == 0x0A && p[segStart + 1] == 0x20 && p[segStart + 2] == 0x3C
            // The next `>` is searched only when the last one found lies behind this segment's
            // start: a chunk without a `>` for many segments is searched once, not once each.
            if topLevel, gtAt < segStart + 3 {
                gtAt = memchr(p + segStart + 3, 0x3E, n - segStart - 3).map { p.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
            }
            if topLevel, gtAt < n {
                let g = gtAt
                tagEnd = g - segStart
                if p[g - 1] == UInt8(ascii: "/"), g + 1 < n, p[g + 1] == 0x0A, Self.isBoundary(p, n, g + 1) {
                    next = g + 1
                    i = n  // the segment is found: no line search
                } else if i <= g {
                    i = g + 1  // the `>` is no line feed
                }
            }
            while next == nil, i < n {
                // A line feed right here (an element's tag ends its line: Apple's layout) needs no
                // search; most nested lines are the one after a start tag or an end tag's.
                if p[i] != 0x0A {
                    guard let f = memchr(p + i, 0x0A, n - i) else {
                        i = n
                        break
                    }
                    i = p.distance(to: f.assumingMemoryBound(to: UInt8.self))
                }
                if Self.isBoundary(p, n, i) {
                    next = i
                    break
                }
                if !zone { zone = Self.namesZone(p, n, line: i + 1, references: references) }
                i += 1
            }
            let segEnd = next ?? n
            if keep(p + segStart, segEnd - segStart, tagEnd: tagEnd, zone: zone, references: references, seen: &seen) {
                keepSegment(segStart, segEnd)
                seen.kept += 1
                seen.keptBytes += segEnd - segStart
            } else {
                seen.dropped += 1
            }
            guard let next else { break }
            segStart = next
            zone = false
            i = next + 1
        }
    }

    /// A line feed followed by a top-level element (`\n <` and a name's first byte, as
    /// `ParallelSAXDriver` cuts) or by a line at column 0 (`\n<`: the root's end tag).
    @inline(__always)
    private static func isBoundary(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: Int) -> Bool {
        if i + 1 < n, p[i + 1] == UInt8(ascii: "<") { return true }
        guard i + 3 < n, p[i + 1] == 0x20, p[i + 2] == UInt8(ascii: "<") else { return false }
        let c = p[i + 3]
        return (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || c == UInt8(ascii: "_") || c >= 0x80
    }

    /// Whether a nested line (inside a top-level element) may hold an `HKTimeZone` entry: a
    /// `MetadataEntry` whose `key` is first and is `HKTimeZone` (as Apple writes them), or one
    /// written otherwise and naming it anywhere on its line.
    @inline(__always)
    private static func namesZone(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int, references: Bool) -> Bool {
        var j = line
        while j < n, p[j] == 0x20 || p[j] == 0x09 { j += 1 }
        // `<M` first: most nested lines are not metadata (beats, statistics, end tags).
        guard j + 2 <= n, p[j] == UInt8(ascii: "<"), p[j + 1] == UInt8(ascii: "M") else { return false }
        let entry: StaticString = "<MetadataEntry ", zoneKey: StaticString = "key=\"HKTimeZone\"", keyFirst: StaticString = "key=\""
        let e = entry.utf8CodeUnitCount
        guard j + e <= n, same(p + j, entry) else { return false }
        if j + e + zoneKey.utf8CodeUnitCount <= n, same(p + j + e, zoneKey) { return true }
        // Apple's layout: `key` first, one element a line; any other MetadataEntry line is searched.
        // A key written with a reference (`HK&#84;imeZone`) is one the reader decodes: it may be
        // the zone's, so the element is kept (a key's few bytes, up to its quote, are looked at).
        if j + e + keyFirst.utf8CodeUnitCount <= n, same(p + j + e, keyFirst) {
            guard references else { return false }
            var k = j + e + keyFirst.utf8CodeUnitCount
            while k < n, p[k] != 0x22, p[k] != 0x0A {
                if p[k] == 0x26 { return true }
                k += 1
            }
            return false
        }
        let end = memchr(p + j, 0x0A, n - j).map { p.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
        return find(p + j, end - j, "HKTimeZone") != nil
    }

    /// Whether the segment (an element, with the line feed before it) can reach the window;
    /// `zone`: a nested line of it names `HKTimeZone`.
    /// `references`: the chunk may hold a character reference (a `#`).
    /// `tagEnd`: where the scan found the start tag's `>` (from `p`), when it looked.
    private func keep(_ p: UnsafePointer<UInt8>, _ count: Int, tagEnd: Int?, zone: Bool, references: Bool, seen: inout Seen) -> Bool {
        // The start tag: from the first `<` to the first `>` (an attribute holding a raw `>` only
        // shortens it, and a tag without readable dates is kept).
        let tag: UnsafePointer<UInt8>
        if count > 2, p[0] == 0x0A, p[1] == 0x20, p[2] == 0x3C {
            tag = p + 2  // a top-level element as the cut found it: no search
        } else {
            guard let lt = memchr(p, 0x3C, count) else { return true }
            tag = UnsafePointer(lt.assumingMemoryBound(to: UInt8.self))
        }
        let before = p.distance(to: tag)
        let tagCount: Int
        if let tagEnd, before == 2, tagEnd < count {
            tagCount = tagEnd - 2  // the scan's search, from the same `<`
        } else {
            guard let gt = memchr(tag, 0x3E, count - before) else { return true }
            tagCount = tag.distance(to: gt.assumingMemoryBound(to: UInt8.self))
        }
        guard tagCount > 1, tag[1] != UInt8(ascii: "/"), tag[1] != UInt8(ascii: "!"), tag[1] != UInt8(ascii: "?") else { return true }
        // Only one whole element is cut: an element written at another indent (a `Workout` at two
        // spaces after an `ActivitySummary`, in a public sample) is a nested line of the one
        // before it, and goes where that one goes only if kept.
        guard Self.isOneElement(tag, tagCount, p, count) else { return true }
        // compare: a `Record`'s attributes in one walk, its dates included (`RecordStartTag`).
        let walked = census != nil && tagCount > 8 && Self.same(tag, "<Record ") && seen.record.read(tag, tagCount, memo: &seen.tagMemo)
        let (startText, endText) = walked ? (seen.record.startDate, seen.record.endDate) : Self.dates(tag, tagCount)
        // Far from the window by its dates' first ten bytes (explain): no parse, the tests below
        // for an element outside. A date that would not parse (kept below; the reader skips it)
        // is cut here unless sleep, zone or a watch source's first record (decided as before).
        if census == nil, let s = startText, let e = endText, s.count == 25, e.count == 25 {
            let rs = reach(s.at)
            if rs == .after || rs == .before && reach(e.at) == .before {
                if zone || restOfLineNamesZone(tag, tagCount, p, count) { return true }
                if rs == .before, let type = Self.attribute(tag, tagCount, " type=\""), Self.isSleep(type) { return true }
                if !isNewWatch(tag, tagCount, seen: seen), !references || !Self.hasCharacterReference(tag, tagCount) { return false }
            }
        }
        var start: Timestamp?, end: Timestamp?
        if census != nil {  // most elements: each parsed with the day of the one before (`censusTimestamp`)
            start = startText.flatMap { Self.censusTimestamp($0.at, $0.count, memo: &seen.day) }
            // An instant (a heart rate: two thirds of a real export's records) ends as it starts:
            // the same 25 bytes are the same time, not parsed again.
            if let s = startText, let e = endText, s.count == 25, e.count == 25, WordBytes.equal(s.at, e.at, 25) {
                end = start
            } else {
                end = endText.flatMap { Self.censusTimestamp($0.at, $0.count, memo: &seen.day) }
            }
        } else {
            start = startText.flatMap { TimestampParser.parse($0.at, $0.count) }
            end = endText.flatMap { TimestampParser.parse($0.at, $0.count) }
        }
        guard let start, let end else {
            if let day = Self.attribute(tag, tagCount, " dateComponents=\"") {
                let text = String(decoding: UnsafeBufferPointer(start: day.at, count: day.count), as: UTF8.self)
                guard let d = CivilDate.parseISODate(text) else { return true }
                return Int64(d) * 86_400 < to && Int64(d + 1) * 86_400 > from || zone || restOfLineNamesZone(tag, tagCount, p, count)
            }
            return true
        }
        if start.seconds < to, end.seconds >= from { return true }
        // compare: a plain sleep record, its `HKTimeZone` entry too, goes to the book walked.
        if walked, let t = seen.record.type, Self.isSleep(t) {
            return !walkSleep(tag, tagCount, start, end, segment: (p, count), references: references, seen: &seen)
        }
        // compare: a workout, its `HKTimeZone` entry too, goes to the book walked.
        if census != nil, tagCount > 9, Self.same(tag, "<Workout "),
            walkWorkout(tag, tagCount, start, end, segment: (p, count), seen: &seen)
        {
            return false
        }
        if zone || restOfLineNamesZone(tag, tagCount, p, count) { return true }
        if census != nil {
            // A correlation gives the day book nothing (its members repeat top-level records,
            // which the census takes; `SampleSink.correlation` is the book's no-op): cut, as
            // explain cuts it. A third of the bytes compare kept (real food correlations hold a
            // dozen nutrients each).
            if tagCount > 13, Self.same(tag, "<Correlation ") { return false }
            guard walked else { return true }
            return !cutIntoCensus(tag: tag, tagCount, start, end, segment: (p, count), references: references, seen: &seen)
        }
        if start.seconds < to, let type = Self.attribute(tag, tagCount, " type=\""), Self.isSleep(type) { return true }
        return keepsWatch(tag, tagCount, references: references, seen: &seen)
    }

    /// Whether the segment is one element: its start tag closed in place with only white space
    /// after it, or its last bytes (white space aside) the end tag of its name.
    private static func isOneElement(_ tag: UnsafePointer<UInt8>, _ tagCount: Int, _ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let after = p.distance(to: tag) + tagCount + 1
        var end = count
        while end > after, p[end - 1] == 0x20 || p[end - 1] == 0x0A || p[end - 1] == 0x0D || p[end - 1] == 0x09 { end -= 1 }
        if tag[tagCount - 1] == UInt8(ascii: "/") { return end == after }
        var nameCount = 1
        while nameCount < tagCount, tag[nameCount] != 0x20, tag[nameCount] != 0x0A, tag[nameCount] != 0x09 { nameCount += 1 }
        nameCount -= 1
        // `</` name `>`
        guard end - after >= nameCount + 3, p[end - 1] == UInt8(ascii: ">") else { return false }
        let close = end - nameCount - 3
        return p[close] == UInt8(ascii: "<") && p[close + 1] == UInt8(ascii: "/") && memcmp(p + close + 2, tag + 1, nameCount) == 0
    }

    /// Whether the top-level line goes on after the start tag (not Apple's layout) and names
    /// `HKTimeZone` there.
    private func restOfLineNamesZone(_ tag: UnsafePointer<UInt8>, _ tagCount: Int, _ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var after = p.distance(to: tag) + tagCount + 1
        if after < count, p[after] == 0x0A { return false }  // Apple's layout: the line ends with the tag
        after = min(after, count)
        let end = memchr(p + after, 0x0A, count - after).map { p.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count
        // A key written with a reference (`HK&#84;imeZone`) may be the zone's: kept too.
        return end > after
            && (Self.find(p + after, end - after, "HKTimeZone") != nil || Self.hasCharacterReference(p + after - 1, end - after + 1))
    }

    /// An element dropped otherwise is kept when its device is a watch whose source this scanner
    /// has not kept yet.
    private func keepsWatch(_ tag: UnsafePointer<UInt8>, _ count: Int, references: Bool, seen: inout Seen) -> Bool {
        // A tag with a character reference (`model&#58;Watch,`, `W&#97;tch`) may name a watch, or
        // a source, only the reader sees, decoding it: every such element is kept.
        if references, Self.hasCharacterReference(tag, count) { return true }
        guard isNewWatch(tag, count, seen: seen), let source = Self.sourceName(tag, count) else { return false }
        seen.watchSources.append(Array(UnsafeBufferPointer(start: source.at, count: source.count)))
        return true
    }

    /// Whether the tag's device is a watch whose source this scanner has not kept yet. The source
    /// first: most records far from the window are a known watch's, whose device then need not be
    /// searched (`model:Watch,` is 150 bytes into the tag, past two other `W`s).
    @inline(__always)
    private func isNewWatch(_ tag: UnsafePointer<UInt8>, _ count: Int, seen: Seen) -> Bool {
        guard let source = Self.sourceName(tag, count) else { return false }
        if seen.knowsWatch(source) { return false }
        return Self.hasWatchModel(tag, count)
    }
}
