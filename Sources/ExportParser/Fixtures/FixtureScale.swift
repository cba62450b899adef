/// How many dates make a `--scale` file of about the size asked for. The first weeks from
/// `--start` are planned and written only to be counted (nothing is kept), which gives the bytes
/// of an average date for this profile, these units and this file; the date count is the size
/// over that. A date's size varies (runs, weigh-ins, weekends' drinks), so over thousands of
/// dates the file comes within a few percent of the size asked for, and the same arguments give
/// the same count. The range then starts at `--start` like any fixture's, so the file is the one
/// `fixtures --days N` would write for that count.
enum FixtureScale {
    /// Sixteen weeks: every weekday as often, both seasons of a runner's week, and a run of
    /// dates far from either end of a range (whose first and last dates are a little different).
    static let probeDays = 224

    static func days(megabytes: Int, file: FixtureOptions.ScaleFile, request: FixtureRequest, options: FixtureOptions) throws -> Int {
        let planner = options.planner(days: probeDays, seed: request.seed)
        let body: Int64
        var fixed = 0
        switch file {
        case .export, .xml:
            var writer = try ExportXMLWriter(clock: planner.clock, units: options.units, seed: request.seed, place: .counted)
            for day in planner.days { try writer.add(planner.day(day)) }
            body = try writer.bodySize()
            fixed =
                writer.head(locale: request.exportLocale, dtd: request.exportDTD, exportDate: planner.exportDate).count
                + ExportXMLWriter.tail.utf8.count
        case .hae:
            var writer = try HAESamplesWriter(clock: planner.clock, units: options.units, place: .counted)
            for day in planner.days { try writer.add(planner.day(day)) }
            body = try writer.bodySize()
        }
        let perDay = Double(body) / Double(probeDays)
        let wanted = Double(megabytes) * 1e6 - Double(fixed)
        return max(1, Int((wanted / perDay).rounded()))
    }
}
