/// Turns one decoded datum of a known metric into what the sink receives: a `Sample`, a
/// `SleepSummary`, or a counted skip with the datum's JSON path and byte offset.
///
/// The rules (docs/hae.md, "Metrics" and "Sleep"; docs/rules.md):
/// - A datum with `date` only is an aggregated bucket (`isBucket`, start = end = bucket start);
///   one with `startDate`/`endDate` is a single HealthKit sample.
/// - `heart_rate` buckets carry `Min/Avg/Max`: value = Avg, extremes in `bucketMinimum/Maximum`.
///   A `heart_rate` datum with only `qty` is one sample; one with Min = Avg = Max is one sample
///   when the metric's datums are readings, not summarized buckets (`heartRateBucket`).
/// - Day buckets of wrist temperature move to the next local midnight (see `emitWristTemperature`).
/// - Aggregated sleep becomes a `SleepSummary` dated by `sleepEnd`; segments become category samples.
///
/// One mapper serves one metric object. It is a class so the walker holds it by reference (no
/// copy of the shape's strings per datum), and it tallies what it did per metric, handing the
/// totals to the report once in `finish` instead of a dictionary update per datum.
final class HAEDatumMapper {
    let shape: HAEMetricShape
    let wantsDetails: Bool
    private var samples = 0
    private var nights = 0
    /// Datums that were emitted but cannot feed a payload field: not in the catalog, or a unit
    /// that does not convert. Counted, with the first few locations.
    private var unaggregated = 0
    private var unaggregatedExamples: [InputLocation] = []
    private let unaggregatedReason: String?

    /// The file's modification time (epoch seconds): a datum or night that starts after it is
    /// skipped (`afterMoment`). `.max`: no bound.
    var moment: Int64 = .max
    static let afterMoment = "HAE datum starting after its file was last written (modification time): not data the file can hold"

    /// Whether this metric's wrist-temperature buckets are day buckets (see `emitWristTemperature`).
    private enum BucketSize { case undecided, days, finer }
    private var wristBuckets = BucketSize.undecided
    /// Wrist-temperature buckets held while undecided: one per night, so few; capped.
    private var heldWristTemperatures: [Sample] = []
    static let wristHoldLimit = 4096

    /// Whether this metric's `heart_rate` datums dated by `date` with Min = Avg = Max are
    /// readings (seconds grouping, Summarize off) or summarized buckets (`heartRateBucket`).
    private enum HeartRateDatums { case undecided, readings, buckets }
    private var heartRates = HeartRateDatums.undecided
    /// Such datums held while undecided; capped like the wrist temperatures.
    private var heldHeartRates: [Sample] = []
    /// Such datums a window read skipped while undecided (`skippedHeartRates`): counted among the
    /// held, never emitted; and whether all were at local midnight.
    private var skippedHolds = 0
    private var skippedHoldsAtMidnight = true
    /// What the metric's equal datums at whole minutes turned out to be (true: buckets), nil
    /// while undecided: `compare`'s window read dates the ones it skipped by it.
    var heartRatesAreBuckets: Bool? {
        switch heartRates {
        case .undecided: nil
        case .readings: false
        case .buckets: true
        }
    }
    /// HAE rounds hours and times; a total may exceed its window by this much before it is
    /// taken as impossible.
    static let windowSlackHours = 1.0 / 60

    /// The sample handed to the sink for each quantity datum (the hot path): memory this mapper
    /// owns, rewritten in place field by field. Built as a new value per datum, the sample was
    /// assembled, copied whole into memory for the call and both destroyed: a copy and two
    /// destroys a datum, ten reference counts each (5.5 % of a convert's instructions; docs/hae.md,
    /// "What limits it"). Unsafe code (docs/architecture.md): allocated and initialised in `init`,
    /// deinitialised and freed in `deinit`; only the walker's thread touches it, and a sink reads it
    /// only during its `sample` call (one that keeps a sample copies it). The fields a quantity
    /// datum sets are all set for every datum; the rest keep their initial values.
    private let scratch: UnsafeMutablePointer<Sample>
    /// The walker's id of the source name `scratch` holds (`HAEDatumFields.sourceID`; −1: "").
    private var scratchSourceID = -1

