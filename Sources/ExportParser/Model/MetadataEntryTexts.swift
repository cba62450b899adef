/// A top-level record's metadata entries as the reader decoded them: each key's and value's text
/// (UTF-8, XML references already read), back to back in one buffer that the reader owns and
/// refills record after record. Lent to a sink for one call (`SampleSink.sample(_:metadata:)`):
/// a sink that keeps anything copies it (the store writes its `metadata_json` object from it,
/// `MetadataTexts.appendObject`).
///
/// Why not `[MetadataEntry]`: a String a key and a value, and an array of them, were 130 M of the
/// decoding thread's instructions on a 40 MB export (docs/store.md, store6); these texts cost two
/// appends to one buffer and one to `ends`.
final class MetadataEntryTexts {
    /// The texts: key 0, value 0, key 1, value 1, … (a missing value is an empty text).
    let bytes = ExportBytes(capacity: 1024)
    /// Where each text ends in `bytes`, in the same order.
    private(set) var ends: [Int] = []

    init() {}

    /// Entries held.
    var count: Int { ends.count / 2 }
    var isEmpty: Bool { ends.isEmpty }

    func clear() {
        bytes.clear()
        if !ends.isEmpty { ends.removeAll(keepingCapacity: true) }
    }

    /// Ends the text appended to `bytes` since the last one ended (a key, then its value).
    func endText() { ends.append(bytes.count) }

    /// Appends an entry from Strings (the same texts the reader appends from bytes).
    func append(_ entry: MetadataEntry) {
        bytes.append(entry.key)
        endText()
        bytes.append(entry.value)
        endText()
    }

    /// Where the `i`-th text (key `i / 2` or its value) lies in `bytes`.
    func range(ofText i: Int) -> Range<Int> { (i == 0 ? 0 : ends[i - 1])..<ends[i] }

    /// The entries as values (tests, and a sink that keeps them).
    var entries: [MetadataEntry] {
        let all = bytes.array
        func text(_ i: Int) -> String { String(decoding: all[range(ofText: i)], as: UTF8.self) }
        return (0..<count).map { MetadataEntry(key: text(2 * $0), value: text(2 * $0 + 1)) }
    }
}
