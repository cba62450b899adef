/// What an `explain` run was asked to do (the CLI's options; `ExplainJob` validates them).
public struct ExplainRequest: Sendable {
    /// export.zip / export.xml / HAE JSON / payload JSON, read as `convert` reads them.
    public var inputs: [String]
    /// `YYYY-MM-DD`.
    public var date: String
    /// A payload path as `compare` names fields (`metrics.step_count`), or its CSV column.
    public var field: String
    public var timeZoneName: String?
    /// As `convert --source-priority`: the order the sum rule ranks overlapping sources in.
    public var sourcePriority: [String]?
    /// `--store FILE`: the person's stored records instead of inputs.
    public var storePath: String?
    public var person: String

    public init(
        inputs: [String], date: String, field: String, timeZoneName: String? = nil, sourcePriority: [String]? = nil,
        storePath: String? = nil, person: String = "me"
    ) {
        self.inputs = inputs
        self.storePath = storePath
        self.person = person
        self.date = date
        self.field = field
        self.timeZoneName = timeZoneName
        self.sourcePriority = sourcePriority
    }

    /// Checks the options before anything is read (the command's `validate()` calls it).
    public func validate() throws {
        if storePath != nil {
            guard inputs.isEmpty else { throw UsageError("--store", "--store explains the store's records: give no input with it") }
            if person.isEmpty { throw UsageError("--person", "--person needs a non-empty id") }
        } else {
            guard !inputs.isEmpty else {
                throw UsageError(nil, "give at least one input (export.zip, export.xml, HAE JSON or payload JSON) or --store FILE")
            }
        }
        _ = try ConvertJob.day(date, option: "--date")
        _ = try ExplainedField.named(field)
        _ = try DayOptions(timeZoneName: timeZoneName, sourcePriority: sourcePriority)
    }
}
