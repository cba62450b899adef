#!/usr/bin/env python3
"""Fleet load on `health-import receive` (issue 41; not run in CI).

Starts the server on a free loopback port with a new store (or `--store postgres://…` once the
PostgreSQL store is there) and a key file of CLIENTS people, then from this (second) process:
CLIENTS threads, each a person on its own keep-alive connection, POST 50 KB Health Auto Export
bodies to /hae for SECONDS seconds, every body different (a new row each). Midway, one more
client POSTs a single BIG_MB body (200 MB) to /hae. At the end:

- requests/s of the small bodies, and their p50/p99 latency, apart for those sent while the big
  body was in flight (from its first byte sent to its answer) and those outside it;
- the big body's own time and status;
- the receiver's peak RSS (VmHWM) and GET /metrics' check and commit counts;
- nothing lost: rows in received_bodies == 200 answers (SQLite read with sqlite3; PostgreSQL
  with psql, when the URL is given).

    python3 bench/receive_fleet_load.py [--tool .build/release/health-import] [--seconds 60]
        [--clients 64] [--body-kb 50] [--big-mb 200] [--store postgres://USER@HOST:PORT/DB]
        [--postgres] [--receivers N]

`--postgres` starts a throw-away PostgreSQL server for the run (bench/pg_server.py: initdb into a
temporary folder, fsync on, a free loopback port) and stores there. `--receivers N` starts N
receivers on the same store (a PostgreSQL one: SQLite has one writer) and gives client t to
receiver t mod N, as a load balancer would; the big body goes to the first. RSS is reported a
receiver.

Standard library only (http.client, sqlite3, threading). Linux (reads /proc for the RSS).
"""
import argparse, http.client, json, os, re, signal, sqlite3, subprocess, sys, tempfile, threading, time

p = argparse.ArgumentParser()
p.add_argument("--tool", default=".build/release/health-import")
p.add_argument("--seconds", type=float, default=60)
p.add_argument("--clients", type=int, default=64)
p.add_argument("--body-kb", type=int, default=50)
p.add_argument("--big-mb", type=int, default=200)
p.add_argument("--store", default=None, help="a postgres:// URL; default a new SQLite file")
p.add_argument("--postgres", action="store_true", help="start a throw-away PostgreSQL server (bench/pg_server.py)")
p.add_argument("--receivers", type=int, default=1)
a = p.parse_args()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import receive_server  # noqa: E402 (beside this file)
pg = None
if a.postgres:
    import pg_server
    pg = pg_server.start()
    a.store = pg.url
if a.receivers > 1 and not (a.store or "").startswith("postgres"):
    sys.exit("--receivers N needs a PostgreSQL store (--postgres or --store postgres://…)")

