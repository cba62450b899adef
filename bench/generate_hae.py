#!/usr/bin/env python3
"""Deterministic generator of a Health Auto Export (HAE) JSON file.

Usage:
    python3 bench/generate_hae.py [--size-mb 300] [--out bench/data/hae.json]

Shape (see docs/hae.md):
    {"data": {"metrics": [...], "workouts": [...]}}
- metrics: minute-level "heart_rate" ({date, Min, Avg, Max, source}); one year of
  day-aggregated step_count (count), active_energy (kJ), basal_energy_burned (kJ),
  walking_running_distance (mi), resting_heart_rate, heart_rate_variability,
  respiratory_rate, blood_oxygen_saturation (0-100 %), apple_exercise_time,
  flights_climbed, time_in_daylight, vo2_max, weight_body_mass (kg),
  apple_sleeping_wrist_temperature (degC) and sleep_analysis (current generation:
  totalSleep/core/deep/rem/awake/asleep/inBed/sleepStart/sleepEnd/inBedStart/inBedEnd/source).
- workouts: v2 (id, name, start, end, duration, location, isIndoor, activeEnergyBurned,
  distance, intensity, heartRate{min,avg,max}, avgHeartRate, maxHeartRate, metadata,
  heartRateData/heartRateRecovery [{date, Min, Avg, Max, units, source}], activeEnergy,
  stepCount, walkingAndRunningDistance [{date, qty, units, source}]).
Pretty-printed like iOS: two-space indent, "key" : value, "/" escaped as "\\/", raw UTF-8
(curly apostrophe in source names), key order varying between objects, full doubles.

The heart-rate minutes and the workouts cover the N newest days before END_DATE, where N
is chosen so that the file is about --size-mb (MB = 10^6 bytes); day metrics always cover
the 365 days before END_DATE. Output depends only on the arguments.
"""

import argparse
import datetime as dt
import os
import random
import time

SEED = 7140
END_DATE = dt.date(2025, 6, 30)
WATCH = "Ann’s Apple Watch"
PHONE = "Ann’s iPhone"

