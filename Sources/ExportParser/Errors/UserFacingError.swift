/// An error the command line shows as it is: one sentence a person can act on, naming what it is
/// about. Four kinds, each in its own file: `UsageError` (an option), `InputError` (an input
/// file, with line and column or byte offset), `OutputError` (a file being written) and
/// `StoreError` (the SQLite store).
public protocol UserFacingError: Error, CustomStringConvertible, Sendable {}
