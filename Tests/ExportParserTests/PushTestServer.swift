import Foundation
import XCTest

/// A real HTTP server for the push tests, on 127.0.0.1 at a free port: a small Python
/// `http.server` started with `Process`. It appends every request (method, path, headers, body,
/// the date it carries and which attempt for that date it is) as one JSON line to a log the test
/// reads, before answering, and answers each date's attempts as the plan says:
///
///   "accept"           200 {"status": "accepted"} (also once a date's list is used up: the last
///                      entry repeats)
///   "503:7", "429:3"   that status with `Retry-After: 7` (seconds)
///   "500", "400", "401", "403", "408"   that status with {"detail": "planned CODE"}
///   "400-echo-key"     400 whose detail repeats the request's x-api-key (a careless backend)
///   "stall"            no answer for 3 s (past the client's time-out), then the connection closes
///   "drop"             the connection closed without an answer
///   "delay:MS"         accept after MS milliseconds
///
/// `GET /sync/status` answers `status` (default {"last_healthkit_sync": "2024-02-28T10:00:00Z"})
/// with `status_code`. The plan file is read again for every request. The server stops when the
/// test calls `stop()` (also on deinit), when the test process is gone (it polls its parent) and
/// after 5 minutes in any case.
final class PushTestServer {
    let dir: URL
    let port: Int
    private let process: Process
    var logURL: URL { dir.appendingPathComponent("requests.jsonl") }
    var planURL: URL { dir.appendingPathComponent("plan.json") }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    struct Request {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
        var date: String?
        var attempt: Int
    }

    init(dir: URL, plan: [String: Any] = [:]) throws {
        self.dir = dir
        let script = dir.appendingPathComponent("push_server.py")
        try Data(Self.script.utf8).write(to: script)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-u", script.path, dir.appendingPathComponent("requests.jsonl").path, dir.appendingPathComponent("plan.json").path,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try Data(try JSONSerialization.data(withJSONObject: plan)).write(to: dir.appendingPathComponent("plan.json"))
        try process.run()
        // The first line is the port it bound (port 0: the kernel's choice of a free one).
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let p = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw XCTSkip("the test HTTP server (python3) did not start")
        }
        port = p
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    func setPlan(_ plan: [String: Any]) throws {
        let tmp = dir.appendingPathComponent("plan.json.tmp")
        try Data(try JSONSerialization.data(withJSONObject: plan)).write(to: tmp)
        _ = rename(tmp.path, planURL.path)
    }

    /// Every request so far, in arrival order.
    func requests() -> [Request] {
        guard let data = try? Data(contentsOf: logURL) else { return [] }
        return data.split(separator: 0x0A).compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return nil }
            return Request(
                method: o["method"] as? String ?? "", path: o["path"] as? String ?? "",
                headers: o["headers"] as? [String: String] ?? [:], body: o["body"] as? String ?? "",
                date: o["date"] as? String, attempt: o["attempt"] as? Int ?? 0)
        }
    }

    /// The POSTs to /sync/healthkit.
    func posts() -> [Request] { requests().filter { $0.method == "POST" && $0.path == "/sync/healthkit" } }

    static let script = #"""
        import json, os, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        LOG, PLAN = sys.argv[1], sys.argv[2]
        PARENT = os.getppid()
        STARTED = time.time()
        lock = threading.Lock()
        attempts = {}

        def watchdog():
            # Ends the server with the test: its parent gone, or 5 minutes up.
            while True:
                time.sleep(0.2)
                if os.getppid() != PARENT or time.time() - STARTED > 300:
                    os._exit(0)

        def plan():
            try:
                with open(PLAN) as f:
                    return json.load(f)
            except Exception:
                return {}

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):
                pass

            def record(self, body, date, attempt, action):
                entry = {"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                         "body": body.decode("utf-8", "replace"), "date": date, "attempt": attempt, "action": action}
                with lock:
                    with open(LOG, "a") as f:
                        f.write(json.dumps(entry) + "\n")

            def answer(self, status, obj, headers=()):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers:
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                p = plan()
                self.record(b"", None, 0, "status")
                if self.path == "/sync/status":
                    self.answer(p.get("status_code", 200), p.get("status", {"last_healthkit_sync": "2024-02-28T10:00:00Z"}))
                else:
                    self.answer(404, {"detail": "not found"})

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n > 0 else b""
                date = None
                try:
                    obj = json.loads(body)
                    date = obj["data"][0]["date"] if isinstance(obj, dict) and "data" in obj else obj.get("date")
                except Exception:
                    pass
                with lock:
                    attempt = attempts.get(date, 0) + 1
                    attempts[date] = attempt
                p = plan()
                actions = p.get("dates", {}).get(date) or [p.get("default", "accept")]
                action = actions[min(attempt, len(actions)) - 1]
                self.record(body, date, attempt, action)
                if self.path != "/sync/healthkit":
                    return self.answer(404, {"detail": "not found"})
                if action == "accept":
                    return self.answer(200, {"status": "accepted"})
                if action.startswith("delay:"):
                    time.sleep(min(int(action[6:]), 5000) / 1000)
                    return self.answer(200, {"status": "accepted"})
                if action == "stall":
                    time.sleep(3)
                    self.close_connection = True
                    return
                if action == "drop":
                    self.close_connection = True
                    return
                if action == "400-echo-key":
                    return self.answer(400, {"detail": "bad request from key " + self.headers.get("x-api-key", "")})
                if ":" in action:
                    code, wait = action.split(":", 1)
                    return self.answer(int(code), {"detail": "planned " + code}, [("Retry-After", wait)])
                return self.answer(int(action), {"detail": "planned " + action})

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=watchdog, daemon=True).start()
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
