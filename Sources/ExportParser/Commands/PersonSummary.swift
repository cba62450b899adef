/// One person of a store: imports, the dates their daily values cover, rows per kind.
public struct PersonSummary: Sendable, Equatable {
    public let person: String
    public let imports: Int
    /// First and last date with a daily value (YYYY-MM-DD); nil when there is none.
    public let firstDate: String?
    public let lastDate: String?
    /// Rows by kind (a store table), in the order `PeopleJob.kinds` lists them.
    public let rows: [Kind]

    public struct Kind: Sendable, Equatable {
        public let name: String
        public let rows: Int
    }
}
