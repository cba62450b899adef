/// A metric object and its datums: the datums are decoded field by field into `datum` (sleep's
/// fields among them, `HAEDatumFields.sleepFields`), handed to the metric's mapper when its
/// `name` and `units` are known, and otherwise wait (`pending`, bounded: past `pendingLimit` the
/// metric is read again after the pass, `metricsToReread`). `datumString` and `datumNumber` run
/// for every field of every datum: the HAE decoder's hot path.
extension HAEDocumentWalker {
    /// Resolves the metric as soon as both `name` and `units` are known, then flushes the datums
    /// that waited for them.
    func resolveMetricIfReady(force: Bool) {
        guard mapper == nil else { return }
        guard let name = metricName else {
            if force, !pending.isEmpty {
                for d in pending {
                    report.skip(
                        "HAE metric without a name", at: InputLocation(byteOffset: d.byteOffset, path: metricPath + ".data[\(d.index)]"))
                }
                pending.removeAll(keepingCapacity: true)
            }
            return
        }
        guard metricUnits != nil || force else { return }
        let m = HAEDatumMapper(shape: HAEMetricShape(name: name, units: metricUnits, path: metricPath), wantsDetails: wantsDetails)
        m.moment = moment
        mapper = m
        for d in pending { m.emit(d, into: sink, report: &report) }
        pending.removeAll(keepingCapacity: true)
    }

    /// A datum that came before its metric's name or units.
    func wait(_ d: HAEDatumFields) {
        pending.append(d)
        if pending.count >= pendingLimit {
            metricOverflow = true
            metricDroppedDatums = pending.count
            pending = []
        }
    }

    /// Ends a metric object. (Always true: kept a Bool for the callers that stop on false.)
    func finishMetric() -> Bool {
        resolveMetricIfReady(force: true)
        mapper?.finish(into: sink, report: &report)
        if let m = mapper, m.shape.kind == .heartRate, let buckets = m.heartRatesAreBuckets { heartRateDecisions[metricStart] = buckets }
        mapper = nil
        // The metric's datums are all passed on (a day book resolves their sums now, on this
        // thread, rather than after the pass: docs/hae.md, "How it is read").
        sink.metricEnded()
        if metricOverflow {
            metricOverflow = false
            if let name = metricName, replayMetric == nil {
                metricsToReread.append(
                    MetricToReread(start: metricStart, end: currentOffset, name: name, units: metricUnits, path: metricPath))
            } else {
                let reason = "HAE metric without a name"
                report.skips[reason, default: 0] += metricDroppedDatums
                if report.skipExamples[reason, default: []].count < 3 {
                    report.skipExamples[reason, default: []].append(InputLocation(byteOffset: metricStart, path: metricPath))
                }
            }
        }
        if pending.capacity > 4096 { pending = [] }  // give back a large buffer
        return true
    }

    /// `count` datums of the metric's `data` array were skipped by a window read (a
    /// `HAEWindowSkipper.Run`): counted as read, so indices and paths stay a full read's, with the
    /// key a full read would hold last, and the mapper's heart-rate choice taken on.
    func skipped(count: Int, holds: Int, firstNotMidnight: Int, sign: Int, lastKey: HAEKey) -> Bool {
        guard depth > 0, top.role == .datums, let mapper else {
            fatalMessage = "internal error: a window read skipped datums outside a metric's data array"
            return false
        }
        top.count += count
        lastKnownKey = lastKey
        lastKeyCopied = false
        mapper.skippedHeartRates(holds: holds, firstNotMidnight: firstNotMidnight, sign: sign, sink)
        return true
    }

    @inline(__always)
    func decode(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    @inline(__always)
    func datumString(_ key: HAEKey, _ p: UnsafePointer<UInt8>, _ n: Int) {
        switch key {
        case .date: datum.date = TimestampParser.parse(p, n)
        case .startDate: datum.hasStartDate = true; datum.startDate = TimestampParser.parse(p, n)
        case .endDate: datum.endDate = TimestampParser.parse(p, n)
        case .source:
            if n == 0 {
                datum.setSource(id: -2) { "" }
            } else {
                let id = interner.intern(p, n, hint: lastInterned)
                lastInterned = id
                datum.setSource(id: id) { interner.strings[id] }
            }
        case .value:
            let stage = HAESleepStage.parse(p, n)
            datum.stage = stage
            if stage == .unknown { datum.stageText = decode(p, n) }
            if wantsDetails { datum.extras.append(MetadataEntry(key: "value", value: decode(p, n))) }
        case .sleepStart: datum.sleepFields().sleepStart = TimestampParser.parse(p, n)
        case .sleepEnd: datum.sleepFields().sleepEnd = TimestampParser.parse(p, n)
        case .inBedStart: datum.sleepFields().inBedStart = TimestampParser.parse(p, n)
        case .inBedEnd: datum.sleepFields().inBedEnd = TimestampParser.parse(p, n)
        case .sleepSource: datum.sleepFields().sleepSource = intern(p, n)
        default:
            if wantsDetails { datum.extras.append(MetadataEntry(key: keyText, value: decode(p, n))) }
        }
    }

    @inline(__always)
    func datumNumber(_ key: HAEKey, _ p: UnsafePointer<UInt8>, _ n: Int) {
        switch key {
        case .qty: datum.qty = HAEDecimalParser.parse(p, n)
        case .min: datum.min = HAEDecimalParser.parse(p, n)
        case .avg: datum.avg = HAEDecimalParser.parse(p, n)
        case .max: datum.max = HAEDecimalParser.parse(p, n)
        case .asleep: datum.sleepFields().asleep = HAEDecimalParser.parse(p, n)
        case .core: datum.sleepFields().core = HAEDecimalParser.parse(p, n)
        case .deep: datum.sleepFields().deep = HAEDecimalParser.parse(p, n)
        case .rem: datum.sleepFields().rem = HAEDecimalParser.parse(p, n)
        case .awake: datum.sleepFields().awake = HAEDecimalParser.parse(p, n)
        case .inBed: datum.sleepFields().inBed = HAEDecimalParser.parse(p, n)
        case .totalSleep: datum.sleepFields().totalSleep = HAEDecimalParser.parse(p, n)
        default:
            if wantsDetails { datum.extras.append(MetadataEntry(key: keyText, value: decode(p, n))) }
        }
    }
}
