import ExportParser

/// `export.zip` as the Health app shares it: `apple_health_export/export.xml` (read back from the
/// file just written), `export_cda.xml` and the workouts' route files, time-stamped with the
/// export's date.
enum FixtureZip {
    /// Writes the archive; its size.
    @discardableResult
    static func write(
        exportName: String, outDir: String, clock: FixtureClock, exportDate: Int64, routes: [WorkoutPlan]
    ) throws -> Int64 {
        let local = clock.iso(exportDate)
        func field(_ from: Int, _ length: Int) -> Int { Int(local.dropFirst(from).prefix(length))! }
        let path = outDir + "/\(exportName).zip"
        do {
            let z = try ZipWriter(
                path: path, year: field(0, 4), month: field(5, 2), day: field(8, 2), hour: field(11, 2), minute: field(14, 2),
                second: field(17, 2))
            try z.add("apple_health_export/\(exportName).xml", file: outDir + "/\(exportName).xml")
            try z.add("apple_health_export/export_cda.xml", ClinicalDocument.xml(exportDate: clock.exportText(exportDate)))
            for w in routes {
                try z.add(
                    "apple_health_export/workout-routes/" + ExportXMLElements.routeName(w, clock: clock), RouteGPX.gpx(w, clock: clock))
            }
            return try z.finish()
        } catch let e as ZipWriter.Failure {
            throw OutputError(file: path, message: e.description)
        }
    }
}
