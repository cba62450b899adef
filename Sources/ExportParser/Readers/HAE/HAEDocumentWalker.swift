import CYajl

/// Receives yajl's events for one HAE file and turns them into sink calls, one datum or workout
/// at a time: the document is never built. A stack of `HAEFrame`s says what each open container
/// is (body, metric, datum, workout, …); scalar values are decoded straight from yajl's bytes
/// into the current datum or workout, and only the fields the reader uses are decoded at all.
///
/// `HAEReader` owns the yajl handle and the file; this class holds the state between events,
/// which come from a tape (`HAETapePlayer`, the main pass) or straight from yajl (a replay).
/// It is used by one thread at a time: the decoder thread of `HAETapePlayer` during the main
/// pass, the reading thread before and after it. Hence `@unchecked Sendable`.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): every `(pointer, count)` it
/// receives is yajl's buffer or a tape's bytes, valid for the call; the walker keeps nothing past
/// it (keys and strings are copied or decoded to String at once). The HAE decoder's hot path.
// @unchecked Sendable: one thread at a time (the decoder thread during the main pass, the reading thread before and after).
final class HAEDocumentWalker: @unchecked Sendable {
    let sink: SampleSink
    let wantsDetails: Bool
    // `@exclusivity(unchecked)` marks the state the walker touches on every JSON event: it drops
    // Swift's dynamic exclusivity check (a thread-local access-set insert and removal per access),
    // which was about 15 % of the HAE decoder thread's CPU (bench/README.md). Safe because one thread
    // at a time uses the walker (see above), and no method of it is re-entered while it modifies such
    // a property (the sink it feeds never calls back into the walker). The checks ran in every test
    // and fuzz run before they were dropped here and found no overlap.
    @exclusivity(unchecked) var report = ReadReport()

    /// For byte offsets: in a replay, the offset of yajl's current chunk (set by the reader) and
    /// the handle; in the main pass, the offset recorded with the current event, and no handle.
    @exclusivity(unchecked) var chunkBase: Int64 = 0
    var handle: yajl_handle?
    /// A structural problem found by a callback (the callback then stops yajl).
    var fatalMessage: String?
    /// Whether any top-level value began (an all-whitespace file has none).
    @exclusivity(unchecked) var sawValue = false

    /// The open containers: `top` is the innermost (read and written on every event, so it is a
    /// plain stored property), `frames` its ancestors, `depth` how many are open.
    @exclusivity(unchecked) private var frames: [HAEFrame] = []
    /// Unsafe code (docs/architecture.md): `top` lives in memory the walker owns (allocated and
    /// initialised in `init`, freed in `deinit`) so that `push` and `pop` move frames between it
    /// and `frames` instead of copying them (a copy retained the frame's arrays and the value it
    /// replaced released them); uninitialised only inside `push` and `pop`.
    private let topStorage: UnsafeMutablePointer<HAEFrame>
    private var top: HAEFrame {
        unsafeAddress { UnsafePointer(topStorage) }
        unsafeMutableAddress { topStorage }
    }
    @exclusivity(unchecked) private var depth = 0
    /// Bytes of the last object key, for JSON paths, metadata keys and extra-array names. Inside
    /// datums a known key is not copied (it is the hot path): `lastKeyCopied` is then false and
    /// `lastKnownKey` names it.
    @exclusivity(unchecked) private var lastKey: [UInt8] = []
    @exclusivity(unchecked) private var lastKeyCopied = false
    @exclusivity(unchecked) private var lastKnownKey = HAEKey.unknown
    /// Source names and units: a file repeats a handful of them datum after datum, so each is
    /// decoded to a String once (the shared interner; the last id is tried first).
    @exclusivity(unchecked) private var interner = ByteInterner()
    private let keys = HAEKeyTable.shared
    @exclusivity(unchecked) private var lastInterned = -1

