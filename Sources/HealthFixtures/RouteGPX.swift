import ExportParser

/// A workout's route file (`workout-routes/route_….gpx`), as the Health app writes it: a loop
/// around a fixed point with a track point every five seconds. The reader never opens these; they
/// are there because real zips have them.
enum RouteGPX {
    static func gpx(_ w: WorkoutPlan, clock: FixtureClock) -> [UInt8] {
        var out = ByteBuffer()
        out.put(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"Apple Health Export\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        )
        out.put(
            " <metadata>\n  <time>" + utc(w.start) + "</time>\n </metadata>\n <trk>\n  <name>Route " + CivilDate.isoDate(clock.day(w.start))
                + "</name>\n  <trkseg>\n")
        let points = max(2, Int(w.end - w.start) / 5)
        for i in 0..<points {
            // A circle of about 1.2 km radius around the Vondelpark; precision as the Health app's.
            let angle = Double(i) / Double(points) * 2 * Double.pi
            let lat = 52.358 + 0.011 * sine(angle), lon = 4.868 + 0.018 * sine(angle + Double.pi / 2)
            out.put(
                "   <trkpt lon=\"" + FixtureNumber.text(lon, decimals: 6) + "\" lat=\"" + FixtureNumber.text(lat, decimals: 6) + "\"><ele>"
                    + FixtureNumber.text(2 + Double(i % 7) * 0.3, decimals: 6) + "</ele><time>" + utc(w.start + Int64(i) * 5)
                    + "</time></trkpt>\n")
        }
        out.put("  </trkseg>\n </trk>\n</gpx>\n")
        return out.bytes
    }

    /// A Taylor series sine, so route files do not depend on the C library's `sin` rounding.
    static func sine(_ x: Double) -> Double {
        var a = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if a > Double.pi { a -= 2 * Double.pi }
        var term = a, sum = a
        for n in 1...10 {
            term *= -a * a / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }

    static func utc(_ t: Int64) -> String {
        String(CivilDate.isoTimestamp(seconds: t, offset: 0).prefix(19)) + "Z"
    }
}
