#!/usr/bin/env python3
"""Speed of `compare --everyone` (issue 40; not run in CI): one fleet run against the
single-person runs it replaces.

For PEOPLE people: a fixture each (`fixtures --days DAYS --seed i`), both streams received by
one `receive --keys` (each person's app payloads, one body a date, and their hae.json as one
HAE body), then, ROUNDS times, interleaved:

  fleet    health-import compare --store S --everyone --days 7 --out F
  singles  health-import compare --store S --person P --days 7 --out O/P, for every P in turn

Prints wall seconds (median of the rounds), the ratio fleet / singles, people per second and
the fleet's peak RSS (`/usr/bin/time`). Every person is ready: both runs must agree (exit 0).

    python3 bench/fleet.py [--tool .build/release/health-import] [--people 30] [--days 10] [--rounds 3]

Standard library only. Linux (`/usr/bin/time` from Debian's `time`).
"""
import argparse, http.client, json, os, signal, statistics, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import receive_server  # noqa: E402 (beside this file)

p = argparse.ArgumentParser()
p.add_argument("--tool", default=".build/release/health-import")
p.add_argument("--people", type=int, default=30)
p.add_argument("--days", type=int, default=10)
p.add_argument("--rounds", type=int, default=3)
a = p.parse_args()
tool = os.path.abspath(a.tool)

work = tempfile.mkdtemp(prefix="fleet-bench-")
people = ["p%03d" % i for i in range(1, a.people + 1)]
keys = {person: "key-%s-%s" % (person, os.urandom(8).hex()) for person in people}
key_file = os.path.join(work, "keys")
with open(os.open(key_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
    f.write("".join("%s %s\n" % (person, keys[person]) for person in people))

t0 = time.monotonic()
for i, person in enumerate(people):
    subprocess.run([tool, "fixtures", "--days", str(a.days), "--seed", str(i + 1), "--out", os.path.join(work, "fx", person)],
                   check=True, stdout=subprocess.DEVNULL)
print("fixtures: %d people, %d days each, %.1f s" % (len(people), a.days, time.monotonic() - t0), file=sys.stderr)

store = os.path.join(work, "cohort.sqlite")
server, port = receive_server.start(tool, store, ["--keys", key_file], work)


def send(person):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    fx = os.path.join(work, "fx", person)
    bodies = []
    pdir = os.path.join(fx, "expected", "payloads")
    for name in sorted(os.listdir(pdir)):
        bodies.append(("/sync/healthkit", b'{"data": [' + open(os.path.join(pdir, name), "rb").read() + b"]}"))
    bodies.append(("/hae", open(os.path.join(fx, "hae.json"), "rb").read()))
    for path, body in bodies:
        c.request("POST", path, body=body, headers={"x-api-key": keys[person], "Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        if r.status != 200:
            sys.exit("%s %s: %d" % (person, path, r.status))


t0 = time.monotonic()
threads = [threading.Thread(target=lambda chunk=people[k::4]: [send(x) for x in chunk]) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
server.send_signal(signal.SIGTERM)
server.wait(60)
print("received: %.1f s" % (time.monotonic() - t0), file=sys.stderr)


def timed(args):
    """Wall seconds and peak RSS (KB) of one run; the run must exit 0 (everyone ready)."""
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M", tool] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("exit %d: %s: %s" % (r.returncode, " ".join(args), r.stderr[-2000:]))
    wall, rss = r.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss)


fleet, singles, rss = [], [], []
for round_ in range(a.rounds):
    w, m = timed(["compare", "--store", store, "--everyone", "--days", "7", "--quiet", "--out", os.path.join(work, "fleet")])
    fleet.append(w)
    rss.append(m)
    t0 = time.monotonic()
    single_rss = 0
    for person in people:
        _, m = timed(["compare", "--store", store, "--person", person, "--days", "7", "--quiet", "--out", os.path.join(work, "one", person)])
        single_rss = max(single_rss, m)
    singles.append(time.monotonic() - t0)
    print("round %d: fleet %.2f s, singles %.2f s" % (round_ + 1, fleet[-1], singles[-1]), file=sys.stderr)

f, s = statistics.median(fleet), statistics.median(singles)
print(json.dumps({
    "people": len(people), "days": a.days, "rounds": a.rounds, "fleet_s": f, "singles_s": s,
    "ratio": round(f / s, 3), "people_per_s": round(len(people) / f, 1), "fleet_peak_rss_mb": round(max(rss) / 1024, 1),
    "single_peak_rss_mb": round(single_rss / 1024, 1), "cores": os.cpu_count(), "work": work,
}))
