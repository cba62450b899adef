/// Sleep samples `explain` holds beyond its date window, 48 bytes each (a `Sample` is ~300, its
/// texts apart): what a sleep session may take from any distance. A session chains samples while
/// each starts less than 3 h after the session's end so far (docs/rules.md, "Nights"), so one
/// date's session can begin any number of dates before it, and a chain that runs on past the date
/// moves the whole session to a later date; neither is known until the input has been read.
///
/// Kept: the instants with their recorded offsets, the source, device, value text and zone as
/// written (interned: a few distinct texts in a whole export), and whether the device is a watch:
/// every field the day book's sleep rule and the sleep explanation read. Dropped: what only the
/// store keeps (version, metadata, creation date, HAE's `qty`).
struct HeldSleepSamples {
    private struct Held {
        var start: Int64
        var end: Int64
        var startOffset: Int32
        var endOffset: Int32
        var source: Int32
        /// -1: none written (also for `text` and `zone`).
        var device: Int32
        var text: Int32
        var zone: Int32
        var deviceIsWatch: Bool
    }

    private var held: [Held] = []
    private var texts: [String] = []
    private var ids: [String: Int32] = [:]
    /// The last text given an id, for each of the four fields (source, device, value, zone):
    /// consecutive samples repeat them, and the same interned text compares in one step where a
    /// dictionary lookup hashes it (perf: 1.6 % of an `explain` of the 3 GB export).
    private var last: [(text: String, id: Int32)?] = [nil, nil, nil, nil]

    var count: Int { held.count }

    private mutating func id(_ text: String?, field: Int) -> Int32 {
        guard let text else { return -1 }
        if let l = last[field], l.text == text { return l.id }
        let id: Int32
        if let known = ids[text] {
            id = known
        } else {
            id = Int32(texts.count)
            texts.append(text)
            ids[text] = id
        }
        last[field] = (text, id)
        return id
    }

    private func text(_ id: Int32) -> String? { id < 0 ? nil : texts[Int(id)] }

    mutating func append(_ s: Sample) {
        held.append(
            Held(
                start: s.start.seconds, end: s.end.seconds, startOffset: s.start.offset, endOffset: s.end.offset,
                source: id(s.source, field: 0), device: id(s.device, field: 1), text: id(s.valueText, field: 2),
                zone: id(s.timeZoneName, field: 3),
                deviceIsWatch: s.deviceIsWatch))
    }

    /// The `i`-th sample appended, again a `Sample` of the sleep type.
    subscript(i: Int) -> Sample {
        let h = held[i]
        return Sample(
            type: Catalog.sleepType, source: text(h.source) ?? "", device: text(h.device), valueText: text(h.text),
            start: Timestamp(seconds: h.start, offset: h.startOffset), end: Timestamp(seconds: h.end, offset: h.endOffset),
            timeZoneName: text(h.zone), deviceIsWatch: h.deviceIsWatch)
    }
}
