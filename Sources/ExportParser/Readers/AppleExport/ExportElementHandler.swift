import CLibXML2
import Foundation

/// The element state machine of export.xml: turns SAX start/end tags into `Sample`, `Workout`,
/// `Correlation`, `ActivitySummary` and `Me` values for a `SampleSink`.
///
/// Only top-level `Record`s are samples; records inside a `Correlation` repeat top-level ones
/// (the DTD says so) and become the correlation's members, never samples. The hot path (a
/// top-level Record) compares names as bytes, interns repeated strings and parses numbers and
/// dates from the attribute bytes, so it builds no String per record unless the sink wants details.
/// One thread at a time (the tape player, then the caller after `finish`): see `TapePipeline` and
/// `ParallelSAXDriver`, and the promise on `SampleSink`.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the hot path reads attribute
/// names and values as `(pointer, count)` from the tape being played (`AttributeList`), valid for
/// the element's handling, and never keeps a pointer: what outlives the element is copied (interned
/// bytes, Strings, parsed numbers and dates). Kept as pointers because it is the export.xml hot
/// path (measured within 3 % of C).
// @unchecked Sendable: used by the tape player thread, then by the caller after `finish` has waited for it.
final class ExportElementHandler: @unchecked Sendable {
    enum Element: UInt8 {
        case healthData, record, correlation, workout, workoutActivity, workoutStatistics, workoutEvent
        case workoutRoute, fileReference, location, metadataEntry, hrvList, beat, activitySummary, exportDate, me, other
    }

    let sink: SampleSink
    let details: Bool
    // `@exclusivity(unchecked)`: the state the handler touches on every element; why that is safe is
    // the promise written on `SampleSink`.
    @exclusivity(unchecked) var report = ReadReport()
    /// Line and column of the start tag being handled (recorded on the tape), for skip reports.
    @exclusivity(unchecked) var position: (Int32, Int32) = (0, 0)

    @inline(__always)
    func locate() -> InputLocation { InputLocation(line: Int(position.0), column: Int(position.1)) }

    @exclusivity(unchecked) private var stack: [Element] = []
    @exclusivity(unchecked) private var interner = ByteInterner(makeString: XMLText.string)
    /// What is known about an interned type name, by id: its catalog row and the conversion of
    /// the unit it last came with (a type keeps its unit throughout a file, nearly always).
    private struct TypeInfo {
        var resolved = false
        var metric: Metric?
        var count = 0
        var unitID = Int.min
        var conversion: (Double, Double)?
    }
    @exclusivity(unchecked) private var types: [TypeInfo] = []
    @exclusivity(unchecked) private var hintType = -1, hintUnit = -1
    /// The last two sources, source versions and devices (the phone's and the watch's).
    @exclusivity(unchecked) private var recentSources = RecentIDs()
    @exclusivity(unchecked) private var recentVersions = RecentIDs()
    @exclusivity(unchecked) private var recentDevices = RecentIDs()

    /// A record's dates, its date and offset remembered from the last one.
    @exclusivity(unchecked) private var dates = RecentDateParser()

    // The record being read (top level or inside a correlation).
    @exclusivity(unchecked) private var rec = PendingRecord()
    @exclusivity(unchecked) private var correlation: Correlation?
    @exclusivity(unchecked) private var workout: Workout?
    /// Whether the sink heard `recordsEnded` (once, at the first top-level workout or activity
    /// summary).
    private var toldRecordsEnded = false
    /// `ExportDate`, the export moment: nothing the export holds can have started after it, so a
    /// record or workout that does (a device clock set years ahead) is skipped and counted
    /// (docs/export-xml.md, "ExportDate"; docs/rules.md, "The export moment"). Apple writes it
    /// first, before every record.
    private var exportMoment: Int64 = .max
    private var activity: WorkoutActivity?
    private var event: WorkoutEvent?
    private var route: WorkoutRoute?

    /// The sample handed to the sink for each top-level record (the hot path): memory this
    /// handler owns, rewritten in place (`sendSample`), as `HAEDatumMapper.scratch` is. Unsafe
    /// code (docs/architecture.md): allocated and initialised in `init`, deinitialised and freed
    /// in `deinit`; only the thread that plays the tapes touches it, and a sink reads it only
    /// during its `sample` call (one that keeps a sample copies it). The fields a record sets
    /// are set for every record (the interned names when their id changes, `scratchIDs`); the
    /// rest (metadata entries, bucket fields, occurrence) keep their initial values.
    private let scratch: UnsafeMutablePointer<Sample>
    /// The interned ids of the names `scratch` holds (-2: none set yet; -1: absent).
    private struct ScratchIDs {
        var type = -2, source = -2, version = -2, unit = -2, device = -2
    }
    @exclusivity(unchecked) private var scratchIDs = ScratchIDs()

