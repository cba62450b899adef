import Foundation
import XCTest

@testable import ExportParser

/// The PostgreSQL store through the built tool, on a real server (`PostgresTestServer`, one for
/// the class): the schema made once when processes start together, the password never on the
/// command line nor in any output, and `people`, `gdpr-export` and `erase` on received bodies.
final class PostgresStoreProcessTests: PostgresServerTestCase {
    typealias B = ReceiveBodies

    /// Four processes open one new database at the same moment: each takes the advisory lock
    /// before it looks, so exactly one migrates and the others find versions 1 and 2 recorded. Without
    /// the lock two would both run `CREATE TABLE received_bodies` and one would fail.
    func testProcessesStartingTogetherMigrateOnce() throws {
        let url = try server.createDatabase("race")
        let runs = LockedList()
        let environment = server.environment
        let threads = (0..<4).map { _ in
            Thread {
                let r = try? ToolRun.run(["people", "--store", url], environment: environment)
                runs.add("\(r?.status ?? -1) \(r?.printed ?? "did not run")")
            }
        }
        threads.forEach { $0.start() }
        let deadline = Date().addingTimeInterval(120)
        while runs.count < 4, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(runs.items, Array(repeating: "0 \(url) holds no person.\n", count: 4))
        let versions = try server.admin("SELECT version FROM schema_migrations ORDER BY version", in: "race")
        XCTAssertEqual((0..<versions.rows).map { versions.int($0, 0) }, [1, 2])
        // A later start applies nothing and still works.
        XCTAssertEqual(try ToolRun.run(["people", "--store", url], environment: server.environment).status, 0)
        XCTAssertEqual(try server.admin("SELECT count(*) FROM schema_migrations", in: "race").int(0, 0), 2)
    }

    /// `compare --everyone` opens its store once: the people, their sides and their verdicts
    /// over one connection, and one schema check. Two people with HAE bodies only are each "not
    /// enough data" before any compare of theirs opens the store again, so the run's
    /// connections are exactly its one opening (before: `StoreAccess.open` and
    /// `StoreAccess.verdicts`, 2).
    func testCompareEveryoneOpensItsStoreOnce() throws {
        let url = try server.createDatabase("onefleet")
        XCTAssertEqual(try ToolRun.run(["people", "--store", url], environment: server.environment).status, 0)  // makes the tables
        for person in ["a", "b"] {
            try server.admin(
                "INSERT INTO received_bodies (person, endpoint, body_sha256, bytes, body, received_at, first_date, last_date) "
                    + "VALUES ('\(person)', 'hae', '\(person)', 1, 'x', now(), '2026-03-02', '2026-03-02')", in: "onefleet")
        }
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = server.connections(to: "onefleet")
        let run = try ToolRun.run(
            ["compare", "--store", url, "--everyone", "--out", dir.appendingPathComponent("out").path], environment: server.environment)
        XCTAssertEqual(run.status, 1, run.printed)  // nobody ready: both not enough data
        XCTAssertEqual(server.connections(to: "onefleet") - before, 1, "one connection for the people and the verdicts")
        XCTAssertEqual(try server.admin("SELECT count(*) FROM fleet_verdicts", in: "onefleet").int(0, 0), 2)
    }

