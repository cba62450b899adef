import ExportParser

/// `fixtures --scale MB`: one large file for benchmarks, written date by date in constant memory
/// (each section in a spool file beside the output until the last date, then copied into place
/// by the kernel). It is the file `fixtures --days N` would write for the number of dates the
/// size gives (`FixtureScale`), without what only a small fixture needs: no `expected/`,
/// `plan.json` or README (a benchmark times readers; the answers are checked on fixtures small
/// enough to read a difference, and two `--scale` runs into one folder must not overwrite each
/// other's), and export.zip without the route files (the reader never opens them, and they would
/// be a tenth more to make and deflate).
struct FixtureScaleRun {
    let request: FixtureRequest
    let options: FixtureOptions
    let megabytes: Int
    let file: FixtureOptions.ScaleFile

    func run() throws -> FixtureOutcome {
        let days = try FixtureScale.days(megabytes: megabytes, file: file, request: request, options: options)
        let planner = options.planner(days: days, seed: request.seed)
        let out = request.outDir
        var files: [(name: String, bytes: Int64)] = []
        var items = 0
        switch file {
        case .export, .xml:
            let name = request.exportName + ".xml"
            var writer = try ExportXMLWriter(
                clock: planner.clock, units: options.units, seed: request.seed, place: .files(beside: out + "/" + name),
                writtenOffset: options.writtenOffset(planner))
            for day in planner.days { try writer.add(planner.day(day)) }
            let xml = try OutputFiles.Staged(out + "/" + name)
            try writer.finish(into: xml, locale: request.exportLocale, dtd: request.exportDTD, exportDate: planner.exportDate)
            try xml.commit()
            files.append((name, xml.size))
            items = writer.recordCount
            if file == .export {
                let size = try FixtureZip.write(
                    exportName: request.exportName, outDir: out, clock: planner.clock, exportDate: planner.exportDate, routes: [])
                files.append((request.exportName + ".zip", size))
            }
        case .hae:
            var writer = try HAESamplesWriter(clock: planner.clock, units: options.units, place: .files(beside: out + "/hae.json"))
            for day in planner.days { try writer.add(planner.day(day)) }
            let hae = try OutputFiles.Staged(out + "/hae.json")
            try writer.finish(into: hae)
            try hae.commit()
            // Dated at the export moment, as a fixture of --days is (`FixtureJob.dateHAEFiles`):
            // a large file reaches years past --start, maybe past today.
            try FixtureJob.dateHAEFiles(in: out, at: planner.exportDate)
            files.append(("hae.json", hae.size))
            items = writer.datumCount
        }
        var outcome = FixtureOutcome(outDir: out, days: days, records: items, exportBytes: Int(files[0].bytes))
        outcome.scaleFiles = files
        outcome.firstDate = CivilDate.isoDate(planner.firstDay)
        outcome.lastDate = CivilDate.isoDate(planner.lastDay)
        return outcome
    }
}
