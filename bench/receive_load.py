#!/usr/bin/env python3
"""Load check of `health-import receive` (issue 22; not run in CI).

Starts the server on a free loopback port with a new store and key, then POSTs 50 KB Health
Auto Export bodies from THREADS threads of this (second) process for SECONDS seconds, each
body different (so each is a new row), each thread on its own keep-alive connection. At the
end: requests/s, p50/p99 latency of the acknowledged requests, the server's peak RSS
(VmHWM), and the check that nothing was lost: rows in received_bodies == 200 answers.

    python3 bench/receive_load.py [--tool .build/release/health-import] [--seconds 60] [--threads 8]

Standard library only (http.client, sqlite3, threading). Linux (reads /proc for the RSS).
"""
import argparse, http.client, json, os, re, signal, sqlite3, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import receive_server  # noqa: E402 (beside this file)

p = argparse.ArgumentParser()
p.add_argument("--tool", default=".build/release/health-import")
p.add_argument("--seconds", type=float, default=60)
p.add_argument("--threads", type=int, default=8)
p.add_argument("--body-kb", type=int, default=50)
a = p.parse_args()

work = tempfile.mkdtemp(prefix="receive-load-")
key = "load-" + os.urandom(12).hex()
key_file = os.path.join(work, "key")
with open(os.open(key_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
    f.write(key + "\n")
store = os.path.join(work, "load.sqlite")
server, port = receive_server.start(a.tool, store, ["--api-key-file", key_file], work)


def body(thread, n):
    """A Health Auto Export body of about body_kb KB: step counts of one day, a minute each."""
    datums, size = [], 60
    i = 0
    while size < a.body_kb * 1024:
        d = '{"date":"2026-03-02 %02d:%02d:00 +0100","qty":%d,"source":"load %d-%d"}' % (i // 60 % 24, i % 60, (i * 7 + n) % 200, thread, n)
        datums.append(d)
        size += len(d) + 1
        i += 1
    return ('{"data":{"metrics":[{"name":"step_count","units":"count","data":[' + ",".join(datums) + "]}]}}").encode()


acked, failed, latencies = [0], [0], []
lock = threading.Lock()
stop_at = time.monotonic() + a.seconds


def worker(t):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    n, mine, bad = 0, [], 0
    while time.monotonic() < stop_at:
        b = body(t, n)
        n += 1
        t0 = time.monotonic()
        try:
            conn.request("POST", "/hae", body=b, headers={"x-api-key": key, "Content-Type": "application/json"})
            r = conn.getresponse()
            r.read()
            if r.status == 200:
                mine.append(time.monotonic() - t0)
            else:
                bad += 1
        except Exception:
            bad += 1
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    with lock:
        acked[0] += len(mine)
        failed[0] += bad
        latencies.extend(mine)


started = time.monotonic()
threads = [threading.Thread(target=worker, args=(t,)) for t in range(a.threads)]
for th in threads: th.start()
for th in threads: th.join()
elapsed = time.monotonic() - started

with open("/proc/%d/status" % server.pid) as f:
    hwm = int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1))
server.send_signal(signal.SIGTERM)
code = server.wait(timeout=60)
rows = sqlite3.connect(store).execute("SELECT count(*) FROM received_bodies").fetchone()[0]
latencies.sort()
pct = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")
print(json.dumps({
    "seconds": round(elapsed, 1), "threads": a.threads, "body_bytes": len(body(0, 0)),
    "acknowledged": acked[0], "failed": failed[0], "rows_stored": rows, "lost": acked[0] - rows,
    "requests_per_second": round(acked[0] / elapsed, 1), "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
    "server_peak_rss_mb": round(hwm / 1024, 1), "sigterm_exit": code, "store_mb": round(os.path.getsize(store) / 1e6, 1),
}, indent=1))
subprocess.run(["rm", "-rf", work])
sys.exit(0 if rows == acked[0] and failed[0] == 0 and code == 0 else 1)
