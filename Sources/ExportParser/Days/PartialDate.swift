/// The export moment bounds the data (docs/rules.md, "The export moment"): the date it falls on
/// holds only what had happened by then (an export made at 17:08 has the basal energy of 17
/// hours), so that date is partial. A day knows its input's moment as its
/// `device_sync_timestamp` (export.xml's `ExportDate`; for HAE, which states none, the latest
/// instant its data reaches), written in the day's own zone or offset, so the moment falls on the
/// date exactly when the timestamp's local date is the day's. `convert` says which dates are
/// partial; `push` leaves them out unless `--include-partial`.
enum PartialDate {
    /// Whether a day of `date` (`YYYY-MM-DD`) whose `device_sync_timestamp` is `sync` is partial.
    static func isPartial(date: String, deviceSyncTimestamp sync: String) -> Bool {
        sync.utf8.count >= 10 && sync.utf8.prefix(10).elementsEqual(date.utf8)
    }

    /// The time of day of the moment (`HH:MM`), for the sentences that name it.
    static func timeOfDay(_ sync: String) -> String {
        let u = Array(sync.utf8)
        return u.count >= 16 ? String(decoding: u[11..<16], as: UTF8.self) : sync
    }
}