    /// A URL with a password is refused before anything connects, with what to use instead, and
    /// the password appears in no output: neither that refusal, nor a wrong PGPASSWORD's error
    /// (nor a receiver's log: the next test).
    func testThePasswordIsNeverOnTheCommandLineNorPrinted() throws {
        let url = try server.createDatabase("secret")
        let withPassword = url.replacingOccurrences(of: "health@", with: "health:\(PostgresTestServer.password)@")
        let refused = try ToolRun.run(["people", "--store", withPassword])
        XCTAssertEqual(refused.status, 2, refused.printed)  // a usage error
        XCTAssertTrue(refused.printed.contains("PGPASSWORD"), refused.printed)
        XCTAssertTrue(refused.printed.contains("PGPASSFILE"), refused.printed)
        XCTAssertFalse(refused.printed.contains(PostgresTestServer.password), refused.printed)
        // libpq's own `password=` parameter is refused alike.
        let asParameter = try ToolRun.run(["people", "--store", url + "?password=" + PostgresTestServer.password])
        XCTAssertEqual(asParameter.status, 2, asParameter.printed)
        XCTAssertFalse(asParameter.printed.contains(PostgresTestServer.password), asParameter.printed)

        let wrong = "wrong-" + PostgresTestServer.password
        let denied = try ToolRun.run(["people", "--store", url], environment: ["PGPASSWORD": wrong])
        XCTAssertEqual(denied.status, 1, denied.printed)
        XCTAssertTrue(denied.printed.contains("password authentication failed"), denied.printed)
        XCTAssertFalse(denied.printed.contains(wrong), denied.printed)

        // From a 0600 pass file (libpq ignores one that others can read).
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let passFile = dir.appendingPathComponent("pgpass").path
        try "127.0.0.1:\(server.port):secret:health:\(PostgresTestServer.password)\n".write(
            toFile: passFile, atomically: true, encoding: .utf8)
        chmod(passFile, 0o600)
        let fromFile = try ToolRun.run(["people", "--store", url], environment: ["PGPASSFILE": passFile])
        XCTAssertEqual(fromFile.status, 0, fromFile.printed)
    }

    /// A receiver that connected with the password (PGPASSWORD) names its store without it.
    func testTheReceiversLogNamesTheStoreWithoutThePassword() throws {
        let url = try server.createDatabase("secretlog")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let receiver = try ReceiveProcess(
            ["--store", url, "--api-key-file", try ReceiveProcess.keyFile(in: dir)], log: dir.appendingPathComponent("receive.log"),
            environment: server.environment)
        let fixture = try FixtureCheck.make(days: 2, start: "2026-03-02", seed: 7, name: "pg-secret")
        defer { try? FileManager.default.removeItem(at: fixture) }
        XCTAssertEqual(receiver.send("POST", ReceiveEndpoint.app.path, body: try B.appSyncs(fixture)[0])?.status, 200)
        XCTAssertEqual(receiver.terminate(), 0)
        XCTAssertTrue(receiver.logText.contains("store \(url)"), receiver.logText)
        XCTAssertFalse(receiver.logText.contains(PostgresTestServer.password), receiver.logText)
    }

