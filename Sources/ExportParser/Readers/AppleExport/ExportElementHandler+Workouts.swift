import Foundation

/// A `Workout` and what it holds: `WorkoutStatistics`, `WorkoutActivity`, `WorkoutEvent` and
/// `WorkoutRoute` (with its `FileReference` and inline `Location`s, counted). A few hundred a
/// year against a record a second, but all at the end of the file, where the thread that plays
/// the tapes has them to itself: their attributes are read in place by name (`AttributeList.index`),
/// their repeated names interned, put together under the workout being read and handed to the
/// sink at its end tag.
extension ExportElementHandler {
    /// A top-level `Workout`'s start tag. Its names (type, source, version, units) repeat from
    /// workout to workout: interned, as a record's are.
    func beginWorkout(_ attrs: AttributeList) {
        guard let (start, end) = interval(attrs, of: "workout") else {
            workout = nil
            return
        }
        var w = Workout(
            activityType: interned(attrs, "workoutActivityType") ?? "HKWorkoutActivityTypeOther",
            source: interned(attrs, "sourceName") ?? "",
            start: start, end: end)
        // Not interned: each device text holds the object's address, another in every workout.
        w.device = attrs.text("device")
        // Details no day book reads (the store does): a book keeps a workout's figures, and
        // counts a sync's copy once without its version or creation date (`WorkoutIdentity`).
        if details {
            w.sourceVersion = interned(attrs, "sourceVersion")
            w.created = attrs.timestamp("creationDate")
        }
        w.duration = workoutFigure(attrs.number("duration"), "duration")
        w.durationUnit = interned(attrs, "durationUnit")
        w.totalDistance = workoutFigure(attrs.number("totalDistance"), "totalDistance")
        w.totalDistanceUnit = interned(attrs, "totalDistanceUnit")
        w.totalEnergyBurned = workoutFigure(attrs.number("totalEnergyBurned"), "totalEnergyBurned")
        w.totalEnergyBurnedUnit = interned(attrs, "totalEnergyBurnedUnit")
        workout = w
    }

    /// The named attribute's text, interned (the same text as `AttributeList.text`).
    func interned(_ attrs: AttributeList, _ literal: StaticString) -> String? {
        attrs.index(literal).map { internedString(attrs.valueStart($0), attrs.valueCount($0)) }
    }

    /// Read from the attribute bytes as a record is, its type and unit interned: a dictionary of
    /// Strings made for each statistic cost about 17,000 instructions (docs/export-xml.md, "The
    /// fifth pass"). XML allows no attribute twice, so each is met at most once.
    func statistic(_ attrs: AttributeList) -> WorkoutStatistic? {
        var type: String?, unit: String?
        var start: Timestamp?, end: Timestamp?
        var average: Double?, minimum: Double?, maximum: Double?, sum: Double?
        for i in 0..<attrs.count {
            let v = attrs.valueStart(i), c = attrs.valueCount(i)
            if attrs.nameIs(i, "type") {
                type = internedString(v, c)
            } else if attrs.nameIs(i, "startDate") {
                start = TimestampParser.parse(v, c)
            } else if attrs.nameIs(i, "endDate") {
                end = TimestampParser.parse(v, c)
            } else if attrs.nameIs(i, "sum") {
                sum = NumberParser.parse(v, c)
            } else if attrs.nameIs(i, "average") {
                average = NumberParser.parse(v, c)
            } else if attrs.nameIs(i, "minimum") {
                minimum = NumberParser.parse(v, c)
            } else if attrs.nameIs(i, "maximum") {
                maximum = NumberParser.parse(v, c)
            } else if attrs.nameIs(i, "unit") {
                unit = internedString(v, c)
            }
        }
        guard let type else { return nil }
        return WorkoutStatistic(
            type: type, start: start, end: end,
            average: workoutFigure(average, "WorkoutStatistics average"),
            minimum: workoutFigure(minimum, "WorkoutStatistics minimum"),
            maximum: workoutFigure(maximum, "WorkoutStatistics maximum"),
            sum: workoutFigure(sum, "WorkoutStatistics sum"), unit: unit)
    }

