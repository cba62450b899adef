import Foundation

/// `explain --store`: a person's stored records around the date, one side at a time (export.xml
/// imports or HAE imports, as `compare --store` splits them), played into a day book as a reader
/// would: samples by type and time, the nights HAE summarised, the workouts with their statistics.
///
/// The window is the date ± 2 days in UTC: it covers every offset, the night that ends on the
/// date and the samples that cross its midnights, so the date's values are the ones the full
/// records give (a source counted as a watch only by its records outside the window is the one
/// thing the window can miss). Sleep samples are played from any time before the window too: a
/// sleep session chains samples over any number of dates (docs/rules.md, "Nights"), and the
/// date's sessions must take all of theirs; none starting after it can matter (a session it
/// joins ends two dates past the date).
enum StoreDateReplay {
    static let margin: Int64 = 2 * 86_400

    /// Plays the side's records into `sink`; returns how many samples and workouts it played.
    @discardableResult
    static func play(_ store: HealthStore, person: String, hae: Bool, day: Int, into sink: SampleSink) throws -> Int {
        let from = Int64(day) * 86_400 - margin, to = Int64(day + 1) * 86_400 + margin
        let side = "(i.format = 'hae') = ?2 AND i.finished_at IS NOT NULL AND i.person = ?1"
        var played = 0
        let s = try window(
            store, person: person, hae: hae, from: from, to: to,
            """
            SELECT t.name, src.name, d.description, r.unit, r.value, r.value_text, r.payload_value, r.start_epoch, r.start_offset,
                r.end_epoch, r.end_offset, r.time_zone, r.bucket_minimum, r.bucket_maximum, r.is_bucket, r.metadata_digest
            FROM sample_records r JOIN imports i ON i.id = r.import_id JOIN sample_types t ON t.id = r.type_id
            JOIN sources src ON src.id = r.source_id LEFT JOIN devices d ON d.id = r.device_id
            WHERE r.person = ?1 AND \(side) AND (r.start_epoch >= ?3 OR t.name = ?5) AND r.start_epoch < ?4
            ORDER BY t.name, r.start_epoch, r.id
            """)
        s.bind(5, Catalog.sleepType)
        while try s.step() {
            guard let type = s.text(0), let source = s.text(1) else { continue }
            var x = Sample(
                type: type, metric: Catalog.metric(forType: type), source: source, device: s.text(2), unit: s.text(3),
                valueText: s.text(5), value: s.double(4), canonicalValue: s.double(6),
                start: Timestamp(seconds: s.int(7), offset: Int32(s.int(8))), end: Timestamp(seconds: s.int(9), offset: Int32(s.int(10))),
                timeZoneName: s.text(11))
            x.bucketMinimum = s.double(12)
            x.bucketMaximum = s.double(13)
            x.isBucket = s.int(14) != 0
            x.metadataDigest = UInt64(bitPattern: s.int(15))
            x.deviceIsWatch = x.device?.contains("model:Watch,") ?? false
            sink.sample(x)
            played += 1
        }
        played += try playSleepSummaries(store, side: side, person: person, hae: hae, from: from, to: to, into: sink)
        played += try playWorkouts(store, side: side, person: person, hae: hae, from: from, to: to, into: sink)
        return played
    }

    /// `sql` prepared with the parameters every query of the replay shares: `?1` the person,
    /// `?2` the side (1: HAE imports), `?3` and `?4` the window's first and past-the-last second.
    private static func window(_ store: HealthStore, person: String, hae: Bool, from: Int64, to: Int64, _ sql: String) throws
        -> Statement
    {
        let s = try store.db.prepare(sql)
        s.bind(1, person)
        s.bind(2, hae ? 1 : 0)
        s.bind(3, from)
        s.bind(4, to)
        return s
    }

    private static func playSleepSummaries(
        _ store: HealthStore, side: String, person: String, hae: Bool, from: Int64, to: Int64, into sink: SampleSink
    ) throws -> Int {
        let s = try window(
            store, person: person, hae: hae, from: from, to: to,
            """
            SELECT v.sleep_end_at, v.sleep_start_at, v.total_hours, v.core_hours, v.deep_hours, v.rem_hours, v.awake_hours,
                v.asleep_hours, v.in_bed_hours, v.in_bed_start_at, v.in_bed_end_at, v.source_name
            FROM sleep_summaries v JOIN imports i ON i.id = v.import_id
            WHERE v.person = ?1 AND \(side) AND v.sleep_end_epoch >= ?3 AND v.sleep_end_epoch < ?4
            ORDER BY v.sleep_end_epoch
            """)
        var played = 0
        while try s.step() {
            guard let end = s.text(0).flatMap(TimestampParser.parse), let total = s.double(2) else { continue }
            var n = SleepSummary(sleepEnd: end, totalHours: total)
            n.sleepStart = s.text(1).flatMap(TimestampParser.parse)
            n.coreHours = s.double(3)
            n.deepHours = s.double(4)
            n.remHours = s.double(5)
            n.awakeHours = s.double(6)
            n.asleepHours = s.double(7)
            n.inBedHours = s.double(8)
            n.inBedStart = s.text(9).flatMap(TimestampParser.parse)
            n.inBedEnd = s.text(10).flatMap(TimestampParser.parse)
            n.source = s.text(11)
            sink.sleepSummary(n)
            played += 1
        }
        return played
    }

    private static func playWorkouts(
        _ store: HealthStore, side: String, person: String, hae: Bool, from: Int64, to: Int64, into sink: SampleSink
    ) throws -> Int {
        let s = try window(
            store, person: person, hae: hae, from: from, to: to,
            """
            SELECT w.id, w.activity_type, w.source_name, d.description, w.start_at, w.end_at, w.duration, w.duration_unit,
                w.total_distance, w.total_distance_unit, w.total_energy_burned, w.total_energy_burned_unit,
                w.stated_average_heart_rate, w.stated_maximum_heart_rate, w.time_zone
            FROM workouts w JOIN imports i ON i.id = w.import_id LEFT JOIN devices d ON d.id = w.device_id
            WHERE w.person = ?1 AND \(side) AND w.start_epoch >= ?3 AND w.start_epoch < ?4
            ORDER BY w.start_epoch, w.id
            """)
        let stats = try store.db.prepare(
            "SELECT type, average, minimum, maximum, sum, unit FROM workout_statistics WHERE workout_id = ?1 AND activity_id IS NULL")
        var played = 0
        while try s.step() {
            guard let type = s.text(1), let source = s.text(2), let start = s.text(4).flatMap(TimestampParser.parse),
                let end = s.text(5).flatMap(TimestampParser.parse)
            else { continue }
            var w = Workout(activityType: type, source: source, start: start, end: end)
            w.device = s.text(3)
            w.duration = s.double(6)
            w.durationUnit = s.text(7)
            w.totalDistance = s.double(8)
            w.totalDistanceUnit = s.text(9)
            w.totalEnergyBurned = s.double(10)
            w.totalEnergyBurnedUnit = s.text(11)
            w.statedAverageHeartRate = s.double(12)
            w.statedMaximumHeartRate = s.double(13)
            w.timeZoneName = s.text(14)
            stats.reset()
            stats.bind(1, s.int(0))
            while try stats.step() {
                guard let t = stats.text(0) else { continue }
                w.statistics.append(
                    WorkoutStatistic(
                        type: t, average: stats.double(1), minimum: stats.double(2), maximum: stats.double(3), sum: stats.double(4),
                        unit: stats.text(5)))
            }
            sink.workout(w)
            played += 1
        }
        return played
    }
}