HMS = ["%02d:%02d:%02d" % (s // 3600, (s // 60) % 60, s % 60) for s in range(86400)]


def _last_sunday(year, month):
    d = dt.date(year, month + 1, 1) - dt.timedelta(days=1)
    return d - dt.timedelta(days=(d.weekday() - 6) % 7)


_OFF = {}


def off(o, s=43200):
    y = dt.date.fromordinal(o).year
    if y not in _OFF:
        _OFF[y] = (_last_sunday(y, 3).toordinal(), _last_sunday(y, 10).toordinal())
    sp, au = _OFF[y]
    if o == sp:
        return "+0100" if s < 7200 else "+0200"
    if o == au:
        return "+0200" if s < 10800 else "+0100"
    return "+0200" if sp < o < au else "+0100"


_DS = {}


def T(o, s):
    s = int(s)
    while s >= 86400:
        o += 1
        s -= 86400
    while s < 0:
        o -= 1
        s += 86400
    d = _DS.get(o)
    if d is None:
        d = _DS[o] = dt.date.fromordinal(o).isoformat()
    return "%s %s %s" % (d, HMS[s], off(o, s))


def num(x):
    """Number as iOS JSONSerialization prints it: integers bare, doubles with 17 digits."""
    if isinstance(x, int):
        return str(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    s = "%.17g" % x
    return s


def jstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("/", "\\/") + '"'


def value(v, ind):
    if isinstance(v, str):
        return jstr(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return num(v)
    if isinstance(v, dict):
        return obj(v, ind)
    if isinstance(v, list):
        if not v:
            return "[\n\n" + " " * ind + "]"
        pad = " " * (ind + 2)
        return "[\n" + ",\n".join(pad + value(x, ind + 2) for x in v) + "\n" + " " * ind + "]"
    raise TypeError(type(v))


def obj(d, ind):
    if not d:
        return "{\n\n" + " " * ind + "}"
    pad = " " * (ind + 2)
    return "{\n" + ",\n".join(pad + jstr(k) + " : " + value(v, ind + 2) for k, v in d.items()) \
        + "\n" + " " * ind + "}"


def shuffled(r, items):
    items = list(items)
    r.shuffle(items)
    return dict(items)


# key orders for heart_rate minutes (iOS dictionaries have no stable order)
HR_ORDERS = [("date", "Min", "Avg", "Max", "source"), ("Avg", "date", "Min", "Max", "source"),
             ("source", "Max", "date", "Avg", "Min"), ("Min", "source", "Avg", "date", "Max"),
             ("Max", "Avg", "Min", "source", "date"), ("date", "source", "Max", "Min", "Avg")]


class Gen:
    def __init__(self, hr_days):
        self.hr_days = hr_days
        end = END_DATE.toordinal()
        self.year = list(range(end - 364, end + 1))
        self.counts = {}

    def hr_minutes(self, w, o):
        """One day's minute buckets of heart_rate (watch off while charging)."""
        r = random.Random(SEED * 7919 + o)
        charge = r.randint(18 * 60, 21 * 60)
        spring = off(o, 0) != off(o, 86399) and off(o, 0) == "+0100"
        n = 0
        pad = "            "
        src = jstr(WATCH)
        parts = []
        for m in range(1440):
            if charge <= m < charge + 45 or r.random() < 0.04:
                continue
            if spring and 120 <= m < 180:   # local 02:00-03:00 does not exist that day
                continue
            night = m < 400 or m > 1380
            base = 56 if night else 72
            avg = base + r.random() * (6 if night else 30)
            lo = int(avg - r.random() * 5)
            hi = int(avg + r.random() * 6) + 1
            if r.random() < 0.3:
                a = "%d" % int(avg)
            else:
                a = num(round(avg, r.choice((1, 2, 13))))
            vals = {"date": '"%s"' % T(o, m * 60), "Min": str(lo), "Avg": a, "Max": str(hi),
                    "source": src}
            order = HR_ORDERS[r.randrange(6)]
            parts.append("          {\n" + ",\n".join(pad + '"' + k + '" : ' + vals[k] for k in order)
                         + "\n          }")
            n += 1
        return parts, n

    def day_metrics(self):
        """(name, units, [datum dicts]) for one year of day-aggregated metrics."""
        out = []
        r = random.Random(SEED + 1)
        both = WATCH + "|" + PHONE

        def series(name, units, fn, src=None):
            data = []
            for o in self.year:
                v = fn(o)
                if v is None:
                    continue
                items = [("date", T(o, 0)), ("qty", v)]
                if src is not None:
                    items.append(("source", src))
                data.append(shuffled(r, items))
            out.append((name, units, data))

        series("step_count", "count", lambda o: r.uniform(6000, 16000), both)
        series("active_energy", "kJ", lambda o: r.uniform(1700, 4200), both)
        series("basal_energy_burned", "kJ", lambda o: r.uniform(6100, 6500), WATCH)
        series("walking_running_distance", "mi", lambda o: r.uniform(2.5, 8.5), both)
        series("flights_climbed", "count", lambda o: r.randint(3, 25) * 1.0, both)
        series("apple_exercise_time", "min", lambda o: r.randint(10, 95), WATCH)
        series("time_in_daylight", "min", lambda o: r.randint(15, 180), WATCH)
        series("resting_heart_rate", "count/min", lambda o: r.randint(52, 62) - 1e-14 * r.randint(0, 1))
        series("heart_rate_variability", "ms", lambda o: r.uniform(28, 75))
        series("respiratory_rate", "count/min", lambda o: r.uniform(12.5, 17))
        series("blood_oxygen_saturation", "%", lambda o: r.uniform(94, 99))
        series("vo2_max", "ml/(kg·min)", lambda o: r.uniform(41, 46) if o % 7 in (1, 3, 6) else None)
        series("weight_body_mass", "kg", lambda o: r.uniform(62.5, 64.5) if o % 5 in (0, 2) else None)
        series("apple_sleeping_wrist_temperature", "degC", lambda o: r.uniform(35.2, 36.3))
        # sleep (current generation, dated at local midnight of the wake-up day)
        data = []
        for o in self.year:
            start = r.randint(-5400, 1800)
            end = r.randint(6 * 3600 + 900, 7 * 3600 + 2700)
            span = (end - start) / 3600.0
            awake = r.uniform(0.1, 0.8)
            deep = r.uniform(0.5, 1.3)
            rem = r.uniform(1.2, 2.2)
            core = span - awake - deep - rem
            total = core + deep + rem
            items = [("date", T(o, 0)), ("totalSleep", total), ("core", core), ("deep", deep),
                     ("rem", rem), ("awake", awake), ("asleep", 0), ("inBed", span + 0.25),
                     ("sleepStart", T(o, start)), ("sleepEnd", T(o, end)),
                     ("inBedStart", T(o, start - 600)), ("inBedEnd", T(o, end + 300)),
                     ("source", WATCH + "|" + PHONE)]
            data.append(shuffled(r, items))
        out.append(("sleep_analysis", "hr", data))
        return out

    def workout(self, o):
        r = random.Random(SEED * 31 + o)
        wd = dt.date.fromordinal(o).weekday()
        if wd in (1, 3, 6):
            kind = "run"
        elif wd in (0, 4):
            kind = "strength"
        elif r.random() < 0.5:
            kind = "walk"
        else:
            return None
        s0 = r.choice((7 * 3600 + r.randint(0, 5400), 17 * 3600 + r.randint(0, 9000)))
        dur = r.randint(1500, 4200) + r.random()
        e0 = s0 + dur
        name = {"run": "Outdoor Run", "strength": "Traditional Strength Training", "walk": "Outdoor Walk"}[kind]
        kcal_min = {"run": 11.5, "strength": 6.5, "walk": 4.5}[kind]
        speed = {"run": 10.5, "strength": 0.0, "walk": 5.2}[kind]
        hr_data = []
        ae = []
        steps = []
        dist = []
        t = 0
        his = []
        while t < dur:
            avg = ({"run": 128, "strength": 105, "walk": 98}[kind] + 25 * t / dur + r.uniform(-4, 4))
            lo, hi = int(avg - r.uniform(1, 6)), int(avg + r.uniform(1, 7))
            his.append((lo, avg, hi))
            hr_data.append(shuffled(r, [("date", T(o, s0 + t)), ("Min", lo), ("Avg", avg), ("Max", hi),
                                        ("units", "count/min"), ("source", WATCH)]))
            ae.append(shuffled(r, [("date", T(o, s0 + t)), ("qty", kcal_min * r.uniform(0.8, 1.2)),
                                   ("units", "kcal"), ("source", WATCH)]))
            if kind != "strength":
                steps.append(shuffled(r, [("date", T(o, s0 + t)), ("qty", r.uniform(140, 170) if kind == "run" else r.uniform(95, 115)),
                                          ("units", "count"), ("source", WATCH + "|" + PHONE)]))
                dist.append(shuffled(r, [("date", T(o, s0 + t)), ("qty", speed / 60 * r.uniform(0.9, 1.1)),
                                         ("units", "km"), ("source", WATCH + "|" + PHONE)]))
            t += 60
        rec = []
        for i in range(r.randint(3, 6) if kind != "strength" else 2):
            v = his[-1][1] - 8 * (i + 1) + r.uniform(-2, 2)
            rec.append(shuffled(r, [("date", T(o, e0 + 60 * i)), ("Min", int(v) - 1), ("Avg", v), ("Max", int(v) + 2),
                                    ("units", "count/min"), ("source", WATCH)]))
        hrmin = min(h[0] for h in his)
        hrmax = max(h[2] for h in his)
        hravg = sum(h[1] for h in his) / len(his)
        kcal = sum(x["qty"] for x in ae)
        items = [("id", "%08X-%04X-4%03X-A%03X-%012X" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
                                                        r.getrandbits(12), r.getrandbits(48))),
                 ("name", name), ("start", T(o, s0)), ("end", T(o, e0)), ("duration", dur),
                 ("location", "Indoor" if kind == "strength" else "Outdoor"), ("isIndoor", kind == "strength"),
                 ("activeEnergyBurned", {"qty": kcal, "units": "kcal"}),
                 ("intensity", {"qty": r.uniform(4, 11), "units": "kcal/hr·kg"}),
                 ("heartRate", {"min": {"qty": hrmin, "units": "count/min"},
                                "avg": {"qty": hravg, "units": "count/min"},
                                "max": {"qty": hrmax, "units": "count/min"}}),
                 ("avgHeartRate", {"qty": hravg, "units": "count/min"}),
                 ("maxHeartRate", {"qty": hrmax, "units": "count/min"}),
                 ("metadata", {}),
                 ("heartRateData", hr_data), ("heartRateRecovery", rec), ("activeEnergy", ae)]
        if kind != "strength":
            km = sum(x["qty"] for x in dist)
            items += [("distance", {"qty": km, "units": "km"}),
                      ("speed", {"qty": km / (dur / 3600), "units": "km/hr"}),
                      ("temperature", {"qty": r.uniform(5, 25), "units": "degC"}),
                      ("humidity", {"qty": r.randint(40, 95), "units": "%"}),
                      ("elevationUp", {"qty": r.uniform(5, 90), "units": "m"}),
                      ("stepCadence", {"qty": r.uniform(150, 170) if kind == "run" else r.uniform(100, 112), "units": "count/min"}),
                      ("stepCount", steps), ("walkingAndRunningDistance", dist)]
        return shuffled(r, items)

    def generate(self, write):
        total = [0]

        def w(s):
            b = s.encode("utf-8")
            total[0] += len(b)
            write(b)

        w('{\n  "data" : {\n    "metrics" : [\n')
        first = True
        # minute-level heart rate
        w('      {\n        "name" : "heart_rate",\n        "units" : "count\\/min",\n        "data" : [\n')
        nhr = 0
        buf = []
        for i, o in enumerate(self.hr_days):
            parts, n = self.hr_minutes(w, o)
            nhr += n
            if parts:
                buf.append((",\n" if nhr - n > 0 else "") + ",\n".join(parts))
            if len(buf) >= 8:
                w("".join(buf))
                buf.clear()
        w("".join(buf))
        w("\n        ]\n      }")
        self.counts["heart_rate minutes"] = nhr
        first = False
        nday = 0
        for name, units, data in self.day_metrics():
            w(",\n" if not first else "")
            w("      " + obj({"name": name, "units": units, "data": data}, 6))
            nday += len(data)
        self.counts["day-metric data points"] = nday
        w('\n    ],\n    "workouts" : [\n')
        nw = 0
        nhrd = 0
        for o in self.hr_days:
            wk = self.workout(o)
            if wk is None:
                continue
            w((",\n" if nw else "") + "      " + obj(wk, 6))
            nw += 1
            nhrd += len(wk["heartRateData"])
        w("\n    ]\n  }\n}\n")
        self.counts["workouts"] = nw
        self.counts["workout heartRateData points"] = nhrd
        return total[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-mb", type=float, default=300.0, help="target size in MB (10^6 bytes)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "hae.json"))
    args = ap.parse_args()
    t0 = time.time()
    end = END_DATE.toordinal()
    target = int(args.size_mb * 1e6)
    # bytes per heart-rate day (incl. its workout) from a fixed probe of 14 spread days
    probe = [end - 11 * i for i in range(14)][::-1]
    base = Gen([]).generate(lambda b: None)
    size = Gen(probe).generate(lambda b: None)
    per_day = (size - base) / len(probe)
    ndays = max(1, int(round((target - base) / per_day)))
    days = list(range(end - ndays + 1, end + 1))
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".tmp"
    g = Gen(days)
    with open(tmp, "wb") as f:
        size = g.generate(f.write)
    os.replace(tmp, out)
    print("hae.json: %s  %d bytes (%.1f MB)  %d heart-rate days %s..%s, day metrics %s..%s  in %.1f s"
          % (out, size, size / 1e6, ndays, dt.date.fromordinal(days[0]), dt.date.fromordinal(days[-1]),
             dt.date.fromordinal(g.year[0]), dt.date.fromordinal(g.year[-1]), time.time() - t0))
    for k, v in g.counts.items():
        print("  %-30s %10d" % (k, v))


if __name__ == "__main__":
    main()
