/// Explains a `sleep.*` field: the date's sleep sessions (each named by its first start, last
/// end and samples), the source the sleep rule chose in each, the stage intervals and the time
/// each adds to its stage's union (docs/rules.md, "Nights" and "Sleep"). The value is the
/// payload's; the parts are the unions', so for hours they add up to it.
enum SleepExplainer {
    static let rule =
        "sleep: the sessions ending on the date (samples of any stage and source chained while each starts less than 3 h after "
        + "the session's end so far), each on its own and added; stages of one choice of source (every Apple Watch when any has "
        + "stages, else the highest-priority source with asleep samples), each stage the union of its intervals; "
        + "total = core + deep + rem + asleep time no stage covers; a session with only InBed counts its InBed union"

    typealias Staged = (sample: Sample, stage: SleepSegment.Stage)

    static func explain(_ d: AttributedDay, key: String, into e: inout Explanation) {
        e.rule = rule
        let all = d.attribution.sleepSamples.compactMap { s in
            s.valueText.flatMap(SleepSegment.stage(for:)).map { (sample: s, stage: $0) }
        }
        let order = all.indices.sorted {
            (all[$0].sample.start.seconds, $0) < (all[$1].sample.start.seconds, $1)
        }
        let sessions = SleepSessions.split(
            count: order.count, start: { all[order[$0]].sample.start.seconds }, end: { all[order[$0]].sample.end.seconds })
        var counted = Array(repeating: Double?.none, count: all.count)
        var used = Array(repeating: false, count: all.count)
        var chosenFlags = Array(repeating: false, count: all.count)
        for (number, range) in sessions.enumerated() {
            let members = range.map { order[$0] }
            let first = members.map { all[$0].sample.start }.min()!
            let last = members.map { all[$0].sample.end }.max()!
            e.notes.append(
                "session \(number + 1) of \(sessions.count): \(d.iso(first)) to \(d.iso(last)), \(members.count) sample"
                    + (members.count == 1 ? "" : "s"))
            explainSession(d, key: key, all: all, members: members, counted: &counted, used: &used, chosen: &chosenFlags, into: &e)
        }
        let isText = e.field.kind.isText
        e.samples = order.map { i in
            let s = all[i].sample
            return ExplainedSample(
                start: d.iso(s.start), end: d.iso(s.end), text: "\(all[i].stage)", source: s.source,
                device: ExplainedSample.deviceName(s.device), counted: isText ? nil : (counted[i] ?? 0),
                used: isText ? chosenFlags[i] || all[i].stage == .inBed : used[i],
                // Any source's InBed frames its session's window (docs/rules.md, "Sleep", 6).
                note: chosenFlags[i] ? nil : all[i].stage == .inBed ? "frames the in-bed window; not counted" : "not the chosen source")
        }
        explainSummaries(d, key: key, segments: all, sessions: sessions.map { $0.map { order[$0] } }, into: &e)
    }

