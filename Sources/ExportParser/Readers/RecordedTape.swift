#if compiler(>=6.2)
    /// `SendableMetatype` (SE-0470, Swift 6.2): `TapePipeline`'s player thread is started with a
    /// closure that uses the tape's type, so the type itself must be safe to share; tapes are
    /// plain classes, so it is. Compilers before 6.2 have no such check.
    typealias TapeTypeSendable = SendableMetatype
#else
    protocol TapeTypeSendable {}
#endif

/// A tape a parser thread records and a player thread plays: `ElementTape` (export.xml) and
/// `HAEEventTape` (HAE JSON).
protocol RecordedTape: AnyObject, TapeTypeSendable {
    init()
    /// Empties the tape for reuse.
    func clear()
}
