import Foundation

/// `compare`'s part of the window scan (docs/export-xml.md, "The census"): a `Record` outside the
/// window goes into the worker's census (`WindowCensus`) instead of libxml2 when its part in the
/// report is certain from its start tag. Beside `ExportWindow` because it is the scan's other
/// outcome for a cut record, not a third reading.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): as in `ExportWindow`, the
/// pointers are into the chunk a worker is scanning, valid for the scan's call, read within the
/// tag's and segment's counts the caller measured.
extension ExportWindow {
    /// `compare`: whether a record outside the window goes into the census rather than to
    /// libxml2 (`WindowCensus` says which can); false keeps it. Its attributes are the ones
    /// `keep` just walked into `seen.record`.
    func cutIntoCensus(
        tag: UnsafePointer<UInt8>, _ tagCount: Int, _ start: Timestamp, _ end: Timestamp,
        segment: (at: UnsafePointer<UInt8>, count: Int), references: Bool, seen: inout Seen
    ) -> Bool {
        // Nested lines with a character reference are read: the zone test (`namesZone`) reads
        // them as written, and `key="HK&#84;imeZone"` is an `HKTimeZone` entry to the reader.
        // `references`: the chunk holds a `#` at all (real chunks hold none).
        let after = segment.at.distance(to: tag) + tagCount + 1
        if references, after < segment.count, Self.hasCharacterReference(segment.at + after, segment.count - after) { return false }
        // As the reader skips them: a record ending before it starts or lasting over a year.
        guard end.seconds >= start.seconds, end.seconds - start.seconds <= Sample.longestSpan else { return false }
        guard let type = seen.record.type else { return false }
        // The type's index, kept with the walk's memo entry for its bytes once they passed the
        // tests below (`RecordStartTag.Memo`); else they are tested and the type looked up.
        var t = seen.record.typeEntry >= 0 ? seen.tagMemo.payload[seen.record.typeEntry] : -1
        if t < 0 {
            // A type written with an entity is read (the catalog knows names as the reader decodes
            // them); a sleep record is walked or read before this (`walkSleep`).
            guard !Self.isSleep(type), memchr(type.at, 0x26, type.count) == nil else { return false }
            t = typeIndex(type, seen: &seen)
            if seen.record.typeEntry >= 0 { seen.tagMemo.payload[seen.record.typeEntry] = t }
        }
        // A watch (its `device` says so, as the reader tells it): its first record is read, so
        // that the book knows the watch (`keepsWatch`). The walk knows it for a device it met.
        var isWatch = false
        if Self.deviceIsWatch(seen.record) {
            guard let source = seen.record.sourceName else { return false }
            if !seen.knowsWatch(source) {
                seen.watchSources.append(Array(UnsafeBufferPointer(start: source.at, count: source.count)))
                return false
            }
            isWatch = true
        } else if references, let d = seen.record.device, seen.record.deviceIs?.reference ?? Self.hasCharacterReference(d.at, d.count) {
            // The reader tests the decoded text: a character reference can spell `model:Watch,`.
            return false
        }
        let known = seen.types[t]  // plain values: no reference counted on this path
        switch known.cut {
        case .uncatalogued:
            // No date from a type the catalog does not have; a watch's source is named all the same.
            if isWatch, !addSource(seen.record.sourceName, start: start.seconds, seen: &seen) { return false }
            seen.census.noteStart(start.seconds)
            return true
        case .read: return false
        case .start, .sum, .run: break
        }
        guard start.offset % 900 == 0 else { return false }
        // A sum gives data to every quarter-hour it overlaps (a local midnight is on one); one
        // longer than a day is read.
        if known.cut == .sum, end.seconds - start.seconds > 86_400 { return false }
        guard let text = seen.record.value, let value = NumberParser.parse(text.at, text.count) else { return false }
        // The unit as the reader converts it (no unit is ""), compared as two words.
        let unitCount = seen.record.unit?.count ?? 0
        let words = seen.record.unit.map { Self.unitWords($0, tagEnd: tag + tagCount) } ?? (0, 0)
        var conversion = known.conversion
        if !known.knows(unitCount: unitCount, words: words) {
            let name = seen.record.unit.map { String(decoding: UnsafeBufferPointer(start: $0.at, count: $0.count), as: UTF8.self) } ?? ""
            seen.types[t].learn(unitCount: unitCount, words: words, text: name)
            conversion = seen.types[t].conversion
        }
        guard let (scale, zero) = conversion, known.isPlausible(value * scale + zero) else { return false }
        // A running-mechanics sample's start as `RunningMechanics` keeps it (seconds since 2001
        // in 32 bits): one that does not fit is read, so the census never holds a clamped time.
        if known.cut == .run, Int32(exactly: start.seconds - WorkoutBook.epoch) == nil { return false }
        if known.cut == .sum || isWatch, !addSource(seen.record.sourceName, start: start.seconds, seen: &seen) { return false }
        if known.cut == .run {
            seen.census.addRunning(metric: known.metric, start: start.seconds)
        } else {
            seen.census.add(metric: known.metric, start: start, end: known.cut == .sum ? end.seconds : nil)
        }
        return true
    }

