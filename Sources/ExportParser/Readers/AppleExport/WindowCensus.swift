import Foundation
import Synchronization

/// What `compare`'s window read learns from the records it cuts (issue 42, docs/export-xml.md
/// "The census"): the report states, per side, the first and last date with data, how many
/// dates and every source name, and the gaps name the last date a field came; a read of the
/// window alone would not know them. `ExportWindow` cuts a record into the census only when its
/// part in those is certain from its start tag: a catalogued type whose one date is its start's
/// (the average, min-max and latest rules), or whose dates are those of the UTC quarter-hours it
/// overlaps (the sum rule, for a record of at most a day: a local midnight of a zone whose offset
/// is whole quarter-hours is on a quarter-hour), a value the reader would take (its unit known,
/// the value plausible), whole quarter-hour offsets; or a running-mechanics sample (the
/// workout-average rule), whose start waits for the runs read at the end (`runDates`).
/// Anything else is read.
///
/// The local date depends on the zone timeline, known only at the end of the read, so the
/// census keeps UTC quarter-hours (a local midnight of a whole-quarter-hour zone is on one) by
/// metric and recorded offset, and `dates` maps them with the final clock.
struct WindowCensus: Sendable {
    struct Key: Hashable, Sendable {
        var metric: Int32
        /// The recorded offset in quarter-hours (the date of a read without a timeline).
        var offset: Int16
    }

    /// Per key, the quarter-hours (UTC seconds / 900) a cut record started in: words of 64 by
    /// word number.
    private(set) var slots: [Key: [Int64: UInt64]] = [:]
    /// The word being filled (records come in time order within a type): put into `slots` when
    /// another word or key comes.
    private var pending: (key: Key, word: Int64, bits: UInt64)?
    /// Source names of the cut records the day book would name (a sum's, a watch device's), as
    /// written in the file (entities not decoded yet), with the earliest start of a record
    /// naming each: `sourceNames`.
    private(set) var rawSources: [(name: [UInt8], firstStart: Int64)] = []
    /// The latest start of a cut record: a record starting after the export date is one the
    /// reader skips (`skippingAfter`).
    private(set) var latestStart = Int64.min
    private(set) var records = 0
    /// Running-mechanics samples cut (the workout-average rule), per metric: their starts in
    /// seconds since 2001, 32 bits as `RunningMechanics` keeps them, in the order met. Their
    /// dates are those of the runs that hold them, known only once the workouts (the file's
    /// last elements) are read: `runDates`. 4 bytes a sample, in memory to the end (181 k
    /// samples, 0.7 MB, in the 3 GB export; no temporary file a worker).
    private(set) var runningStarts: [(metric: Int, starts: [Int32])] = []

    /// A record of `metric` starting at `start`; a sum's `end` (it gives data to every
    /// quarter-hour it overlaps: each is inside one local date), nil for the other rules (the
    /// start's date only).
    mutating func add(metric: Int, start: Timestamp, end: Int64? = nil) {
        let key = Key(metric: Int32(metric), offset: Int16(start.offset / 900))
        records += 1
        if start.seconds > latestStart { latestStart = start.seconds }
        let first = Int64(LocalClock.floorDiv(start.seconds, 900))
        let last = end.map { Int64(LocalClock.floorDiv(max(start.seconds, $0 - 1), 900)) } ?? first
        for slot in first...last { set(slot, key) }
    }

    private mutating func set(_ slot: Int64, _ key: Key) {
        let word = Int64(LocalClock.floorDiv(slot, 64)), bit = UInt64(1) << UInt64(slot - word * 64)
        if let p = pending, p.key == key, p.word == word {
            pending!.bits |= bit
            return
        }
        flush()
        pending = (key, word, bit)
    }

    /// `name` (as written) is one of the census's sources, named by a record starting at `start`;
    /// its index in `rawSources` (`addSource(at:start:)` for the next record naming it).
    @discardableResult
    mutating func addSource(_ name: [UInt8], start: Int64) -> Int {
        if let i = rawSources.lastIndex(where: { $0.name == name }) {
            addSource(at: i, start: start)
            return i
        }
        rawSources.append((name, start))
        return rawSources.count - 1
    }