    // The metric being read.
    private var metricName: String?
    private var metricUnits: String?
    private var metricPath = ""
    @exclusivity(unchecked) private var mapper: HAEDatumMapper?
    /// Datums that arrived before their metric's `name`/`units` (see `HAEDatumFields`).
    @exclusivity(unchecked) private var pending: [HAEDatumFields] = []
    /// At most this many datums wait for their metric's name/units (≈200 bytes each); past it
    /// they are dropped and the metric is noted in `metricsToReread`: the reader reads its bytes a
    /// second time after the first pass, with name and units known, so memory stays bounded
    /// whatever the key order.
    let pendingLimit: Int
    /// A metric object to read again: its bytes `start..<end`, its name, units and JSON path.
    struct MetricToReread {
        var start: Int64
        var end: Int64
        var name: String
        var units: String?
        var path: String
    }
    private(set) var metricsToReread: [MetricToReread] = []
    /// Whether the document has Health Auto Export's shape: a `data` object or array, or a
    /// `metrics` or `workouts` array in a body. Without it, it is some other JSON (`{"foo": 1}`),
    /// refused rather than read as a file with no data.
    private(set) var sawHAEShape = false
    /// Set on a walker that re-reads one metric object: its root object is that metric.
    let replayMetric: (name: String, units: String?, path: String)?
    private var metricStart: Int64 = 0
    private var metricOverflow = false
    private var metricDroppedDatums = 0
    /// The datum being read, reset in place for each (`HAEDatumFields.reset`) and moved out to
    /// the mapper and back when it ends, so neither a new value nor a copy is made a datum.
    /// Unsafe code (docs/architecture.md): allocated and initialised in `init`, deinitialised and
    /// freed in `deinit`; uninitialised only during `endMap`'s hand-over to the mapper, which
    /// never calls back into the walker.
    private let datumStorage: UnsafeMutablePointer<HAEDatumFields>
    private var datum: HAEDatumFields {
        unsafeAddress { UnsafePointer(datumStorage) }
        unsafeMutableAddress { datumStorage }
    }

    // The workout being read.
    private var workout = HAEWorkoutFields(byteOffset: 0)
    private var workoutPath = ""
    private var quantity = HAEWorkoutFields.Quantity()
    private var elevation: (ascent: String?, descent: String?, units: String?) = (nil, nil, nil)
    private var heartRateSample: (value: Double?, max: Double?) = (nil, nil)

    // The extra array and item being copied out.
    private var extraKind = ""
    private var writer = HAEJSONTextWriter()

    /// The file's modification time (epoch seconds): what starts after it is skipped
    /// (`HAEDatumMapper.moment`).
    var moment: Int64 = .max

    init(sink: SampleSink, pendingLimit: Int = 50_000, replayMetric: (name: String, units: String?, path: String)? = nil) {
        self.sink = sink
        self.pendingLimit = Swift.max(1, pendingLimit)
        self.replayMetric = replayMetric
        self.wantsDetails = sink.wantsDetails
        frames.reserveCapacity(16)
        lastKey.reserveCapacity(64)
        topStorage = .allocate(capacity: 1)
        topStorage.initialize(to: HAEFrame(role: .skip, isArray: false, indexInParent: nil, keyInParent: []))
        datumStorage = .allocate(capacity: 1)
        datumStorage.initialize(to: HAEDatumFields(index: 0, byteOffset: 0))
    }

    deinit {
        topStorage.deinitialize(count: 1)
        topStorage.deallocate()
        datumStorage.deinitialize(count: 1)
        datumStorage.deallocate()
    }

    // MARK: - Positions

    var currentOffset: Int64 {
        guard let handle else { return chunkBase }
        return chunkBase + Int64(yajl_get_bytes_consumed(handle))
    }

    /// The JSON path of the current position, `data.metrics[3].data[17].date` (rendered only
    /// for messages and once per metric or workout).
    func currentPath(includingKey: Bool = true) -> String {
        var s = ""
        for f in frames + (depth > 0 ? [top] : []) {
            if let i = f.indexInParent {
                s += "[\(i)]"
            } else if !f.keyInParent.isEmpty {
                if !s.isEmpty { s += "." }
                s += String(decoding: f.keyInParent, as: UTF8.self)
            }
        }
        if includingKey, depth > 0 {
            if top.isArray, top.count > 0 {
                s += "[\(top.count - 1)]"
            } else if !top.isArray, lastKeyCopied || lastKnownKey != .unknown {
                if !s.isEmpty { s += "." }
                s += keyText
            }
        }
        return s
    }

    @inline(__always)
    private func intern(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        if n == 0 { return "" }
        let id = interner.intern(p, n, hint: lastInterned)
        lastInterned = id
        return interner.strings[id]
    }

