import Foundation

/// A top-level `Correlation` (food, blood pressure) and its members. Its `Record`s repeat
/// top-level ones (the DTD says so), so they are never samples: read only when the sink wants
/// details (`beginRecord(_:member: true)`), each kept whole as a member of the correlation, which
/// is handed to the sink at its end tag.
extension ExportElementHandler {
    /// A top-level correlation's start tag; one without a readable interval is skipped (counted)
    /// with its members.
    func beginCorrelation(_ attrs: AttributeList) {
        guard let (start, end) = interval(attrs, of: "correlation") else {
            correlation = nil
            return
        }
        var c = Correlation(type: interned(attrs, "type") ?? "", source: interned(attrs, "sourceName") ?? "", start: start, end: end)
        c.sourceVersion = interned(attrs, "sourceVersion")
        c.device = attrs.text("device")  // its address differs in each: not interned
        c.created = attrs.timestamp("creationDate")
        correlation = c
    }

    func endCorrelation() {
        if let c = correlation {
            report.correlations += 1
            sink.correlation(c)
        }
        correlation = nil
    }

    /// A member record's end tag: kept as a `Sample` value with every detail (its metadata
    /// entries and beats as copies of their size, `PendingRecord.keptMetadata`).
    func finishMemberRecord() {
        rec.active = false
        guard correlation != nil, let typeID = Optional(rec.typeID), typeID >= 0,
            let start = rec.start, let end = rec.end
        else { return }
        let s = Sample(
            type: interner[typeID], source: rec.sourceID >= 0 ? interner[rec.sourceID] : "",
            sourceVersion: rec.versionID >= 0 ? interner[rec.versionID] : nil, device: recordDevice,
            unit: rec.unitID >= 0 ? interner[rec.unitID] : nil, valueText: rec.valueText, value: rec.value,
            start: start, end: end, created: rec.created, timeZoneName: rec.timeZoneName, metadata: rec.keptMetadata,
            beats: rec.keptBeats)
        correlation?.members.append(s)
    }
}
