import Foundation

/// Which source wins where several wrote the same minutes (docs/rules.md, "Overlapping
/// sources"). Default: Apple Watch, then iPhone, then everything else alphabetically; an explicit
/// list of name fragments (`--source-priority "Apple Watch,iPhone"`) replaces the first part.
/// A source matches the first list entry its name contains, ignoring case and the kind of space
/// (real exports write `Apple Watch` with a no-break space). A source known to be a watch from
/// its records' `device` (`model:Watch`) matches the `Apple Watch` entry whatever its name.
struct SourcePriority: Sendable {
    let entries: [String]
    static let defaultEntries = ["Apple Watch", "iPhone"]

    init(_ entries: [String]? = nil) {
        let list = (entries ?? Self.defaultEntries).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        self.entries = list
        lowered = list.map(Self.folded)
    }
    private let lowered: [String]
    private static let watchEntry = "apple watch"

    /// The class of a source: the index of its matching entry, or `entries.count` for others.
    func tier(of source: String, isWatch: Bool = false) -> Int {
        let s = Self.folded(source)
        for (i, e) in lowered.enumerated() where s.contains(e) || (isWatch && e == Self.watchEntry) { return i }
        return lowered.count
    }

    /// Sources sorted from highest to lowest priority (tier, then name). `watches` names the
    /// sources whose records came from a watch device.
    func order(_ sources: [String], watches: Set<String> = []) -> [String] {
        let tiers = Dictionary(sources.map { ($0, tier(of: $0, isWatch: watches.contains($0))) }, uniquingKeysWith: { a, _ in a })
        return sources.sorted { a, b in
            let ta = tiers[a]!, tb = tiers[b]!
            return ta != tb ? ta < tb : a < b
        }
    }

    /// The entries no source matches (a typo: `Mi Fti` for `Mi Fit`). Such an entry changes
    /// nothing by itself, but the list still replaces the default order, so `convert` warns.
    func unmatchedEntries(sources: [String], watches: Set<String> = []) -> [String] {
        let names = sources.map(Self.folded)
        return entries.indices.filter { i in
            let e = lowered[i]
            return !names.contains { $0.contains(e) } && !(e == Self.watchEntry && !watches.isEmpty)
        }.map { entries[$0] }
    }

    /// Whether a source is an Apple Watch: by its records' device, or by its name.
    static func isAppleWatch(_ source: String, watches: Set<String> = []) -> Bool {
        watches.contains(source) || folded(source).contains(watchEntry)
    }

    /// Lower case, every kind of space (U+00A0, U+202F, U+2009, …) as a plain space.
    static func folded(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in s.lowercased().unicodeScalars { scalars.append(u.properties.isWhitespace ? " " : u) }
        return String(scalars)
    }
}
