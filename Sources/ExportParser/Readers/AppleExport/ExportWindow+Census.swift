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
    /// libxml2 (`WindowCensus` says which can); false keeps it.
    func cutIntoCensus(
        _ tag: UnsafePointer<UInt8>, _ count: Int, _ start: Timestamp, _ end: Timestamp, segment: (at: UnsafePointer<UInt8>, count: Int),
        seen: inout Seen
    ) -> Bool {
        let record: StaticString = "<Record "
        guard count > record.utf8CodeUnitCount, Self.same(tag, record) else { return false }
        // Nested lines with a character reference are read: the zone test (`namesZone`) reads
        // them as written, and `key="HK&#84;imeZone"` is an `HKTimeZone` entry to the reader.
        let after = segment.at.distance(to: tag) + count + 1
        if after < segment.count, Self.hasCharacterReference(segment.at + after, segment.count - after) { return false }
        // As the reader skips them: a record ending before it starts or lasting over a year.
        guard end.seconds >= start.seconds, end.seconds - start.seconds <= Sample.longestSpan else { return false }
        // The attributes in one walk (a search for each key stopped at every space of the tag).
        guard let a = Self.recordAttributes(tag, count) else { return false }
        // A type written with an entity is read (the catalog knows names as the reader decodes them).
        guard let type = a.type, !Self.isSleep(type), memchr(type.at, 0x26, type.count) == nil else { return false }
        // A watch (its `device` says so, as the reader tells it): its first record is read, so
        // that the book knows the watch (`keepsWatch`).
        var isWatch = false
        if let device = a.device, Self.find(device.at, device.count, "model:Watch,") != nil {
            guard let source = a.sourceName else { return false }
            let name = UnsafeBufferPointer(start: source.at, count: source.count)
            if !seen.watchSources.contains(where: { $0.elementsEqual(name) }) {
                seen.watchSources.append(Array(name))
                return false
            }
            isWatch = true
        } else if let device = a.device, Self.hasCharacterReference(device.at, device.count) {
            // The reader tests the decoded text: a character reference can spell `model:Watch,`.
            return false
        }
        let t = typeIndex(type, seen: &seen)
        guard let metric = seen.types[t].metric else {
            // No date from a type the catalog does not have; a watch's source is named all the same.
            if isWatch {
                guard let source = plainSource(a.sourceName, seen: &seen) else { return false }
                seen.census.addSource(source, start: start.seconds)
            }
            seen.census.noteStart(start.seconds)
            return true
        }
        switch metric.rule {
        case .sum, .avg, .minMaxAvg, .latest: break
        case .nightAvg, .workoutAvg: return false
        }
        guard start.offset % 900 == 0 else { return false }
        // A sum gives data to every quarter-hour it overlaps (a local midnight is on one); one
        // longer than a day is read.
        if metric.rule == .sum, end.seconds - start.seconds > 86_400 { return false }
        guard let text = a.value, let value = NumberParser.parse(text.at, text.count) else { return false }
        let unit = a.unit.map { UnsafeBufferPointer(start: $0.at, count: $0.count) }
        if !(seen.types[t].unit.map { known in unit.map { known.elementsEqual($0) } ?? known.isEmpty } ?? false) {
            // As the reader converts: no unit is "".
            let bytes = unit.map(Array.init) ?? []
            let name = String(decoding: bytes, as: UTF8.self)
            seen.types[t].unit = bytes
            seen.types[t].conversion = metric.unit.convert(1, from: name).map { one in
                let zero = metric.unit.convert(0, from: name) ?? 0
                return (one - zero, zero)
            }
        }
        guard let (scale, zero) = seen.types[t].conversion, metric.implausibility(value * scale + zero) == nil else { return false }
        if metric.rule == .sum || isWatch {
            guard let source = plainSource(a.sourceName, seen: &seen) else { return false }
            seen.census.addSource(source, start: start.seconds)
        }
        seen.census.add(metric: metric.index, start: start, end: metric.rule == .sum ? end.seconds : nil)
        return true
    }

    /// The attributes of a record's start tag the census reads, each value's bytes in place.
    struct RecordAttributes {
        var type, sourceName, device, unit, value: (at: UnsafePointer<UInt8>, count: Int)?
    }

    /// One walk over the tag's attributes as Apple writes them (`name="value"`, one space apart
    /// or more); nil for any other layout (the record is then read).
    static func recordAttributes(_ tag: UnsafePointer<UInt8>, _ count: Int) -> RecordAttributes? {
        var a = RecordAttributes()
        var i = 1
        while i < count, tag[i] != 0x20 { i += 1 }
        while i < count {
            while i < count, tag[i] == 0x20 || tag[i] == 0x0A || tag[i] == 0x09 || tag[i] == 0x0D { i += 1 }
            if i >= count || tag[i] == UInt8(ascii: "/") { break }
            guard let eq = memchr(tag + i, 0x3D, count - i) else { return nil }
            let e = tag.distance(to: eq.assumingMemoryBound(to: UInt8.self))
            guard e + 1 < count, tag[e + 1] == 0x22 else { return nil }
            let v = e + 2
            guard v <= count, let q = memchr(tag + v, 0x22, count - v) else { return nil }
            let value = (tag + v, tag.distance(to: q.assumingMemoryBound(to: UInt8.self)) - v)
            func named(_ key: StaticString) -> Bool { e - i == key.utf8CodeUnitCount && same(tag + i, key) }
            switch e - i {
            case 4: if named("type") { a.type = value } else if named("unit") { a.unit = value }
            case 5: if named("value") { a.value = value }
            case 6: if named("device") { a.device = value }
            case 10: if named("sourceName") { a.sourceName = value }
            default: break
            }
            i = v + value.1 + 1
        }
        return a
    }

    /// The index in `seen.types` of a type's raw name, resolved against the catalog once.
    func typeIndex(_ type: (at: UnsafePointer<UInt8>, count: Int), seen: inout Seen) -> Int {
        func matches(_ i: Int) -> Bool {
            let known = seen.types[i].name
            return known.count == type.count && known.withUnsafeBufferPointer { memcmp($0.baseAddress!, type.at, type.count) == 0 }
        }
        if seen.lastType >= 0, matches(seen.lastType) { return seen.lastType }
        if let i = seen.types.indices.first(where: matches) {
            seen.lastType = i
            return i
        }
        let name = Array(UnsafeBufferPointer(start: type.at, count: type.count))
        seen.types.append((name, Catalog.metric(forType: String(decoding: name, as: UTF8.self)), nil, nil))
        seen.lastType = seen.types.count - 1
        return seen.lastType
    }

    /// The record's `sourceName` as written, when the census can decode it as the reader does;
    /// nil (the record is kept) when it has none or one the census cannot read.
    func plainSource(_ attribute: (at: UnsafePointer<UInt8>, count: Int)?, seen: inout Seen) -> [UInt8]? {
        guard let s = attribute, s.count > 0 else { return nil }
        let bytes = UnsafeBufferPointer(start: s.at, count: s.count)
        if let last = seen.lastSource, last.name.count == s.count,
            last.name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, s.at, s.count) == 0 })
        {
            return last.plain ? last.name : nil
        }
        let name = Array(bytes)
        let plain = WindowCensus.isPlainName(name)
        seen.lastSource = (name, plain)
        return plain ? name : nil
    }
}
