extension IntervalSet {
    /// The spans of this set that `other` does not cover: what a source won where higher
    /// sources had already claimed `other` (`explain`'s stretches).
    func subtracting(_ other: IntervalSet) -> [(Int64, Int64)] {
        var out: [(Int64, Int64)] = []
        for (s, e) in spans {
            var cursor = s
            for (os, oe) in other.spans where oe > cursor && os < e {
                if os > cursor { out.append((cursor, os)) }
                cursor = max(cursor, oe)
            }
            if cursor < e { out.append((cursor, e)) }
        }
        return out
    }
}
