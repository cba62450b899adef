/// Where in an input something happened: a line and column for XML, a byte offset and a JSON
/// path for HAE. Printed in every message so a person can find the record.
package struct InputLocation: Sendable, CustomStringConvertible {
    /// The file within an input of several (a body of an HAE folder or JSON Lines file), when the
    /// input's own name does not say it.
    var file: String?
    var line: Int?
    var column: Int?
    var byteOffset: Int64?
    var path: String?
    init(line: Int? = nil, column: Int? = nil, byteOffset: Int64? = nil, path: String? = nil) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.path = path
    }
    package var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let line { parts.append("line \(line)" + (column.map { ", column \($0)" } ?? "")) }
        if let byteOffset { parts.append("byte \(byteOffset)") }
        if let path { parts.append(path) }
        return parts.joined(separator: ", ")
    }
}

/// What a reader read and skipped. Record-level problems are counted here, never fatal; the first
/// few of each reason keep their location so the summary can point at them. Values are never kept.
struct ReadReport: Sendable {
    var bytesRead: Int64 = 0
    /// Of `bytesRead`, those the window read took from the file's map instead of reading them
    /// (`MappedFile`; tests: that the map was used).
    var bytesMapped: Int64 = 0
    /// Top-level records read, by type.
    var recordsByType: [String: Int] = [:]
    var workouts = 0
    var correlations = 0
    var activitySummaries = 0
    /// Control characters removed before parsing (they are not allowed in XML 1.0).
    var controlCharactersDropped = 0
    var skips: [String: Int] = [:]
    var skipExamples: [String: [InputLocation]] = [:]
    /// Records kept whole for the store but in no payload, because the catalog has no field for
    /// their type (HAE metrics such as `hae:stair_speed_up`), by type. Not skips: nothing was
    /// dropped or found wrong.
    var storeOnly: [String: Int] = [:]

    init() {}

    var totalRecords: Int { recordsByType.values.reduce(0, +) }
    var totalSkips: Int { skips.values.reduce(0, +) }

    mutating func skip(_ reason: String, at location: InputLocation) {
        skips[reason, default: 0] += 1
        if skipExamples[reason, default: []].count < 3 { skipExamples[reason, default: []].append(location) }
    }

    mutating func merge(_ other: ReadReport) {
        bytesRead += other.bytesRead
        bytesMapped += other.bytesMapped
        recordsByType.merge(other.recordsByType, uniquingKeysWith: +)
        workouts += other.workouts
        correlations += other.correlations
        activitySummaries += other.activitySummaries
        controlCharactersDropped += other.controlCharactersDropped
        skips.merge(other.skips, uniquingKeysWith: +)
        storeOnly.merge(other.storeOnly, uniquingKeysWith: +)
        for (k, v) in other.skipExamples where (skipExamples[k]?.count ?? 0) < 3 {
            skipExamples[k, default: []].append(contentsOf: v.prefix(3 - (skipExamples[k]?.count ?? 0)))
        }
    }
}