work = tempfile.mkdtemp(prefix="receive-fleet-load-")
people = ["load-%02d" % i for i in range(a.clients)] + ["big"]
keys = {person: person + "-" + os.urandom(12).hex() for person in people}
key_file = os.path.join(work, "keys")
with open(os.open(key_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
    f.write("".join("%s %s\n" % kv for kv in keys.items()))
store = a.store or os.path.join(work, "load.sqlite")
max_body = max(256, a.big_mb + 16)


def start_receiver(i):
    return receive_server.start(a.tool, store, ["--keys", key_file, "--max-body", str(max_body)], work,
                                log_name="receive-%d.log" % i, on_failure=pg.stop if pg else None)


# One after the other: the first creates the schema (the others find it made).
receivers = [start_receiver(i) for i in range(a.receivers)]
ports = [port for _, port in receivers]

def body(tag, n, size):
    """A Health Auto Export body of about `size` bytes: step counts a minute each."""
    parts, total, i = [], 60, 0
    while total < size:
        d = '{"date":"2026-03-%02d %02d:%02d:00 +0100","qty":%d,"source":"load %s-%d"}' % (
            2 + i // 1440 % 28, i // 60 % 24, i % 60, (i * 7 + n) % 200, tag, n)
        parts.append(d)
        total += len(d) + 1
        i += 1
    return ('{"data":{"metrics":[{"name":"step_count","units":"count","data":[' + ",".join(parts) + "]}]}}").encode()


print("building the %d MB body…" % a.big_mb, file=sys.stderr)
big = body("big", 0, a.big_mb * 1024 * 1024)
small_size = a.body_kb * 1024
samples = []  # (start, end, seconds, status)
lock = threading.Lock()
started = time.monotonic()
stop_at = started + a.seconds
big_window = [None, None, None]  # start, end, status


def client(t):
    person = people[t]
    port = ports[t % len(ports)]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    n, mine = 0, []
    while time.monotonic() < stop_at:
        b = body(t, n, small_size)
        n += 1
        t0 = time.monotonic()
        status = 0
        try:
            conn.request("POST", "/hae", body=b, headers={"x-api-key": keys[person], "Content-Type": "application/json"})
            r = conn.getresponse()
            r.read()
            status = r.status
        except Exception:
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        t1 = time.monotonic()
        mine.append((t0, t1, t1 - t0, status))
    with lock:
        samples.extend(mine)


def big_client():
    time.sleep(a.seconds / 2 - 5 if a.seconds > 20 else a.seconds / 3)
    conn = http.client.HTTPConnection("127.0.0.1", ports[0], timeout=600)
    big_window[0] = time.monotonic()
    conn.request("POST", "/hae", body=big, headers={"x-api-key": keys["big"], "Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    big_window[1] = time.monotonic()
    big_window[2] = r.status



def wal_counts():
    """PostgreSQL's commits in the database and WAL flushes (fsyncs) of the server so far: a
    commit whose WAL another's flush already wrote shares that fsync (group commit)."""
    q = ("SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()), "
         "(SELECT wal_sync FROM pg_stat_wal)")
    out = subprocess.run(["psql", store, "-tAc", q], capture_output=True, text=True, check=True).stdout.strip()
    return [int(x) for x in out.split("|")]


wal_before = wal_counts() if store.startswith("postgres") else None
threads = [threading.Thread(target=client, args=(t,)) for t in range(a.clients)] + [threading.Thread(target=big_client)]
for th in threads: th.start()
for th in threads: th.join()
elapsed = time.monotonic() - started


def metrics(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    out = {}
    for line in text.splitlines():
        m = re.match(r'(receive_(?:check|commit)_seconds_(?:count|sum))\{endpoint="hae"\} (\S+)', line)
        if m: out[m.group(1)] = float(m.group(2))
    return out


scraped, hwms, codes = [], [], []
for server, port in receivers:
    scraped.append(metrics(port))
    with open("/proc/%d/status" % server.pid) as f:
        hwms.append(round(int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1)) / 1024, 1))
for server, _ in receivers:
    server.send_signal(signal.SIGTERM)
for server, _ in receivers:
    codes.append(server.wait(timeout=120))
code = max(codes, key=abs)
if store.startswith("postgres"):
    rows = int(subprocess.run(["psql", store, "-tAc", "SELECT count(*) FROM received_bodies"], capture_output=True, text=True,
                              check=True).stdout.strip())
    wal_after = wal_counts()
    wal = {"commits": wal_after[0] - wal_before[0], "wal_fsyncs": wal_after[1] - wal_before[1]}
else:
    rows = sqlite3.connect(store).execute("SELECT count(*) FROM received_bodies").fetchone()[0]
    wal = None
if pg: pg.stop()

ok = [s for s in samples if s[3] == 200]
b0, b1 = big_window[0], big_window[1]
during = sorted(s[2] for s in ok if b0 is not None and s[1] > b0 and s[0] < b1)
outside = sorted(s[2] for s in ok if b0 is None or s[1] <= b0 or s[0] >= b1)


def pct(values, q):
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 1) if values else None


acked = len(ok) + (1 if big_window[2] == 200 else 0)
print(json.dumps({
    "seconds": round(elapsed, 1), "clients": a.clients, "small_body_bytes": len(body(0, 0, small_size)), "big_body_bytes": len(big),
    "store": "postgres" if store.startswith("postgres") else "sqlite", "receivers": a.receivers,
    "small_acknowledged": len(ok), "small_failed": len(samples) - len(ok), "requests_per_second": round(len(ok) / elapsed, 1),
    "small_outside_big": {"n": len(outside), "p50_ms": pct(outside, 0.5), "p99_ms": pct(outside, 0.99)},
    "small_during_big": {"n": len(during), "p50_ms": pct(during, 0.5), "p99_ms": pct(during, 0.99),
                         "max_ms": round(during[-1] * 1000, 1) if during else None},
    "big_status": big_window[2], "big_seconds": round(b1 - b0, 2) if b0 else None,
    "metrics_hae": scraped, "server_peak_rss_mb": hwms, "sigterm_exit": codes,
    "rows_stored": rows, "lost": acked - rows, "postgres_commits_and_wal_fsyncs": wal,
}, indent=1))
subprocess.run(["rm", "-rf", work])
sys.exit(0 if rows == acked and code == 0 and big_window[2] == 200 else 1)
