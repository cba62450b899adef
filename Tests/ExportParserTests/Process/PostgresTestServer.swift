import Foundation
import XCTest

@testable import ExportParser

/// A real PostgreSQL server for one test class: `initdb` into a temporary folder, started with
/// `pg_ctl -w` on a free loopback port (and a Unix socket in the folder), stopped and removed by
/// `stop` (the class's tearDown, which runs also when a test failed).
///
/// PostgreSQL refuses to run as root, and the tests run as root in CI: then the folder is given
/// to `nobody` and every server binary runs through `runuser -u nobody --`. Authentication is
/// scram-sha-256 with a password, so every test connects as a deployment does: the password in
/// PGPASSWORD, never in the URL.
///
/// Binaries: `/usr/lib/postgresql/*/bin` (Debian's `postgresql`), else PATH. When they are absent
/// the tests skip with the reason on a developer's machine, and fail in CI (env `CI` set), where
/// `.ci/run` installs them.
final class PostgresTestServer: @unchecked Sendable {
    static let user = "health"
    static let password = "pw-3f9c1a7e-never-printed"

    let folder: String
    let port: Int
    let bin: String
    private var stopped = false

    /// The environment a process connecting to the server needs (the password, and nothing of
    /// the test runner's own PG* settings).
    var environment: [String: String] { ["PGPASSWORD": Self.password, "PGCONNECT_TIMEOUT": "10"] }

    /// `fsync`: off makes initdb and commits cheap; only a durability test needs it on.
    init(fsync: Bool = false) throws {
        guard let bin = Self.binaries() else {
            let reason = "PostgreSQL's server binaries (initdb, pg_ctl) are not installed (apt-get install postgresql; .ci/run installs it)"
            if ProcessInfo.processInfo.environment["CI"] != nil { throw PostgresTestServerError(reason + ", and CI must run these tests") }
            throw XCTSkip(reason)
        }
        self.bin = bin
        var template = Array("/tmp/health-import-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw PostgresTestServerError("cannot create a temporary folder") }
        folder = String(cString: made)
        port = try Self.freePort()
        do {
            try start(fsync: fsync)
        } catch {
            stop()
            throw error
        }
    }

    private func start(fsync: Bool) throws {
        try (Self.password + "\n").write(toFile: folder + "/pw", atomically: false, encoding: .utf8)
        if getuid() == 0 { try Self.runChecked("/bin/chown", ["-R", "nobody", folder]) }
        try runAsServer(
            "initdb",
            [
                "-D", folder + "/data", "-U", Self.user, "--auth=scram-sha-256", "--pwfile=" + folder + "/pw", "-E", "UTF8",
                "--no-locale", "--no-sync",
            ])
        let settings = [
            "listen_addresses = '127.0.0.1'", "port = \(port)", "unix_socket_directories = '\(folder)'",
            "fsync = \(fsync ? "on" : "off")", "max_connections = 60", "shared_buffers = 16MB",
            // A line a connection, written before the client is told it is in: `connections(to:)`.
            "log_connections = on",
        ]
        let conf = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/data/postgresql.conf"))
        conf.seekToEndOfFile()
        conf.write(Data((settings.joined(separator: "\n") + "\n").utf8))
        try conf.close()
        try runAsServer("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "start"])
    }

    /// `postgres://health@127.0.0.1:PORT/NAME` (no password: it is in `environment`).
    func url(_ database: String) -> String { "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)" }

    /// The same database through the server's Unix socket (libpq's `?host=/path`).
    func socketURL(_ database: String) -> String { "postgresql://\(Self.user)@/\(database)?host=\(folder)&port=\(port)" }

    /// A new, empty database for one test.
    func createDatabase(_ name: String) throws -> String {
        try admin("CREATE DATABASE \(name)")
        return url(name)
    }

    /// Runs one statement as the superuser in `database` (test setup and checks only).
    @discardableResult
    func admin(_ sql: String, in database: String = "postgres") throws -> PostgresResult {
        setenv("PGPASSWORD", Self.password, 1)
        let db = try PostgresConnection(
            settings: try PostgresConnection.parse(url(database)), shownAs: "test server")
        return try db.run(sql)
    }

    /// How many connections to `database` the server has let in so far (its log's
    /// "connection authorized" lines, each written before the client hears it is connected).
    func connections(to database: String) -> Int {
        let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
        // The database's name ends the line or is followed by a space (application_name=…).
        return log.split(separator: "\n").filter { ($0 + " ").contains("connection authorized: user=\(Self.user) database=\(database) ") }
            .count
    }

    /// Stops the server (immediately: nothing in it is kept) and removes its folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if FileManager.default.fileExists(atPath: folder + "/data/postmaster.pid") {
            try? runAsServer("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    deinit { stop() }

    private func runAsServer(_ tool: String, _ args: [String]) throws {
        if getuid() == 0 {
            try Self.runChecked("/usr/sbin/runuser", ["-u", "nobody", "--", bin + "/" + tool] + args, log: folder)
        } else {
            try Self.runChecked(bin + "/" + tool, args, log: folder)
        }
    }

    /// Runs a program to its end; its output goes to a file, shown when it fails. Spawned and
    /// waited for directly (`posix_spawn`, `waitpid`): Foundation's `Process` waits until every
    /// holder of the descriptors it gave the child has gone, and the server pg_ctl starts keeps
    /// them for its whole life.
    private static func runChecked(_ program: String, _ args: [String], log folder: String? = nil) throws {
        let outPath = NSTemporaryDirectory() + "/health-import-pg-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(outPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = []
        for a in [program] + args { argv.append(strdup(a)) }
        argv.append(nil)
        var envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), strdup("LANG=C")]
        envp.append(nil)
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program, &actions, nil, argv, envp)
        guard rc == 0 else { throw PostgresTestServerError("cannot start \(program): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let server = folder.flatMap { try? String(contentsOfFile: $0 + "/server.log", encoding: .utf8) } ?? ""
            throw PostgresTestServerError("\(program) \(args.joined(separator: " ")) exited with status \(status): \(text)\(server)")
        }
    }

    /// The newest `/usr/lib/postgresql/N/bin` with initdb and pg_ctl, else the folder of PATH's.
    static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        for v in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(v)/bin/pg_ctl") {
            return "\(root)/\(v)/bin"
        }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where FileManager.default.isExecutableFile(atPath: dir + "/initdb") && FileManager.default.isExecutableFile(atPath: dir + "/pg_ctl")
        {
            return dir
        }
        return nil
    }

    /// A loopback port nothing listens on now (bound to port 0 and released).
    static func freePort() throws -> Int {
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw PostgresTestServerError("no socket") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw PostgresTestServerError("cannot find a free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

/// The test server could not be made (a failure, not a skip).
struct PostgresTestServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
