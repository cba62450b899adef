/// The fields `explain` takes: every payload path `compare` compares (`metrics.step_count`,
/// `metrics.heart_rate_samples.min`, `sleep.total_hours`, `workouts`), also by CSV column.
enum ExplainedField {
    static let all: [OutputField] = OutputFields.all.filter { f in
        guard let path = f.payloadPath else { return false }
        return !ComparableDay.notCompared.contains(path)
    }

    /// The field by payload path or CSV column; an unknown name is a usage error that lists
    /// every name there is.
    static func named(_ name: String) throws -> OutputField {
        if let f = all.first(where: { $0.payloadPath == name || $0.column == name }) { return f }
        throw UsageError(
            "--field", "unknown field \"\(name)\"; the fields are: " + all.compactMap(\.payloadPath).joined(separator: ", "))
    }

    /// The catalog metric a field reads (nil for sleep and workouts).
    static func metric(of f: OutputField) -> Metric? {
        guard let path = f.payloadPath else { return nil }
        return Catalog.metrics.first { m in
            let base = m.section.rawValue + "." + m.field
            return path == base || path.hasPrefix(base + ".")
        }
    }
}
