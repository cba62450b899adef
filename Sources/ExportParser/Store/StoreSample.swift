/// A sample as the store's writer thread receives it: the `Sample` with its shared strings (type,
/// source, source version, device, unit, time zone) replaced by ids of the import's name list
/// (`StoreSample.Names`), the catalog row by its index, and the metadata by its JSON object.
///
/// Why: the readers intern those strings, so every sample of a type holds the same few string
/// objects. Handed over as strings, each sample's copy was retained by the decoding thread and
/// released by the writer thread, and every such count update moved the object's cache line
/// from one core to the other (perf: about 0.5 s of CPU on the benchmark's 2 M samples, a
/// quarter of what the store run costs more on two cores than on one). Ids are plain integers;
/// the writer keeps its own copy of each name, made once.
struct StoreSample: Sendable {
    var type: Int32
    /// The sample's catalog row (`Metric.index`; -1 for none): its unit is the type's payload unit.
    var metricIndex: Int32
    var source: Int32
    /// Ids of optional names: -1 when absent.
    var sourceVersion: Int32
    var device: Int32
    var unit: Int32
    var timeZone: Int32
    /// Kept only for samples without a numeric value (categories): the store has no use for the
    /// text of a number.
    var valueText: String?
    var value: Double?
    var canonicalValue: Double?
    var created: Timestamp?
    var start: Timestamp
    var end: Timestamp
    var bucketMinimum: Double?
    var bucketMaximum: Double?
    var isBucket: Bool
    var metadataDigest: UInt64
    /// The record's metadata as the JSON object `sample_records.metadata_json` holds
    /// (`{"key":"value",…}`, entries in the record's order, each text by
    /// `ExportBytes.appendJSONString`): the id of that text among the names when it has one
    /// (`MetadataTexts`: a text many records share), else -1 and the text in `metadataJSON`;
    /// -1 and nil for none. Made here, on the decoding thread, so the writer thread binds one
    /// text instead of writing a row an entry (schema version 5).
    var metadata: Int32
    var metadataJSON: String?
    var beats: [InstantaneousBeat]

    /// The import's names, on the decoding thread: each distinct string gets the next id the
    /// first time it is seen, and a copy of it goes to the writer (`newNames`) before any sample
    /// that uses the id.
    struct Names {
        private var ids: [String: Int32] = [:]
        private var next: Int32 = 0
        /// Names given an id since the writer was last sent them, as copies of their own.
        private(set) var newNames: [String] = []
        /// The last name of each field, tried before the dictionary: a file repeats a handful
        /// of names sample after sample, and comparing an interned string with itself is one
        /// pointer comparison.
        private var recent = [Recent](repeating: Recent(), count: Field.allCases.count)
        /// Where a sample's metadata object is built, reused sample after sample.
        private let json = ExportBytes(capacity: 1024)
        /// The metadata objects given an id (its texts are sent in `newNames` like the names).
        private var metadataTexts = MetadataTexts()

        private enum Field: Int, CaseIterable { case type, source, version, device, unit, zone }

        private struct Recent {
            var name = ""
            var id: Int32 = -1
        }

        @inline(__always)
        private mutating func id(_ name: String, _ field: Field) -> Int32 {
            let f = field.rawValue
            if recent[f].id >= 0, recent[f].name == name { return recent[f].id }
            let id: Int32
            if let known = ids[name] {
                id = known
            } else {
                id = next
                next += 1
                ids[name] = id
                newNames.append(Self.copy(name))
            }
            recent[f] = Recent(name: name, id: id)
            return id
        }

        @inline(__always)
        private mutating func id(_ name: String?, _ field: Field) -> Int32 {
            guard let name else { return -1 }
            return id(name, field)
        }

        mutating func takeNewNames() -> [String] {
            defer { newNames = [] }
            return newNames
        }

        /// A string with storage of its own (not the reader's interned one), so the writer
        /// thread's reference counting never touches an object the decoding thread uses.
        /// (Decoded from an array: `String(decoding:)` of the string's own UTF-8 view would share
        /// its storage. Runs once per new name.)
        static func copy(_ s: String) -> String {
            String(decoding: Array(s.utf8), as: UTF8.self)
        }

        /// The sample with its names replaced by ids (new ones recorded in `newNames`); its
        /// metadata from `texts` when the reader lent the entries' texts
        /// (`SampleSink.sample(_:metadata:)`), else from `s.metadata`.
        mutating func storeSample(_ s: Sample, metadata texts: MetadataEntryTexts? = nil) -> StoreSample {
            let metricIndex = s.metric.map { Int32($0.index) } ?? -1
            var metadata: Int32 = -1
            var metadataJSON: String?
            if let texts {
                if !texts.isEmpty {
                    MetadataTexts.appendObject(texts, to: json)
                    (metadata, metadataJSON) = metadataText(json.bytes)
                }
            } else if !s.metadata.isEmpty {
                JSONText.appendObject(s.metadata, to: json)
                (metadata, metadataJSON) = metadataText(json.bytes)
            }
            return StoreSample(
                type: id(s.type, .type), metricIndex: metricIndex,
                source: id(s.source, .source), sourceVersion: id(s.sourceVersion, .version),
                device: id(s.device, .device), unit: id(s.unit, .unit), timeZone: id(s.timeZoneName, .zone),
                valueText: s.value == nil ? s.valueText : nil, value: s.value, canonicalValue: s.canonicalValue,
                created: s.created, start: s.start, end: s.end, bucketMinimum: s.bucketMinimum,
                bucketMaximum: s.bucketMaximum, isBucket: s.isBucket, metadataDigest: s.metadataDigest, metadata: metadata,
                metadataJSON: metadataJSON,
                beats: s.beats)
        }

        /// The metadata object `bytes` (valid UTF-8): its id when `metadataTexts` has it or takes
        /// it (a new text is sent to the writer in `newNames`), else its text.
        private mutating func metadataText(_ bytes: UnsafeRawBufferPointer) -> (id: Int32, text: String?) {
            let probe = metadataTexts.find(bytes)
            if let id = probe.id { return (id, nil) }
            guard metadataTexts.canAdd(bytes.count) else { return (-1, String(decoding: bytes, as: UTF8.self)) }
            let id = next
            next += 1
            metadataTexts.add(bytes, id: id, at: probe)
            newNames.append(String(decoding: bytes, as: UTF8.self))
            return (id, nil)
        }
    }
}
