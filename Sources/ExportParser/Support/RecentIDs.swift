/// The interned ids of the last two different values a reader saw for one attribute (a record's
/// source, its source version, its device): a type's records interleave the phone's and the
/// watch's, so nearly every value is one of the two, and comparing its bytes in place with them
/// saves hashing them (docs/export-xml.md, "The fifth pass").
struct RecentIDs {
    private var last = -1
    private var previous = -1

    /// The id of the value `holds` recognises among the last two, else the one `intern` gives;
    /// that id becomes the last, the former last the previous.
    @inline(__always)
    mutating func id(matching holds: (Int) -> Bool, else intern: () -> Int) -> Int {
        if last >= 0, holds(last) { return last }
        let id = previous >= 0 && holds(previous) ? previous : intern()
        previous = last
        last = id
        return id
    }
}