    /// Bodies received into PostgreSQL are listed by `people`, exported by `gdpr-export` and
    /// erased by `erase`, which deletes them in one transaction, vacuums, and says in its receipt
    /// what PostgreSQL may still keep. The store is reached through its Unix socket here.
    func testPeopleExportAndEraseOnPostgres() throws {
        _ = try server.createDatabase("people")
        let url = server.socketURL("people")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixture = try FixtureCheck.make(days: 2, start: "2026-03-02", seed: 3, name: "pg-people")
        defer { try? FileManager.default.removeItem(at: fixture) }
        let app = try B.appSyncs(fixture)  // 3 a date, 2 dates: 6 bodies
        let hae = try B.haeSyncs(fixture, dates: ["2026-03-02", "2026-03-03"])  // 1 body (dates − 1)
        let receiver = try ReceiveProcess(
            ["--store", url, "--api-key-file", try ReceiveProcess.keyFile(in: dir)], log: dir.appendingPathComponent("receive.log"),
            environment: server.environment)
        for body in app { XCTAssertEqual(receiver.send("POST", ReceiveEndpoint.app.path, body: body)?.status, 200) }
        for body in hae { XCTAssertEqual(receiver.send("POST", ReceiveEndpoint.hae.path, body: body)?.status, 200) }
        // The same body again is held already: stored once.
        XCTAssertEqual(receiver.send("POST", ReceiveEndpoint.app.path, body: app[0])?.status, 200)
        let status = try XCTUnwrap(receiver.send("GET", "/status"))
        XCTAssertEqual(status.status, 200)
        XCTAssertTrue(status.body.contains("\"bodies\":6"), status.body)
        XCTAssertEqual(receiver.terminate(), 0)
        let env = server.environment

        // The default person of a single API key is "me".
        let people = try ToolRun.run(["people", "--store", url], environment: env)
        XCTAssertEqual(people.status, 0, people.printed)
        // The HAE body's first datums are of the day before the first date (the fixture's start).
        XCTAssertEqual(
            people.stdout,
            "me: 0 imports, no daily values; native bodies received 6, 2026-03-02 to 2026-03-03; HAE bodies received 1, 2026-03-01 to 2026-03-03\n"
        )

        let export = dir.appendingPathComponent("me-export").path
        let exported = try ToolRun.run(["gdpr-export", "--store", url, "--person", "me", "--out", export, "--quiet"], environment: env)
        XCTAssertEqual(exported.status, 0, exported.printed)
        let lines = try String(contentsOfFile: export + "/received_bodies.jsonl", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 7)  // 6 app bodies + 1 HAE body, in the order received
        let first = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(first["endpoint"] as? String, "sync/healthkit")
        XCTAssertEqual(first["bytes"] as? Int, app[0].count)
        XCTAssertEqual(first["body_sha256"] as? String, B.sha256(app[0]))
        XCTAssertEqual(first["first_date"] as? String, "2026-03-02")
        // The body itself, as JSON, the same object the app sent.
        let sent = try JSONSerialization.jsonObject(with: Data(app[0])) as? NSDictionary
        XCTAssertEqual(first["body"] as? NSDictionary, sent)
        // Every other kind is there, with no row.
        XCTAssertEqual(try String(contentsOfFile: export + "/samples.jsonl", encoding: .utf8), "")
        let manifest = try String(contentsOfFile: export + "/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"store_schema_version\": 2,"), manifest)  // the PostgreSQL schema's two migrations

        let receipt = dir.appendingPathComponent("receipt.txt").path
        let erased = try ToolRun.run(["erase", "--store", url, "--person", "me", "--yes", "--receipt", receipt], environment: env)
        XCTAssertEqual(erased.status, 0, erased.printed)
        let text = try String(contentsOfFile: receipt, encoding: .utf8)
        XCTAssertTrue(text.contains("  received_bodies  7\n"), text)
        XCTAssertTrue(text.contains("VACUUM ran on received_bodies, fleet_verdicts"), text)
        XCTAssertTrue(text.contains("write-ahead log (WAL)"), text)
        XCTAssertTrue(text.contains("base backups"), text)
        XCTAssertEqual(try server.admin("SELECT count(*) FROM received_bodies", in: "people").int(0, 0), 0)
        // VACUUM ran: the table's dead row versions are gone (the statistics say when it ran).
        let vacuumed = try server.admin(
            "SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'received_bodies'", in: "people")
        XCTAssertEqual(vacuumed.text(0, 0), "t")
        let again = try ToolRun.run(["erase", "--store", url, "--person", "me", "--yes"], environment: env)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.printed.contains("holds no data of the person \"me\""), again.printed)
    }

    /// Commands that import into a store or read its imports say plainly that a PostgreSQL store
    /// holds received data only.
    func testImportCommandsRefuseAPostgresStore() throws {
        let url = server.url("postgres")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let convert = try ToolRun.run(["convert", "samples/export.zip", "--store", url, "--out", dir.path + "/out"])
        XCTAssertEqual(convert.status, 2, convert.printed)  // a usage error
        XCTAssertTrue(convert.printed.contains("a PostgreSQL store holds received data only"), convert.printed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "postgres:"), "no folder made from the URL")
        let push = try ToolRun.run(
            ["push", "--store", url, "--url", "http://127.0.0.1:9/", "--dry-run"],
            environment: ["HEALTH_IMPORT_API_KEY": ReceiveProcess.key])
        XCTAssertEqual(push.status, 2, push.printed)
        XCTAssertTrue(push.printed.contains("a PostgreSQL store holds received data only"), push.printed)
    }
}
