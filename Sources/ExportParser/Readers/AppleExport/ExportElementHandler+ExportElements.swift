import Foundation

/// The top-level elements that say something about the export rather than hold samples:
/// `ExportDate` (the export moment, first in the file), `ActivitySummary` (Apple's daily rings,
/// checked against the days made), and any element the reader does not aggregate (counted as a
/// skip and, with details, kept in the store as it was written). `Me` is one line in `start`.
extension ExportElementHandler {
    /// `ExportDate`: nothing the export holds can have started after it, so a record or workout
    /// that does is skipped later (`exportMoment`).
    func exportDate(_ attrs: AttributeList) {
        if let v = attrs.text("value") {
            if let t = TimestampParser.parse(v) {
                exportMoment = t.seconds
                sink.exportDate(t)
            } else {
                report.skip("unparseable ExportDate", at: locate())
            }
        }
    }

    /// An `ActivitySummary`: one day's rings, keyed by its `dateComponents`.
    func activitySummary(_ attrs: AttributeList) {
        let entries = attrs.entries()
        let date = entries.first { $0.key == "dateComponents" }?.value ?? ""
        report.activitySummaries += 1
        sink.activitySummary(ActivitySummary(date: date, attributes: entries.filter { $0.key != "dateComponents" }))
    }

    /// A top-level element the reader has no rule for (`<ClinicalRecord>`, `<Audiogram>`, …).
    func elementNotAggregated(_ name: UnsafePointer<UInt8>, _ attrs: AttributeList) {
        report.skip("element not aggregated: <\(String(cString: name))> (kept in the store)", at: locate())
        if details { sink.extra(ExtraItem(kind: String(cString: name), json: JSONText.object(attrs.entries()))) }
    }
}