    /// One session: its choice of source (the sleep rule's, `SleepNight`), and what each of its
    /// samples counts for the field.
    private static func explainSession(
        _ d: AttributedDay, key: String, all: [Staged], members: [Int], counted: inout [Double?], used: inout [Bool],
        chosen chosenFlags: inout [Bool], into e: inout Explanation
    ) {
        let own = members.map { all[$0] }
        let chosenSource = SleepNight.resolve(
            own.map { SleepSegment(start: $0.sample.start, end: $0.sample.end, stage: $0.stage, source: $0.sample.source) },
            priority: d.priority, clock: d.clock, watches: d.watches)?.source
        let asleep: Set<SleepSegment.Stage> = [.unspecified, .core, .deep, .rem]
        let staged = own.filter { $0.stage != .inBed }
        let watch = staged.filter { SourcePriority.isAppleWatch($0.sample.source, watches: d.watches) }
        // The rule's staged choice; a choice without asleep time leaves the session to InBed.
        let stagedChoice = watch.isEmpty ? staged.filter { $0.sample.source == chosenSource } : watch
        let legacy = !stagedChoice.contains { asleep.contains($0.stage) }
        func chosen(_ x: Staged) -> Bool {
            if legacy { return x.stage == .inBed && x.sample.source == chosenSource }
            if x.stage == .inBed { return false }
            return watch.isEmpty ? x.sample.source == chosenSource : SourcePriority.isAppleWatch(x.sample.source, watches: d.watches)
        }
        if let chosenSource {
            e.notes.append(
                "  chosen source: \(chosenSource)" + (watch.isEmpty ? "" : " (every Apple Watch source's stages)")
                    + (legacy ? " (InBed only: a legacy session)" : ""))
        } else {
            e.notes.append("  no sleep in this session (awake only)")
        }
        // Which stages make the field, and in what order their time is claimed: stages first,
        // then asleep-unspecified only where no stage lies.
        let stages: [SleepSegment.Stage]
        switch key {
        case "core_hours": stages = [.core]
        case "deep_hours": stages = [.deep]
        case "rem_hours": stages = [.rem]
        case "awake_hours": stages = [.awake]
        case "total_hours": stages = legacy ? [.inBed] : [.core, .deep, .rem, .unspecified]
        default: stages = []
        }
        for i in members { chosenFlags[i] = chosenSource != nil && chosen(all[i]) }
        let stageUnion = IntervalSet(
            own.filter { chosen($0) && [.core, .deep, .rem].contains($0.stage) }.map { ($0.sample.start.seconds, $0.sample.end.seconds) })
        for stage in stages {
            var covered = stage == .unspecified ? stageUnion : IntervalSet()
            for i in members where all[i].stage == stage && chosenFlags[i] {
                let s = all[i].sample
                let adds = (s.end.seconds - s.start.seconds) - covered.covered(s.start.seconds, s.end.seconds)
                counted[i] = Double(max(0, adds)) / 3600
                used[i] = true
                covered.formUnion([(s.start.seconds, s.end.seconds)])
            }
        }
        for (stage, union) in stageUnions(own.filter(chosen)) {
            e.notes.append(
                "  \(stage) union: " + union.spans.map { "\(clockTime(d, $0.0))–\(clockTime(d, $0.1))" }.joined(separator: ", "))
        }
    }

    /// A night the samples give no sleep for takes the nights the input summarised (HAE), added
    /// (`NightBook.summarize`): each summary is a row counting its own hours.
    private static func explainSummaries(
        _ d: AttributedDay, key: String, segments: [Staged], sessions: [[Int]], into e: inout Explanation
    ) {
        let summaries = d.attribution.nightSummaries
        guard !summaries.isEmpty else { return }
        let fromSamples = SleepNight.resolve(
            sessions: sessions.map { session in
                session.map {
                    SleepSegment(
                        start: segments[$0].sample.start, end: segments[$0].sample.end, stage: segments[$0].stage,
                        source: segments[$0].sample.source)
                }
            },
            ranks: SourceRanks(priority: d.priority, watches: d.watches), clock: d.clock)
        guard fromSamples == nil else {
            e.notes.append("the input's own summaries of the night are not used: its samples give the night")
            return
        }
        e.notes.append("no sleep samples give this night: the payload adds the input's own summaries of it (HAE)")
        let hours: (SleepSummary) -> Double? =
            switch key {
            case "total_hours": { $0.totalHours }
            case "core_hours": { $0.coreHours }
            case "deep_hours": { $0.deepHours }
            case "rem_hours": { $0.remHours }
            case "awake_hours": { $0.awakeHours }
            default: { _ in nil }
            }
        let isText = e.field.kind.isText
        e.samples =
            e.samples.map {
                var s = $0; s.counted = isText ? nil : 0; s.used = false; s.note = "the night's summary is used"; return s
            }
            + summaries.map { n in
                ExplainedSample(
                    start: d.iso(n.sleepStart ?? n.inBedStart ?? n.sleepEnd), end: d.iso(n.sleepEnd), text: "night summary",
                    source: n.source ?? "", counted: isText ? nil : (hours(n) ?? 0), used: true)
            }
    }

    private static func stageUnions(_ chosen: [Staged]) -> [(String, IntervalSet)] {
        let stages: [SleepSegment.Stage] = [.inBed, .unspecified, .awake, .core, .deep, .rem]
        return stages.compactMap { stage in
            let list = chosen.filter { $0.stage == stage }
            return list.isEmpty ? nil : ("\(stage)", IntervalSet(list.map { ($0.sample.start.seconds, $0.sample.end.seconds) }))
        }
    }

    private static func clockTime(_ d: AttributedDay, _ seconds: Int64) -> String {
        let offset = d.attribution.sleepSamples.first?.start.offset ?? 0
        return d.iso(Timestamp(seconds: seconds, offset: offset))
    }
}
