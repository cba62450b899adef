/// A tape a parser thread records and a player thread plays: `ElementTape` (export.xml) and
/// `HAEEventTape` (HAE JSON).
protocol RecordedTape: AnyObject {
    init()
    /// Empties the tape for reuse.
    func clear()
}
