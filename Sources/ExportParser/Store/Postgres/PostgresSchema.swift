/// The PostgreSQL store's tables, made and migrated on first use: each version's SQL runs once,
/// in order, recorded in `schema_migrations`. All of it runs in one transaction that first takes
/// a transaction-scoped advisory lock (`pg_advisory_xact_lock`), so two processes starting at
/// once against a new database never both migrate: the second waits, then finds the versions
/// recorded and runs nothing. A database a newer health-import migrated is refused.
enum PostgresSchema {
    /// The advisory lock's key: any fixed number the database's other users do not take
    /// ("health-i" in ASCII).
    static let lockKey: Int64 = 0x6865_616C_7468_2D69

    /// Version 1: `receive`'s bodies, as the SQLite store's `received_bodies` holds them
    /// (StoreSchema, version 3), with PostgreSQL's types: the body as `bytea`, the time received
    /// as `timestamptz`, the dates as `date`; the same body of a person on an endpoint once.
    static let migrations: [(version: Int, sql: String)] = [
        (
            1,
            """
            CREATE TABLE received_bodies (
                id bigserial PRIMARY KEY,
                person text NOT NULL,
                endpoint text NOT NULL,
                body_sha256 text NOT NULL,
                bytes bigint NOT NULL,
                body bytea NOT NULL,
                received_at timestamptz NOT NULL,
                first_date date,
                last_date date,
                UNIQUE (person, endpoint, body_sha256)
            )
            """
        ),
        // Version 2: `compare --everyone`'s verdicts, one row a person, as the SQLite store's
        // `fleet_verdicts` holds them (StoreSchema, version 8): workers of a sharded check write
        // here and `--report` reads them back. Times are the same ISO 8601 texts as there.
        (
            2,
            """
            CREATE TABLE fleet_verdicts (
                person text PRIMARY KEY,
                status text NOT NULL,
                failing_fields text NOT NULL,
                reason text NOT NULL,
                person_json text NOT NULL,
                mode text NOT NULL,
                days integer NOT NULL,
                monitor integer,
                until_date text,
                shard text NOT NULL,
                tool_version text NOT NULL,
                checked_at text NOT NULL,
                written_at text NOT NULL,
                from_date text,
                time_zone text,
                tolerances_sha256 text,
                judged_date text,
                judged_zone text,
                run_id text,
                bodies_max_id bigint NOT NULL DEFAULT 0,
                bodies bigint NOT NULL DEFAULT 0,
                imports_max_id bigint NOT NULL DEFAULT 0,
                imports bigint NOT NULL DEFAULT 0
            )
            """
        ),
    ]

    static var latest: Int { migrations.last!.version }

    /// The tables the store holds a person's rows in (erase deletes from these) and those it
    /// holds nobody's in.
    static let personTables = ["received_bodies", "fleet_verdicts"]
    static let sharedTables = ["schema_migrations"]

    /// Brings the database to `latest`; returns the versions this call applied.
    @discardableResult
    static func migrate(_ db: PostgresConnection) throws -> [Int] {
        try db.run("BEGIN")
        do {
            try db.run("SELECT pg_advisory_xact_lock($1)", [.int(lockKey)])
            try db.run(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            let current = Int(try db.run("SELECT coalesce(max(version), 0) FROM schema_migrations").int(0, 0))
            guard current <= latest else {
                throw StoreError(
                    path: db.path,
                    message:
                        "was migrated by a newer health-import (schema version \(current); this one knows up to \(latest)); use that health-import"
                )
            }
            var applied: [Int] = []
            for migration in migrations where migration.version > current {
                try db.run(migration.sql)
                try db.run("INSERT INTO schema_migrations (version) VALUES ($1)", [.int(Int64(migration.version))])
                applied.append(migration.version)
            }
            try db.run("COMMIT")
            return applied
        } catch {
            _ = try? db.run("ROLLBACK")
            throw error
        }
    }
}
