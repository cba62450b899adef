/// Explains a `sleep.*` field: the night's window, the source the sleep rule chose, the stage
/// intervals of the night and the time each adds to its stage's union (docs/rules.md, "Sleep").
/// The value is the payload's; the parts are the union's, so for hours they add up to it.
enum SleepExplainer {
    static let rule =
        "sleep: the night ending on the date (12:00 the day before to 12:00); stages of one choice of source (every Apple Watch "
        + "when any has stages, else the highest-priority source with asleep samples), each stage the union of its intervals; "
        + "total = core + deep + rem + asleep time no stage covers; on a night with only InBed, the InBed union"

    static func explain(_ d: AttributedDay, key: String, into e: inout Explanation) {
        e.rule = rule
        let n = d.attribution.day
        e.notes.append("night window: \(CivilDate.isoDate(n - 1))T12:00 to \(CivilDate.isoDate(n))T12:00 local")
        let all = d.attribution.sleepSamples.compactMap { s in
            s.valueText.flatMap(SleepSegment.stage(for:)).map { (sample: s, stage: $0) }
        }
        let chosenSource = d.day?.sleep?.source
        let asleep: Set<SleepSegment.Stage> = [.unspecified, .core, .deep, .rem]
        let staged = all.filter { $0.stage != .inBed }
        let watch = staged.filter { SourcePriority.isAppleWatch($0.sample.source, watches: d.watches) }
        // The rule's staged choice; a choice without asleep time leaves the night to InBed.
        let stagedChoice = watch.isEmpty ? staged.filter { $0.sample.source == chosenSource } : watch
        let legacy = !stagedChoice.contains { asleep.contains($0.stage) }
        func chosen(_ x: (sample: Sample, stage: SleepSegment.Stage)) -> Bool {
            if legacy { return x.stage == .inBed && x.sample.source == chosenSource }
            if x.stage == .inBed { return false }
            return watch.isEmpty ? x.sample.source == chosenSource : SourcePriority.isAppleWatch(x.sample.source, watches: d.watches)
        }
        if let chosenSource, !all.isEmpty {
            e.notes.append(
                "chosen source: \(chosenSource)" + (watch.isEmpty ? "" : " (every Apple Watch source's stages)")
                    + (legacy ? " (InBed only: a legacy night)" : ""))
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
        let order = all.indices.sorted { all[$0].sample.start.seconds < all[$1].sample.start.seconds }
        var counted = Array(repeating: Double?.none, count: all.count)
        var used = Array(repeating: false, count: all.count)
        let stageUnion = IntervalSet(
            all.filter { chosen($0) && [.core, .deep, .rem].contains($0.stage) }.map { ($0.sample.start.seconds, $0.sample.end.seconds) })
        for stage in stages {
            var covered = stage == .unspecified ? stageUnion : IntervalSet()
            for i in order where all[i].stage == stage && chosen(all[i]) {
                let s = all[i].sample
                let adds = (s.end.seconds - s.start.seconds) - covered.covered(s.start.seconds, s.end.seconds)
                counted[i] = Double(max(0, adds)) / 3600
                used[i] = true
                covered.formUnion([(s.start.seconds, s.end.seconds)])
            }
        }
        let isText = e.field.kind.isText
        e.samples = order.map { i in
            let s = all[i].sample
            return ExplainedSample(
                start: d.iso(s.start), end: d.iso(s.end), text: "\(all[i].stage)", source: s.source,
                device: ExplainedSample.deviceName(s.device), counted: isText ? nil : (counted[i] ?? 0),
                used: isText ? chosen(all[i]) || all[i].stage == .inBed : used[i],
                note: chosen(all[i]) ? nil : "not the chosen source")
        }
        for (stage, union) in stageUnions(all.filter(chosen)) {
            e.notes.append("\(stage) union: " + union.spans.map { "\(clockTime(d, $0.0))–\(clockTime(d, $0.1))" }.joined(separator: ", "))
        }
        explainSummaries(d, key: key, segments: all, into: &e)
    }

    /// A night the samples give no sleep for takes the nights the input summarised (HAE), added
    /// (`NightBook.summarize`): each summary is a row counting its own hours.
    private static func explainSummaries(
        _ d: AttributedDay, key: String, segments: [(sample: Sample, stage: SleepSegment.Stage)], into e: inout Explanation
    ) {
        let summaries = d.attribution.nightSummaries
        guard !summaries.isEmpty else { return }
        let fromSamples = SleepNight.resolve(
            segments.map { SleepSegment(start: $0.sample.start, end: $0.sample.end, stage: $0.stage, source: $0.sample.source) },
            priority: d.priority, clock: d.clock, watches: d.watches)
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

    private static func stageUnions(_ chosen: [(sample: Sample, stage: SleepSegment.Stage)]) -> [(String, IntervalSet)] {
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
