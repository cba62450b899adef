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
///
/// This file holds the walker's state and yajl's events (containers, keys, scalars), which say
/// what each value is by the frame it is in; what is done with it lives beside it, one file a
/// thing walked: `+Frames` (the stack of open containers, keys and JSON paths), `+Metrics` (a
/// metric and its datums, sleep's fields among them) and `+Workouts` (a workout and its
/// quantities, heart rate and elevation). Their members are internal rather than private only
/// so that these files reach them; the release build optimises the module whole, so calls
/// across the files inline as they did within one.
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
    @exclusivity(unchecked) var frames: [HAEFrame] = []
    /// Unsafe code (docs/architecture.md): `top` lives in memory the walker owns (allocated and
    /// initialised in `init`, freed in `deinit`) so that `push` and `pop` move frames between it
    /// and `frames` instead of copying them (a copy retained the frame's arrays and the value it
    /// replaced released them); uninitialised only inside `push` and `pop`.
    let topStorage: UnsafeMutablePointer<HAEFrame>
    var top: HAEFrame {
        unsafeAddress { UnsafePointer(topStorage) }
        unsafeMutableAddress { topStorage }
    }
    @exclusivity(unchecked) var depth = 0
    /// Bytes of the last object key, for JSON paths, metadata keys and extra-array names. Inside
    /// datums a known key is not copied (it is the hot path): `lastKeyCopied` is then false and
    /// `lastKnownKey` names it.
    @exclusivity(unchecked) var lastKey: [UInt8] = []
    @exclusivity(unchecked) var lastKeyCopied = false
    @exclusivity(unchecked) var lastKnownKey = HAEKey.unknown
    /// Source names and units: a file repeats a handful of them datum after datum, so each is
    /// decoded to a String once (the shared interner; the last id is tried first).
    @exclusivity(unchecked) var interner = ByteInterner()
    let keys = HAEKeyTable.shared
    @exclusivity(unchecked) var lastInterned = -1

    // The metric being read.
    var metricName: String?
    var metricUnits: String?
    var metricPath = ""
    @exclusivity(unchecked) var mapper: HAEDatumMapper?
    /// Datums that arrived before their metric's `name`/`units` (see `HAEDatumFields`).
    @exclusivity(unchecked) var pending: [HAEDatumFields] = []
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
    var metricsToReread: [MetricToReread] = []
    /// Whether the document has Health Auto Export's shape: a `data` object or array, or a
    /// `metrics` or `workouts` array in a body. Without it, it is some other JSON (`{"foo": 1}`),
    /// refused rather than read as a file with no data.
    private(set) var sawHAEShape = false
    /// Set on a walker that re-reads one metric object: its root object is that metric.
    let replayMetric: (name: String, units: String?, path: String)?
    var metricStart: Int64 = 0
    var metricOverflow = false
    var metricDroppedDatums = 0
    /// The datum being read, reset in place for each (`HAEDatumFields.reset`) and moved out to
    /// the mapper and back when it ends, so neither a new value nor a copy is made a datum.
    /// Unsafe code (docs/architecture.md): allocated and initialised in `init`, deinitialised and
    /// freed in `deinit`; uninitialised only during `endMap`'s hand-over to the mapper, which
    /// never calls back into the walker.
    let datumStorage: UnsafeMutablePointer<HAEDatumFields>
    var datum: HAEDatumFields {
        unsafeAddress { UnsafePointer(datumStorage) }
        unsafeMutableAddress { datumStorage }
    }

    // The workout being read.
    var workout = HAEWorkoutFields(byteOffset: 0)
    var workoutPath = ""
    var quantity = HAEWorkoutFields.Quantity()
    var elevation: (ascent: String?, descent: String?, units: String?) = (nil, nil, nil)
    var heartRateSample: (value: Double?, max: Double?) = (nil, nil)

    // The extra array and item being copied out.
    var extraKind = ""
    var writer = HAEJSONTextWriter()

    /// The file's modification time (epoch seconds): what starts after it is skipped
    /// (`HAEDatumMapper.moment`).
    var moment: Int64 = .max
    /// Per heart-rate metric object (by its start offset): whether its equal datums at whole
    /// minutes were buckets (`HAEDatumMapper.heartRatesAreBuckets`), for a window read's census.
    var heartRateDecisions: [Int64: Bool] = [:]

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

    // MARK: - Containers

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
            endWorkout()
        case .quantity(let target):
            endQuantity(target, key: closed.keyInParent)
        case .workoutElevation:
            endElevation()
        case .heartRateDatum:
            endHeartRateDatum()
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

    /// An item of an array the reader does not aggregate is complete: kept as its JSON text.
    func emitCapturedIfComplete() {
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

    func topLevelScalar() -> Bool {
        fatalMessage = "not a Health Auto Export document: the top level is not an object or an array"
        return false
    }
}