    init(shape: HAEMetricShape, wantsDetails: Bool) {
        self.shape = shape
        self.wantsDetails = wantsDetails
        scratch = .allocate(capacity: 1)
        let never = Timestamp(seconds: 0, offset: 0)
        scratch.initialize(to: Sample(type: shape.type, metric: shape.metric, source: "", unit: shape.units, start: never, end: never))
        switch shape.kind {
        case .uncataloged: unaggregatedReason = "HAE metric not in catalog (kept as hae:\(shape.name))"
        case .sleep: unaggregatedReason = nil
        default:
            unaggregatedReason =
                shape.unitConverts
                ? nil
                : "unknown unit \(shape.units.map { "'\($0)'" } ?? "(none)") for HAE metric \(shape.name)"
        }
    }

    deinit {
        scratch.deinitialize(count: 1)
        scratch.deallocate()
    }

    /// Ends the metric: emits held wrist temperatures and adds this metric's counts to the report.
    func finish(into sink: SampleSink, report: inout ReadReport) {
        if wristBuckets == .undecided, !heldWristTemperatures.isEmpty { decideWristBuckets(.days, sink) }
        if heartRates == .undecided, !heldHeartRates.isEmpty || skippedHolds > 0 { decideHeldHeartRates(sink) }
        if samples > 0 { report.recordsByType[shape.type, default: 0] += samples }
        if nights > 0 { report.recordsByType["hae:" + HAEMetricShape.sleepName, default: 0] += nights }
        if shape.kind == .uncataloged {
            // Kept for the store as they are, on purpose: not a skip.
            if unaggregated > 0 { report.storeOnly[shape.type, default: 0] += unaggregated }
        } else if let reason = unaggregatedReason, unaggregated > 0 {
            report.skips[reason, default: 0] += unaggregated
            for l in unaggregatedExamples where report.skipExamples[reason, default: []].count < 3 {
                report.skipExamples[reason, default: []].append(l)
            }
        }
        samples = 0
        nights = 0
        unaggregated = 0
        unaggregatedExamples.removeAll()
    }

    func emit(_ d: HAEDatumFields, into sink: SampleSink, report: inout ReadReport) {
        switch shape.kind {
        case .sleep:
            if let sleep = d.sleep, d.stage == nil { emitNight(d, sleep, sink, &report) } else { emitSegment(d, sink, &report) }
        default:
            emitQuantity(d, sink, &report)
        }
    }

    private func location(_ d: HAEDatumFields, _ field: String? = nil) -> InputLocation {
        InputLocation(byteOffset: d.byteOffset, path: shape.path + ".data[\(d.index)]" + (field.map { "." + $0 } ?? ""))
    }

    /// The instant(s) of a quantity datum, or nil after reporting the skip.
    private func instants(_ d: HAEDatumFields, _ report: inout ReadReport) -> (start: Timestamp, end: Timestamp, bucket: Bool)? {
        if d.hasStartDate || d.startDate != nil {
            guard let s = d.startDate else {
                report.skip("HAE datum without a parseable date", at: location(d, "startDate"))
                return nil
            }
            let e = d.endDate ?? s
            guard e.seconds - s.seconds <= Sample.longestSpan else {
                report.skip("HAE datum lasting more than a year", at: location(d, "endDate"))
                return nil
            }
            return (s, e, false)
        }
        guard let t = d.date else {
            report.skip("HAE datum without a parseable date", at: location(d, "date"))
            return nil
        }
        return (t, t, true)
    }