    private var keyText: String { lastKeyCopied ? String(decoding: lastKey, as: UTF8.self) : lastKnownKey.spelling }

    @inline(__always)
    private func forgetKey() {
        lastKeyCopied = false
        lastKnownKey = .unknown
    }

    // MARK: - Containers

    /// Counts an element in the enclosing array; returns its index when the parent is an array.
    @inline(__always)
    private func beginValue() -> Int? {
        sawValue = true
        guard depth > 0, top.isArray else { return nil }
        top.count += 1
        if case .extraArray = top.role { report.recordsByType["hae:" + extraKind, default: 0] += 1 }
        return top.count - 1
    }

    private func push(_ role: HAEFrame.Role, isArray: Bool, index: Int?) {
        var key: [UInt8] = []
        if index == nil, depth > 0 { key = lastKeyCopied ? lastKey : Array(lastKnownKey.spelling.utf8) }
        // Moved, not copied: a copy of the parent frame retained its arrays, and replacing `top`
        // released them (the decoder's reference counting: docs/hae.md, "Leaner datums").
        let frame = HAEFrame(role: role, isArray: isArray, indexInParent: index, keyInParent: key)
        if depth > 0 {
            let parent = topStorage.move()
            frames.append(consume parent)
            topStorage.initialize(to: consume frame)
        } else {
            top = frame
        }
        depth += 1
        forgetKey()
    }

    /// Closes the innermost container and returns it.
    @inline(__always)
    private func pop() -> HAEFrame {
        depth -= 1
        forgetKey()
        // Moved: the parent comes back from `frames` into `top` and the closed frame out of it.
        guard depth > 0 else { return top }
        let closed = topStorage.move()
        topStorage.initialize(to: frames.removeLast())
        return closed
    }

    /// Deeper nesting than this stops the read: Health Auto Export nests six or seven levels, and
    /// a hostile file of 10,000 nested arrays would otherwise cost a frame (and a path step in
    /// every message) per level.
    static let depthLimit = 64

    private func tooDeep() -> Bool {
        fatalMessage =
            "JSON nested more than \(Self.depthLimit) levels deep (Health Auto Export nests fewer than ten): not a Health Auto Export file"
        return false
    }

    func startMap() -> Bool {
        guard depth < Self.depthLimit else { return tooDeep() }
        let index = beginValue()
        guard depth > 0 else {
            if let r = replayMetric {
                push(.metric, isArray: false, index: nil)
                metricName = r.name
                metricUnits = r.units
                metricPath = r.path
                resolveMetricIfReady(force: true)
            } else {
                push(.body, isArray: false, index: nil)
            }
            return true
        }
        let parentRole = top.role, parentKey = top.key
        let role: HAEFrame.Role
        switch parentRole {
        case .bodies: role = .body
        case .body:
            role = parentKey == .data ? .body : .skip
            if parentKey == .data { sawHAEShape = true }
        case .metrics: role = .metric
        // After an overflow the datums are left to the replay: not even decoded here.
        case .datums: role = metricOverflow && mapper == nil ? .skip : .datum
        case .workouts: role = .workout
        case .workout:
            switch parentKey {
            case .activeEnergyBurned: role = .quantity(.activeEnergyBurned)
            case .activeEnergy: role = .quantity(.activeEnergy)
            case .distance: role = .quantity(.distance)
            case .avgHeartRate: role = .quantity(.avgHeartRate)
            case .maxHeartRate: role = .quantity(.maxHeartRate)
            case .heartRate: role = .workoutHeartRate
            case .elevation: role = wantsDetails ? .workoutElevation : .skip
            case .metadata: role = wantsDetails ? .workoutMetadata : .skip
            default: role = wantsDetails ? .quantity(.other) : .skip
            }
        case .workoutHeartRate:
            switch parentKey {
            case .min: role = .quantity(.heartRateMin)
            case .avg: role = .quantity(.heartRateAvg)
            case .max: role = .quantity(.heartRateMax)
            default: role = .skip
            }
        case .heartRateData: role = .heartRateDatum
        case .extraArray, .capture:
            if wantsDetails {
                if parentRole == .extraArray { writer.reset() }
                writer.open(UInt8(ascii: "{"))
                role = .capture
            } else {
                role = .skip
            }
        default: role = .skip
        }
        push(role, isArray: false, index: index)
        switch role {
        case .metric:
            metricName = nil
            metricUnits = nil
            mapper = nil
            pending.removeAll(keepingCapacity: true)
            metricPath = currentPath(includingKey: false)
            metricStart = currentOffset - 1
            metricOverflow = false
            metricDroppedDatums = 0
        case .datum:
            datum.reset(index: index ?? 0, byteOffset: currentOffset - 1)
        case .workout:
            workout = HAEWorkoutFields(byteOffset: currentOffset - 1)
            workoutPath = currentPath(includingKey: false)
        case .quantity:
            quantity = HAEWorkoutFields.Quantity()
        case .workoutElevation:
            elevation = (nil, nil, nil)
        case .heartRateDatum:
            heartRateSample = (nil, nil)
        default: break
        }
        return true
    }