    /// The source at `index` of `rawSources` is named by a record starting at `start`.
    @inline(__always)
    mutating func addSource(at index: Int, start: Int64) {
        if start < rawSources[index].firstStart { rawSources[index].firstStart = start }
    }

    /// A running-mechanics sample of `metric` starting at `start` (seconds since 1970, whose
    /// distance from 2001 fits 32 bits: the cut checks it).
    mutating func addRunning(metric: Int, start: Int64) {
        records += 1
        if start > latestStart { latestStart = start }
        let t = Int32(start - WorkoutBook.epoch)
        if let i = runningStarts.firstIndex(where: { $0.metric == metric }) {
            runningStarts[i].starts.append(t)
        } else {
            runningStarts.append((metric, [t]))
        }
    }

    /// The dates whose runs hold a cut running-mechanics sample, with the metrics of those
    /// samples: `runs` are the book's running workouts by the local date they start on
    /// (`WorkoutBook.finish`), and a sample belongs to a date as `RunningMechanics.finish`
    /// takes it (its start within a run's start and end, both inclusive, the date's runs
    /// merged first). A sample may belong to two dates (runs of two dates that overlap), or
    /// to none.
    func runDates(runs: [Int: [(Int64, Int64)]]) -> [Int: Set<Int>] {
        var out: [Int: Set<Int>] = [:]
        guard !runs.isEmpty else { return out }
        let merged = runs.mapValues { RunningMechanics.merged($0) }
        for (metric, starts) in runningStarts {
            let sorted = starts.sorted()
            for (day, intervals) in merged {
                for (start, end) in intervals {
                    let i = RunningMechanics.lowerBound(sorted, start)
                    if i < sorted.count, Int64(sorted[i]) <= end {
                        out[day, default: []].insert(metric)
                        break
                    }
                }
            }
        }
        return out
    }

    /// A cut record of no catalogued metric whose source is named.
    mutating func noteStart(_ seconds: Int64) {
        records += 1
        if seconds > latestStart { latestStart = seconds }
    }

    /// The census without the records that start after `moment` (the export date: the reader
    /// skips them, `ExportElementHandler.exportMoment`): their quarter-hours after the moment's
    /// cleared, the running samples after it dropped (they keep their exact start), the
    /// sources only they named left out. Nil when a record kept by quarter-hour started in the
    /// moment's own quarter-hour (before or after it, the census cannot tell): read in full.
    func skippingAfter(_ moment: Int64) -> WindowCensus? {
        guard latestStart > moment else { return self }
        var out = self
        out.flush()
        let last = Int64(LocalClock.floorDiv(moment, 900))
        let lastWord = Int64(LocalClock.floorDiv(last, 64)), lastBit = last - lastWord * 64
        for (key, words) in out.slots {
            var kept: [Int64: UInt64] = [:]
            for (word, bits) in words where word <= lastWord {
                guard word == lastWord else {
                    kept[word] = bits
                    continue
                }
                if bits & (UInt64(1) << UInt64(lastBit)) != 0 { return nil }
                // The bits up to the moment's quarter-hour (below it: earlier quarter-hours).
                let early = bits & ((UInt64(1) << UInt64(lastBit)) - 1)
                if early != 0 { kept[word] = early }
            }
            out.slots[key] = kept
        }
        for i in out.runningStarts.indices {
            out.runningStarts[i].starts.removeAll { Int64($0) + WorkoutBook.epoch > moment }
        }
        out.rawSources.removeAll { $0.firstStart > moment }
        out.latestStart = moment
        return out
    }

    private mutating func flush() {
        guard let p = pending else { return }
        slots[p.key, default: [:]][p.word, default: 0] |= p.bits
        pending = nil
    }

    mutating func merge(_ other: WindowCensus) {
        var other = other
        flush()
        other.flush()
        for (key, words) in other.slots {
            slots[key, default: [:]].merge(words) { $0 | $1 }
        }
        for (name, start) in other.rawSources { addSource(name, start: start) }
        for (metric, starts) in other.runningStarts {
            if let i = runningStarts.firstIndex(where: { $0.metric == metric }) {
                runningStarts[i].starts.append(contentsOf: starts)
            } else {
                runningStarts.append((metric, starts))
            }
        }
        latestStart = max(latestStart, other.latestStart)
        records += other.records
    }

