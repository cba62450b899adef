import Foundation
import XCTest

@testable import ExportParser

/// `receive` where another program listens already: one sentence naming the address, exit 1
/// (it printed SwiftNIO's `bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`);
/// and `--max-body` says the unit it means, MiB.
final class ReceiveBusyPortTests: XCTestCase {
    private func keyFile(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("api.key").path
        try Data((ReceiveProcess.key + "\n").utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    /// A socket of this process listens on a free loopback port; `receive` is given that port.
    func testAPortInUseIsOneSentence() throws {
        try ReceiveProcess.requireReceive()
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        XCTAssertTrue(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))

        let run = try ToolRun.run(
            [
                "receive", "--listen", "127.0.0.1:\(port)", "--store", dir.appendingPathComponent("r.sqlite").path, "--api-key-file",
                try keyFile(dir),
            ])
        XCTAssertEqual(run.status, 1, run.printed)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.stderr)
        XCTAssertEqual(
            String(lines.first ?? ""),
            "health-import: receive: 127.0.0.1:\(port) is in use by another program (another receive?); stop it, or give another port with --listen, e.g. --listen 127.0.0.1:\(port + 1)"
        )
        XCTAssertFalse(run.stderr.contains("bind("), run.stderr)
    }

    func testMaxBodySaysMiB() throws {
        try ReceiveProcess.requireReceive()
        let help = try ToolRun.run(["receive", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--max-body <MiB>"), help.stdout)
        // The help wraps its lines: compared with its white space runs as one space.
        let text = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        XCTAssertTrue(text.contains("Largest body taken, in MiB (1 MiB = 1,048,576 bytes; default 256)."), help.stdout)
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let zero = try ToolRun.run(["receive", "--store", dir.appendingPathComponent("r.sqlite").path, "--max-body", "0"])
        XCTAssertEqual(zero.status, 2, zero.printed)
        XCTAssertTrue(zero.stderr.contains("--max-body must be from 1 to 4096 (MiB)"), zero.stderr)
    }
}