    /// A unit's first 16 bytes as two little-endian words, zero past its count (`CensusType`):
    /// loaded straight from the tag when 16 bytes are there (Apple's dates follow a unit), as a
    /// copy into the words made the loads wait on the copy's stores (perf: a fifth of the
    /// census's samples on one load).
    @inline(__always)
    static func unitWords(_ u: (at: UnsafePointer<UInt8>, count: Int), tagEnd: UnsafePointer<UInt8>) -> (UInt64, UInt64) {
        let n = min(u.count, CensusType.unitBytes)
        guard u.at + 16 <= tagEnd else {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(start: u.at, count: n)) }
            return words
        }
        let p = UnsafeRawPointer(u.at)
        let w1 = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
        let w2 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        // Byte k of the text is byte k of the words (little-endian): the bytes past `n` cleared.
        let low: UInt64 = n >= 8 ? .max : (1 << UInt64(8 * n)) &- 1
        let high: UInt64 = n >= 16 ? .max : n <= 8 ? 0 : (1 << UInt64(8 * (n - 8))) &- 1
        return (w1 & low, w2 & high)
    }

    /// Whether the walked record's device is a watch, as the reader tells it (`model:Watch,` in
    /// its text): the walk's memo of a device met before, else a search. False without a device.
    @inline(__always)
    static func deviceIsWatch(_ record: RecordStartTag) -> Bool {
        guard let d = record.device else { return false }
        return record.deviceIs?.watch ?? (find(d.at, d.count, "model:Watch,") != nil)
    }

    /// Whether a `type` value is the sleep type.
    @inline(__always)
    static func isSleep(_ v: (at: UnsafePointer<UInt8>, count: Int)) -> Bool {
        let sleep: StaticString = "HKCategoryTypeIdentifierSleepAnalysis"
        return named(v, sleep)
    }

    /// `compare`: whether a sleep record outside the window (its attributes walked into
    /// `seen.record`, its dates read) becomes a walked sample (`WalkedElement`, in
    /// `seen.walked` at the kept bytes' count) instead of going to libxml2: when the sample the
    /// reader would make of it is certain from its bytes. Nights chain samples over any number of
    /// dates (`SleepSessions`), so the day book still takes every one, in file order, its
    /// `HKTimeZone` entry too (the timeline stays the whole file's); what is saved is libxml2's
    /// tokenising and the handler's decoding (docs/export-xml.md, "The census"). False keeps it,
    /// as before: a record the reader skips (its span), a `unit`, a `value` that is not one of
    /// the stages' texts, a character reference anywhere in it, a source, key or value the reader
    /// would decode otherwise (`plain`), children other than Apple's metadata lines.
    func walkSleep(
        _ tag: UnsafePointer<UInt8>, _ tagCount: Int, _ start: Timestamp, _ end: Timestamp, segment: (at: UnsafePointer<UInt8>, count: Int),
        references: Bool, seen: inout Seen
    ) -> Bool {
        guard end.seconds >= start.seconds, end.seconds - start.seconds <= Sample.longestSpan else { return false }
        guard seen.record.unit == nil, let v = seen.record.value else { return false }
        guard let value = WalkedElement.values.firstIndex(where: { Self.named(v, $0) }) else {
            return false
        }
        if references, Self.hasCharacterReference(segment.at, segment.count) { return false }
        var w = WalkedElement(start: start, end: end, deviceIsWatch: false, sourceFirst: 0, sourceCount: 0, value: UInt8(value))
        if tag[tagCount - 1] != UInt8(ascii: "/") {
            let after = segment.at.distance(to: tag) + tagCount + 1
            guard let zone = Self.sleepMetadata(segment.at, from: after, segment.count, into: &w) else { return false }
            if let z = zone {
                guard z.count > 0, let first = seen.walked.text(z, .zone) else { return false }
                (w.zoneFirst, w.zoneCount) = (first, Int32(z.count))
            }
        }
        guard let s = seen.record.sourceName, s.count > 0, let source = seen.walked.text(s, .source) else { return false }
        (w.sourceFirst, w.sourceCount) = (source, Int32(s.count))
        w.deviceIsWatch = Self.deviceIsWatch(seen.record)
        seen.walked.elements.append(w)
        seen.walked.places.append(seen.keptBytes)
        return true
    }

    /// A sleep record's children from `from` (after its start tag's `>`) to the segment's end, when
    /// they are Apple's metadata lines, `<MetadataEntry key="…" value="…"/>` one a line after
    /// spaces, then ` </Record>`: the entries' digest as the handler makes it, into `w`, and the
    /// last `HKTimeZone` entry's value (the one the reader keeps), or `.some(nil)` for none. Nil
    /// for anything else, or a key or value that is not `plain`.
    private static func sleepMetadata(_ p: UnsafePointer<UInt8>, from: Int, _ n: Int, into w: inout WalkedElement) -> Text?? {
        let entry: StaticString = "<MetadataEntry key=\"", between: StaticString = "\" value=\"", close: StaticString = "\"/>"
        let endTag: StaticString = "</Record>"
        var zone: Text?
        var i = from
        while true {
            guard i < n, p[i] == 0x0A else { return nil }
            i += 1
            while i < n, p[i] == 0x20 { i += 1 }
            if i + endTag.utf8CodeUnitCount <= n, same(p + i, endTag) {
                // Only white space may follow (the segment is one element: `isOneElement`).
                for k in (i + endTag.utf8CodeUnitCount)..<n where p[k] != 0x20 && p[k] != 0x0A { return nil }
                return .some(zone)
            }
            guard i + entry.utf8CodeUnitCount <= n, same(p + i, entry) else { return nil }
            let k = i + entry.utf8CodeUnitCount
            guard let kq = RecordStartTag.quote(p, from: k, n), kq + between.utf8CodeUnitCount <= n, same(p + kq, between) else {
                return nil
            }
            let v = kq + between.utf8CodeUnitCount
            guard let vq = RecordStartTag.quote(p, from: v, n), vq + close.utf8CodeUnitCount <= n, same(p + vq, close) else { return nil }
            guard plain(p + k, kq - k), plain(p + v, vq - v) else { return nil }
            w.hasMetadata = true
            w.digest.add(p + k, kq - k)
            w.digest.separate()
            w.digest.add(p + v, vq - v)
            w.digest.separate()
            if kq - k == 10, same(p + k, "HKTimeZone") { zone = (p + v, vq - v) }
            i = vq + close.utf8CodeUnitCount
        }
    }

    /// Whether the reader's text of `count` bytes of an attribute value is those bytes: no `&`
    /// (an entity), no control byte (libxml2 turns tabs and line ends into spaces and refuses the
    /// others), no `<` (refused), and UTF-8 of XML characters (else refused: not UTF-8, U+FFFE,
    /// U+FFFF).
    static func plain(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let bytes = UnsafeBufferPointer(start: p, count: count)
        var high = false
        for c in bytes {
            if c < 0x20 || c == 0x26 || c == 0x3C { return false }
            if c >= 0x80 { high = true }
        }
        guard high else { return true }
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return !text.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF }
    }

    /// The first `byte` in `tag[from..<count]`: the first 32 bytes eight at a time (a name, a
    /// date, most values; a `memchr` call for each cost more than its search), then `memchr`
    /// (a `device`).
    @inline(__always)
    static func first(_ byte: UInt8, _ tag: UnsafePointer<UInt8>, from: Int, _ count: Int) -> Int? {
        var i = from
        let near = min(count, from + 32)
        while i + 8 <= near {
            let flags = WordBytes.matches(UInt64(littleEndian: UnsafeRawPointer(tag + i).loadUnaligned(as: UInt64.self)), byte)
            if flags != 0 { return i + flags.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < near {
            if tag[i] == byte { return i }
            i += 1
        }
        guard i < count, let f = memchr(tag + i, Int32(byte), count - i) else { return nil }
        return tag.distance(to: f.assumingMemoryBound(to: UInt8.self))
    }

    /// The index in `seen.types` of a type's raw name, resolved against the catalog once.
    func typeIndex(_ type: (at: UnsafePointer<UInt8>, count: Int), seen: inout Seen) -> Int {
        let tail = type.count >= 8 ? UnsafeRawPointer(type.at + type.count - 8).loadUnaligned(as: UInt64.self) : 0
        func matches(_ i: Int) -> Bool {
            guard seen.types[i].nameCount == type.count, seen.types[i].nameTail == tail else { return false }
            return seen.typeNames[i].withUnsafeBufferPointer { type.count == 0 || WordBytes.equal($0.baseAddress!, type.at, type.count) }
        }
        // Records of many types interleave (in time order): the type is looked for first where
        // its tail says (`typeSlots`), and only then in every type met.
        let slot = Int(truncatingIfNeeded: (tail &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(type.count)) >> 58)
        if seen.typeSlots[slot] >= 0, matches(seen.typeSlots[slot]) { return seen.typeSlots[slot] }
        if let i = seen.types.indices.first(where: matches) {
            seen.typeSlots[slot] = i
            return i
        }
        let name = Array(UnsafeBufferPointer(start: type.at, count: type.count))
        seen.typeNames.append(name)
        seen.types.append(
            CensusType(metric: Catalog.metric(forType: String(decoding: name, as: UTF8.self)), nameCount: type.count, nameTail: tail))
        seen.typeSlots[slot] = seen.types.count - 1
        return seen.types.count - 1
    }

    /// Names the record's `sourceName` (as written) in the census, when the census can decode it
    /// as the reader does; false (the record is kept) when it has none or one the census cannot
    /// read. The last name met is compared in place and found in the census by its index.
    func addSource(_ attribute: (at: UnsafePointer<UInt8>, count: Int)?, start: Int64, seen: inout Seen) -> Bool {
        guard let s = attribute, s.count > 0 else { return false }
        let same =
            seen.lastSource?.name.withUnsafeBufferPointer { $0.count == s.count && WordBytes.equal($0.baseAddress!, s.at, s.count) }
            ?? false
        if !same {
            let name = Array(UnsafeBufferPointer(start: s.at, count: s.count))
            seen.lastSource = (name, WindowCensus.isPlainName(name), nil)
        }
        guard seen.lastSource!.plain else { return false }
        if let i = seen.lastSource!.census {
            seen.census.addSource(at: i, start: start)
        } else {
            seen.lastSource!.census = seen.census.addSource(seen.lastSource!.name, start: start)
        }
        return true
    }
}

extension ExportWindow {
    /// The day of the last `yyyy-MM-dd` a worker's census parsed (its ten bytes as two
    /// big-endian words): consecutive records share their dates' day, whose digits, month and
    /// day of month then need no second check and no second day count (perf:
    /// `TimestampParser.parse` 3.7 % of a worker's samples, 232 M of 4,452 M instructions in
    /// callgrind, two dates a cut record).
    struct DayMemo {
        var high: UInt64 = 0
        var low: UInt16 = 0
        var day: Int64 = 0
        var valid = false
    }

    /// `TimestampParser.parse(p, count)`, the same value for every input: the fixed 25-byte
    /// layout whose first ten bytes are the memo's reads only the time and offset (with the
    /// checks `TimestampParser.parseFixed` makes of them); anything else, or a time or offset
    /// those checks refuse, goes to `TimestampParser.parse`, and a date it parses in the fixed
    /// layout becomes the memo's.
    @inline(__always)
    static func censusTimestamp(_ p: UnsafePointer<UInt8>, _ count: Int, memo: inout DayMemo) -> Timestamp? {
        guard count == 25, p[4] == 0x2D, p[7] == 0x2D, p[10] == 0x20, p[13] == 0x3A, p[16] == 0x3A, p[19] == 0x20 else {
            return TimestampParser.parse(p, count)
        }
        @inline(__always) func d2(_ i: Int) -> Int {
            let a = Int(p[i] &- 0x30), b = Int(p[i + 1] &- 0x30)
            return a < 10 && b < 10 ? a * 10 + b : -1
        }
        let high = UInt64(bigEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        let low = UInt16(bigEndian: UnsafeRawPointer(p + 8).loadUnaligned(as: UInt16.self))
        let hh = d2(11), mi = d2(14), ss = d2(17), oh = d2(21), om = d2(23)
        let sign: Int = p[20] == 0x2B ? 1 : p[20] == 0x2D ? -1 : 0
        let clock =
            hh >= 0 && hh <= 23 && mi >= 0 && mi <= 59 && ss >= 0 && ss <= 60 && oh >= 0 && oh <= 18 && om >= 0 && om <= 59 && sign != 0
        guard memo.valid, memo.high == high, memo.low == low else {
            // Another day: the full parser's fixed layout, which gives the memo its day (its
            // time and offset are the ones read above when it takes the date), else its other.
            guard let t = TimestampParser.parseFixed(p) else { return TimestampParser.parseLenient(p, count) }
            let local = t.seconds + Int64(t.offset) - Int64(hh * 3600 + mi * 60 + ss)
            memo = DayMemo(high: high, low: low, day: Int64(LocalClock.floorDiv(local, 86_400)), valid: true)
            return t
        }
        // The memo's day: its digits, month and day of month were checked when it was taken.
        guard clock else { return TimestampParser.parse(p, count) }
        let offset = sign * (oh * 3600 + om * 60)
        return Timestamp(seconds: memo.day * 86_400 + Int64(hh * 3600 + mi * 60 + ss) - Int64(offset), offset: Int32(offset))
    }
}

extension WalkedElements {
    /// Which of the last element's texts a text is compared with first.
    enum TextKind { case source, zone, type }

    /// Where the bytes `s` of a source, an `HKTimeZone` value or a workout type are in `sources`:
    /// the last element's of that kind when they are the same, else appended. Nil (the element
    /// is read) when the reader's text of them could be other than their bytes
    /// (`ExportWindow.plain`).
    mutating func text(_ s: (at: UnsafePointer<UInt8>, count: Int), _ kind: TextKind) -> Int32? {
        let last: (first: Int32, count: Int32)?
        switch kind {
        case .source: last = lastSource
        case .zone: last = lastZone
        case .type: last = lastType
        }
        if let last, Int(last.count) == s.count,
            s.count == 0 || sources.withUnsafeBufferPointer({ WordBytes.equal($0.baseAddress! + Int(last.first), s.at, s.count) })
        {
            return last.first
        }
        guard ExportWindow.plain(s.at, s.count) else { return nil }
        let first = Int32(sources.count)
        sources.append(contentsOf: UnsafeBufferPointer(start: s.at, count: s.count))
        switch kind {
        case .source: lastSource = (first, Int32(s.count))
        case .zone: lastZone = (first, Int32(s.count))
        case .type: lastType = (first, Int32(s.count))
        }
        return first
    }
}
