/// Which source wins where several wrote the same minutes (docs/rules.md, "Overlapping
/// sources"). Default: Apple Watch, then iPhone, then everything else alphabetically; an explicit
/// list of name fragments (`--source-priority "Apple Watch,iPhone"`) replaces the first part.
/// A source matches the first list entry its name contains (case-insensitive).
public struct SourcePriority: Sendable {
    public let entries: [String]
    public static let defaultEntries = ["Apple Watch", "iPhone"]

    public init(_ entries: [String]? = nil) {
        let list = (entries ?? Self.defaultEntries).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        self.entries = list
        lowered = list.map { $0.lowercased() }
    }
    private let lowered: [String]

    /// The class of a source: the index of its matching entry, or `entries.count` for others.
    public func tier(of source: String) -> Int {
        let s = source.lowercased()
        for (i, e) in lowered.enumerated() where s.contains(e) { return i }
        return lowered.count
    }

    /// Sources sorted from highest to lowest priority (tier, then name).
    public func order(_ sources: [String]) -> [String] {
        sources.sorted { a, b in
            let ta = tier(of: a), tb = tier(of: b)
            return ta != tb ? ta < tb : a < b
        }
    }

    public static func isAppleWatch(_ source: String) -> Bool { source.lowercased().contains("apple watch") }
}

import Foundation
