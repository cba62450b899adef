/// What makes two workouts the same workout: everything a reader read except the creation date
/// and the metadata. A sync that repeats a workout (one real export holds 8 workouts written 4–7
/// times each) writes copies that differ only there; they count once (docs/rules.md,
/// "Workouts"). Metadata is left out because a copy may carry a new sync identifier, and because
/// the HAE reader keeps a workout's metadata only when the store is written: the payloads must
/// not depend on `--no-store`.
///
/// Two identities serve two jobs. The store's natural key (`digest`) keeps `sourceVersion`: a
/// record written by another version of an app is another record of the file, and stores made
/// before this rule keep their keys. The day book's (`syncCopy`) leaves it out as well: an app
/// that writes a workout again after an update (Garmin Connect's version 31 repeating what its
/// version 5 wrote) made a sync's copy, not a second workout.
struct WorkoutIdentity {
    var activityType: String
    var source: String
    var sourceVersion: String?
    var device: String?
    var start: Timestamp
    var end: Timestamp
    var duration: Double?
    var durationUnit: String?
    var totalDistance: Double?
    var totalDistanceUnit: String?
    var totalEnergyBurned: Double?
    var totalEnergyBurnedUnit: String?
    var statistics: [WorkoutStatistic]
    var activities: [WorkoutActivity]
    var events: [WorkoutEvent]
    var routes: [WorkoutRoute]
    var statedAverageHeartRate: Double?
    var statedMaximumHeartRate: Double?

    /// The identity the day book counts a workout once by: this one without `sourceVersion`.
    static func syncCopy(_ w: Workout) -> WorkoutIdentity {
        var identity = WorkoutIdentity(w)
        identity.sourceVersion = nil
        return identity
    }

    init(_ w: Workout) {
        activityType = w.activityType
        source = w.source
        sourceVersion = w.sourceVersion
        device = w.device.map(DeviceText.withoutAddress)
        start = w.start
        end = w.end
        duration = w.duration
        durationUnit = w.durationUnit
        totalDistance = w.totalDistance
        totalDistanceUnit = w.totalDistanceUnit
        totalEnergyBurned = w.totalEnergyBurned
        totalEnergyBurnedUnit = w.totalEnergyBurnedUnit
        statistics = w.statistics
        activities = w.activities
        events = w.events
        routes = w.routes
        statedAverageHeartRate = w.statedAverageHeartRate
        statedMaximumHeartRate = w.statedMaximumHeartRate
    }

    /// A stable 64-bit digest of the identity (FNV-1a over its fields as text), the store's
    /// natural key for workouts: the same on every run and platform, unlike `hashValue`.
    var digest: UInt64 {
        var h = FNV1a()
        func add(_ parts: String?...) { add(parts) }
        func add(_ parts: [String?]) {
            for p in parts {
                if let p { h.add(p) }
                h.separate()
            }
        }
        func num(_ v: Double?) -> String? { v.map { String($0) } }
        func time(_ t: Timestamp?) -> String? { t.map { "\($0.seconds)\($0.offset)" } }
        add(
            activityType, source, sourceVersion, device, time(start), time(end), num(duration), durationUnit, num(totalDistance),
            totalDistanceUnit, num(totalEnergyBurned), totalEnergyBurnedUnit, num(statedAverageHeartRate), num(statedMaximumHeartRate))
        for s in statistics {
            add("statistic", s.type, time(s.start), time(s.end), num(s.average), num(s.minimum), num(s.maximum), num(s.sum), s.unit)
        }
        for a in activities {
            add("activity", a.uuid, time(a.start), time(a.end), num(a.duration), a.durationUnit)
            for s in a.statistics { add("statistic", s.type, num(s.average), num(s.minimum), num(s.maximum), num(s.sum), s.unit) }
        }
        for e in events { add("event", e.type, time(e.date), num(e.duration), e.durationUnit) }
        for r in routes { add(["route", r.source, time(r.start), time(r.end), String(r.inlineLocationCount)] + r.filePaths) }
        return h.value
    }

    /// The day book's key for `syncCopy(w)`: equal for two workouts exactly when their
    /// `syncCopy` identities are (a 64-bit collision aside), made from the workout's bytes and
    /// bits rather than texts. `digest` writes every number and time as a String (about a
    /// hundred a workout, with the identity's copy of the device text): in a window read that
    /// was most of what a workout cost the thread that plays the tapes, which runs alone at the
    /// end of the file, where the workouts are (docs/performance.md). Not a store key: the store
    /// keeps `digest`.
    ///
    /// As in `digest`, an absent text and an empty one are the same; a number is its bits (the
    /// same bits are the same text; every NaN is one, as its text is), behind a byte saying
    /// whether it is there; a time is its seconds and offset; each part of a list is tagged, and
    /// a route's paths counted, so no two identities give the same bytes.
    static func syncCopyKey(_ w: Workout) -> UInt64 {
        var h = FNV1a()
        func text(_ s: String?) {
            if let s { h.add(s) }
            h.separate()
        }
        func num(_ v: Double?) {
            guard var v else { return h.add(byte: 0) }
            if v.isNaN { v = v.sign == .minus ? -Double.nan : .nan }
            h.add(byte: 1)
            h.add(word: v.bitPattern)
        }
        func time(_ t: Timestamp?) {
            guard let t else { return h.add(byte: 0) }
            h.add(byte: 1)
            h.add(word: UInt64(bitPattern: t.seconds))
            h.add(word: UInt64(UInt32(bitPattern: t.offset)))
        }
        text(w.activityType)
        text(w.source)
        // The device without its address (`DeviceText.withoutAddress`), fed in two pieces.
        if let device = w.device {
            let (head, rest) = DeviceText.withoutAddressParts(device)
            h.add(head)
            h.add(rest)
        }
        h.separate()
        time(w.start)
        time(w.end)
        num(w.duration)
        text(w.durationUnit)
        num(w.totalDistance)
        text(w.totalDistanceUnit)
        num(w.totalEnergyBurned)
        text(w.totalEnergyBurnedUnit)
        num(w.statedAverageHeartRate)
        num(w.statedMaximumHeartRate)
        // A statistic: the workout's with its times, an activity's without (as `digest` takes them).
        func statistic(_ s: WorkoutStatistic, withTimes: Bool) {
            h.add(byte: 1)
            text(s.type)
            if withTimes {
                time(s.start)
                time(s.end)
            }
            num(s.average)
            num(s.minimum)
            num(s.maximum)
            num(s.sum)
            text(s.unit)
        }
        for s in w.statistics { statistic(s, withTimes: true) }
        for a in w.activities {
            h.add(byte: 2)
            text(a.uuid)
            time(a.start)
            time(a.end)
            num(a.duration)
            text(a.durationUnit)
            for s in a.statistics { statistic(s, withTimes: false) }
            h.add(byte: 0)
        }
        for e in w.events {
            h.add(byte: 3)
            text(e.type)
            time(e.date)
            num(e.duration)
            text(e.durationUnit)
        }
        for r in w.routes {
            h.add(byte: 4)
            text(r.source)
            time(r.start)
            time(r.end)
            h.add(word: UInt64(bitPattern: Int64(r.inlineLocationCount)))
            h.add(word: UInt64(r.filePaths.count))
            for p in r.filePaths { text(p) }
        }
        return h.value
    }
}
