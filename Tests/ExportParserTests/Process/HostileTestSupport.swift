import Foundation
import XCTest

@testable import ExportParser

/// The harness of the hostile-input tests: a good conversion into `--out` and the store first,
/// then the hostile input into the same places, run by the real `health-import` (exit status,
/// stderr, peak RSS of that process) or by `ConvertJob` in this process (peak RSS from VmHWM),
/// and every byte of `--out` (the store included) compared with what the good run left.
final class HostileBench {
    let dir: URL
    let out: URL
    var store: String { out.appendingPathComponent("health.sqlite").path }
    private var snapshot: [String: Data] = [:]
    /// Peak RSS allowed to a run over a hostile input. Not checked under a sanitizer
    /// (`scripts/sanitize.sh`): shadow memory (and ASan's red zones and quarantine) make every
    /// process several times larger, and the bound is proved by the normal run.
    static let rssLimitMB = TestEnvironment.underSanitizer ? Int.max : 200

    init(_ name: String = #function) throws {
        dir = try TestPaths.temporaryDirectory("hostile" + name)
        out = dir.appendingPathComponent("out")
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// A small good export, converted into `out` and the store; remembers every byte there.
    func prepareGoodOutput(file: StaticString = #filePath, line: UInt = #line) throws {
        let good = path("good.xml")
        try StoreKillTests.exportXML(records: 60).write(toFile: good, atomically: true, encoding: .utf8)
        // In a child process, as a user runs it: the good output is the executable's own.
        let run = try runTool(good, file: file, line: line)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        snapshot = try Self.files(under: out)
        XCTAssertFalse(snapshot.isEmpty, file: file, line: line)
        XCTAssertNotNil(snapshot["payloads.json"], file: file, line: line)
        XCTAssertNotNil(snapshot["health.sqlite"], file: file, line: line)
    }

    /// Every file under `root`, by relative path.
    static func files(under root: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let base = root.standardizedFileURL.path
        guard let e = FileManager.default.enumerator(atPath: base) else { return out }
        while let rel = e.nextObject() as? String {
            var isDir: ObjCBool = false
            let full = base + "/" + rel
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue {
                out[rel] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return out
    }

    /// `--out` and the store hold exactly what the good run left (no file changed, added or removed).
    /// Every file is compared, SQLite's `-wal` and `-shm` included: a failed run must have closed
    /// its store connection by the time it ends (in this process, by the time `ConvertJob.run`
    /// threw), or SQLite leaves those two files beside the store. (It did: the store writer's
    /// thread let go of its statements only after it had signalled its end, so a process that
    /// exited at once could end first.)
    func assertOutputUnchanged(file: StaticString = #filePath, line: UInt = #line) throws {
        let now = try Self.files(under: out)
        XCTAssertEqual(Set(now.keys), Set(snapshot.keys), "files in --out changed", file: file, line: line)
        for (name, bytes) in snapshot where now[name] != bytes {
            XCTFail("\(name) changed", file: file, line: line)
        }
    }

    // MARK: - The real executable

    struct ToolRun {
        var status: Int32
        var stderr: String
        var stdout: String
        var peakRSSMB: Int
        var seconds: Double
    }

    /// Runs `health-import convert input --out OUT --store STORE --quiet` as a child process and
    /// returns its exit status, output and peak RSS (`wait4`'s own rusage of that child). A run
    /// that outlives `timeout` is killed and fails the test: a hang is a failure, not a wait.
    func runTool(_ input: String, extra: [String] = [], timeout: Double = 60, file: StaticString = #filePath, line: UInt = #line) throws
        -> ToolRun
    {
        let tool = TestPaths.tool.path
        guard FileManager.default.isExecutableFile(atPath: tool) else { throw XCTSkip("no built health-import at \(tool)") }
        let errPath = path("stderr-\(UUID().uuidString.prefix(6))"), outPath = path("stdout-\(UUID().uuidString.prefix(6))")
        defer { try? FileManager.default.removeItem(atPath: errPath); try? FileManager.default.removeItem(atPath: outPath) }
        let args = [tool, "convert", input, "--out", out.path, "--store", store, "--quiet"] + extra
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let started = Date()
        // The child's `ru_maxrss` starts from this process's high-water mark: posix_spawn runs it
        // on this process's memory until exec, and exec keeps that mm's mark. Reset it first, or
        // the limit below would measure the test process, not health-import.
        Self.resetPeakRSS()
        let rc = posix_spawn(&pid, tool, &actions, nil, argv, environ)
        guard rc == 0 else { throw NSError(domain: "posix_spawn", code: Int(rc)) }
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
            if r < 0, errno != EINTR { throw NSError(domain: "wait4", code: Int(errno)) }
            if Date().timeIntervalSince(started) > timeout {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                XCTFail("health-import did not finish within \(timeout) s on \(input): killed (a hang)", file: file, line: line)
                break
            }
            usleep(10_000)
        }
        let exited = status & 0x7F == 0
        return ToolRun(
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "<stderr not UTF-8>",
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            peakRSSMB: Int(usage.ru_maxrss) / 1024, seconds: Date().timeIntervalSince(started))
    }

    /// The tool refuses `input`: exit status 1, one line on stderr naming the file and containing
    /// every fragment, no crash or trace, peak RSS under the limit, `--out` and the store untouched.
    @discardableResult
    func assertToolRefuses(
        _ input: String, mentioning fragments: [String], timeout: Double = 60,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ToolRun {
        let run = try runTool(input, timeout: timeout, file: file, line: line)
        XCTAssertEqual(run.status, 1, "exit status; stderr: \(run.stderr)", file: file, line: line)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        XCTAssertEqual(lines.count, 1, "one sentence on stderr, got: \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("health-import: " + input), "names the file: \(run.stderr)", file: file, line: line)
        for f in fragments {
            XCTAssertTrue(run.stderr.contains(f), "stderr lacks \"\(f)\": \(run.stderr)", file: file, line: line)
        }
        for crash in ["Fatal error", "Stack dump", "backtrace", "Illegal instruction", "Segmentation"] {
            XCTAssertFalse(run.stderr.contains(crash), "crashed: \(run.stderr)", file: file, line: line)
        }
        XCTAssertLessThan(run.peakRSSMB, Self.rssLimitMB, "peak RSS of health-import", file: file, line: line)
        try assertOutputUnchanged(file: file, line: line)
        return run
    }

    // MARK: - In this process

    /// Runs `ConvertJob` on `input` into the same --out and store, in this process; returns the
    /// error it threw (nil when it succeeded) and the peak RSS of the run in MB.
    func runJob(_ input: String) throws -> (error: InputError?, outcome: ConvertOutcome?, peakRSSMB: Int) {
        Self.resetPeakRSS()
        do {
            let outcome = try ConvertJob(ConvertRequest(inputs: [input], outDir: out.path, storePath: store)).run()
            return (nil, outcome, Self.peakRSSMB())
        } catch let e as InputError {
            return (e, nil, Self.peakRSSMB())
        }
    }

    /// `ConvertJob` throws an `InputError` naming `input` with every fragment, within the memory
    /// limit, leaving --out and the store untouched.
    @discardableResult
    func assertJobRefuses(_ input: String, mentioning fragments: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> InputError?
    {
        let (error, _, peak) = try runJob(input)
        guard let error else {
            XCTFail("convert accepted \(input)", file: file, line: line)
            return nil
        }
        XCTAssertTrue(error.description.hasPrefix(input), "names the file: \(error)", file: file, line: line)
        XCTAssertFalse(error.description.contains("\n"), "one line: \(error)", file: file, line: line)
        for f in fragments { XCTAssertTrue(error.description.contains(f), "message lacks \"\(f)\": \(error)", file: file, line: line) }
        XCTAssertLessThan(peak, Self.rssLimitMB, "peak RSS (this process, VmHWM)", file: file, line: line)
        try assertOutputUnchanged(file: file, line: line)
        return error
    }

    /// Writing 5 to clear_refs resets the process's VmHWM (Linux ≥ 4.0). Freed heap that glibc
    /// still holds (the arenas of the threads earlier tests ran) is given back first, so the
    /// mark starts from what this process really uses.
    static func resetPeakRSS() {
        FreedMemory.giveBack()
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func peakRSSMB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kb / 1024
    }

    // MARK: - Building inputs

    /// Writes `count` bytes of `byte` to `handle` in 4 MiB pieces (never the whole in memory).
    static func stream(_ byte: UInt8, count: Int, to handle: FileHandle) {
        let piece = Data(repeating: byte, count: 4 << 20)
        var left = count
        while left > 0 {
            let n = min(left, piece.count)
            handle.write(n == piece.count ? piece : piece.prefix(n))
            left -= n
        }
    }

    /// Runs a Python script (python3 is required by CI) with arguments; fails the test on error.
    static func python(_ script: String, _ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script] + args
        let err = Pipe()
        p.standardError = err
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        if p.terminationStatus != 0 { XCTFail("python3 failed: \(text)", file: file, line: line) }
    }
}
