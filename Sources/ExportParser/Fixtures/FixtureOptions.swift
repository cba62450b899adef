/// A `FixtureRequest` checked and read: the first date, the clock, the profile, the units. Every
/// option is checked here, once, for both the command's `validate()` and `FixtureJob`.
struct FixtureOptions {
    let firstDay: Int
    /// The person's clock (a traveller's changes zone on the middle date).
    let clock: FixtureClock
    let profile: FixtureProfile
    let units: FixtureUnits
    let samplesStyle: Bool

    init(_ request: FixtureRequest) throws {
        guard (1...3_660).contains(request.days) else { throw UsageError("--days", "--days must be between 1 and 3660") }
        guard let first = CivilDate.parseISODate(request.start) else {
            throw UsageError("--start", "--start \"\(request.start)\" is not a date in the form YYYY-MM-DD")
        }
        guard let clock = FixtureClock(zoneName: request.timeZoneName) else {
            throw UsageError("--timezone", "--timezone \"\(request.timeZoneName)\" is not an IANA time zone (such as Europe/Amsterdam)")
        }
        guard let profile = FixtureProfile.named(request.profile) else {
            throw UsageError(
                "--profile",
                "--profile \"\(request.profile)\" is not a profile: \(FixtureProfile.all.map(\.name).joined(separator: ", "))")
        }
        guard let units = FixtureUnits.named(request.units) else {
            throw UsageError("--units", "--units \"\(request.units)\" is not a unit system: metric, imperial")
        }
        if let v = request.variant, v != "ios16-dtd" {
            throw UsageError("--variant", "--variant \"\(v)\" is not a variant: ios16-dtd")
        }
        if let l = request.locale, l != "zh_CN" {
            throw UsageError("--locale", "--locale \"\(l)\" is not a locale the fixtures know: zh_CN")
        }
        guard ["days", "samples"].contains(request.haeStyle) else {
            throw UsageError("--hae-style", "--hae-style \"\(request.haeStyle)\" is not a style: days, samples")
        }
        firstDay = first
        // A traveller flies west on the middle date.
        self.clock = profile.travels ? clock.travelling(westOn: first + request.days / 2) : clock
        self.profile = profile
        self.units = units
        samplesStyle = request.haeStyle == "samples"
    }
}