    func startArray() -> Bool {
        guard depth < Self.depthLimit else { return tooDeep() }
        let index = beginValue()
        guard depth > 0 else {
            push(.bodies, isArray: true, index: nil)
            return true
        }
        let parentRole = top.role, parentKey = top.key
        let role: HAEFrame.Role
        switch parentRole {
        case .body:
            switch parentKey {
            case .metrics:
                role = .metrics
                sawHAEShape = true
            case .workouts:
                role = .workouts
                sawHAEShape = true
            case .data:
                role = .bodies
                sawHAEShape = true
            default:
                extraKind = keyText
                role = .extraArray
            }
        case .bodies: role = .bodies
        case .metric: role = parentKey == .data ? .datums : .skip
        case .workout:
            switch parentKey {
            case .heartRateData: role = .heartRateData
            case .route: role = .workoutRoute
            default: role = .skip
            }
        case .extraArray, .capture:
            if wantsDetails {
                if parentRole == .extraArray { writer.reset() }
                writer.open(UInt8(ascii: "["))
                role = .capture
            } else {
                role = .skip
            }
        default: role = .skip
        }
        push(role, isArray: true, index: index)
        return true
    }

    func endMap() -> Bool {
        guard depth > 0 else { return true }
        let closed = pop()
        switch closed.role {
        case .datum:
            // Moved out and back, not copied (passing the stored property copied it, strings and
            // all); the next datum's `startMap` resets it.
            let d = datumStorage.move()
            if let mapper { mapper.emit(d, into: sink, report: &report) } else { wait(d) }
            datumStorage.initialize(to: consume d)
        case .metric:
            return finishMetric()
        case .workout:
            if let w = HAEWorkoutMapper.workout(from: workout, path: workoutPath, wantsDetails: wantsDetails, report: &report) {
                if w.start.seconds > moment {
                    report.skip(HAEDatumMapper.afterMoment, at: InputLocation(byteOffset: workout.byteOffset, path: workoutPath + ".start"))
                } else {
                    sink.workout(w)
                }
            }
        case .quantity(let target):
            endQuantity(target, key: closed.keyInParent)
        case .workoutElevation:
            let units = elevation.units.map { " " + $0 } ?? ""
            if let a = elevation.ascent { workout.metadata.append(MetadataEntry(key: "elevationAscent", value: a + units)) }
            if let d = elevation.descent { workout.metadata.append(MetadataEntry(key: "elevationDescent", value: d + units)) }
        case .heartRateDatum:
            if let v = heartRateSample.value {
                workout.heartRateDataSum += v
                workout.heartRateDataCount += 1
            }
            if let m = heartRateSample.max ?? heartRateSample.value {
                workout.heartRateDataMax = Swift.max(workout.heartRateDataMax ?? m, m)
            }
        case .capture:
            writer.close(UInt8(ascii: "}"))
            emitCapturedIfComplete()
        default: break
        }
        return true
    }

    func endArray() -> Bool {
        guard depth > 0 else { return true }
        let closed = pop()
        switch closed.role {
        case .capture:
            writer.close(UInt8(ascii: "]"))
            emitCapturedIfComplete()
        case .workoutRoute:
            workout.routePoints += closed.count
        case .datums:
            if metricOverflow { metricDroppedDatums = closed.count }
        default: break
        }
        return true
    }

    private func emitCapturedIfComplete() {
        guard depth > 0, case .extraArray = top.role else { return }
        sink.extra(ExtraItem(kind: extraKind, json: writer.text))
    }

