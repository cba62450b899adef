import Foundation
import XCTest

@testable import ExportParser

/// `erase` asks for the id to be typed back on a terminal and refuses without one unless
/// `--yes`: the real executable, on a pipe and on a pseudo-terminal (Python's `pty`).
final class EraseConfirmationTests: XCTestCase {
    typealias G = GDPRTestSupport

    /// Runs the tool on a pseudo-terminal, typing `answer` and Enter when it asks; the exit
    /// status and everything it wrote.
    private func onTerminal(_ args: [String], answer: String) throws -> (status: Int32, output: String) {
        let script = """
            import os, pty, select, sys
            answer, argv = sys.argv[1], sys.argv[2:]
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(argv[0], argv)
            out, sent = b"", False
            while True:
                ready, _, _ = select.select([fd], [], [], 30)
                if not ready:
                    break
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    break
                if not data:
                    break
                out += data
                if not sent and b"Type the person's id" in out:
                    os.write(fd, answer.encode() + b"\\n")
                    sent = True
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let (status, out) = try G.python(script, [answer, TestPaths.tool.path] + args)
        return (status, String(decoding: out, as: UTF8.self))
    }

    func testConfirmation() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try G.snapshot(store, person: "ann")
        let args = ["erase", "--store", store, "--person", "ann"]

        let noTerminal = try G.tool(args)
        XCTAssertEqual(noTerminal.status, 2, noTerminal.err)
        XCTAssertTrue(noTerminal.err.contains("--yes"), noTerminal.err)
        XCTAssertEqual(try G.snapshot(store, person: "ann"), before, "refused: nothing erased")

        let wrong = try onTerminal(args, answer: "bob")
        XCTAssertEqual(wrong.status, 1, wrong.output)
        XCTAssertTrue(wrong.output.contains("does not match"), wrong.output)
        XCTAssertEqual(try G.snapshot(store, person: "ann"), before, "a wrong id erases nothing")

        let right = try onTerminal(args, answer: "ann")
        XCTAssertEqual(right.status, 0, right.output)
        XCTAssertTrue(right.output.contains("Erasure receipt"), right.output)
        XCTAssertEqual(try G.count(store, table: "imports", person: "ann"), 0)
        XCTAssertGreaterThan(try G.count(store, table: "imports", person: "bob"), 0)
    }
}
