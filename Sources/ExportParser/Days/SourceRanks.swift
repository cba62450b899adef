/// The source priority's answers for the sources of one resolution pass (a finish's nights, the
/// sum dates one settling resolves), each source's worked out once: its tier and whether it is an
/// Apple Watch. Folding a name (`SourcePriority.folded`: lower case, every kind of space) cost
/// more than the rest of a night's or a date's work: about a third of both on the 20 MB HAE file
/// (docs/hae.md, "Settled sums and ranked sources, issue 24"). The answers are
/// `SourcePriority.order` and `SourcePriority.isAppleWatch` exactly.
///
/// Threading: it caches, so one thread at a time uses an instance (each finishing thread makes
/// its own).
final class SourceRanks {
    let priority: SourcePriority
    let watches: Set<String>
    private var tiers: [String: Int] = [:]
    private var appleWatches: [String: Bool] = [:]
    /// The last source asked about: a night's segments run from one source, and a name compared
    /// with the very string it was made from costs less than hashing it.
    private var lastAsked: (source: String, appleWatch: Bool)?

    init(priority: SourcePriority, watches: Set<String> = []) {
        self.priority = priority
        self.watches = watches
    }

    /// `priority.tier(of:isWatch:)` of a source, a watch by its records' device or not.
    func tier(_ source: String) -> Int {
        if let t = tiers[source] { return t }
        let t = priority.tier(of: source, isWatch: watches.contains(source))
        tiers[source] = t
        return t
    }

    /// Sources from highest to lowest priority (tier, then name): `SourcePriority.order`.
    func order(_ sources: [String]) -> [String] {
        sources.sorted { a, b in
            let ta = tier(a), tb = tier(b)
            return ta != tb ? ta < tb : a < b
        }
    }

    /// `SourcePriority.isAppleWatch`.
    func isAppleWatch(_ source: String) -> Bool {
        if let lastAsked, lastAsked.source == source { return lastAsked.appleWatch }
        let known: Bool
        if let k = appleWatches[source] {
            known = k
        } else {
            known = SourcePriority.isAppleWatch(source, watches: watches)
            appleWatches[source] = known
        }
        lastAsked = (source, known)
        return known
    }
}