    func mapKey(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard depth > 0 else { return true }
        switch top.role {
        case .datum, .heartRateDatum:
            let key = keys.lookup(p, n)
            guard isFirst(key), key != .unknown || isFirstOther(p, n) else { return duplicate(p, n) }
            top.key = key
            if key != .unknown {
                lastKnownKey = key
                lastKeyCopied = false
                return true
            }
        case .capture: writer.key(p, n)
        case .skip: break
        default:
            let key = keys.lookup(p, n)
            guard isFirst(key), key != .unknown || isFirstOther(p, n) else { return duplicate(p, n) }
            top.key = key
        }
        copyKey(p, n)
        return true
    }

    @inline(__always) private func copyKey(_ p: UnsafePointer<UInt8>, _ n: Int) {
        lastKey.removeAll(keepingCapacity: true)
        lastKey.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        lastKeyCopied = true
    }

    /// Whether the open object has not had `key` yet (always for keys the reader ignores).
    @inline(__always) private func isFirst(_ key: HAEKey) -> Bool {
        guard key != .unknown else { return true }
        let bit: UInt64 = 1 << key.rawValue
        guard top.seenKeys & bit == 0 else { return false }
        top.seenKeys |= bit
        return true
    }

    /// Whether a key the reader has no name for is new in its object: its value may be kept
    /// (a workout's or datum's other fields become metadata), so a repeat is as ambiguous as one
    /// of ours. Such keys are few in an object: a linear search.
    private func isFirstOther(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let bytes = UnsafeBufferPointer(start: p, count: n)
        if top.otherKeys.contains(where: { $0.elementsEqual(bytes) }) { return false }
        top.otherKeys.append(Array(bytes))
        return true
    }

    /// A key of ours twice in one object (`"qty": 10, "qty": 20`): JSON leaves open which value
    /// counts, and parsers differ, so the file is refused rather than one of them guessed.
    private func duplicate(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        copyKey(p, n)
        let name = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
        fatalMessage = "the key \"\(name)\" appears twice in one object, so which of its values is meant is unknown"
        return false
    }

    // MARK: - Metrics