    /// A workout's number: nil, with a counted skip, when it is negative (no workout has a
    /// negative duration, distance, energy or heart rate). Non-numbers are nil as before.
    func workoutFigure(_ text: String?, _ name: String) -> Double? {
        workoutFigure(text.flatMap(NumberParser.parse), name)
    }

    func workoutFigure(_ number: Double?, _ name: String) -> Double? {
        guard let v = number else { return nil }
        if v < 0 {
            report.skip("negative workout \(name)", at: locate())
            return nil
        }
        return v
    }

    /// A `WorkoutStatistics`, under the activity or the workout being read.
    func workoutStatistics(_ attrs: AttributeList, parent: Element) {
        if let s = statistic(attrs) {
            if parent == .workoutActivity, activity != nil {
                activity!.statistics.append(s)
            } else if parent == .workout, workout != nil {
                workout!.statistics.append(s)
            }
        }
    }

    /// A `WorkoutActivity` of the workout (iOS 16 on): its statistics, events and metadata follow.
    func beginWorkoutActivity(_ attrs: AttributeList) {
        activity = WorkoutActivity(
            uuid: attrs.text("uuid"), start: attrs.timestamp("startDate"), end: attrs.timestamp("endDate"),
            duration: attrs.number("duration"), durationUnit: interned(attrs, "durationUnit"))
    }

    /// A `WorkoutEvent` (a pause, a lap, a segment) of the workout or of its activity.
    func beginWorkoutEvent(_ attrs: AttributeList) {
        event = WorkoutEvent(
            type: interned(attrs, "type") ?? "", date: attrs.timestamp("date"), duration: attrs.number("duration"),
            durationUnit: interned(attrs, "durationUnit"))
    }

    /// A `WorkoutRoute`: its GPX file's path (`FileReference`) or its inline locations follow.
    func beginWorkoutRoute(_ attrs: AttributeList) {
        route = WorkoutRoute(source: interned(attrs, "sourceName"), start: attrs.timestamp("startDate"), end: attrs.timestamp("endDate"))
    }

    /// A top-level workout's end tag: handed to the sink, unless it starts after the export
    /// moment (counted and skipped).
    func endWorkout() {
        if let w = workout {
            report.workouts += 1
            if w.start.seconds > exportMoment {
                report.skip(Self.afterExportMoment("workout"), at: locate())
            } else {
                sink.workout(w)
            }
        }
        workout = nil
    }

    /// `compare`'s walked workout (`ExportWindow.walkWorkout`), in its place in file order: the
    /// `Workout` its start tag and its own `HKTimeZone` entry give (its texts plain: their bytes
    /// are the reader's Strings), finished as a read one is (the export moment) and handed to
    /// the sink as walked.
    func walkedWorkout(_ w: WalkedElement, bytes: UnsafePointer<UInt8>) {
        assert(!details, "a walked workout has no details for the store")
        if !toldRecordsEnded { tellRecordsEnded() }
        func text(_ first: Int32, _ count: Int32) -> String { internedString(bytes + Int(first), Int(count)) }
        var workout = Workout(
            activityType: w.typeCount >= 0 ? text(w.typeFirst, w.typeCount) : "HKWorkoutActivityTypeOther",
            source: text(w.sourceFirst, w.sourceCount), start: w.start, end: w.end)
        if w.zoneCount >= 0 { workout.timeZoneName = text(w.zoneFirst, w.zoneCount) }
        report.workouts += 1
        if w.start.seconds > exportMoment {
            report.skip(Self.afterExportMoment("workout"), at: locate())
        } else {
            sink.walkedWorkout(workout)
        }
    }

    func endWorkoutActivity() {
        if let a = activity { workout?.activities.append(a) }
        activity = nil
    }

    /// An event belongs to the activity it is inside, else to the workout.
    func endWorkoutEvent() {
        if let e = event {
            if activity != nil { activity!.events.append(e) } else { workout?.events.append(e) }
        }
        event = nil
    }

    func endWorkoutRoute() {
        if let r = route { workout?.routes.append(r) }
        route = nil
    }
}
