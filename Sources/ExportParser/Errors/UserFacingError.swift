/// An error the command line shows as it is: one sentence a person can act on, naming what it is
/// about. Five kinds, each in its own file: `UsageError` (an option), `InputError` (an input
/// file, with line and column or byte offset), `OutputError` (a file being written),
/// `StoreError` (the SQLite store) and `PushError` (a push the backend stopped as a whole). Each
/// is thrown as its kind; the command line reports them all through one function
/// (`CommandErrors.report` in Sources/HealthImport).
public protocol UserFacingError: Error, CustomStringConvertible, Sendable {}
