/// The sleep rule for one night (docs/rules.md, "Sleep"), session by session ("Nights").
///
/// Stages come from one choice of source: every Apple Watch source when any has stage data that
/// night, otherwise the highest-priority source with asleep samples. Within the choice each stage
/// is the union of its intervals, so overlapping samples are not counted twice. Total asleep =
/// core + deep + rem + unspecified, where unspecified counts only for time no stage covers. A
/// stage with no time is left out. InBed frames the night (earliest start, latest end, widened to
/// cover the sleep it frames), and stands in for the total on legacy nights that have nothing else.
struct SleepSegment {
    enum Stage: UInt8 { case inBed, unspecified, awake, core, deep, rem }
    var start: Timestamp
    var end: Timestamp
    var stage: Stage
    var source: String

    static func stage(for value: String) -> Stage? {
        switch value {
        case "HKCategoryValueSleepAnalysisInBed": return .inBed
        case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified": return .unspecified
        case "HKCategoryValueSleepAnalysisAwake": return .awake
        case "HKCategoryValueSleepAnalysisAsleepCore": return .core
        case "HKCategoryValueSleepAnalysisAsleepDeep": return .deep
        case "HKCategoryValueSleepAnalysisAsleepREM": return .rem
        default: return nil
        }
    }
}

enum SleepNight {
    /// `watches` names the sources known to be watches by their records' device.
    static func resolve(_ segments: [SleepSegment], priority: SourcePriority, clock: LocalClock, watches: Set<String> = []) -> SleepResult?
    {
        resolve(segments, ranks: SourceRanks(priority: priority, watches: watches), clock: clock)
    }

    /// The same, with the sources' ranks of a pass over many nights (each source's worked out once).
    static func resolve(_ segments: [SleepSegment], ranks: SourceRanks, clock: LocalClock) -> SleepResult? {
        resolve(sessions: [segments], ranks: ranks, clock: clock)
    }

    /// A date's night from its sessions (docs/rules.md, "Nights"): each session resolved on its
    /// own (its own choice of source), then added. Hours are summed (a stage is there when any
    /// session has it); the in-bed window runs from the earliest session's start to the latest
    /// one's end, as for several nights HAE states on one date (`NightBook.summarize`); the source
    /// is that of the session with the most sleep (the earlier on a tie). Sessions are at least
    /// three hours apart, so no interval is counted in two.
    static func resolve(sessions: [[SleepSegment]], ranks: SourceRanks, clock: LocalClock) -> SleepResult? {
        var parts: [Session] = []
        for s in sessions { if let r = session(s, ranks: ranks) { parts.append(r) } }
        guard var out = parts.first?.result else { return nil }
        var main = parts[0]
        var frame = (start: parts[0].frameStart, end: parts[0].frameEnd)
        func add(_ a: Double?, _ b: Double?) -> Double? { a.map { $0 + (b ?? 0) } ?? b }
        for p in parts.dropFirst() {
            out.totalHours += p.result.totalHours
            out.coreHours = add(out.coreHours, p.result.coreHours)
            out.deepHours = add(out.deepHours, p.result.deepHours)
            out.remHours = add(out.remHours, p.result.remHours)
            out.awakeHours = add(out.awakeHours, p.result.awakeHours)
            if p.result.totalHours > main.result.totalHours { main = p }
            if let s = p.frameStart, frame.start.map({ s < $0 }) ?? true { frame.start = s }
            if let e = p.frameEnd, frame.end.map({ e > $0 }) ?? true { frame.end = e }
        }
        out.source = main.result.source
        if let s = frame.start, let e = frame.end {
            out.inBedStart = clock.iso(s)
            out.inBedEnd = clock.iso(e)
        }
        return out
    }

    /// One session's sleep, its in-bed window as instants (written by `resolve(sessions:)`).
    private struct Session {
        var result: SleepResult
        var frameStart: Timestamp?
        var frameEnd: Timestamp?
    }

    private static func session(_ segments: [SleepSegment], ranks: SourceRanks) -> Session? {
        guard !segments.isEmpty else { return nil }
        let staged = segments.filter { $0.stage != .inBed }
        let inBed = segments.filter { $0.stage == .inBed }
        // Lists of stages, not sets: a night asks about a few stages of a few dozen segments, and
        // hashing each segment's stage (and making a set a question) was a fifth of a night's
        // work (docs/hae.md, "Rendering and start-up").
        let asleepStages: [SleepSegment.Stage] = [.unspecified, .core, .deep, .rem]

        var chosen: [SleepSegment] = []
        var sourceName: String?
        // Told once a source (`ranks`), not once a segment: folding a name costs more than the
        // rest of a segment's work, and a night has dozens of segments from one or two sources.
        let watch = staged.filter { ranks.isAppleWatch($0.source) }
        if !watch.isEmpty {
            chosen = watch
            sourceName = ranks.order(sources(of: watch)).first
        } else {
            if let best = ranks.order(sources(of: staged.filter { asleepStages.contains($0.stage) })).first {
                chosen = staged.filter { $0.source == best }
                sourceName = best
            }
        }

        func union(_ stages: [SleepSegment.Stage]) -> IntervalSet {
            var spans: [(Int64, Int64)] = []
            for s in chosen where stages.contains(s.stage) { spans.append((s.start.seconds, s.end.seconds)) }
            return IntervalSet(spans)
        }
        func hours(_ seconds: Int64) -> Double? { seconds > 0 ? Double(seconds) / 3600 : nil }
        func hours(_ stage: SleepSegment.Stage) -> Double? { hours(union([stage]).total) }

        var result: SleepResult
        let asleep = chosen.filter { asleepStages.contains($0.stage) }
        if !asleep.isEmpty {
            let core = hours(.core), deep = hours(.deep), rem = hours(.rem)
            // Unspecified asleep only where no stage covers it: another app's whole-night
            // `asleep` beside the stages is not counted a second time.
            let stages = union([.core, .deep, .rem])
            let unspecified = hours(union([.unspecified]).spans.reduce(Int64(0)) { $0 + ($1.1 - $1.0) - stages.covered($1.0, $1.1) })
            result = SleepResult(totalHours: (core ?? 0) + (deep ?? 0) + (rem ?? 0) + (unspecified ?? 0))
            result.coreHours = core
            result.deepHours = deep
            result.remHours = rem
            result.awakeHours = hours(.awake)
        } else if !inBed.isEmpty {
            // Legacy nights (iPhone bedtime only): the in-bed window is all there is.
            let best = ranks.order(sources(of: inBed)).first!
            let own = inBed.filter { $0.source == best }
            result = SleepResult(totalHours: Double(IntervalSet(own.map { ($0.start.seconds, $0.end.seconds) }).total) / 3600)
            sourceName = best
        } else if !chosen.isEmpty {
            // Only awake samples: no sleep that night.
            return nil
        } else {
            return nil
        }
        result.source = sourceName
        let frame = inBed + asleep
        return Session(
            result: result, frameStart: frame.min(by: { $0.start < $1.start })?.start, frameEnd: frame.max(by: { $0.end < $1.end })?.end)
    }

    /// The distinct sources of `segments`, in the order they first come. A night's segments run
    /// from one or two sources, so a neighbour is compared first and a short list searched,
    /// rather than every name hashed into a set. (Its order is no answer's: `SourceRanks.order`
    /// sorts the names by tier and name.)
    private static func sources(of segments: [SleepSegment]) -> [String] {
        var out: [String] = []
        for s in segments where out.last != s.source && !out.contains(s.source) { out.append(s.source) }
        return out
    }
}