    private func emitQuantity(_ d: HAEDatumFields, _ sink: SampleSink, _ report: inout ReadReport) {
        guard case (let start, let end, var bucket)? = instants(d, &report) else { return }
        if start.seconds > moment {
            report.skip(Self.afterMoment, at: location(d))
            return
        }
        // A heart-rate datum that cannot be told a reading or a bucket yet (`heartRateBucket`).
        var holding = false
        var value = d.qty
        var minimum: Double? = nil, maximum: Double? = nil
        if shape.kind == .heartRate {
            if let avg = d.avg {
                value = avg
                minimum = shape.canonical(d.min)
                maximum = shape.canonical(d.max)
                // HAE writes Min/Avg/Max for single samples too (seconds grouping, the default
                // for heart rate, and Summarize off): Min = Avg = Max there. But a summarized
                // bucket whose readings agree (or a day with one reading) looks the same, and
                // a bucket does not say how many readings it holds. Which one a datum is, the
                // metric's other datums tell (`heartRateBucket`; docs/hae.md, "heart_rate").
                let equal = d.min == avg && d.max == avg
                if bucket {
                    if let decided = heartRateBucket(at: start, equal: equal, sink) { bucket = decided } else { holding = true }
                } else {
                    bucket = !equal
                }
            } else {
                bucket = false  // one heart-rate sample, even when dated by `date`
            }
        } else if value == nil, shape.kind == .uncataloged {
            value = d.avg
        }
        if shape.kind != .uncataloged, value == nil {
            report.skip("HAE datum without a value", at: location(d, shape.kind == .heartRate ? "Avg" : "qty"))
            return
        }
        if unaggregatedReason != nil {
            unaggregated += 1
            if unaggregatedExamples.count < 3 { unaggregatedExamples.append(location(d)) }
        }
        var canonical = shape.canonical(value)
        if let metric = shape.metric, let c = canonical {
            // The same check as export.xml's, on the value and on a bucket's extremes.
            // Asked one by one (a partial application of `metric.implausibility` passed to
            // `flatMap` retained and released the metric each time).
            var why = metric.implausibility(c)
            if why == nil, let m = minimum { why = metric.implausibility(m) }
            if why == nil, let m = maximum { why = metric.implausibility(m) }
            if let why {
                report.skip(why, at: location(d))
                canonical = nil
            }
        }
        samples += 1
        if holding {
            // Held until the metric shows whether its equal datums are readings or buckets.
            var s = Sample(
                type: shape.type, metric: shape.metric, source: d.source ?? "", unit: shape.units, value: value,
                canonicalValue: canonical, start: start, end: end, metadata: wantsDetails ? d.extras : [])
            s.bucketMinimum = minimum
            s.bucketMaximum = maximum
            s.occurrence = Self.occurrence(d)
            holdHeartRate(s, sink)
            return
        }
        if shape.kind == .wristTemperature, bucket {
            // May be held (a few a night): a sample of its own.
            var s = Sample(
                type: shape.type, metric: shape.metric, source: d.source ?? "", unit: shape.units, value: value,
                canonicalValue: canonical, start: start, end: end, metadata: wantsDetails ? d.extras : [])
            s.isBucket = bucket
            s.bucketMinimum = minimum
            s.bucketMaximum = maximum
            s.occurrence = Self.occurrence(d)
            emitWristTemperature(s, sink)
            return
        }
        // Moved out of `scratch` for the call and back (`scratch.pointee` as the argument was
        // copied, ten reference counts, and destroyed); the source name is set only when it
        // changes (a file repeats one datum after datum).
        let sourceID = d.sourceID
        if sourceID != scratchSourceID {
            scratch.pointee.source = d.source ?? ""
            scratchSourceID = sourceID
        }
        scratch.pointee.value = value
        scratch.pointee.canonicalValue = canonical
        scratch.pointee.start = start
        scratch.pointee.end = end
        if wantsDetails { scratch.pointee.metadata = d.extras }
        scratch.pointee.isBucket = bucket
        scratch.pointee.bucketMinimum = minimum
        scratch.pointee.bucketMaximum = maximum
        scratch.pointee.occurrence = Self.occurrence(d)
        let s = scratch.move()
        sink.sample(s)
        scratch.initialize(to: consume s)
    }

    /// Whether a `heart_rate` datum dated by `date` is a bucket (true), a reading (false), or
    /// cannot be told yet (nil: hold it). A bucket starts at a whole minute (minutes, hours, days,
    /// …), so a datum between whole minutes is HAE's seconds grouping: one reading when Min = Avg
    /// = Max, and the metric's equal datums are readings. A datum at a whole minute with Min ≠ Max
    /// is a summarized bucket, and then so are the metric's equal ones: a bucket whose readings
    /// agree does not say how many it holds, so it gives no count (docs/rules.md, "minmaxavg";
    /// a real file had one such day bucket of 91, which became a count of 1). Equal datums at whole
    /// minutes wait for one of those two signs.
    private func heartRateBucket(at t: Timestamp, equal: Bool, _ sink: SampleSink) -> Bool? {
        let local = t.seconds + Int64(t.offset)
        if local % 60 != 0 {
            if heartRates == .undecided { decideHeartRates(.readings, sink) }
            return !equal
        }
        if !equal {
            if heartRates == .undecided { decideHeartRates(.buckets, sink) }
            return true
        }
        switch heartRates {
        case .readings: return false
        case .buckets: return true
        case .undecided: return nil
        }
    }

    private func holdHeartRate(_ s: Sample, _ sink: SampleSink) {
        heldHeartRates.append(s)
        if heldHeartRates.count + skippedHolds >= Self.wristHoldLimit { decideHeldHeartRates(sink) }
    }

