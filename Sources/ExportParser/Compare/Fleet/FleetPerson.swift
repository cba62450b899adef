import Foundation

/// One person's line of the fleet report: the status, why, and the fields that fail with their
/// dates, made from exactly the report `compare --store FILE --person P` gives (or the error it
/// ends with).
public struct FleetPerson: Sendable, Codable, Equatable {
    /// A field that fails for the person: the dates and what happened on each
    /// (`2026-03-14 +600 (+6 %)`, `2026-03-12 no data from HAE`).
    public struct FailingField: Sendable, Equatable, Codable {
        public var field: String
        public var dates: [String]
        /// The verdict's or the gap's sentence.
        public var text: String
    }

    public var person: String
    public var status: FleetStatus
    /// The exit status the single-person compare has: 0 passed, 1 failed, 2 could not compare.
    public var exitStatus: Int32
    /// One sentence: the stop, the first failures, the missing side, or the error.
    public var reason: String
    public var failing: [FailingField] = []
    /// Fields the person's check compared and found within tolerance.
    public var holding: [String] = []
    /// Reasons as counted across people: the same words for the same cause in everyone
    /// (`step_count out of tolerance`, `no HAE data`), unlike `reason`.
    var causes: [String] = []
    /// Dates with data in the window, per side (validate mode); nil when nothing was compared.
    public var nativeDates: Int?
    public var haeDates: Int?
    /// The person's own report, relative to the fleet's folder (`ann/compare.html`); nil when
    /// no report was written (the check could not be made).
    public var report: String?
    /// The last date the check judged (`--monitor`: `--until` or today) and the zone whose
    /// today it was; kept with the verdict (`FleetVerdict.judgedDate`), not in fleet.json.
    var judgedDate: String?
    var judgedZone: String?

    /// Ready means exactly that the single-person compare passes (exit 0) on enough dates.
    public var ready: Bool { status == .ready }

    /// A folder name for a person id: letters, digits, `.`, `_`, `-` and `@` as they are, every
    /// other byte as `%XX` (an id may hold `/`), and a leading `.` too, so no id names `..` or a
    /// hidden folder.
    static func folder(_ person: String) -> String {
        var out = ""
        for (i, b) in person.utf8.enumerated() {
            let c = Character(Unicode.Scalar(b))
            let plain = (b < 0x80 && (c.isLetter || c.isNumber)) || "_-@".utf8.contains(b) || (b == UInt8(ascii: ".") && i > 0)
            out += plain ? String(c) : String(format: "%%%02X", b)
        }
        return out
    }
}
