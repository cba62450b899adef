/// The stand-in values (1, never compared) of a window read's census dates that have the same
/// metrics: made once a read and shared by every such date the read made no day for, and copied
/// under the values of a day the book made (docs/compare.md, "The window read"). Thousands of
/// dates outside the window each had a dictionary of 20–60 field paths of its own, built and
/// hashed path by path.
final class StandInValues: Sendable {
    let values: [String: OutputField.Scalar]
    /// The fields `values` holds (`ComparableDay.fieldSet`), named once for all its dates.
    let fieldSet: ComparedFieldSet?

    init(_ values: [String: OutputField.Scalar]) {
        self.values = values
        fieldSet = ComparableDay.fieldSet(of: values.keys)
    }
}
