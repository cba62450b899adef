/// A top-level record's metadata entries as the reader decoded them: each key's and value's text
/// (UTF-8, XML references already read), back to back in one buffer that the reader owns and
/// refills record after record. Lent to a sink for one call (`SampleSink.sample(_:metadata:)`):
/// a sink that keeps anything copies it (the store writes its `metadata_json` object from it,
/// `MetadataTexts.appendObject`).
///
/// Why not `[MetadataEntry]`: a String a key and a value, and an array of them, were 130 M of the
/// decoding thread's instructions on a 40 MB export (docs/store.md, store6); these texts cost two
/// appends to one buffer and one to `ends`.
///
/// One thread at a time: the reader fills the texts and the sink reads them during its call, on
/// the same thread (`SampleSink`'s promise), so the two stored properties drop Swift's dynamic
/// exclusivity check (about 30 M instructions of a 20 MB export.xml convert with the store).
final class MetadataEntryTexts {
    /// The texts: key 0, value 0, key 1, value 1, … (a missing value is an empty text).
    let bytes = ExportBytes(capacity: 1024)
    /// Where each text ends in `bytes`, in the same order: the first `textCount` of them (the
    /// array keeps its length between records, so a record's texts are set in place).
    @exclusivity(unchecked) private var ends: [Int] = []
    @exclusivity(unchecked) private var textCount = 0

    init() {}

    /// Entries held.
    var count: Int { textCount / 2 }
    var isEmpty: Bool { textCount == 0 }

    @inline(__always) func clear() {
        bytes.clear()
        textCount = 0
    }

    /// Ends the text appended to `bytes` since the last one ended (a key, then its value).
    @inline(__always) func endText() {
        if textCount < ends.count { ends[textCount] = bytes.count } else { ends.append(bytes.count) }
        textCount += 1
    }

    /// Appends an entry from Strings (the same texts the reader appends from bytes).
    func append(_ entry: MetadataEntry) {
        bytes.append(entry.key)
        endText()
        bytes.append(entry.value)
        endText()
    }

    /// Where the `i`-th text (key `i / 2` or its value) lies in `bytes`; `i` below `2 * count`.
    @inline(__always) func range(ofText i: Int) -> Range<Int> { (i == 0 ? 0 : ends[i - 1])..<ends[i] }

    /// The entries as values (tests, and a sink that keeps them).
    var entries: [MetadataEntry] {
        let all = bytes.array
        func text(_ i: Int) -> String { String(decoding: all[range(ofText: i)], as: UTF8.self) }
        return (0..<count).map { MetadataEntry(key: text(2 * $0), value: text(2 * $0 + 1)) }
    }
}
