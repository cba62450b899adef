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
/// This file holds the handler's state and the start/end dispatch; what each element does lives
/// beside it, one file a kind, so that the hot path reads on its own and the rarely seen elements
/// are edited without scrolling through it: `+Records` (a `Record`, the hot path), `+Names` (tag
/// and attribute names told apart from their bytes), `+Metadata` (`MetadataEntry`),
/// `+Workouts` (a workout and its children), `+Correlations` (a correlation and its members) and
/// `+ExportElements` (`ExportDate`, `Me`, `ActivitySummary`, elements not aggregated). Their
/// members are internal rather than private only so that these files reach them; the release
/// build optimises the module whole, so calls across the files inline as they did within one.
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
    @exclusivity(unchecked) var interner = ByteInterner(makeString: XMLText.string)
    /// What is known about an interned type name, by id: its catalog row and the conversion of
    /// the unit it last came with (a type keeps its unit throughout a file, nearly always).
    struct TypeInfo {
        var resolved = false
        var metric: Metric?
        var count = 0
        var unitID = Int.min
        var conversion: (Double, Double)?
    }
    @exclusivity(unchecked) var types: [TypeInfo] = []
    @exclusivity(unchecked) var hintType = -1, hintUnit = -1
    /// The last two sources, source versions and devices (the phone's and the watch's).
    @exclusivity(unchecked) var recentSources = RecentIDs()
    @exclusivity(unchecked) var recentVersions = RecentIDs()
    @exclusivity(unchecked) var recentDevices = RecentIDs()

    /// A record's dates, its date and offset remembered from the last one.
    @exclusivity(unchecked) var dates = RecentDateParser()

    // The record being read (top level or inside a correlation).
    @exclusivity(unchecked) var rec = PendingRecord()
    @exclusivity(unchecked) var correlation: Correlation?
    @exclusivity(unchecked) var workout: Workout?
    /// Whether the sink heard `recordsEnded` (once, at the first top-level workout or activity
    /// summary).
    var toldRecordsEnded = false
    /// `ExportDate`, the export moment: nothing the export holds can have started after it, so a
    /// record or workout that does (a device clock set years ahead) is skipped and counted
    /// (docs/export-xml.md, "ExportDate"; docs/rules.md, "The export moment"). Apple writes it
    /// first, before every record.
    var exportMoment: Int64 = .max
    var activity: WorkoutActivity?
    var event: WorkoutEvent?
    var route: WorkoutRoute?

    /// The sample handed to the sink for each top-level record (the hot path): memory this
    /// handler owns, rewritten in place (`sendSample`), as `HAEDatumMapper.scratch` is. Unsafe
    /// code (docs/architecture.md): allocated and initialised in `init`, deinitialised and freed
    /// in `deinit`; only the thread that plays the tapes touches it, and a sink reads it only
    /// during its `sample` call (one that keeps a sample copies it). The fields a record sets
    /// are set for every record (the interned names when their id changes, `scratchIDs`); the
    /// rest (metadata entries, bucket fields, occurrence) keep their initial values.
    let scratch: UnsafeMutablePointer<Sample>
    /// The interned ids of the names `scratch` holds (-2: none set yet; -1: absent).
    struct ScratchIDs {
        var type = -2, source = -2, version = -2, unit = -2, device = -2
    }
    @exclusivity(unchecked) var scratchIDs = ScratchIDs()
    /// The interned ids of the sleep type (last) and of the sleep values (`WalkedElement.values`,
    /// by index) once a walked sleep sample needed them (`walkedSleep`); -1 before.
    @exclusivity(unchecked) var walkedSleepIDs = [Int](repeating: -1, count: WalkedElement.values.count + 1)

    init(sink: SampleSink) {
        self.sink = sink
        self.details = sink.wantsDetails
        scratch = .allocate(capacity: 1)
        let never = Timestamp(seconds: 0, offset: 0)
        scratch.initialize(to: Sample(type: "", source: "", start: never, end: never))
        namePointers.initialize(repeating: nil, count: Self.nameSlots)
        nameKinds.initialize(repeating: .other, count: Self.nameSlots)
    }

    /// How many attribute names `namePointers` remembers (`+Names`, `recordAttribute`).
    static let nameSlots = 256
    /// Attribute names already told apart on the tape being played, by pointer: a name is a
    /// string of the recording parser's dictionary, which holds each string once, so within one
    /// tape (recorded by one parser) the same pointer is the same name and comparing pointers
    /// replaces comparing bytes (about 40 instructions an attribute, nine a record; docs/export-xml.md,
    /// "The fifth pass"). Emptied before each tape (`beginTape`): another tape's parser, or a
    /// dictionary freed since, may put another name at the same address. A slot holds the last
    /// name that hashed to it; a miss compares the bytes as before.
    let namePointers = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: nameSlots)
    let nameKinds = UnsafeMutablePointer<RecordAttribute>.allocate(capacity: nameSlots)

    /// A top-level record's metadata entries, their texts decoded from the attribute bytes,
    /// reused record after record (`+Metadata`, `appendToRecordMetadata`). Lent to the sink with
    /// the sample (`SampleSink.sample(_:metadata:)`).
    let recordMetadata = MetadataEntryTexts()
    /// Where an HKDevice text is put together without its address before it is interned
    /// (`+Names`, `deviceID`).
    @exclusivity(unchecked) var deviceScratch: [UInt8] = []

    deinit {
        scratch.deinitialize(count: 1)
        scratch.deallocate()
        namePointers.deallocate()
        nameKinds.deallocate()
    }

    /// A tape starts playing: the names it holds may be new strings at addresses seen before.
    func beginTape() { namePointers.update(repeating: nil, count: Self.nameSlots) }

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
            if details, parent == .hrvList, rec.active { beat(attrs) }
        case .workout where depth == 1:
            if !toldRecordsEnded { tellRecordsEnded() }
            beginWorkout(attrs)
        case .workoutStatistics:
            workoutStatistics(attrs, parent: parent)
        case .workoutActivity where parent == .workout:
            beginWorkoutActivity(attrs)
        case .workoutEvent where parent == .workout || parent == .workoutActivity:
            beginWorkoutEvent(attrs)
        case .workoutRoute where parent == .workout || parent == .workoutActivity:
            beginWorkoutRoute(attrs)
        case .fileReference where parent == .workoutRoute:
            if let p = attrs.text("path") { route?.filePaths.append(p) }
        case .location where parent == .workoutRoute:
            route?.inlineLocationCount += 1
        case .correlation where depth == 1:
            beginCorrelation(attrs)
        case .activitySummary where depth == 1:
            if !toldRecordsEnded { tellRecordsEnded() }
            activitySummary(attrs)
        case .exportDate where depth == 1:
            exportDate(attrs)
        case .me where depth == 1:
            sink.me(Me(attributes: attrs.entries()))
        case .other where depth == 1:
            elementNotAggregated(name, attrs)
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
            endCorrelation()
        case .workout where depth == 1:
            endWorkout()
        case .workoutActivity:
            endWorkoutActivity()
        case .workoutEvent:
            endWorkoutEvent()
        case .workoutRoute:
            endWorkoutRoute()
        default:
            break
        }
    }

    /// The sink hears `recordsEnded` once, at the first top-level workout or activity summary
    /// (Apple writes every record before them).
    func tellRecordsEnded() {
        toldRecordsEnded = true
        sink.recordsEnded()
    }

    /// The skip reason of a record or workout that starts after `ExportDate`.
    static func afterExportMoment(_ what: String) -> String {
        "\(what) starting after the export moment (ExportDate): not data the export can hold"
    }

    /// The `startDate` and `endDate` of a top-level correlation or workout; nil, with the element
    /// counted as skipped, when either is missing or unreadable.
    func interval(_ attrs: AttributeList, of what: String) -> (Timestamp, Timestamp)? {
        guard let start = attrs.timestamp("startDate"), let end = attrs.timestamp("endDate") else {
            report.skip("\(what) with a missing or unparseable date", at: locate())
            return nil
        }
        return (start, end)
    }

    // MARK: - End

    /// Moves the per-type counters into the report.
    func finalizeReport() -> ReadReport {
        for (id, t) in types.enumerated() where t.count > 0 { report.recordsByType[interner[id], default: 0] += t.count }
        for i in types.indices { types[i].count = 0 }
        return report
    }

    /// A HealthKit type without its `HKQuantityTypeIdentifier`/`HKCategoryTypeIdentifier` prefix,
    /// as skip reasons name it.
    func shortType(_ t: String) -> String {
        for p in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier"] where t.hasPrefix(p) { return String(t.dropFirst(p.count)) }
        return t
    }
}
