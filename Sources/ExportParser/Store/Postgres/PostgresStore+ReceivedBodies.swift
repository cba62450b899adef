import Foundation

/// `receive`'s commits and `GET /status` on PostgreSQL, and the bodies read back for
/// `compare --store` (`StoredBodies`).
///
/// A body is one `INSERT` in its own transaction: committed (with `synchronous_commit = on`)
/// before `keep` returns, so the 200 follows a durable row. The same body of a person on an
/// endpoint, sent twice or to two receivers, meets the unique key and is not written again
/// (`ON CONFLICT DO NOTHING`): the second is told "already held", never an error. When the
/// server went away, `keep` connects again and tries once more, which the unique key makes safe.
extension PostgresStore: ReceivedBodyKeeping {
    func keep(
        _ bytes: UnsafeRawBufferPointer, endpoint: ReceiveEndpoint, person: String, check: ReceivedBodyCheck, receivedAt: Date
    ) throws -> ReceivedBodyStore.Kept {
        let sha = FileDigest.hex(SHA256.hash(data: bytes))
        let parameters: [PostgresValue] = [
            .text(person), .text(endpoint.rawValue), .text(sha), .int(Int64(bytes.count)), .bytes(bytes),
            .text(ReceivedBodyStore.isoUTCMilliseconds(receivedAt)), .text(check.firstDate), .text(check.lastDate),
        ]
        let insert = """
            INSERT INTO received_bodies (person, endpoint, body_sha256, bytes, body, received_at, first_date, last_date)
            VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::date, $8::date)
            ON CONFLICT (person, endpoint, body_sha256) DO NOTHING
            RETURNING id
            """
        return try using { db in
            let result: PostgresResult
            do {
                result = try db.run(insert, parameters)
            } catch _ where !db.isUp {
                try PostgresConnectionPool.reconnect(db)
                result = try db.run(insert, parameters)
            }
            return result.rows == 1 ? .stored(result.int(0, 0)) : .alreadyHeld
        }
    }

    func status(person: String) throws -> [ReceiveStatus] {
        try using { db in try Self.status(db, person: person) }
    }

    static func status(_ db: PostgresConnection, person: String) throws -> [ReceiveStatus] {
        let r = try db.run(
            """
            SELECT endpoint, count(*), sum(bytes), \(dateText("min(first_date)")), \(dateText("max(last_date)")),
                to_char(max(received_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            FROM received_bodies WHERE person = $1 GROUP BY endpoint
            """, [.text(person)])
        var out: [ReceiveStatus] = []
        for row in 0..<r.rows {
            guard let endpoint = r.text(row, 0).flatMap(ReceiveEndpoint.init(rawValue:)) else { continue }
            out.append(
                ReceiveStatus(
                    person: person, endpoint: endpoint, bodies: Int(r.int(row, 1)), bytes: Int(r.int(row, 2)), firstDate: r.text(row, 3),
                    lastDate: r.text(row, 4), lastReceivedAt: r.text(row, 5)))
        }
        // The endpoints' stored names in byte order, as SQLite orders them (a server's collation may not).
        return out.sorted { $0.endpoint.rawValue.utf8.lexicographicallyPrecedes($1.endpoint.rawValue.utf8) }
    }
}

extension PostgresStore: StoredBodies {
    /// The list of bodies first (ids and what names them), then each body on its own, so only
    /// one body is in memory at a time; a body erased in between is passed over.
    func forEachReceivedBody(person: String?, _ body: (StoredBody) throws -> Void) throws {
        let listed = try using { db in
            let columns = "id, person, endpoint, \(Self.receivedAtText)"
            return person == nil
                ? try db.run("SELECT \(columns) FROM received_bodies ORDER BY id")
                : try db.run("SELECT \(columns) FROM received_bodies WHERE person = $1 ORDER BY id", [.text(person)])
        }
        for row in 0..<listed.rows {
            let id = listed.int(row, 0)
            let bytes = try using { db in
                let r = try db.run("SELECT body FROM received_bodies WHERE id = $1", [.int(id)], binaryResult: true)
                return r.rows == 1 ? r.bytes(0, 0) : nil
            }
            guard let bytes else { continue }
            try body(
                StoredBody(
                    id: id, person: listed.text(row, 1), endpoint: listed.text(row, 2), receivedAt: listed.text(row, 3), bytes: bytes))
        }
    }
}