    /// A window read skipped heart-rate datums (`HAEWindowSkipper.Run`): the choice between
    /// readings and buckets goes as their reading would have taken it, in order. `holds` equal
    /// datums at whole minutes came first (the one at `firstNotMidnight` and after not all at local
    /// midnight; −1: all were), then the first sign (1 readings, 2 buckets, 0 none); later datums
    /// cannot change a decided metric.
    func skippedHeartRates(holds: Int, firstNotMidnight: Int, sign: Int, _ sink: SampleSink) {
        guard shape.kind == .heartRate else { return }
        var i = 0
        while i < holds, heartRates == .undecided {
            if firstNotMidnight >= 0, i >= firstNotMidnight { skippedHoldsAtMidnight = false }
            skippedHolds += 1
            if heldHeartRates.count + skippedHolds >= Self.wristHoldLimit { decideHeldHeartRates(sink) }
            i += 1
        }
        if heartRates == .undecided, sign != 0 { decideHeartRates(sign == 1 ? .readings : .buckets, sink) }
    }

    /// Without a sign: equal datums all at local midnight are day buckets (a day-summarized file
    /// whose days each hold agreeing readings); any elsewhere makes them readings at whole
    /// minutes, as a file of readings can be.
    private func decideHeldHeartRates(_ sink: SampleSink) {
        let days = skippedHoldsAtMidnight && heldHeartRates.allSatisfy { ($0.start.seconds + Int64($0.start.offset)) % 86_400 == 0 }
        decideHeartRates(days ? .buckets : .readings, sink)
    }

    private func decideHeartRates(_ kind: HeartRateDatums, _ sink: SampleSink) {
        heartRates = kind
        for var s in heldHeartRates {
            s.isBucket = kind == .buckets
            sink.sample(s)
        }
        heldHeartRates = []
        skippedHolds = 0
    }

    /// A datum's number within its body (`Sample.occurrence`): its byte offset, unique in a file
    /// of up to 4 GiB and the same when a metric is read again. Datums alike in every field are
    /// then separate samples, as HAE writes one datum per HealthKit sample (docs/rules.md, "sum").
    @inline(__always)
    static func occurrence(_ d: HAEDatumFields) -> UInt32 { UInt32(truncatingIfNeeded: d.byteOffset) }

    /// Day buckets of wrist temperature are moved to the night they belong to
    /// (`wristTemperatureInstant`); finer buckets are not. A bucket at local midnight alone does
    /// not tell which (an hourly bucket of a sleep that began at 00:20 is at 00:00 too), so the
    /// metric's buckets are held until one is not at midnight (then none is a day bucket) or the
    /// metric ends with all at midnight (day buckets). They are one per night, so few.
    private func emitWristTemperature(_ s: Sample, _ sink: SampleSink) {
        switch wristBuckets {
        case .finer: sink.sample(s)
        case .days: sink.sample(movedToItsNight(s))
        case .undecided:
            if Self.wristTemperatureInstant(s.start) == nil {
                decideWristBuckets(.finer, sink)
                sink.sample(s)
            } else {
                heldWristTemperatures.append(s)
                if heldWristTemperatures.count >= Self.wristHoldLimit { decideWristBuckets(.days, sink) }
            }
        }
    }

    private func decideWristBuckets(_ size: BucketSize, _ sink: SampleSink) {
        wristBuckets = size
        for s in heldWristTemperatures { sink.sample(size == .days ? movedToItsNight(s) : s) }
        heldWristTemperatures = []
    }

    private func movedToItsNight(_ s: Sample) -> Sample {
        guard let shifted = Self.wristTemperatureInstant(s.start) else { return s }
        var moved = s
        if wantsDetails {
            moved.metadata.append(
                MetadataEntry(key: "HAEDate", value: CivilDate.isoTimestamp(seconds: s.start.seconds, offset: s.start.offset)))
        }
        moved.start = shifted
        moved.end = shifted
        return moved
    }

    /// HAE dates a day bucket of sleeping wrist temperature by the evening the night began
    /// (docs/hae.md, "Wrist temperature": the night ending 03-30 is dated 03-29 00:00). The day book
    /// dates a night-avg sample by the local date it ends on (docs/rules.md, "night-avg"), so the
    /// bucket instant moves to the next local midnight (date + 24 h, same offset), the wake-up
    /// date. Nil when `t` is not at local midnight (not a day bucket).
    static func wristTemperatureInstant(_ t: Timestamp) -> Timestamp? {
        let local = t.seconds + Int64(t.offset)
        guard local % 86_400 == 0 else { return nil }
        return Timestamp(seconds: t.seconds + 86_400, offset: t.offset)
    }

