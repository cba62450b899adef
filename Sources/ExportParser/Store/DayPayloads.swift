import Foundation

/// The payload JSON `convert` wrote for each date (`day_payloads`, schema version 3): what
/// `push --store` sends. Kept as the very text of `payloads/DATE.json`, so a push from the store
/// and a push from the folder send the same bytes, and the backend gets what the app would send.
extension HealthStore {
    /// Replaces the person's stored payloads of these dates, in one transaction. Called by
    /// `convert` once its imports have committed, with the payloads it is about to put in place.
    func savePayloads(person: String, _ payloads: [(date: String, json: String)], at now: Date = Date()) throws {
        try savePayloads(person: person, dates: payloads.map(\.date), at: now) { payloads[$0].json }
    }

    /// The same, for `dates` whose texts `json(i)` gives one at a time: `convert` reads them back
    /// from the day files it has just written, so that memory never holds all of them.
    func savePayloads(person: String, dates: [String], at now: Date = Date(), json: (Int) throws -> String) throws {
        db.confinement.claim()  // the caller waited for the last import's commit thread
        try beginWrite(savepoint: "health_import_payloads")
        do {
            let s = try db.prepare(
                """
                INSERT OR REPLACE INTO day_payloads (person, date, payload_json, tool_version, written_at)
                VALUES (?1, ?2, ?3, ?4, ?5)
                """)
            s.bind(1, person)
            s.bind(4, ExportParserVersion.current)
            s.bind(5, Self.isoUTC(now))
            for (i, date) in dates.enumerated() {
                s.bind(2, date)
                s.bind(3, try json(i))
                try s.run()
            }
            try endWrite(savepoint: "health_import_payloads")
        } catch {
            rollbackWrite(savepoint: "health_import_payloads")
            throw error
        }
    }

    /// The person's stored payloads in date order, within the dates given (inclusive, ISO text).
    func payloads(person: String, from: String?, to: String?) throws -> [(date: String, json: String)] {
        let s = try db.prepare(
            """
            SELECT date, payload_json FROM day_payloads
            WHERE person = ?1 AND date >= ?2 AND date <= ?3 ORDER BY date
            """)
        s.bind(1, person)
        s.bind(2, from ?? "0000-00-00")
        s.bind(3, to ?? "9999-99-99")
        var out: [(date: String, json: String)] = []
        while try s.step() {
            guard let date = s.text(0), let json = s.text(1) else { continue }
            out.append((date, json))
        }
        return out
    }
}
