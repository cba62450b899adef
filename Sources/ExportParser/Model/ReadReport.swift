/// Where in an input something happened: a line and column for XML, a byte offset and a JSON
/// path for HAE. Printed in every message so a person can find the record.
public struct InputLocation: Sendable, CustomStringConvertible {
    public var line: Int?
    public var column: Int?
    public var byteOffset: Int64?
    public var path: String?
    public init(line: Int? = nil, column: Int? = nil, byteOffset: Int64? = nil, path: String? = nil) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.path = path
    }
    public var description: String {
        var parts: [String] = []
        if let line { parts.append("line \(line)" + (column.map { ", column \($0)" } ?? "")) }
        if let byteOffset { parts.append("byte \(byteOffset)") }
        if let path { parts.append(path) }
        return parts.joined(separator: ", ")
    }
}

/// A fatal problem with an input: the run stops, nothing in `--out` is replaced.
public struct InputError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var location: InputLocation?
    public var message: String
    public init(file: String, location: InputLocation? = nil, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }
    public var description: String {
        if let location, !location.description.isEmpty { return "\(file): \(location): \(message)" }
        return "\(file): \(message)"
    }
}

/// What a reader read and skipped. Record-level problems are counted here, never fatal; the first
/// few of each reason keep their location so the summary can point at them. Values are never kept.
public struct ReadReport: Sendable {
    public var bytesRead: Int64 = 0
    /// Top-level records read, by type.
    public var recordsByType: [String: Int] = [:]
    public var workouts = 0
    public var correlations = 0
    public var activitySummaries = 0
    /// Control characters removed before parsing (they are not allowed in XML 1.0).
    public var controlCharactersDropped = 0
    public var skips: [String: Int] = [:]
    public var skipExamples: [String: [InputLocation]] = [:]

    public init() {}

    public var totalRecords: Int { recordsByType.values.reduce(0, +) }
    public var totalSkips: Int { skips.values.reduce(0, +) }

    public mutating func skip(_ reason: String, at location: InputLocation) {
        skips[reason, default: 0] += 1
        if skipExamples[reason, default: []].count < 3 { skipExamples[reason, default: []].append(location) }
    }

    public mutating func merge(_ other: ReadReport) {
        bytesRead += other.bytesRead
        recordsByType.merge(other.recordsByType, uniquingKeysWith: +)
        workouts += other.workouts
        correlations += other.correlations
        activitySummaries += other.activitySummaries
        controlCharactersDropped += other.controlCharactersDropped
        skips.merge(other.skips, uniquingKeysWith: +)
        for (k, v) in other.skipExamples where (skipExamples[k]?.count ?? 0) < 3 {
            skipExamples[k, default: []].append(contentsOf: v.prefix(3 - (skipExamples[k]?.count ?? 0)))
        }
    }
}