    private func emitSegment(_ d: HAEDatumFields, _ sink: SampleSink, _ report: inout ReadReport) {
        guard let stage = d.stage, let valueText = stage.categoryValue else {
            report.skip("HAE sleep segment with unknown value \(d.stageText.map { "'\($0)'" } ?? "(none)")", at: location(d, "value"))
            return
        }
        guard let start = d.startDate ?? d.date else {
            report.skip("HAE datum without a parseable date", at: location(d, "startDate"))
            return
        }
        if let end = d.endDate, end.seconds - start.seconds > Sample.longestSpan {
            report.skip("HAE datum lasting more than a year", at: location(d, "endDate"))
            return
        }
        if start.seconds > moment {
            report.skip(Self.afterMoment, at: location(d))
            return
        }
        var s = Sample(
            type: Catalog.sleepType, source: d.source ?? "", unit: shape.units, valueText: valueText,
            value: d.qty, start: start, end: d.endDate ?? start, metadata: wantsDetails ? d.extras : [])
        s.isBucket = false
        s.occurrence = Self.occurrence(d)
        samples += 1
        sink.sample(s)
    }

    private func emitNight(_ d: HAEDatumFields, _ f: HAESleepFields, _ sink: SampleSink, _ report: inout ReadReport) {
        guard let sleepEnd = f.sleepEnd else {
            report.skip("HAE sleep record without a parseable sleepEnd", at: location(d, "sleepEnd"))
            return
        }
        // A night starts at its earliest stated start (else its wake-up, all it states).
        if ([f.sleepStart, f.inBedStart].compactMap { $0?.seconds }.min() ?? sleepEnd.seconds) > moment {
            report.skip(Self.afterMoment, at: location(d))
            return
        }
        if !shape.unitConverts {
            report.skip("unknown unit \(shape.units.map { "'\($0)'" } ?? "(none)") for HAE metric \(shape.name)", at: location(d))
            return
        }
        // HAE writes 0 for what it did not measure: a zero stage is left out, as export.xml leaves
        // out a stage with no samples (docs/rules.md, "Sleep").
        func hours(_ v: Double?) -> Double? { shape.hours(v).flatMap { $0 > 0 ? $0 : nil } }
        let asleep = hours(f.asleep), core = hours(f.core), deep = hours(f.deep), rem = hours(f.rem)
        let inBed = hours(f.inBed), stated = hours(f.totalSleep)
        let staged = (core ?? 0) + (deep ?? 0) + (rem ?? 0)
        // When stages exist they are the night's sleep. `asleep` beside them is either 0 or
        // another app's whole-night figure (a real file: 87 of 91 nights longer than the night
        // when added); without times it cannot be shown to lie outside the stages, so it is not
        // added, as export.xml takes the watch's stages alone. Generation 1 has only `asleep`; a
        // night with only in-bed hours falls back to them, as export.xml does.
        let total: Double
        if staged > 0 {
            total = staged
        } else if let asleep {
            total = asleep
        } else if let stated {
            total = stated
        } else if let inBed {
            total = inBed
        } else {
            report.skip("HAE sleep record with no sleep or in-bed hours", at: location(d))
            return
        }
        // A night cannot hold more sleep than its window (sleep and in-bed spans together).
        let starts = [f.sleepStart, f.inBedStart].compactMap { $0 }, ends = [sleepEnd, f.inBedEnd].compactMap { $0 }
        if let first = starts.min(), let last = ends.max() {
            let window = Double(last.seconds - first.seconds) / 3600
            if max(total, stated ?? 0) > window + Self.windowSlackHours {
                report.skip("HAE sleep total longer than its night's window", at: location(d, "totalSleep"))
                return
            }
        }
        var night = SleepSummary(sleepEnd: sleepEnd, totalHours: total)
        night.sleepStart = f.sleepStart
        night.coreHours = core
        night.deepHours = deep
        night.remHours = rem
        night.awakeHours = hours(f.awake)
        night.asleepHours = asleep
        night.inBedHours = inBed
        night.inBedStart = f.inBedStart
        night.inBedEnd = f.inBedEnd
        night.source = d.source ?? f.sleepSource
        nights += 1
        sink.sleepSummary(night)
    }
}