    /// The local dates the cut records give data to, with the metrics each gets, by `clock`
    /// (the one the day book's finish dates by). Nil when the clock's offset is not one whole
    /// number of quarter-hours throughout a quarter-hour of the census (a zone's mean time
    /// before standard time, Monrovia's −00:44:30 until 1972): a midnight falls inside it, and
    /// which side a record is on the census cannot tell; the side is read in full.
    func dates(clock: LocalClock) -> [Int: Set<Int>]? {
        var census = self
        census.flush()
        var out: [Int: Set<Int>] = [:]
        for (key, words) in census.slots {
            let offset = Int32(key.offset) * 900
            var lastDay = Int.min
            // In time order: the clock's cache of offset intervals follows (in a dictionary's
            // order each word looked the interval up anew). The words sorted with their bits,
            // not looked up again by key.
            for (word, bits) in words.sorted(by: { $0.key < $1.key }) {
                // A word's 16 hours inside one constant offset: each quarter-hour's date is
                // arithmetic, and none straddles a change.
                let wordStart = word * 64 * 900
                if let local = clock.offset(over: wordStart, wordStart + 64 * 900, recorded: offset) {
                    guard local % 900 == 0 else { return nil }
                    var b = bits
                    while b != 0 {
                        let i = Int64(b.trailingZeroBitCount)
                        b &= b - 1
                        let day = LocalClock.floorDiv(wordStart + i * 900 + Int64(local), 86_400)
                        if day != lastDay {
                            out[day, default: []].insert(Int(key.metric))
                            lastDay = day
                        }
                    }
                    continue
                }
                var b = bits
                while b != 0 {
                    let i = Int64(b.trailingZeroBitCount)
                    b &= b - 1
                    let first = Timestamp(seconds: (word * 64 + i) * 900, offset: offset)
                    let local = clock.offset(first)
                    guard local % 900 == 0, clock.offset(Timestamp(seconds: first.seconds + 899, offset: offset)) == local else {
                        return nil
                    }
                    let day = clock.day(first)
                    if day != lastDay {
                        out[day, default: []].insert(Int(key.metric))
                        lastDay = day
                    }
                }
            }
        }
        return out
    }

    /// The source names as the reader hands them over: the five named entities and character
    /// references decoded (the scan cut no record whose name holds another `&` or a control
    /// byte: `isPlainName`).
    var sourceNames: Set<String> {
        Set(rawSources.map { Self.decode($0.name) })
    }

    /// Whether the reader's text of `name` is `decode(name)`: no control byte (libxml2 turns
    /// tabs and line ends in attributes into spaces) and every `&` starts an entity `decode`
    /// knows; and no raw `<`, which no attribute value may hold: the record goes to libxml2,
    /// which reports the file malformed, as a full read does (tested once a source name).
    static func isPlainName(_ name: [UInt8]) -> Bool {
        if name.contains(where: { $0 < 0x20 || $0 == 0x3C }) { return false }
        guard name.contains(0x26) else { return true }
        return decodeOrNil(name) != nil
    }

    static func decode(_ name: [UInt8]) -> String {
        decodeOrNil(name) ?? String(decoding: name, as: UTF8.self)
    }

    private static func decodeOrNil(_ name: [UInt8]) -> String? {
        guard name.contains(0x26) else { return String(decoding: name, as: UTF8.self) }
        var out: [UInt8] = []
        var i = 0
        while i < name.count {
            guard name[i] == 0x26 else {
                out.append(name[i])
                i += 1
                continue
            }
            guard let semi = name[i...].firstIndex(of: 0x3B) else { return nil }
            let entity = String(decoding: name[(i + 1)..<semi], as: UTF8.self)
            let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            var scalar: Unicode.Scalar?
            if let s = named[entity] {
                scalar = s.unicodeScalars.first
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if entity.hasPrefix("#") {
                scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            }
            guard let scalar, scalar.value >= 0x20 else { return nil }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
            i = semi + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The census of every worker of one read, put together as each worker ends.
final class WindowCensusCollector: Sendable {
    private let state = Mutex(WindowCensus())

    func add(_ census: WindowCensus) {
        state.withLock { $0.merge(census) }
    }

    var census: WindowCensus { state.withLock { $0 } }
}
