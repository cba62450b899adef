import ExportParser

/// Writes `export.xml` as the Health app lays it out: the DTD prolog, `ExportDate`, `Me`, every
/// record grouped by type in date order, then correlations, workouts and the daily
/// `ActivitySummary` rings. The dates come one at a time (`add`), each element goes to its
/// section as it is made (`SortedSections` keeps the records of a type in time order), and
/// `finish` puts the sections together, so a file of any size is written in the same memory.
struct ExportXMLWriter {
    private var elements: ExportXMLElements
    private let seed: UInt64
    private var records: SortedSections
    private let correlations: FixtureSpool
    private let workouts: FixtureSpool
    private let summaries: FixtureSpool
    /// The addresses of the `device` texts of correlations and workouts, drawn in file order (their
    /// sections are written in the order they are made).
    private var correlationAddresses: FixtureRandom
    private var workoutAddresses: FixtureRandom
    private var recordNumber = 0
    private var item = ByteBuffer(capacity: 1 << 12)
    /// Records written, correlations' members not counted.
    private(set) var recordCount = 0

    /// The order types appear in (the Health app groups records by type); types not listed come
    /// after them, together, in time order.
    static let typeOrder: [String] = {
        let q = FixtureRecord.quantity, k = FixtureRecord.category
        return [
            "StepCount", "DistanceWalkingRunning", "ActiveEnergyBurned", "BasalEnergyBurned", "AppleExerciseTime", "FlightsClimbed",
            "TimeInDaylight", "HeartRate", "RestingHeartRate", "HeartRateVariabilitySDNN", "RespiratoryRate", "OxygenSaturation",
            "AppleSleepingWristTemperature", "WalkingSpeed", "HeartRateRecoveryOneMinute", "VO2Max", "RunningSpeed", "RunningPower",
            "RunningStrideLength", "RunningVerticalOscillation", "RunningGroundContactTime", "BodyMass", "BodyFatPercentage",
            "LeanBodyMass", "BloodPressureSystolic", "BloodPressureDiastolic", "DietaryEnergyConsumed", "DietaryProtein",
            "DietaryCarbohydrates", "DietaryFatTotal", "DietaryFiber", "DietarySugar", "DietaryPotassium", "DietaryCholesterol",
            "NumberOfAlcoholicBeverages", "AppleStandTime", "EnvironmentalAudioExposure",
        ].map { q + $0 }
            + ["SleepAnalysis", "AppleStandHour"].map { k + $0 }
    }()

    private static let section = Dictionary(uniqueKeysWithValues: typeOrder.enumerated().map { (UTF8Key($1), $0) })

    /// Spool files of a `--scale` run are numbered from here (the HAE writer's from 0).
    private static let firstSpool = 1_000

    init(clock: FixtureClock, units: FixtureUnits, seed: UInt64, place: FixtureSpool.Place, writtenOffset: Int32?) throws {
        elements = ExportXMLElements(clock: clock, units: units, writtenOffset: writtenOffset)
        self.seed = seed
        let n = Self.typeOrder.count + 1
        records = try SortedSections(count: n, place: place, firstSpoolNumber: Self.firstSpool)
        correlations = try FixtureSpool(place, number: Self.firstSpool + n)
        workouts = try FixtureSpool(place, number: Self.firstSpool + n + 1)
        summaries = try FixtureSpool(place, number: Self.firstSpool + n + 2)
        correlationAddresses = FixtureRandom(seed: seed, stream: 0xADD2E55)
        workoutAddresses = FixtureRandom(seed: seed, stream: 0xADD2E56)
    }

    /// A record's device address: from its number, so it does not depend on when the record
    /// reaches the file.
    private func recordAddresses(_ number: Int) -> FixtureRandom {
        FixtureRandom(seed: seed ^ 0xADD2_E55D_E71C_E000, stream: UInt64(number))
    }

    /// Adds one date's records, correlations, workouts and rings.
    mutating func add(_ day: FixtureDay) throws {
        for r in day.records {
            item.clear()
            var addresses = recordAddresses(recordNumber)
            recordNumber += 1
            elements.record(r, indent: " ", addresses: &addresses, into: &item)
            records.add(Self.section[UTF8Key(r.type)] ?? Self.typeOrder.count, start: r.start, item.bytes)
        }
        recordCount += day.records.count
        item.clear()
        for c in day.correlations { elements.correlation(c, addresses: &correlationAddresses, into: &item) }
        try correlations.append(item.bytes)
        item.clear()
        for w in day.plan.workouts {
            elements.workout(w, created: w.end + 95, addresses: &workoutAddresses, into: &item)
            // A sync's copy: identical but for the creation date and the device's address.
            if w.writtenTwice { elements.workout(w, created: w.end + 3 * 86_400 + 17, addresses: &workoutAddresses, into: &item) }
        }
        try workouts.append(item.bytes)
        item.clear()
        elements.activitySummary(day.summary, into: &item)
        try summaries.append(item.bytes)
        // A date's samples start at the earliest the evening before it (the night's sleep), so
        // two days back nothing can arrive any more.
        try records.release(before: elements.clock.midnight(day.plan.day + 1) - 2 * 86_400)
    }

    /// Bytes of everything but the prolog and the closing tag, for the dates added so far.
    var bodySize: Int64 { records.size + correlations.count + workouts.count + summaries.count }

    /// Writes the whole file to `out`: the prolog, then every section in order.
    mutating func finish(into out: OutputFiles.Staged, locale: String, dtd: String, exportDate: Int64) throws {
        try records.releaseAll()
        try out.append(bytes: head(locale: locale, dtd: dtd, exportDate: exportDate))
        for spool in records.spools + [correlations, workouts, summaries] { try spool.drain(into: out) }
        try out.append(Self.tail)
    }

    static let tail = "</HealthData>\n"

    /// The prolog: the XML declaration, the DTD, the root's start, `ExportDate` and `Me`.
    func head(locale: String, dtd: String, exportDate: Int64) -> [UInt8] {
        var head = ByteBuffer()
        head.put(ExportDTD.declaration)
        head.put(dtd)
        head.put("<HealthData locale=\"" + locale + "\">\n")
        head.put(" <ExportDate value=\"" + elements.clock.exportText(exportDate) + "\"/>\n")
        head.put(
            " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-05-17\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeAPositive\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n"
        )
        return head.bytes
    }
}
