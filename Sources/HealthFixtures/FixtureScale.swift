import ExportParser

/// How many dates make a `--scale` file of about the size asked for. Dates from `--start` are
/// planned and written only to be counted (nothing is kept), which gives the bytes of an average
/// date for this profile, these units and this file; the date count is the size over that. A
/// date's size varies (a run day holds twice the heart-rate readings of a rest day), so the first
/// 28 dates give a first count, and the probe goes on up to that count or 224 dates (32 weeks),
/// whichever is fewer: a large file comes within about 2-3 % of the size asked for, and a small
/// one is not probed for longer than it lasts. The same arguments give the same count. The range
/// then starts at `--start` like any fixture's, so the file is the one `fixtures --days N` would
/// write for that count.
enum FixtureScale {
    static let firstProbe = 28
    static let longestProbe = 224

    static func days(megabytes: Int, file: FixtureOptions.ScaleFile, request: FixtureRequest, options: FixtureOptions) throws -> Int {
        // The probe's range is its longest; only its last date (which no probe reaches) differs.
        let planner = options.planner(days: longestProbe + 1, seed: request.seed)
        var xml: ExportXMLWriter? = nil, hae: HAESamplesWriter? = nil
        var fixed = 0
        switch file {
        case .export, .xml:
            let writer = try ExportXMLWriter(
                clock: planner.clock, units: options.units, seed: request.seed, place: .counted,
                writtenOffset: options.writtenOffset(planner))
            fixed =
                writer.head(locale: request.exportLocale, dtd: request.exportDTD, exportDate: planner.exportDate).count
                + ExportXMLWriter.tail.utf8.count
            xml = writer
        case .hae:
            hae = try HAESamplesWriter(clock: planner.clock, units: options.units, place: .counted)
        }
        let wanted = Double(megabytes) * 1e6 - Double(fixed)
        var probed = 0, estimate = 0
        repeat {
            let day = planner.day(planner.firstDay + probed)
            try xml?.add(day)
            try hae?.add(day)
            probed += 1
            let body = xml?.bodySize ?? hae?.bodySize ?? 0
            estimate = max(1, Int((wanted / (Double(body) / Double(probed))).rounded()))
        } while probed < firstProbe || (probed < longestProbe && probed < estimate)
        return estimate
    }
}
