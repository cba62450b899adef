#if compiler(>=6.2)
    /// A tape a parser thread records and a player thread plays: `ElementTape` (export.xml) and
    /// `HAEEventTape` (HAE JSON).
    ///
    /// `SendableMetatype` (SE-0470, Swift 6.2): `TapePipeline`'s player thread is started with a
    /// closure that uses the tape's type, so the type itself must be safe to share; tapes are
    /// plain classes, so it is.
    protocol RecordedTape: AnyObject, SendableMetatype {
        init()
        /// Empties the tape for reuse.
        func clear()
    }
#else
    /// A tape a parser thread records and a player thread plays: `ElementTape` (export.xml) and
    /// `HAEEventTape` (HAE JSON).
    protocol RecordedTape: AnyObject {
        init()
        /// Empties the tape for reuse.
        func clear()
    }
#endif
