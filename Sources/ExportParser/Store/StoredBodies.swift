/// One body `receive` stored, as it is read back.
struct StoredBody {
    var id: Int64
    /// nil only for a row written into the store by hand without one.
    var person: String?
    /// The endpoint's stored name (`ReceiveEndpoint.rawValue`).
    var endpoint: String?
    var receivedAt: String?
    var bytes: [UInt8]
}

/// What `convert --received`, `compare --store`, `explain --store` and `receive`'s start ask of a
/// store about the bodies `receive` took: each one, oldest first, one at a time (a body can be
/// up to `--max-body`; they are never all in memory).
///
/// A protocol so that another store (the PostgreSQL one of the fleet) answers the same
/// question; `HealthStore` answers it with SQLite.
protocol StoredBodies {
    /// Every body of `person` (every person's when nil), in the order received.
    func forEachReceivedBody(person: String?, _ body: (StoredBody) throws -> Void) throws
}

extension HealthStore: StoredBodies {
    func forEachReceivedBody(person: String?, _ body: (StoredBody) throws -> Void) throws {
        if let person {
            let s = try db.prepare("SELECT id, endpoint, received_at, body FROM received_bodies WHERE person = ?1 ORDER BY id")
            s.bind(1, person)
            while try s.step() {
                try body(StoredBody(id: s.int(0), person: person, endpoint: s.text(1), receivedAt: s.text(2), bytes: s.blob(3)))
            }
        } else {
            let s = try db.prepare("SELECT id, person, endpoint, received_at, body FROM received_bodies ORDER BY id")
            while try s.step() {
                try body(StoredBody(id: s.int(0), person: s.text(1), endpoint: s.text(2), receivedAt: s.text(3), bytes: s.blob(4)))
            }
        }
    }
}