    /// Resolves the metric as soon as both `name` and `units` are known, then flushes the datums
    /// that waited for them.
    private func resolveMetricIfReady(force: Bool) {
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

    private func wait(_ d: HAEDatumFields) {
        pending.append(d)
        if pending.count >= pendingLimit {
            metricOverflow = true
            metricDroppedDatums = pending.count
            pending = []
        }
    }

    /// Ends a metric object. (Always true: kept a Bool for the callers that stop on false.)
    private func finishMetric() -> Bool {
        resolveMetricIfReady(force: true)
        mapper?.finish(into: sink, report: &report)
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

    // MARK: - Scalars

    func string(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let index = beginValue()
        guard depth > 0 else { return topLevelScalar() }
        let top = (role: self.top.role, key: self.top.key)
        switch top.role {
        case .datum: datumString(top.key, p, n)
        case .metric:
            switch top.key {
            case .name:
                metricName = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self); resolveMetricIfReady(force: false)
            case .units: metricUnits = intern(p, n); resolveMetricIfReady(force: false)
            default: break
            }
        case .workout: workoutScalar(top.key, text: p, n, isString: true)
        case .quantity: if top.key == .units { quantity.units = intern(p, n) }
        case .workoutElevation: if top.key == .units { elevation.units = intern(p, n) }
        case .workoutMetadata: workout.metadata.append(MetadataEntry(key: "metadata." + keyText, value: decode(p, n)))
        case .heartRateDatum: if top.key == .units, workout.heartRateDataUnits == nil { workout.heartRateDataUnits = intern(p, n) }
        case .capture: writer.string(p, n)
        case .extraArray:
            if wantsDetails, index != nil {
                writer.reset()
                writer.string(p, n)
                sink.extra(ExtraItem(kind: extraKind, json: writer.text))
            }
        default: break
        }
        return true
    }

    func number(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let index = beginValue()
        guard depth > 0 else { return topLevelScalar() }
        let top = (role: self.top.role, key: self.top.key)
        switch top.role {
        case .datum: datumNumber(top.key, p, n)
        case .workout: workoutScalar(top.key, text: p, n, isString: false)
        case .quantity: if top.key == .qty { quantity.qty = HAEDecimalParser.parse(p, n) }
        case .workoutElevation:
            switch top.key {
            case .ascent: elevation.ascent = decode(p, n)
            case .descent: elevation.descent = decode(p, n)
            default: break
            }
        case .workoutMetadata: workout.metadata.append(MetadataEntry(key: "metadata." + keyText, value: decode(p, n)))
        case .heartRateDatum:
            switch top.key {
            case .qty, .avg: heartRateSample.value = HAEDecimalParser.parse(p, n)
            case .max: heartRateSample.max = HAEDecimalParser.parse(p, n)
            default: break
            }
        case .capture: writer.raw(p, n)
        case .extraArray:
            if wantsDetails, index != nil {
                writer.reset()
                writer.raw(p, n)
                sink.extra(ExtraItem(kind: extraKind, json: writer.text))
            }
        default: break
        }
        return true
    }

    /// `true`, `false` and `null`, handed over as their literal text.
    func literal(_ text: StaticString, isNull: Bool = false) -> Bool {
        let index = beginValue()
        guard depth > 0 else { return topLevelScalar() }
        let top = (role: self.top.role, key: self.top.key)
        switch top.role {
        case .datum:
            if wantsDetails, top.key == .unknown, !isNull {
                datum.extras.append(MetadataEntry(key: keyText, value: text.description))
            }
        case .workout:
            if wantsDetails, !isNull { workout.metadata.append(MetadataEntry(key: keyText, value: text.description)) }
        case .workoutMetadata:
            // the workout's own `metadata` object, kept apart from HAE's fields by the prefix
            if wantsDetails, !isNull { workout.metadata.append(MetadataEntry(key: "metadata." + keyText, value: text.description)) }
        case .capture: writer.literal(text)
        case .extraArray:
            if wantsDetails, index != nil {
                writer.reset()
                writer.literal(text)
                sink.extra(ExtraItem(kind: extraKind, json: writer.text))
            }
        default: break
        }
        return true
    }

    private func topLevelScalar() -> Bool {
        fatalMessage = "not a Health Auto Export document: the top level is not an object or an array"
        return false
    }

    @inline(__always)
    private func decode(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    @inline(__always)
    private func datumString(_ key: HAEKey, _ p: UnsafePointer<UInt8>, _ n: Int) {
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
    private func datumNumber(_ key: HAEKey, _ p: UnsafePointer<UInt8>, _ n: Int) {
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

    // MARK: - Workouts

    private func workoutScalar(_ key: HAEKey, text p: UnsafePointer<UInt8>, _ n: Int, isString: Bool) {
        switch key {
        case .name where isString: workout.name = decode(p, n)
        case .start where isString: workout.start = TimestampParser.parse(p, n)
        case .end where isString: workout.end = TimestampParser.parse(p, n)
        case .duration where !isString: workout.duration = HAEDecimalParser.parse(p, n)
        case .source where isString: workout.source = intern(p, n)
        case .id where isString:
            workout.id = decode(p, n)
            if wantsDetails { workout.metadata.append(MetadataEntry(key: "id", value: workout.id!)) }
        default:
            if wantsDetails { workout.metadata.append(MetadataEntry(key: keyText, value: decode(p, n))) }
        }
    }

    private func endQuantity(_ target: HAEQuantityTarget, key: [UInt8]) {
        switch target {
        case .activeEnergyBurned: workout.activeEnergyBurned = quantity
        case .activeEnergy: workout.activeEnergy = quantity
        case .distance: workout.distance = quantity
        case .avgHeartRate: workout.avgHeartRate = quantity
        case .maxHeartRate: workout.maxHeartRate = quantity
        case .heartRateMin: break
        case .heartRateAvg: workout.heartRateAvg = quantity
        case .heartRateMax: workout.heartRateMax = quantity
        case .other: break
        }
        // Every `{qty, units}` is also kept as metadata text ("17.24 degC"; heartRate's parts
        // as heartRate.min/avg/max), for the store. Numbers as Swift prints them.
        guard wantsDetails, let qty = quantity.qty else { return }
        var name = String(decoding: key, as: UTF8.self)
        if target == .heartRateMin || target == .heartRateAvg || target == .heartRateMax { name = "heartRate." + name }
        workout.metadata.append(MetadataEntry(key: name, value: "\(qty)" + (quantity.units.map { " " + $0 } ?? "")))
    }
}