    init(sink: SampleSink) {
        self.sink = sink
        self.details = sink.wantsDetails
        scratch = .allocate(capacity: 1)
        let never = Timestamp(seconds: 0, offset: 0)
        scratch.initialize(to: Sample(type: "", source: "", start: never, end: never))
        namePointers.initialize(repeating: nil, count: Self.nameSlots)
        nameKinds.initialize(repeating: .other, count: Self.nameSlots)
    }

    // MARK: - Names

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
            if memcmp(UnsafePointer(c), needle, n) == 0 { return true }
            at = UnsafePointer(c) + 1
        }
        return false
    }

    private func classify(_ name: UnsafePointer<UInt8>) -> Element {
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

    // MARK: - SAX events

    /// A start tag. The driver has checked that the root is `<HealthData>`.
    func start(name: UnsafePointer<UInt8>, attributes attrs: AttributeList) {
        let element = classify(name)
        let depth = stack.count
        stack.append(element)
        if depth == 0 { return }
        let parent = stack[depth - 1]
        switch element {
        case .record:
            if depth == 1 {
                beginRecord(attrs, member: false)
            } else if parent == .correlation, details {
                beginRecord(attrs, member: true)
            }
        case .metadataEntry:
            metadata(attrs, parent: parent, depth: depth)
        case .beat:
            if details, parent == .hrvList, rec.active {
                var bpm: Double?
                var time = ""
                for i in 0..<attrs.count {
                    if attrs.nameIs(i, "bpm") {
                        bpm = NumberParser.parse(attrs.valueStart(i), attrs.valueCount(i))
                    } else if attrs.nameIs(i, "time") {
                        time = attrs.string(i)
                    }
                }
                rec.beats.append(InstantaneousBeat(bpm: bpm, time: time))
            }
        case .workout where depth == 1:
            if !toldRecordsEnded { tellRecordsEnded() }
            beginWorkout(attrs)
        case .workoutStatistics:
            if let s = statistic(attrs) {
                if parent == .workoutActivity, activity != nil {
                    activity!.statistics.append(s)
                } else if parent == .workout, workout != nil {
                    workout!.statistics.append(s)
                }
            }
        case .workoutActivity where parent == .workout:
            let d = attrs.dictionary()
            activity = WorkoutActivity(
                uuid: d["uuid"], start: d["startDate"].flatMap(TimestampParser.parse),
                end: d["endDate"].flatMap(TimestampParser.parse), duration: d["duration"].flatMap(NumberParser.parse),
                durationUnit: d["durationUnit"])
        case .workoutEvent where parent == .workout || parent == .workoutActivity:
            let d = attrs.dictionary()
            event = WorkoutEvent(
                type: d["type"] ?? "", date: d["date"].flatMap(TimestampParser.parse),
                duration: d["duration"].flatMap(NumberParser.parse), durationUnit: d["durationUnit"])
        case .workoutRoute where parent == .workout || parent == .workoutActivity:
            let d = attrs.dictionary()
            route = WorkoutRoute(
                source: d["sourceName"], start: d["startDate"].flatMap(TimestampParser.parse),
                end: d["endDate"].flatMap(TimestampParser.parse))
        case .fileReference where parent == .workoutRoute:
            if let p = attrs.value(named: "path") { route?.filePaths.append(p) }
        case .location where parent == .workoutRoute:
            route?.inlineLocationCount += 1
        case .correlation where depth == 1:
            let d = attrs.dictionary()
            guard let (start, end) = interval(d, of: "correlation") else {
                correlation = nil
                return
            }
            var c = Correlation(type: d["type"] ?? "", source: d["sourceName"] ?? "", start: start, end: end)
            c.sourceVersion = d["sourceVersion"]
            c.device = d["device"]
            c.created = d["creationDate"].flatMap(TimestampParser.parse)
            correlation = c
        case .activitySummary where depth == 1:
            if !toldRecordsEnded { tellRecordsEnded() }
            let entries = attrs.entries()
            let date = entries.first { $0.key == "dateComponents" }?.value ?? ""
            report.activitySummaries += 1
            sink.activitySummary(ActivitySummary(date: date, attributes: entries.filter { $0.key != "dateComponents" }))
        case .exportDate where depth == 1:
            if let v = attrs.value(named: "value") {
                if let t = TimestampParser.parse(v) {
                    exportMoment = t.seconds
                    sink.exportDate(t)
                } else {
                    report.skip("unparseable ExportDate", at: locate())
                }
            }
        case .me where depth == 1:
            sink.me(Me(attributes: attrs.entries()))
        case .other where depth == 1:
            report.skip("element not aggregated: <\(String(cString: name))> (kept in the store)", at: locate())
            if details { sink.extra(ExtraItem(kind: String(cString: name), json: JSONText.object(attrs.entries()))) }
        default:
            break
        }
    }

    func end(name: UnsafePointer<UInt8>) {
        guard let element = stack.popLast() else { return }
        let depth = stack.count
        switch element {
        case .record where rec.active:
            if depth == 1 { finishTopLevelRecord() } else { finishMemberRecord() }
        case .correlation where depth == 1:
            if let c = correlation {
                report.correlations += 1
                sink.correlation(c)
            }
            correlation = nil
        case .workout where depth == 1:
            if let w = workout {
                report.workouts += 1
                if w.start.seconds > exportMoment {
                    report.skip(Self.afterExportMoment("workout"), at: locate())
                } else {
                    sink.workout(w)
                }
            }
            workout = nil
        case .workoutActivity:
            if let a = activity { workout?.activities.append(a) }
            activity = nil
        case .workoutEvent:
            if let e = event {
                if activity != nil { activity!.events.append(e) } else { workout?.events.append(e) }
            }
            event = nil
        case .workoutRoute:
            if let r = route { workout?.routes.append(r) }
            route = nil
        default:
            break
        }
    }

    // MARK: - Records

    private struct PendingRecord {
        var active = false
        var typeID = -1
        var sourceID = -1
        var unitID = -1
        var versionID = -1
        var value: Double?
        var valueText: String?
        var valueWasText = false
        var start: Timestamp?
        var end: Timestamp?
        var created: Timestamp?
        /// The interned device text (`deviceID`); -1 when none, or when it is not an HKDevice
        /// description and is then kept as written in `device`.
        var deviceID = -1
        var device: String?
        var timeZoneName: String?
        var metadataDigest = FNV1a()
        var hasMetadata = false
        var deviceIsWatch = false
        /// Inside a correlation (`beginRecord`).
        var member = false
        /// A member's metadata entries (a top-level record's go to `metadataObject`).
        var metadata: [MetadataEntry] = []
        var beats: [InstantaneousBeat] = []
        /// `metadata` and `beats` as a `Sample` keeps them: copies of their exact size, so that
        /// these two buffers stay this record's own and are emptied in place for the next one.
        ///
        /// Why (issue 24): handed over as they were, each buffer was shared by the sample, so
        /// `removeAll(keepingCapacity:)` at the next record made a new one of the old capacity
        /// (the most beats or members' entries any record had had), and every HRV sample and
        /// correlation member waiting in the store's queue held such a buffer: 11 MB of the 6.4 GB
        /// export's heap peak.
        var keptMetadata: [MetadataEntry] { metadata.isEmpty ? [] : metadata.withUnsafeBufferPointer { Array($0) } }
        var keptBeats: [InstantaneousBeat] { beats.isEmpty ? [] : beats.withUnsafeBufferPointer { Array($0) } }
        /// Line and column of its start tag; an `InputLocation` (whose copies count references)
        /// is made only for a skip.
        var position: (Int32, Int32) = (0, 0)
        var location: InputLocation { InputLocation(line: Int(position.0), column: Int(position.1)) }
        var problem: String?
    }

    /// A `Record`'s attributes. `member`: inside a correlation, whose members keep every detail as
    /// values (`Correlation.members`); a top-level record's metadata goes to `metadataObject`.
    private func beginRecord(_ attrs: AttributeList, member: Bool) {
        rec.active = true
        rec.member = member
        metadataObject.clear()
        rec.typeID = -1; rec.sourceID = -1; rec.unitID = -1; rec.versionID = -1
        rec.value = nil; rec.valueText = nil; rec.valueWasText = false
        rec.start = nil; rec.end = nil; rec.created = nil; rec.deviceID = -1; rec.timeZoneName = nil
        if rec.device != nil { rec.device = nil }
        rec.metadataDigest = FNV1a(); rec.hasMetadata = false; rec.deviceIsWatch = false
        rec.problem = nil
        if !rec.metadata.isEmpty { rec.metadata.removeAll(keepingCapacity: true) }
        if !rec.beats.isEmpty { rec.beats.removeAll(keepingCapacity: true) }
        for i in 0..<attrs.count {
            let n = attrs.name(i), v = attrs.valueStart(i), c = attrs.valueCount(i)
            switch recordAttribute(n) {
            case .type:
                rec.typeID = interner.intern(v, c, hint: hintType)
                hintType = rec.typeID
            case .startDate:
                rec.start = dates.parse(v, c)
                if rec.start == nil, rec.problem == nil { rec.problem = "unparseable startDate" }
            case .sourceName:
                rec.sourceID = internSource(v, c)
            case .sourceVersion where details:
                rec.versionID = internVersion(v, c)
            case .endDate:
                rec.end = dates.parse(v, c)
                if rec.end == nil, rec.problem == nil { rec.problem = "unparseable endDate" }
            case .value:
                rec.value = NumberParser.parse(v, c)
                if rec.value == nil {
                    rec.valueWasText = true
                    rec.valueText = internedString(v, c)
                } else if details, member {
                    // A number's text is kept for a correlation's member (`value_text` of
                    // `correlation_members`); the store keeps no text for a top-level record's
                    // number (`StoreSample.valueText`), so none is made for it.
                    rec.valueText = XMLText.string(v, c)
                }
            case .unit:
                rec.unitID = interner.intern(v, c, hint: hintUnit)
                hintUnit = rec.unitID
            case .creationDate where details:
                rec.created = dates.parse(v, c)
            case .device:
                rec.deviceIsWatch = Self.contains(v, c, "model:Watch,")
                if details {
                    rec.deviceID = deviceID(v, c)
                    if rec.deviceID < 0 { rec.device = XMLText.string(v, c) }
                }
            default:
                break
            }
        }
        rec.position = position
    }

    // MARK: - Attribute names by pointer

    /// The attributes of a record that are read.
    private enum RecordAttribute: UInt8 {
        case type, startDate, sourceName, sourceVersion, endDate, value, unit, creationDate, device, other
    }

    private static let nameSlots = 256
    /// Attribute names already told apart on the tape being played, by pointer: a name is a
    /// string of the recording parser's dictionary, which holds each string once, so within one
    /// tape (recorded by one parser) the same pointer is the same name and comparing pointers
    /// replaces comparing bytes (about 40 instructions an attribute, nine a record; docs/export-xml.md,
    /// "The fifth pass"). Emptied before each tape (`beginTape`): another tape's parser, or a
    /// dictionary freed since, may put another name at the same address. A slot holds the last
    /// name that hashed to it; a miss compares the bytes as before.
    private let namePointers = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: nameSlots)
    private let nameKinds = UnsafeMutablePointer<RecordAttribute>.allocate(capacity: nameSlots)

    deinit {
        scratch.deinitialize(count: 1)
        scratch.deallocate()
        namePointers.deallocate()
        nameKinds.deallocate()
    }

    /// A tape starts playing: the names it holds may be new strings at addresses seen before.
    func beginTape() { namePointers.update(repeating: nil, count: Self.nameSlots) }

    @inline(__always)
    private func recordAttribute(_ n: UnsafePointer<UInt8>) -> RecordAttribute {
        // Fibonacci hashing: the dictionary's strings lie a few bytes apart, so the address's
        // low bits alone put several of a record's nine names in one slot.
        let slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: n)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if namePointers[slot] == n { return nameKinds[slot] }
        let kind = Self.recordAttributeByBytes(n)
        namePointers[slot] = n
        nameKinds[slot] = kind
        return kind
    }

    private static func recordAttributeByBytes(_ n: UnsafePointer<UInt8>) -> RecordAttribute {
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

    private func metadata(_ attrs: AttributeList, parent: Element, depth: Int) {
        var keyIndex = -1, valueIndex = -1
        for i in 0..<attrs.count {
            if attrs.nameIs(i, "key") { keyIndex = i } else if attrs.nameIs(i, "value") { valueIndex = i }
        }
        guard keyIndex >= 0 else { return }
        let isTimeZone = attrs.valueCount(keyIndex) == 10 && memcmp(attrs.valueStart(keyIndex), "HKTimeZone", 10) == 0
        switch parent {
        case .record where rec.active:
            rec.hasMetadata = true
            rec.metadataDigest.add(attrs.valueStart(keyIndex), attrs.valueCount(keyIndex))
            rec.metadataDigest.separate()
            if valueIndex >= 0 { rec.metadataDigest.add(attrs.valueStart(valueIndex), attrs.valueCount(valueIndex)) }
            rec.metadataDigest.separate()
            if isTimeZone, valueIndex >= 0 { rec.timeZoneName = internedString(attrs.valueStart(valueIndex), attrs.valueCount(valueIndex)) }
            if details {
                if rec.member {
                    rec.metadata.append(entry(attrs, keyIndex, valueIndex))
                } else {
                    appendToMetadataObject(attrs, keyIndex, valueIndex)
                }
            }
        case .correlation:
            if details { correlation?.metadata.append(entry(attrs, keyIndex, valueIndex)) }
        case .workout:
            let e = entry(attrs, keyIndex, valueIndex)
            if isTimeZone { workout?.timeZoneName = e.value }
            workout?.metadata.append(e)
        case .workoutActivity:
            activity?.metadata.append(entry(attrs, keyIndex, valueIndex))
        case .workoutEvent:
            event?.metadata.append(entry(attrs, keyIndex, valueIndex))
        default:
            break
        }
    }

    /// A top-level record's metadata, written as the JSON object the store keeps
    /// (`sample_records.metadata_json`: `{"key":"value",…}`, entries in the record's order), from
    /// the attribute bytes, reused record after record. It is the text `JSONText.appendObject`
    /// makes of the entries `entry` would make (`MetadataObjectTests`), without their Strings: a
    /// value String an entry, an array of entries and the object built again from them were 130 M
    /// of the decoding thread's instructions on a 40 MB export (docs/store.md, store6). Handed to
    /// the sink with the sample (`SampleSink.sample(_:metadataObject:)`); the `}` is added then.
    private let metadataObject = ExportBytes(capacity: 1024)

    private func appendToMetadataObject(_ attrs: AttributeList, _ k: Int, _ v: Int) {
        metadataObject.append(metadataObject.count == 0 ? 0x7B : 0x2C)
        Self.appendJSONText(attrs.valueStart(k), attrs.valueCount(k), to: metadataObject)
        metadataObject.append(0x3A)
        if v >= 0 {
            Self.appendJSONText(attrs.valueStart(v), attrs.valueCount(v), to: metadataObject)
        } else {
            metadataObject.appendJSONString(nil, 0)
        }
    }

    /// An attribute value as the JSON string of its text (`XMLText.string`): the bytes copied
    /// between quotes when none needs escaping or decoding (`isPlainJSONText`: nearly every key
    /// and value), else escaped (`appendJSONString`) when they are ASCII without `&`, which
    /// `XMLText.string` keeps unchanged, else through that String (invalid UTF-8 repaired,
    /// `&#38;` read as `&`).
    static func appendJSONText(_ p: UnsafePointer<UInt8>, _ count: Int, to out: ExportBytes) {
        if isPlainJSONText(p, count) {
            out.reserve(count + 2)
            out.append(0x22)
            out.append(p, count)
            out.append(0x22)
            return
        }
        var ascii = true
        for i in 0..<count where p[i] >= 0x80 || p[i] == 0x26 {
            ascii = false
            break
        }
        if ascii { out.appendJSONString(p, count) } else { out.appendJSONString(XMLText.string(p, count)) }
    }

    /// Whether the `count` bytes at `p` are a JSON string's text as they are: no byte below 0x20,
    /// `"` or `\` (escaped in JSON), `&` (decoded by `XMLText.string`) or from 0x80 (UTF-8 that
    /// `XMLText.string` checks). Eight bytes at a time: a byte-at-a-time test of five conditions
    /// was most of the 67 M instructions the metadata objects cost on a 40 MB export. The word
    /// tests are the "has a byte less than n" and "has a zero byte" bit tricks, exact in saying
    /// whether any byte matches; a byte with its high bit set is caught by `x & high` first.
    @inline(__always)
    static func isPlainJSONText(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let quote = x ^ (ones &* 0x22), backslash = x ^ (ones &* 0x5C), amp = x ^ (ones &* 0x26)
            var hit = x | ((x &- ones &* 0x20) & ~x)
            hit |= (quote &- ones) & ~quote
            hit |= (backslash &- ones) & ~backslash
            hit |= (amp &- ones) & ~amp
            if hit & high != 0 { return false }
            i += 8
        }
        while i < count {
            let c = p[i]
            if c < 0x20 || c >= 0x80 || c == 0x22 || c == 0x5C || c == 0x26 { return false }
            i += 1
        }
        return true
    }

    private func tellRecordsEnded() {
        toldRecordsEnded = true
        sink.recordsEnded()
    }

    /// Keys repeat on every record (`HKMetadataKeyHeartRateMotionContext`): interned. Values are
    /// often unique (sync identifiers), so they are not.
    private func entry(_ attrs: AttributeList, _ k: Int, _ v: Int) -> MetadataEntry {
        MetadataEntry(key: internedString(attrs.valueStart(k), attrs.valueCount(k)), value: v >= 0 ? attrs.string(v) : "")
    }

    private static let devicePrefix: StaticString = "<<HKDevice: 0x"
    @exclusivity(unchecked) private var deviceScratch: [UInt8] = []
    private static let deviceStem: StaticString = "<<HKDevice"

    /// The HKDevice description without its memory address:
    /// `<<HKDevice: 0x282a45810>, name:Apple Watch, …>` → `<<HKDevice>, name:Apple Watch, …>`.
    /// The address differs on every record and means nothing (docs/export-xml.md,
    /// "Records"); without it a handful of devices intern to shared strings instead of a new String
    /// per record. Returns the interned text's id; -1 for other text, which the caller keeps as
    /// written.
    private func deviceID(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
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

    /// A record's device as a `Sample` holds it.
    private var recordDevice: String? { rec.deviceID >= 0 ? interner[rec.deviceID] : rec.device }

    /// A record's source: one of the last two, nearly always (a type's records interleave the
    /// phone's and the watch's), compared before the bytes are hashed.
    @inline(__always)
    private func internSource(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        recentSources.id(matching: { interner.holds($0, p, count) }, else: { interner.intern(p, count) })
    }

    /// A record's source version: like its source, one of the last two nearly always.
    @inline(__always)
    private func internVersion(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        recentVersions.id(matching: { interner.holds($0, p, count) }, else: { interner.intern(p, count) })
    }

    /// Interns and returns the shared String (two steps: the subscript must see the updated table).
    @inline(__always)
    private func internedString(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        let id = interner.intern(p, count)
        return interner[id]
    }

    @inline(__always)
    private func typeInfo(_ id: Int) -> Metric? {
        if id >= types.count { types.append(contentsOf: repeatElement(TypeInfo(), count: id - types.count + 1)) }
        if !types[id].resolved {
            types[id].resolved = true
            types[id].metric = Catalog.metric(forType: interner[id])
        }
        return types[id].metric
    }

    /// Builds the sample and hands it to the sink, or reports why it cannot be one. Handed over
    /// here rather than returned: an optional `Sample` returned and unwrapped was copied whole
    /// (five `memcpy` and the copy of each of its references a record; docs/export-xml.md,
    /// "The fifth pass").
    private func sendSample() {
        guard rec.typeID >= 0 else {
            report.skip("record without a type", at: rec.location)
            return
        }
        if let problem = rec.problem {
            report.skip("\(problem) (\(shortType(interner[rec.typeID])))", at: rec.location)
            return
        }
        guard let start = rec.start, let end = rec.end else {
            report.skip("record without startDate or endDate (\(shortType(interner[rec.typeID])))", at: rec.location)
            return
        }
        if end < start {
            report.skip("endDate before startDate (\(shortType(interner[rec.typeID])))", at: rec.location)
            return
        }
        if end.seconds - start.seconds > Sample.longestSpan {
            report.skip("record lasting more than a year (\(shortType(interner[rec.typeID])))", at: rec.location)
            return
        }
        if start.seconds > exportMoment {
            report.skip(Self.afterExportMoment("record"), at: rec.location)
            return
        }
        let metric = typeInfo(rec.typeID)
        var canonical: Double?
        if let metric {
            if let value = rec.value {
                let unitID = rec.unitID
                if types[rec.typeID].unitID != unitID {
                    let unit = unitID >= 0 ? interner[unitID] : ""
                    types[rec.typeID].unitID = unitID
                    types[rec.typeID].conversion = metric.unit.convert(1, from: unit).map { one in
                        let zero = metric.unit.convert(0, from: unit) ?? 0
                        return (one - zero, zero)
                    }
                }
                let conversion = types[rec.typeID].conversion
                if let (scale, offset) = conversion {
                    canonical = value * scale + offset
                    if let why = metric.implausibility(canonical!) {
                        report.skip(why, at: rec.location)
                        canonical = nil
                    }
                } else {
                    if unitID >= 0 {
                        report.skip("unknown unit \"\(interner[unitID])\" for \(shortType(metric.healthKitType))", at: rec.location)
                    } else {
                        report.skip(
                            "no unit given for \(shortType(metric.healthKitType)), so its value cannot be converted", at: rec.location)
                    }
                }
            } else if rec.valueWasText {
                report.skip("unparseable value for \(shortType(metric.healthKitType))", at: rec.location)
            } else {
                report.skip("record without a value (\(shortType(metric.healthKitType)))", at: rec.location)
            }
        }
        // The sample is `scratch`, rewritten in place, and moved out for the call and back: built
        // as a new value, it was assembled, copied whole for the call through the protocol and
        // both destroyed, four reference counts for each of its type, metric, source and device a
        // record (a third of this thread's time on the 3 GB export, perf). The interned names are
        // set only when their id changes (a file repeats them record after record).
        let sc = scratch
        if scratchIDs.type != rec.typeID {
            sc.pointee.type = interner[rec.typeID]
            sc.pointee.metric = metric
            scratchIDs.type = rec.typeID
        }
        if scratchIDs.source != rec.sourceID {
            sc.pointee.source = rec.sourceID >= 0 ? interner[rec.sourceID] : ""
            scratchIDs.source = rec.sourceID
        }
        if scratchIDs.version != rec.versionID {
            sc.pointee.sourceVersion = rec.versionID >= 0 ? interner[rec.versionID] : nil
            scratchIDs.version = rec.versionID
        }
        if scratchIDs.unit != rec.unitID {
            sc.pointee.unit = rec.unitID >= 0 ? interner[rec.unitID] : nil
            scratchIDs.unit = rec.unitID
        }
        if rec.deviceID >= 0 {
            if scratchIDs.device != rec.deviceID {
                sc.pointee.device = interner[rec.deviceID]
                scratchIDs.device = rec.deviceID
            }
        } else {
            // No device, or one kept as written: never the same id as an interned one.
            sc.pointee.device = rec.device
            scratchIDs.device = -1
        }
        sc.pointee.valueText = rec.valueText
        sc.pointee.value = rec.value
        sc.pointee.canonicalValue = canonical
        sc.pointee.start = start
        sc.pointee.end = end
        sc.pointee.created = rec.created
        if sc.pointee.timeZoneName != nil || rec.timeZoneName != nil { sc.pointee.timeZoneName = rec.timeZoneName }
        if details || !sc.pointee.beats.isEmpty { sc.pointee.beats = details ? rec.keptBeats : [] }
        sc.pointee.metadataDigest = rec.hasMetadata ? rec.metadataDigest.value : 0
        sc.pointee.deviceIsWatch = rec.deviceIsWatch
        let sample = sc.move()
        if details {
            if metadataObject.count > 0 { metadataObject.append(0x7D) }
            sink.sample(sample, metadataObject: metadataObject.bytes)
        } else {
            sink.sample(sample)
        }
        sc.initialize(to: consume sample)
    }

    /// The skip reason of a record or workout that starts after `ExportDate`.
    static func afterExportMoment(_ what: String) -> String {
        "\(what) starting after the export moment (ExportDate): not data the export can hold"
    }

    private func finishTopLevelRecord() {
        rec.active = false
        if rec.typeID >= 0 {
            _ = typeInfo(rec.typeID)
            types[rec.typeID].count += 1
        }
        sendSample()
    }

    private func finishMemberRecord() {
        rec.active = false
        guard correlation != nil, let typeID = Optional(rec.typeID), typeID >= 0,
            let start = rec.start, let end = rec.end
        else { return }
        let s = Sample(
            type: interner[typeID], source: rec.sourceID >= 0 ? interner[rec.sourceID] : "",
            sourceVersion: rec.versionID >= 0 ? interner[rec.versionID] : nil, device: recordDevice,
            unit: rec.unitID >= 0 ? interner[rec.unitID] : nil, valueText: rec.valueText, value: rec.value,
            start: start, end: end, created: rec.created, timeZoneName: rec.timeZoneName, metadata: rec.keptMetadata,
            beats: rec.keptBeats)
        correlation?.members.append(s)
    }

    /// The `startDate` and `endDate` of a top-level correlation or workout; nil, with the element
    /// counted as skipped, when either is missing or unreadable.
    private func interval(_ d: [String: String], of what: String) -> (Timestamp, Timestamp)? {
        guard let start = d["startDate"].flatMap(TimestampParser.parse), let end = d["endDate"].flatMap(TimestampParser.parse) else {
            report.skip("\(what) with a missing or unparseable date", at: locate())
            return nil
        }
        return (start, end)
    }

    // MARK: - Workouts

    private func beginWorkout(_ attrs: AttributeList) {
        let d = attrs.dictionary()
        guard let (start, end) = interval(d, of: "workout") else {
            workout = nil
            return
        }
        var w = Workout(
            activityType: d["workoutActivityType"] ?? "HKWorkoutActivityTypeOther", source: d["sourceName"] ?? "", start: start, end: end)
        w.sourceVersion = d["sourceVersion"]
        w.device = d["device"]
        w.created = d["creationDate"].flatMap(TimestampParser.parse)
        w.duration = workoutFigure(d["duration"], "duration")
        w.durationUnit = d["durationUnit"]
        w.totalDistance = workoutFigure(d["totalDistance"], "totalDistance")
        w.totalDistanceUnit = d["totalDistanceUnit"]
        w.totalEnergyBurned = workoutFigure(d["totalEnergyBurned"], "totalEnergyBurned")
        w.totalEnergyBurnedUnit = d["totalEnergyBurnedUnit"]
        workout = w
    }

    /// Read from the attribute bytes as a record is, its type and unit interned: a dictionary of
    /// Strings made for each statistic cost about 17,000 instructions (docs/export-xml.md, "The
    /// fifth pass"). XML allows no attribute twice, so each is met at most once.
    private func statistic(_ attrs: AttributeList) -> WorkoutStatistic? {
        var type: String?, unit: String?
        var start: Timestamp?, end: Timestamp?
        var average: Double?, minimum: Double?, maximum: Double?, sum: Double?
        for i in 0..<attrs.count {
            let v = attrs.valueStart(i), c = attrs.valueCount(i)
            if attrs.nameIs(i, "type") {
                type = internedString(v, c)
            } else if attrs.nameIs(i, "startDate") {
                start = TimestampParser.parse(v, c)
            } else if attrs.nameIs(i, "endDate") {
                end = TimestampParser.parse(v, c)
            } else if attrs.nameIs(i, "sum") {
                sum = NumberParser.parse(v, c)
            } else if attrs.nameIs(i, "average") {
                average = NumberParser.parse(v, c)
            } else if attrs.nameIs(i, "minimum") {
                minimum = NumberParser.parse(v, c)
            } else if attrs.nameIs(i, "maximum") {
                maximum = NumberParser.parse(v, c)
            } else if attrs.nameIs(i, "unit") {
                unit = internedString(v, c)
            }
        }
        guard let type else { return nil }
        return WorkoutStatistic(
            type: type, start: start, end: end,
            average: workoutFigure(average, "WorkoutStatistics average"),
            minimum: workoutFigure(minimum, "WorkoutStatistics minimum"),
            maximum: workoutFigure(maximum, "WorkoutStatistics maximum"),
            sum: workoutFigure(sum, "WorkoutStatistics sum"), unit: unit)
    }

    /// A workout's number: nil, with a counted skip, when it is negative (no workout has a
    /// negative duration, distance, energy or heart rate). Non-numbers are nil as before.
    private func workoutFigure(_ text: String?, _ name: String) -> Double? {
        workoutFigure(text.flatMap(NumberParser.parse), name)
    }

    private func workoutFigure(_ number: Double?, _ name: String) -> Double? {
        guard let v = number else { return nil }
        if v < 0 {
            report.skip("negative workout \(name)", at: locate())
            return nil
        }
        return v
    }

    // MARK: - End

    /// Moves the per-type counters into the report.
    func finalizeReport() -> ReadReport {
        for (id, t) in types.enumerated() where t.count > 0 { report.recordsByType[interner[id], default: 0] += t.count }
        for i in types.indices { types[i].count = 0 }
        return report
    }

    private func shortType(_ t: String) -> String {
        for p in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier"] where t.hasPrefix(p) { return String(t.dropFirst(p.count)) }
        return t
    }
}

@inline(__always)
private func memcmp(_ a: UnsafePointer<UInt8>, _ b: StaticString, _ n: Int) -> Int32 {
    let l = b.utf8Start
    for i in 0..<n where a[i] != l[i] { return 1 }
    return 0
}
