import ExportParser

/// `hae.json` as Health Auto Export writes it with Summarize off (`--hae-style samples`): one
/// datum per HealthKit sample, each with its own start, end, value and source, from the same
/// records as export.xml. Heart rate is one datum a reading (`Min` = `Avg` = `Max`, HAE's
/// seconds grouping), so the reader keeps the day's sample count; sleep is one segment a stage
/// record; the iPhone's and the Watch's overlapping steps are both there, for source priority
/// to resolve as it does in export.xml. Workouts are the version-2 objects of the day-aggregated
/// twin. Datums are grouped by metric and in time order, written date by date like export.xml
/// (`SortedSections`), and laid out as the twin is (`JSONValue`'s two-space indentation).
struct HAESamplesWriter {
    private let metrics: HAESampleMetrics
    private let clock: FixtureClock
    private let units: FixtureUnits
    private var time: FixtureTimeText
    private var datums: SortedSections
    private let workouts: FixtureSpool
    private var workoutCount = 0
    private var item = ByteBuffer(capacity: 1 << 10)
    /// Each source's name as a JSON string, made once.
    private var quotedSources: [UTF8Key: [UInt8]] = [:]
    /// Datums written.
    private(set) var datumCount = 0

    init(clock: FixtureClock, units: FixtureUnits, place: FixtureSpool.Place) throws {
        metrics = HAESampleMetrics(units: units)
        self.clock = clock
        self.units = units
        time = FixtureTimeText(clock: clock)
        datums = try SortedSections(count: metrics.list.count, place: place, separator: ",\n")
        workouts = try FixtureSpool(place, number: metrics.list.count)
    }

    // A datum sits five levels deep: {"data": {"metrics": [{"data": [datum…]}]}}.
    private static let open = Array("          {\n".utf8)
    private static let close = Array("\n          }".utf8)

    /// `,\n            "name": ` (without the comma for a datum's first member), made once.
    private static func member(_ name: String, first: Bool = false) -> [UInt8] {
        Array(((first ? "" : ",\n") + "            \"" + name + "\": ").utf8)
    }
    private static let dateKey = member("date", first: true), startKey = member("startDate", first: true)
    private static let endKey = member("endDate"), qtyKey = member("qty"), valueKey = member("value")
    private static let sourceKey = member("source"), systolicKey = member("systolic"), diastolicKey = member("diastolic")
    private static let extremeKeys = ["Min", "Avg", "Max"].map { member($0) }

    private mutating func timeMember(_ key: [UInt8], _ t: Int64) {
        item.put(key)
        item.bytes.append(0x22)
        time.put(t, into: &item)
        item.bytes.append(0x22)
    }

    private mutating func sourceMember(_ s: FixtureSource) {
        item.put(Self.sourceKey)
        let name = UTF8Key(s.name)
        if let q = quotedSources[name] {
            item.put(q)
        } else {
            let q = Array(JSONText.quote(s.name).utf8)
            quotedSources[name] = q
            item.put(q)
        }
    }

    /// Adds one date's samples and workouts.
    mutating func add(_ day: FixtureDay) throws {
        for r in day.records {
            guard let index = metrics.index(of: r) else { continue }
            let metric = metrics.list[index]
            item.clear()
            item.put(Self.open)
            switch metric.kind {
            case .heartRate:
                timeMember(Self.dateKey, r.start)
                for k in Self.extremeKeys {
                    item.put(k)
                    item.put(r.value)
                }
            case .sleep:
                timeMember(Self.startKey, r.start)
                timeMember(Self.endKey, r.end)
                item.put(Self.qtyKey)
                item.put(FixtureNumber.text(Double(r.end - r.start) / 3_600, decimals: 6))
                item.put(Self.valueKey)
                item.put(JSONText.quote(HAESampleMetrics.stage(r.value)))
            case .quantity, .bloodPressure:
                timeMember(Self.startKey, r.start)
                timeMember(Self.endKey, r.end)
                item.put(Self.qtyKey)
                // The records' values are in the units HAE writes, but for percentages.
                item.put(metric.percent ? FixtureNumber.text((Double(r.value) ?? 0) * 100, decimals: 4) : r.value)
            }
            sourceMember(r.source)
            item.put(Self.close)
            datums.add(index, start: r.start, item.bytes)
            datumCount += 1
        }
        for c in day.correlations where c.type == "HKCorrelationTypeIdentifierBloodPressure" {
            item.clear()
            item.put(Self.open)
            timeMember(Self.dateKey, c.start)
            for m in c.members {
                item.put(m.type.hasSuffix("Systolic") ? Self.systolicKey : Self.diastolicKey)
                item.put(m.value)
            }
            sourceMember(c.source)
            item.put(Self.close)
            datums.add(metrics.bloodPressure, start: c.start, item.bytes)
            datumCount += 1
        }
        for w in day.plan.workouts.sorted(by: { $0.start < $1.start }) {
            let text = HAEFixtureWriter.workout(w, clock: clock, units: units).render(level: 3)
            try workouts.append(Array(((workoutCount > 0 ? ",\n" : "") + "      " + text).utf8))
            workoutCount += 1
        }
        // As in export.xml: nothing of a later date starts two days before it.
        try datums.release(before: clock.midnight(day.plan.day + 1) - 2 * 86_400)
    }

    /// Bytes of the datums and workouts (not the few kB of framing), for the dates added so far.
    var bodySize: Int64 { datums.size + workouts.count }

    /// Writes the whole file to `out`: the metrics that have datums, then the workouts.
    mutating func finish(into out: OutputFiles.Staged) throws {
        try datums.releaseAll()
        try out.append("{\n  \"data\": {\n    \"metrics\": [")
        var first = true
        for (i, m) in metrics.list.enumerated() where datums.counts[i] > 0 {
            try out.append(
                (first ? "\n" : ",\n") + "      {\n        \"name\": " + JSONText.quote(m.name) + ",\n        \"units\": "
                    + JSONText.quote(m.units) + ",\n        \"data\": [\n")
            try datums.spools[i].drain(into: out)
            try out.append("\n        ]\n      }")
            first = false
        }
        try out.append(first ? "],\n" : "\n    ],\n")
        try out.append("    \"workouts\": [")
        if workoutCount > 0 {
            try out.append("\n")
            try workouts.drain(into: out)
            try out.append("\n    ]\n")
        } else {
            try out.append("]\n")
        }
        try out.append("  }\n}\n")
    }
}
