/// One date of one side of a comparison: every compared field by its payload path
/// (`metrics.step_count`, `sleep.in_bed_start`), as a number or a text, and the day's workouts.
///
/// Both kinds of input end here: days the readers and rules made (`init(_ day:)`, through the
/// field table, at full precision) and payload JSON read back (`PayloadReader`, rounded as the
/// wire has it). The date's zone and sync time are not compared.
struct ComparableDay: Sendable {
    var date: String
    var values: [String: OutputField.Scalar] = [:] {
        // A change makes the values the day's own (no `oldValue`: changed in place, not copied).
        didSet { fieldSet = nil }
    }
    /// Which compared fields `values` holds, by index into `compared`, where the day was made
    /// from a book's day or a census's stand-ins (`GapFinder.deliveredDates` reads it instead of
    /// the paths); nil once `values` change (set it again after, where the change is known), and
    /// for days read back from payload JSON or a store.
    var fieldSet: ComparedFieldSet?
    var workouts: [ComparableWorkout] = []
    /// A payload's `device_sync_timestamp`, when the day was read from payload JSON: it tells the
    /// app's several syncs of one date apart (`LatestSyncs`). Never compared.
    var deviceSync: Timestamp?
    /// The zone the day states (its payload's `timezone`). Never compared: it tells `--monitor`
    /// what "today" is for the person (`MonitorEnd`).
    var timezone: String?
    /// Source names of the input this day came from that the day's values do not name (the
    /// readers keep sources per input, not per date): the report's "sources it holds". The
    /// sleep source and the workouts' sources are in the values and workouts themselves.
    var inputSources: Set<String> = []

    /// Fields that describe the payload rather than the person: never compared.
    static let notCompared: Set<String> = ["date", "timezone", "device_sync_timestamp"]
    /// The fields a day is read through, with their paths: chosen once, not per field of each of
    /// the thousands of days a long export gives (each a hash of the path).
    /// Only each field's reader and path: a whole `OutputField` taken from the table per field of
    /// every day was six retains and releases (its texts and its reader). `fieldSet` indexes it.
    static let compared: [(read: @Sendable (FinishedDay) -> OutputField.Value?, path: String)] = OutputFields.all.compactMap { f in
        guard let path = f.payloadPath, !notCompared.contains(path) else { return nil }
        return (f.read, path)
    }
    /// Each compared path's index in `compared`.
    static let comparedIndex: [String: Int] = Dictionary(uniqueKeysWithValues: compared.enumerated().map { ($1.path, $0) })
    /// Whether `fieldSet` can hold every compared field; if not, days carry none.
    static let tracksFields = compared.count <= ComparedFieldSet.capacity

    /// The set of the compared fields `paths` name; nil when one is not a compared field or the
    /// table is too large for a set.
    static func fieldSet(of paths: some Sequence<String>) -> ComparedFieldSet? {
        guard tracksFields else { return nil }
        var set = ComparedFieldSet()
        for path in paths {
            guard let i = comparedIndex[path] else { return nil }
            set.insert(i)
        }
        return set
    }

    init(date: String) { self.date = date }

    /// A census date with the stand-ins `shared`, shared with the other dates of its metrics.
    init(date: String, sharing shared: StandInValues, inputSources: Set<String>) {
        self.date = date
        values = shared.values
        fieldSet = shared.fieldSet
        self.inputSources = inputSources
    }

    init(_ day: FinishedDay, inputSources: [String] = []) {
        self.init(day, sourceSet: Self.sourceSet(inputSources))
    }

    /// `sourceSet`: the input's source names as `sourceSet(_:)` makes them, made once for all
    /// of an input's days (thousands of dates, each splitting and hashing the same names again
    /// was a tenth of `compare`'s single-threaded end on the 3 GB export).
    ///
    /// `standIns`: a census's stand-ins for the fields the day lacks (a window read's date the
    /// book made a day for): the day's values are put over a copy of them, which copies their
    /// table as it is, rather than each stand-in's path hashed into the day's (that was most of
    /// the stand-ins' cost, on thousands of days a window read's book makes for its nights and
    /// workouts). The values are those `StandIns.fill` gives.
    init(_ day: FinishedDay, sourceSet: Set<String>, standIns: StandInValues? = nil) {
        date = day.date
        timezone = day.timezone
        inputSources = sourceSet
        // The values gathered first and made a dictionary once: grown one insert at a time, it
        // was resized three or four times a day.
        var pairs: [(String, OutputField.Scalar)] = []
        var set = standIns?.fieldSet ?? ComparedFieldSet()
        for (i, (read, path)) in Self.compared.enumerated() {
            guard let v = read(day) else { continue }
            if case .workouts(let list) = v {
                workouts = list.map(ComparableWorkout.init)
            } else {
                pairs.append((path, v.scalar))
                set.insert(i)
            }
        }
        if let standIns {
            var values = standIns.values
            for (path, v) in pairs { values[path] = v }
            self.values = values
        } else {
            values = Dictionary(pairs, uniquingKeysWith: { _, last in last })
        }
        fieldSet = Self.tracksFields && (standIns == nil || standIns?.fieldSet != nil) ? set : nil
    }

    /// An input's source names as a day holds them: HAE names a bucket made of several sources
    /// `Watch|iPhone`, each a source.
    static func sourceSet(_ names: [String]) -> Set<String> {
        Set(names.flatMap { $0.split(separator: "|").map(String.init) })
    }

    var isEmpty: Bool { values.isEmpty && workouts.isEmpty }

    /// Every source name the day holds: its input's, its sleep source (`Watch|iPhone` names
    /// two) and its workouts'.
    var sources: Set<String> {
        var out = inputSources
        addOwnSources(to: &out)
        return out
    }

    /// The source names the day itself holds beside its input's: its sleep source's and its
    /// workouts'.
    func addOwnSources(to names: inout Set<String>) {
        if case .text(let s)? = values["sleep.source"] {
            for name in s.split(separator: "|") where !name.isEmpty { names.insert(String(name)) }
        }
        for w in workouts { if let s = w.source, !s.isEmpty { names.insert(s) } }
    }
}

/// A workout as both sides can state it (payload units).
struct ComparableWorkout: Sendable, Equatable {
    var type: String
    var start: String
    var end: String
    /// Seconds since 1970 of `start`, for matching.
    var startSeconds: Int64
    var durationSeconds: Double
    var energyKcal: Double?
    var averageHeartRate: Double?
    var maximumHeartRate: Double?
    var distanceMetres: Double?
    var source: String?

    init(_ w: WorkoutSummary) {
        type = w.type
        start = w.start
        end = w.end
        startSeconds = w.startSeconds
        durationSeconds = w.durationSeconds
        energyKcal = w.energyKcal
        averageHeartRate = w.averageHeartRate
        maximumHeartRate = w.maximumHeartRate
        distanceMetres = w.distanceMetres
        source = w.source
    }

    init(type: String, start: String, end: String, startSeconds: Int64, durationSeconds: Double) {
        self.type = type
        self.start = start
        self.end = end
        self.startSeconds = startSeconds
        self.durationSeconds = durationSeconds
    }
}
