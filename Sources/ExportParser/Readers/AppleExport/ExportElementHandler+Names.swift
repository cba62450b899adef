import Foundation

/// Names told apart from their bytes: a tag's (`classify`), a record's attributes (by pointer
/// first, `recordAttribute`) and an HKDevice text without its address (`deviceID`). Each runs
/// once per element or attribute of the file, so they compare bytes in place and keep no
/// pointer past the element (see the type's comment on unsafe code).
extension ExportElementHandler {
    @inline(__always)
    static func equals(_ p: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        let l = literal.utf8Start
        for i in 0..<n where p[i] != l[i] { return false }
        return p[n] == 0
    }

    /// Whether `count` bytes at `p` contain `needle` (a short ASCII literal).
    @inline(__always)
    static func contains(_ p: UnsafePointer<UInt8>, _ count: Int, _ needle: StaticString) -> Bool {
        // It runs on the `device` of nearly every record: libc's vectorised memchr finds each
        // candidate first byte, and only those are compared.
        let n = needle.utf8CodeUnitCount
        guard count >= n else { return false }
        let first = Int32(needle.utf8Start[0])
        var at = p
        let last = p + (count - n)
        while at <= last, let found = memchr(at, first, last - at + 1) {
            let c = found.assumingMemoryBound(to: UInt8.self)
            if same(UnsafePointer(c), needle, n) { return true }
            at = UnsafePointer(c) + 1
        }
        return false
    }

    func classify(_ name: UnsafePointer<UInt8>) -> Element {
        switch name[0] {
        case UInt8(ascii: "R"): if Self.equals(name, "Record") { return .record }
        case UInt8(ascii: "M"):
            if Self.equals(name, "MetadataEntry") { return .metadataEntry }
            if Self.equals(name, "Me") { return .me }
        case UInt8(ascii: "I"): if Self.equals(name, "InstantaneousBeatsPerMinute") { return .beat }
        case UInt8(ascii: "H"):
            if Self.equals(name, "HeartRateVariabilityMetadataList") { return .hrvList }
            if Self.equals(name, "HealthData") { return .healthData }
        case UInt8(ascii: "W"):
            if Self.equals(name, "Workout") { return .workout }
            if Self.equals(name, "WorkoutStatistics") { return .workoutStatistics }
            if Self.equals(name, "WorkoutEvent") { return .workoutEvent }
            if Self.equals(name, "WorkoutActivity") { return .workoutActivity }
            if Self.equals(name, "WorkoutRoute") { return .workoutRoute }
        case UInt8(ascii: "C"): if Self.equals(name, "Correlation") { return .correlation }
        case UInt8(ascii: "A"): if Self.equals(name, "ActivitySummary") { return .activitySummary }
        case UInt8(ascii: "E"): if Self.equals(name, "ExportDate") { return .exportDate }
        case UInt8(ascii: "F"): if Self.equals(name, "FileReference") { return .fileReference }
        case UInt8(ascii: "L"): if Self.equals(name, "Location") { return .location }
        default: break
        }
        return .other
    }

    /// Whether the `n` bytes at `a` are the first `n` bytes of `b`.
    @inline(__always)
    static func same(_ a: UnsafePointer<UInt8>, _ b: StaticString, _ n: Int) -> Bool {
        let l = b.utf8Start
        for i in 0..<n where a[i] != l[i] { return false }
        return true
    }

    // MARK: - Attribute names by pointer

    /// The attributes of a record that are read.
    enum RecordAttribute: UInt8 {
        case type, startDate, sourceName, sourceVersion, endDate, value, unit, creationDate, device, other
    }

    @inline(__always)
    func recordAttribute(_ n: UnsafePointer<UInt8>) -> RecordAttribute {
        // Fibonacci hashing: the dictionary's strings lie a few bytes apart, so the address's
        // low bits alone put several of a record's nine names in one slot.
        let slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: n)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if namePointers[slot] == n { return nameKinds[slot] }
        let kind = Self.recordAttributeByBytes(n)
        namePointers[slot] = n
        nameKinds[slot] = kind
        return kind
    }

    static func recordAttributeByBytes(_ n: UnsafePointer<UInt8>) -> RecordAttribute {
        switch n[0] {
        case UInt8(ascii: "t"): if equals(n, "type") { return .type }
        case UInt8(ascii: "s"):
            if equals(n, "startDate") { return .startDate }
            if equals(n, "sourceName") { return .sourceName }
            if equals(n, "sourceVersion") { return .sourceVersion }
        case UInt8(ascii: "e"): if equals(n, "endDate") { return .endDate }
        case UInt8(ascii: "v"): if equals(n, "value") { return .value }
        case UInt8(ascii: "u"): if equals(n, "unit") { return .unit }
        case UInt8(ascii: "c"): if equals(n, "creationDate") { return .creationDate }
        case UInt8(ascii: "d"): if equals(n, "device") { return .device }
        default: break
        }
        return .other
    }

    static let devicePrefix: StaticString = "<<HKDevice: 0x"
    static let deviceStem: StaticString = "<<HKDevice"

    /// The HKDevice description without its memory address:
    /// `<<HKDevice: 0x282a45810>, name:Apple Watch, …>` → `<<HKDevice>, name:Apple Watch, …>`.
    /// The address differs on every record and means nothing (docs/export-xml.md,
    /// "Records"); without it a handful of devices intern to shared strings instead of a new String
    /// per record. Returns the interned text's id; -1 for other text, which the caller keeps as
    /// written.
    func deviceID(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let prefix = Self.devicePrefix
        let n = prefix.utf8CodeUnitCount
        guard count > n, memcmp(p, prefix.utf8Start, n) == 0,
            let found = memchr(p + n, Int32(UInt8(ascii: ">")), count - n)
        else { return -1 }
        let close = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - p
        let tail = p + close, tailCount = count - close
        // One of the last two devices, nearly always, compared in place before the text is copied
        // together and hashed.
        let id = recentDevices.id(matching: { interner.holds($0, prefixedBy: Self.deviceStem, tail, tailCount) }) {
            deviceScratch.removeAll(keepingCapacity: true)
            deviceScratch.append(contentsOf: "<<HKDevice".utf8)
            deviceScratch.append(contentsOf: UnsafeBufferPointer(start: tail, count: tailCount))
            return deviceScratch.withUnsafeBufferPointer { b in interner.intern(b.baseAddress!, b.count) }
        }
        return id
    }
}
