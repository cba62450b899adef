/// One person of a store: every kind of data the store holds of them (docs/gdpr.md, "`people`"):
/// imports and the dates their daily values cover, rows per kind, the payloads convert stored,
/// pushes, and the bodies `receive` took, by side with the dates they cover.
public struct PersonSummary: Sendable, Equatable {
    public let person: String
    public let imports: Int
    /// First and last date with a daily value (YYYY-MM-DD); nil when there is none.
    public let firstDate: String?
    public let lastDate: String?
    /// Rows by kind (a store table), in the order `PersonRows.listed` lists them.
    public let rows: [Kind]
    /// The bodies `receive` took, a row per side that has any (native before HAE).
    public let received: [ReceiveStatus]

    public struct Kind: Sendable, Equatable {
        public let name: String
        public let rows: Int
    }
}
