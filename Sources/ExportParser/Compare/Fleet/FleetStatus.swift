/// Where one person of a cohort stands (docs/compare.md, "Fleet"), worst first.
public enum FleetStatus: String, Sendable, CaseIterable, Codable {
    /// `--monitor`: the app sent nothing on the last dates (a `stopped` gap).
    case appStopped = "app-stopped"
    /// The single-person check fails: values out of tolerance, a workout on one side, a gap, or
    /// the person's data could not be read.
    case notReady = "not-ready"
    /// A side is missing, or fewer dates than `--days` have data on a side.
    case notEnoughData = "not-enough-data"
    /// The single-person check passes on `--days` dates of both sides.
    case ready

    /// 0 for the worst: the order the terminal and the files list people in.
    var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// `app stopped`, `not ready`, `not enough data`, `ready`.
    var words: String { rawValue.replacingOccurrences(of: "-", with: " ") }
}
