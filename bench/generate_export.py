#!/usr/bin/env python3
"""Deterministic generator of a realistic Apple Health export (export.xml + export.zip).

Usage:
    python3 bench/generate_export.py [--size-mb 1000] [--out bench/data/export.xml]

The output depends only on the arguments (fixed seed, fixed end date, no clock, no
environment). Days are generated backwards from END_DATE: a larger --size-mb only adds
older days; the newest days' records are byte-identical across sizes. Every day's content is
seeded by its calendar date, so a day looks the same whatever the size.

Layout follows real exports (Export Version 13): XML declaration, inline DTD subset,
<HealthData locale="en_US">, ExportDate, Me, then Records grouped by type and
chronological within a type, then Correlations (blood pressure), Workouts and
ActivitySummary rows. Next to export.xml it writes export.zip holding
apple_health_export/export.xml (ZIP_DEFLATED, ZIP64 when needed) and a tiny
apple_health_export/export_cda.xml.

Sizes are in MB = 10^6 bytes.
"""

import argparse
import datetime as dt
import os
import random
import sys
import time
import zipfile

SEED = 20240607
END_DATE = dt.date(2025, 6, 30)          # newest day in the export (fixed)
TZ_NAME = "Europe/Amsterdam"

WATCH = "Ann’s Apple Watch"
PHONE = "Ann’s iPhone"
SCALE_APP = "Health Mate"

# --------------------------------------------------------------------------------------
# time helpers

HMS = ["%02d:%02d:%02d" % (s // 3600, (s // 60) % 60, s % 60) for s in range(86400)]
DS = {}     # ordinal -> "YYYY-MM-DD"
OFF = {}    # ordinal -> (offset before switch, offset after switch, switch second)


def _last_sunday(year, month):
    d = dt.date(year, month + 1, 1) - dt.timedelta(days=1) if month < 12 else dt.date(year, 12, 31)
    return d - dt.timedelta(days=(d.weekday() - 6) % 7)


def prepare_calendar(first_ord, last_ord):
    """EU DST rules (Europe/Amsterdam): +0200 from the last Sunday of March 02:00 local
    to the last Sunday of October 03:00 local, +0100 otherwise."""
    cache = {}
    for o in range(first_ord - 2, last_ord + 3):
        d = dt.date.fromordinal(o)
        DS[o] = d.isoformat()
        y = d.year
        if y not in cache:
            cache[y] = (_last_sunday(y, 3).toordinal(), _last_sunday(y, 10).toordinal())
        spring, autumn = cache[y]
        if o == spring:
            OFF[o] = ("+0100", "+0200", 2 * 3600)
        elif o == autumn:
            OFF[o] = ("+0200", "+0100", 3 * 3600)
        elif spring < o < autumn:
            OFF[o] = ("+0200", "+0200", 999999)
        else:
            OFF[o] = ("+0100", "+0100", 999999)


def T(o, s):
    """Timestamp 'YYYY-MM-DD HH:MM:SS +HHMM' for local second s of day ordinal o."""
    s = int(s)
    while s >= 86400:
        o += 1
        s -= 86400
    while s < 0:
        o -= 1
        s += 86400
    a, b, sw = OFF[o]
    if s >= sw and a == "+0100":
        # spring forward: local 02:00-03:00 does not exist; squeeze the rest of the
        # generated day into 03:00-24:00 so times stay valid and in order
        s = 10800 + (s - 7200) * 75600 // 79200
    return "%s %s %s" % (DS[o], HMS[s], a if s < sw else b)


# --------------------------------------------------------------------------------------
# sources and devices


class Addr:
    """Deterministic varying 0x… addresses for HKDevice descriptions."""

    def __init__(self, seed):
        self.x = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return "%x" % (0x280000000 | ((self.x >> 33) & 0x7FFFFFF0))


def watch_info(o):
    """(sourceVersion, device template) of the Watch in use on day ordinal o."""
    y = dt.date.fromordinal(o)
    if y < dt.date(2022, 9, 15):
        sw, hw = "8.7", "Watch6,2"
    elif y < dt.date(2023, 9, 20):
        sw, hw = "9.6", "Watch6,7"
    elif y < dt.date(2024, 9, 18):
        sw, hw = "10.2", "Watch6,7"
    else:
        sw, hw = "11.5", "Watch7,2"
    dev = ("&lt;&lt;HKDevice: 0x%s&gt;, name:Apple Watch, manufacturer:Apple Inc., "
           "model:Watch, hardware:" + hw + ", software:" + sw + "&gt;")
    return sw, dev


def phone_info(o):
    y = dt.date.fromordinal(o)
    if y < dt.date(2022, 9, 15):
        sw, hw = "15.6", "iPhone13,2"
    elif y < dt.date(2023, 9, 20):
        sw, hw = "16.6", "iPhone15,2"
    elif y < dt.date(2024, 9, 18):
        sw, hw = "17.2", "iPhone15,2"
    else:
        sw, hw = "18.5", "iPhone16,1"
    dev = ("&lt;&lt;HKDevice: 0x%s&gt;, name:iPhone, manufacturer:Apple Inc., "
           "model:iPhone, hardware:" + hw + ", software:" + sw + "&gt;")
    return sw, dev


SCALE_DEV = ("&lt;&lt;HKDevice: 0x%s&gt;, name:Body+, manufacturer:Withings, "
             "model:WBS05, hardware:WBS05, software:1330&gt;")
BPM_DEV = ("&lt;&lt;HKDevice: 0x%s&gt;, name:BPM Connect, manufacturer:Withings, "
           "model:BPM Connect, hardware:BPM Connect, software:1440&gt;")
SCALE_VER = "6.3.1"

QT = "HKQuantityTypeIdentifier"
CT = "HKCategoryTypeIdentifier"


def fmt(x, d=4):
    """Decimal string like the export (no exponent, trailing zeros stripped)."""
    s = "%.*f" % (d, x)
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


# --------------------------------------------------------------------------------------
# day plan (shared by all record types of one day)


class Plan:
    __slots__ = ("o", "wake", "bed", "night", "bouts", "run", "strength", "bp", "weigh",
                 "hrv", "rest_hr", "sleep_onset")


def rng_for(o, salt):
    return random.Random((SEED * 1000003 + o) * 131 + salt)


def make_plan(o):
    r = rng_for(o, 1)
    p = Plan()
    p.o = o
    wd = dt.date.fromordinal(o).weekday()
    # night ending this morning: in bed at (relative to this day's midnight) -5400..+1800
    inbed = r.randint(-5400, 1800)
    onset = inbed + r.randint(300, 1500)
    wake = r.randint(6 * 3600 + 900, 7 * 3600 + 2700) + (3600 if wd >= 5 else 0)
    p.sleep_onset = onset
    # watch sleep stages, contiguous from onset to wake
    stages = []
    t = onset
    cycle = 0
    while t < wake - 600:
        seq = (("AsleepCore", 600, 1800), ("AsleepDeep", 600, 2400 if cycle < 2 else 900),
               ("AsleepCore", 300, 1500), ("AsleepREM", 300, 1200 + 300 * cycle))
        for name, lo, hi in seq:
            d = r.randint(lo, hi)
            if t + d > wake:
                d = wake - t
            if d <= 30:
                break
            stages.append((name, t, t + d))
            t += d
            if r.random() < 0.18 and t < wake - 300:
                a = r.randint(30, 360)
                stages.append(("Awake", t, t + a))
                t += a
            if t >= wake:
                break
        cycle += 1
    if t < wake:
        stages.append(("Awake", t, wake))
    outbed = wake + r.randint(60, 900)
    p.night = (inbed, outbed, stages)
    p.wake = outbed
    p.bed = 86400 + r.randint(-5400, 1800)   # tomorrow's in-bed time (for waking hours)
    # workouts
    p.run = None
    p.strength = None
    if wd in (1, 3, 6) and r.random() < 0.85:
        start = r.choice((outbed + r.randint(1800, 5400), 17 * 3600 + r.randint(0, 9000)))
        p.run = (start, r.randint(1500, 4200))
    elif wd in (0, 4) and r.random() < 0.7:
        p.strength = (18 * 3600 + r.randint(0, 7200), r.randint(1800, 3900))
    # walking bouts during waking hours, avoiding the workout window
    busy = p.run or p.strength
    bouts = []
    t = p.wake + r.randint(120, 900)
    end_day = min(p.bed - 1800, 86399 - 600)
    while t < end_day:
        # mostly short pottering, some walks, a few long walks
        k = r.random()
        if k < 0.75:
            d, spm = r.randint(30, 180), r.uniform(15, 60)
        elif k < 0.95:
            d, spm = r.randint(180, 600), r.uniform(90, 112)
        else:
            d, spm = r.randint(900, 2400), r.uniform(100, 118)
        if busy and t < busy[0] + busy[1] and t + d > busy[0]:
            t = busy[0] + busy[1] + r.randint(120, 900)
            continue
        if t + d > end_day:
            break
        phone = r.random() < 0.8
        bouts.append((t, d, spm, phone))
        t += d + r.randint(300, 2100)
    p.bouts = bouts
    p.bp = (wake + r.randint(600, 2400)) if r.random() < 0.2 else None
    p.weigh = (wake + r.randint(300, 1200)) if r.random() < 0.4 else None
    p.rest_hr = r.uniform(52, 62)
    p.hrv = sorted(r.randint(0, 86000) for _ in range(r.randint(4, 8)))
    return p


# --------------------------------------------------------------------------------------
# the generator


class Gen:
    def __init__(self, days):
        self.days = days                      # ordinals, oldest first
        self.plans = {o: make_plan(o) for o in days}
        self.counts = {}
        self.run_stats = {}                   # ordinal -> dict of stat lists
        self.day_ae = {}                      # ordinal -> kcal (watch)
        self.day_ex = {}                      # ordinal -> exercise minutes
        self.day_stand = {}                   # ordinal -> stood hours
        self.addr = Addr(SEED)
        self.beats = 0
        self.meta = 0

    def stats(self, o):
        s = self.run_stats.get(o)
        if s is None:
            s = self.run_stats[o] = {}
        return s

    def acc(self, o, key, v):
        s = self.stats(o)
        s.setdefault(key, []).append(v)

    # ---- record writers -------------------------------------------------------------

    def rec(self, out, typ, src, ver, dev, unit, o, cs, ss, es, value, children=None):
        """One Record line; dates are (ordinal, second) relative pairs."""
        a = ['  <Record type="', typ, '" sourceName="', src, '" sourceVersion="', ver, '"']
        if dev is not None:
            a += [' device="', dev % self.addr.next(), '"']
        if unit is not None:
            a += [' unit="', unit, '"']
        a += [' creationDate="', T(o, cs), '" startDate="', T(o, ss), '" endDate="', T(o, es),
              '" value="', value, '"']
        if children:
            a.append(">\n")
            a.append(children)
            a.append("  </Record>\n")
        else:
            a.append("/>\n")
        out.append("".join(a))

    # ---- per type, per day ------------------------------------------------------------

    def steps_like(self, out, o, typ, unit, kind):
        """StepCount / DistanceWalkingRunning / FlightsClimbed from Watch and iPhone, both
        covering the same walking bouts (overlapping minutes)."""
        p = self.plans[o]
        r = rng_for(o, 10 + kind)
        wver, wdev = watch_info(o)
        pver, pdev = phone_info(o)
        bouts = list(p.bouts)
        if p.run:
            bouts.append((p.run[0], p.run[1], 165.0, True, True))
        bouts.sort()
        if kind == 2:  # flights: only some bouts
            bouts = [b for i, b in enumerate(bouts) if (i * 7 + o) % 4 == 0]
        watch_recs = []
        phone_recs = []
        for b in bouts:
            t0, d, spm, phone = b[0], b[1], b[2], b[3]
            running = len(b) > 4
            # watch: chunks of up to ~7 min
            t = t0
            while t < t0 + d:
                c = min(r.randint(60, 420), t0 + d - t)
                steps = spm * c / 60.0 * r.uniform(0.92, 1.05)
                if kind == 0:
                    v = str(int(steps))
                    if running:
                        self.acc(o, "steps", int(steps))
                elif kind == 1:
                    km = steps * (0.00105 if running else 0.00072) * r.uniform(0.95, 1.05)
                    v = fmt(km, 6)
                    if running:
                        self.acc(o, "dist", float(v))
                else:
                    v = str(r.randint(1, 4))
                watch_recs.append((t, t + c, v))
                t += c
            if phone:
                t = t0 + r.randint(-20, 40)
                e = t0 + d + r.randint(-30, 30)
                while t < e - 10:
                    c = min(r.randint(120, 600), e - t)
                    steps = spm * c / 60.0 * r.uniform(0.85, 1.0)
                    if kind == 0:
                        v = str(int(steps))
                    elif kind == 1:
                        v = fmt(steps * (0.00102 if running else 0.0007) * r.uniform(0.9, 1.08), 6)
                    else:
                        v = str(r.randint(1, 3))
                    phone_recs.append((t, t + c, v))
                    t += c
        # real exports interleave sources within a type in time order
        merged = [(s, e, v, 0) for s, e, v in watch_recs] + [(s, e, v, 1) for s, e, v in phone_recs]
        merged.sort()
        for s, e, v, w in merged:
            if w == 0:
                self.rec(out, typ, WATCH, wver, wdev, unit, o, e + r.randint(5, 400), s, e, v)
            else:
                self.rec(out, typ, PHONE, pver, pdev, unit, o, e + r.randint(5, 90), s, e, v)
        return len(merged)

    def active_energy(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 20)
        ver, dev = watch_info(o)
        typ = QT + "ActiveEnergyBurned"
        busy = sorted([(b[0], b[0] + b[1], 1, b[2]) for b in p.bouts]
                      + ([(p.run[0], p.run[0] + p.run[1], 2, 0)] if p.run else [])
                      + ([(p.strength[0], p.strength[0] + p.strength[1], 3, 0)] if p.strength else []))
        n = 0
        total = 0.0
        t = 0
        bi = 0
        while t < 86400 - 60:
            while bi < len(busy) and busy[bi][1] <= t:
                bi += 1
            active = bi < len(busy) and busy[bi][0] <= t < busy[bi][1]
            asleep = t < p.wake or t > p.bed
            if active:
                kind = busy[bi][2]
                c = 60 if kind != 1 else r.randint(40, 90)
                c = min(c, busy[bi][1] - t) if busy[bi][1] - t >= 20 else c
                rate = (busy[bi][3] / 30.0 if kind == 1 else {2: 11.5, 3: 6.5}[kind]) * r.uniform(0.8, 1.2)
            elif asleep:
                c = r.randint(600, 2400)
                rate = 0.02
                if r.random() < 0.5:
                    t += c
                    continue
            else:
                c = r.randint(60, 420)
                if bi < len(busy) and t + c > busy[bi][0] > t:
                    c = busy[bi][0] - t
                rate = r.uniform(0.05, 0.4)
            if t + c > 86399:
                c = 86399 - t
            if c <= 0:
                break
            kcal = rate * c / 60.0
            v = fmt(kcal, 3)
            total += float(v)
            if active and busy[bi][2] >= 2:
                self.acc(o, "ae", float(v))
            self.rec(out, typ, WATCH, ver, dev, "kcal", o, t + c + r.randint(5, 300), t, t + c, v)
            n += 1
            t += c
        self.day_ae[o] = total
        return n

    def basal_energy(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 21)
        ver, dev = watch_info(o)
        typ = QT + "BasalEnergyBurned"
        n = 0
        t = r.randint(0, 300)
        while t < 86400 - 120:
            c = min(r.randint(120, 900), 86399 - t)
            if c < 30:
                break
            v = fmt(1.05 * c / 60.0 * r.uniform(0.97, 1.03), 3)
            if p.run and p.run[0] <= t < p.run[0] + p.run[1]:
                self.acc(o, "basal", float(v))
            elif p.strength and p.strength[0] <= t < p.strength[0] + p.strength[1]:
                self.acc(o, "basal", float(v))
            self.rec(out, typ, WATCH, ver, dev, "kcal", o, t + c + r.randint(5, 600), t, t + c, v)
            n += 1
            t += c + r.randint(0, 240)
        return n

    def heart_rate(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 30)
        ver, dev = watch_info(o)
        typ = QT + "HeartRate"
        n = 0
        t = r.randint(0, 300)
        work = p.run or p.strength
        meta = ('    <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="%s"/>\n')
        while t < 86400:
            if work and work[0] <= t < work[0] + work[1]:
                frac = (t - work[0]) / work[1]
                base = (128 + 30 * frac) if p.run else (105 + 20 * r.random())
                bpm = int(base + r.uniform(-6, 6))
                ctx = "2"
                self.acc(o, "hr", bpm)
                step = r.randint(4, 10)
            else:
                asleep = t < p.wake or t > p.bed
                bpm = int(p.rest_hr + (r.uniform(-4, 4) if asleep else r.uniform(5, 40)))
                ctx = "1" if (asleep or r.random() < 0.6) else "0"
                step = r.randint(180, 420)
                if work and t < work[0] < t + step:
                    step = work[0] - t
            self.rec(out, typ, WATCH, ver, dev, "count/min", o, t + r.randint(1, 600), t, t,
                     str(bpm), meta % ctx)
            n += 1
            self.meta += 1
            t += max(step, 1)
        return n

    def hrv(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 31)
        ver, dev = watch_info(o)
        typ = QT + "HeartRateVariabilitySDNN"
        for t in p.hrv:
            nb = r.randint(30, 60)
            lines = ["    <HeartRateVariabilityMetadataList>\n"]
            bt = t + 0.0
            bpm0 = p.rest_hr + r.uniform(0, 15)
            for _ in range(nb):
                bpm = int(bpm0 + r.uniform(-5, 5))
                s = int(bt) % 86400
                lines.append('      <InstantaneousBeatsPerMinute bpm="%d" time="%s,%02d"/>\n'
                             % (bpm, HMS[s], int((bt - int(bt)) * 100)))
                bt += 60.0 / bpm
            lines.append("    </HeartRateVariabilityMetadataList>\n")
            self.beats += nb
            e = t + int(bt - t) + 1
            self.rec(out, typ, WATCH, ver, dev, "ms", o, e + r.randint(2, 120), t, e,
                     fmt(r.uniform(25, 80), 4), "".join(lines))
        return len(p.hrv)

    def resting_hr(self, out, o):
        p = self.plans[o]
        ver, dev = watch_info(o)
        r = rng_for(o, 32)
        e = min(p.bed - 3600, 86399 - 1800)
        self.rec(out, QT + "RestingHeartRate", WATCH, ver, dev, "count/min", o,
                 e + r.randint(600, 1800), 0, e, str(int(p.rest_hr)))
        return 1

    def night_series(self, out, o, typ, unit, salt, step_lo, step_hi, valfn, meta=None):
        """Samples during the night ending on day o (RespiratoryRate, OxygenSaturation)."""
        p = self.plans[o]
        r = rng_for(o, salt)
        ver, dev = watch_info(o)
        inbed, outbed, stages = p.night
        t = p.sleep_onset + r.randint(300, 1200)
        n = 0
        end = p.wake - 600
        while t < end:
            self.rec(out, typ, WATCH, ver, dev, unit, o, t + r.randint(300, 3600), t,
                     t + (r.randint(30, 60) if typ.endswith("Rate") else 0), valfn(r), meta)
            n += 1
            t += r.randint(step_lo, step_hi)
        return n

    def spo2(self, out, o):
        n = self.night_series(out, o, QT + "OxygenSaturation", "%", 33, 2400, 5400,
                              lambda r: fmt(r.choice((0.93, 0.94, 0.95, 0.96, 0.96, 0.97, 0.97,
                                                      0.98, 0.98, 0.99, 1.0)), 2))
        # one daytime spot measurement on some days
        p = self.plans[o]
        if o % 3 == 0:
            ver, dev = watch_info(o)
            t = p.wake + 4 * 3600
            self.rec(out, QT + "OxygenSaturation", WATCH, ver, dev, "%", o, t + 40, t, t, "0.98")
            n += 1
        return n

    def resp(self, out, o):
        return self.night_series(out, o, QT + "RespiratoryRate", "count/min", 34, 600, 1500,
                                 lambda r: fmt(r.uniform(12.5, 17.5), 1))

    def vo2(self, out, o):
        p = self.plans[o]
        if not p.run:
            return 0
        ver, dev = watch_info(o)
        r = rng_for(o, 35)
        e = p.run[0] + p.run[1]
        self.meta += 1
        self.rec(out, QT + "VO2Max", WATCH, ver, dev, "mL/min·kg", o, e + 120, e, e,
                 fmt(r.uniform(41, 46), 5), '    <MetadataEntry key="HKVO2MaxTestType" value="2"/>\n')
        return 1

    def exercise(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 36)
        ver, dev = watch_info(o)
        typ = QT + "AppleExerciseTime"
        spans = [(b[0], b[1]) for b in p.bouts if b[2] >= 100 and b[1] >= 300]
        if p.run:
            spans.append(p.run)
        if p.strength:
            spans.append(p.strength)
        spans.sort()
        n = 0
        for s, d in spans:
            t = s
            while t + 60 <= s + d:
                self.rec(out, typ, WATCH, ver, dev, "min", o, t + 60 + r.randint(1, 120), t, t + 60, "1")
                n += 1
                t += 60
        self.day_ex[o] = n
        return n

    def daylight(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 37)
        ver, dev = watch_info(o)
        n = 0
        m = dt.date.fromordinal(o).month
        dusk = (21 if 4 <= m <= 9 else 17) * 3600
        for b in p.bouts:
            if b[0] > dusk or r.random() < 0.4:
                continue
            d = min(b[1], r.randint(120, 1200))
            self.rec(out, QT + "TimeInDaylight", WATCH, ver, dev, "min", o, b[0] + d + 300, b[0],
                     b[0] + d, str(max(1, d // 60)))
            n += 1
        return n

    def wrist_temp(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 38)
        ver, dev = watch_info(o)
        self.rec(out, QT + "AppleSleepingWristTemperature", WATCH, ver, dev, "degC", o,
                 p.wake + 900, p.sleep_onset, p.wake, fmt(r.uniform(35.2, 36.3), 13))
        return 1

    def body_mass(self, out, o):
        p = self.plans[o]
        if p.weigh is None:
            return 0
        r = rng_for(o, 39)
        w = 63.0 + 1.5 * ((o % 365) / 365.0) + r.uniform(-0.4, 0.4)
        t = p.weigh
        # attribute order differs for this writer (device last), as in real exports
        a = '  <Record type="%s" sourceName="%s" sourceVersion="%s" unit="kg" creationDate="%s" ' \
            'startDate="%s" endDate="%s" value="%s" device="%s"/>\n' % (
                QT + "BodyMass", SCALE_APP, SCALE_VER, T(o, t + 30), T(o, t), T(o, t), fmt(w, 2),
                SCALE_DEV % self.addr.next())
        out.append(a)
        return 1

    def bp_records(self, out, o, which):
        p = self.plans[o]
        if p.bp is None:
            return 0
        sys_, dia = self.bp_values(o)
        t = p.bp
        self.rec(out, QT + ("BloodPressureSystolic" if which == 0 else "BloodPressureDiastolic"),
                 SCALE_APP, SCALE_VER, BPM_DEV, "mmHg", o, t + 45, t, t, str(sys_ if which == 0 else dia))
        return 1

    def bp_values(self, o):
        r = rng_for(o, 40)
        return r.randint(108, 132), r.randint(66, 86)

    def running_metric(self, out, o, typ, unit, salt, lo, hi, d):
        p = self.plans[o]
        if not p.run:
            return 0
        r = rng_for(o, salt)
        ver, dev = watch_info(o)
        s0, dur = p.run
        t = s0 + r.randint(5, 30)
        n = 0
        while t < s0 + dur - 5:
            c = r.randint(8, 40)
            v = r.uniform(lo, hi)
            vs = fmt(v, d)
            self.acc(o, typ, float(vs))
            self.rec(out, QT + typ, WATCH, ver, dev, unit, o, s0 + dur + r.randint(30, 300), t, t + c, vs)
            n += 1
            t += c
        return n

    def sleep(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 41)
        wver, wdev = watch_info(o)
        pver, pdev = phone_info(o)
        inbed, outbed, stages = p.night
        typ = CT + "SleepAnalysis"
        tz = '    <MetadataEntry key="HKTimeZone" value="%s"/>\n' % TZ_NAME
        self.rec(out, typ, PHONE, pver, pdev, None, o, outbed + r.randint(5, 60), inbed, outbed,
                 "HKCategoryValueSleepAnalysisInBed", tz)
        for name, s, e in stages:
            self.rec(out, typ, WATCH, wver, wdev, None, o, p.wake + r.randint(300, 1800), s, e,
                     "HKCategoryValueSleepAnalysis" + name, tz)
        self.meta += 1 + len(stages)
        return 1 + len(stages)

    def stand(self, out, o):
        p = self.plans[o]
        r = rng_for(o, 42)
        ver, dev = watch_info(o)
        n = 0
        stood = 0
        h0 = (p.wake // 3600) + 1
        h1 = min(23, p.bed // 3600)
        for h in range(h0, h1 + 1):
            ok = r.random() < 0.8
            stood += ok
            s = h * 3600
            self.rec(out, CT + "AppleStandHour", WATCH, ver, None, None, o, s + 3600 + r.randint(5, 600),
                     s, s + 3600, "HKCategoryValueAppleStandHour" + ("Stood" if ok else "Idle"))
            n += 1
        self.day_stand[o] = stood
        return n

    # ---- top-level sections ---------------------------------------------------------

    def type_table(self):
        Q = QT
        return [
            (Q + "BodyMass", self.body_mass),
            (Q + "HeartRate", self.heart_rate),
            (Q + "BloodPressureSystolic", lambda out, o: self.bp_records(out, o, 0)),
            (Q + "BloodPressureDiastolic", lambda out, o: self.bp_records(out, o, 1)),
            (Q + "RespiratoryRate", self.resp),
            (Q + "StepCount", lambda out, o: self.steps_like(out, o, Q + "StepCount", "count", 0)),
            (Q + "DistanceWalkingRunning",
             lambda out, o: self.steps_like(out, o, Q + "DistanceWalkingRunning", "km", 1)),
            (Q + "BasalEnergyBurned", self.basal_energy),
            (Q + "ActiveEnergyBurned", self.active_energy),
            (Q + "FlightsClimbed", lambda out, o: self.steps_like(out, o, Q + "FlightsClimbed", "count", 2)),
            (Q + "OxygenSaturation", self.spo2),
            (Q + "AppleExerciseTime", self.exercise),
            (Q + "RestingHeartRate", self.resting_hr),
            (Q + "VO2Max", self.vo2),
            (Q + "HeartRateVariabilitySDNN", self.hrv),
            (Q + "RunningStrideLength",
             lambda out, o: self.running_metric(out, o, "RunningStrideLength", "m", 50, 0.95, 1.25, 2)),
            (Q + "RunningVerticalOscillation",
             lambda out, o: self.running_metric(out, o, "RunningVerticalOscillation", "cm", 51, 7.5, 10.5, 1)),
            (Q + "RunningGroundContactTime",
             lambda out, o: self.running_metric(out, o, "RunningGroundContactTime", "ms", 52, 230, 310, 0)),
            (Q + "RunningPower",
             lambda out, o: self.running_metric(out, o, "RunningPower", "W", 53, 180, 290, 0)),
            (Q + "RunningSpeed",
             lambda out, o: self.running_metric(out, o, "RunningSpeed", "km/hr", 54, 9.0, 12.8, 5)),
            (Q + "TimeInDaylight", self.daylight),
            (Q + "AppleSleepingWristTemperature", self.wrist_temp),
            (CT + "SleepAnalysis", self.sleep),
            (CT + "AppleStandHour", self.stand),
        ]

    def correlations(self, out):
        n = 0
        for o in self.days:
            p = self.plans[o]
            if p.bp is None:
                continue
            s, d = self.bp_values(o)
            t = p.bp
            addr = Addr(o * 64 + 61).next()
            dev = BPM_DEV % addr
            out.append(
                '  <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="%s" '
                'sourceVersion="%s" device="%s" creationDate="%s" startDate="%s" endDate="%s">\n'
                % (SCALE_APP, SCALE_VER, dev, T(o, t + 45), T(o, t), T(o, t)))
            for typ, v in ((QT + "BloodPressureDiastolic", d), (QT + "BloodPressureSystolic", s)):
                out.append(
                    '   <Record type="%s" sourceName="%s" sourceVersion="%s" device="%s" unit="mmHg" '
                    'creationDate="%s" startDate="%s" endDate="%s" value="%d"/>\n'
                    % (typ, SCALE_APP, SCALE_VER, dev, T(o, t + 45), T(o, t), T(o, t), v))
            out.append("  </Correlation>\n")
            n += 1
        self.counts["Correlation"] = n

    def workouts(self, out):
        nrun = nstr = nev = nstat = 0
        for o in self.days:
            p = self.plans[o]
            if not (p.run or p.strength):
                continue
            r = rng_for(o, 60)
            self.addr = Addr(o * 64 + 62)
            ver, dev = watch_info(o)
            st = self.run_stats.get(o, {})
            s0, dur = p.run or p.strength
            e0 = s0 + dur
            S, E = T(o, s0), T(o, e0)
            old = dt.date.fromordinal(o) < dt.date(2023, 1, 1)
            ae = sum(st.get("ae", [0.0]))
            basal = sum(st.get("basal", [0.0]))
            hr = st.get("hr", [120])
            pause = r.randint(0, 120) if (p.run and r.random() < 0.3) else 0
            attrs = ['  <Workout workoutActivityType="%s" duration="%r" durationUnit="min"'
                     % ("HKWorkoutActivityTypeRunning" if p.run else
                        "HKWorkoutActivityTypeTraditionalStrengthTraining", (dur - pause) / 60.0)]
            if old:
                if p.run:
                    attrs.append(' totalDistance="%r" totalDistanceUnit="km"' % sum(st.get("dist", [0.0])))
                attrs.append(' totalEnergyBurned="%r" totalEnergyBurnedUnit="kcal"' % ae)
            attrs.append(' sourceName="%s" sourceVersion="%s" device="%s" creationDate="%s" '
                         'startDate="%s" endDate="%s">\n'
                         % (WATCH, ver, dev % self.addr.next(), T(o, e0 + r.randint(5, 60)), S, E))
            out.append("".join(attrs))
            md = [("HKIndoorWorkout", "0" if p.run else "1"), ("HKTimeZone", TZ_NAME)]
            if p.run:
                md += [("HKElevationAscended", "%d cm" % r.randint(800, 9000)),
                       ("HKWeatherHumidity", "%d %%" % (r.randint(40, 95) * 100)),
                       ("HKWeatherTemperature", "%s degF" % fmt(r.uniform(30, 80), 3))]
            md.append(("HKAverageMETs", "%s kcal/hr·kg" % fmt(r.uniform(9, 11) if p.run else r.uniform(4, 6), 5)))
            for k, v in md:
                out.append('   <MetadataEntry key="%s" value="%s"/>\n' % (k, v))
            self.meta += len(md)
            # events
            ev = []
            if p.run:
                t = s0
                km = 0
                pace = dur / max(1.0, sum(st.get("dist", [5.0])))
                while t + pace < e0:
                    ev.append('   <WorkoutEvent type="HKWorkoutEventTypeSegment" date="%s" duration="%r" durationUnit="min"/>\n'
                              % (T(o, t), pace / 60.0 * r.uniform(0.95, 1.05)))
                    t += int(pace)
                    km += 1
                if pause:
                    pt = s0 + dur // 2
                    ev.append('   <WorkoutEvent type="HKWorkoutEventTypePause" date="%s"/>\n' % T(o, pt))
                    ev.append('   <WorkoutEvent type="HKWorkoutEventTypeResume" date="%s"/>\n' % T(o, pt + pause))
                ev.append('   <WorkoutEvent type="HKWorkoutEventTypeMotionPaused" date="%s"/>\n' % T(o, e0 - 40))
                ev.append('   <WorkoutEvent type="HKWorkoutEventTypeMotionResumed" date="%s"/>\n' % T(o, e0 - 25))
            else:
                ev.append('   <WorkoutEvent type="HKWorkoutEventTypeSegment" date="%s" duration="%r" durationUnit="min"/>\n'
                          % (T(o, s0), dur / 60.0))
            out.extend(ev)
            nev += len(ev)
            # statistics
            stats = [("ActiveEnergyBurned", "sum", ae, "kcal"), ("BasalEnergyBurned", "sum", basal, "kcal"),
                     ("HeartRate", "avg", hr, "count/min")]
            if p.run:
                stats += [("DistanceWalkingRunning", "sum", sum(st.get("dist", [0.0])), "km"),
                          ("StepCount", "sum", float(sum(st.get("steps", [0]))), "count")]
                for k, u in (("RunningPower", "W"), ("RunningSpeed", "km/hr"),
                             ("RunningStrideLength", "m"), ("RunningVerticalOscillation", "cm"),
                             ("RunningGroundContactTime", "ms")):
                    stats.append((k, "avg", st.get(k, [0.0]), u))
            for k, kind, v, u in stats:
                if kind == "sum":
                    out.append('   <WorkoutStatistics type="%s" startDate="%s" endDate="%s" sum="%s" unit="%s"/>\n'
                               % (QT + k, S, E, fmt(v, 4), u))
                else:
                    out.append('   <WorkoutStatistics type="%s" startDate="%s" endDate="%s" average="%s" '
                               'minimum="%s" maximum="%s" unit="%s"/>\n'
                               % (QT + k, S, E, fmt(sum(v) / len(v), 4), fmt(min(v), 4), fmt(max(v), 4), u))
            nstat += len(stats)
            if p.run:
                h = s0 // 3600
                hh = h % 12 or 12
                route = "/workout-routes/route_%s_%d.%02d%s.gpx" % (
                    DS[o], hh, (s0 // 60) % 60, "am" if h < 12 else "pm")
                out.append('   <WorkoutRoute sourceName="%s" sourceVersion="%s" creationDate="%s" '
                           'startDate="%s" endDate="%s">\n' % (WATCH, ver, T(o, e0 + 90), T(o, s0 + 3), E))
                out.append('    <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>\n')
                out.append('    <MetadataEntry key="HKMetadataKeySyncIdentifier" value="%08X-%04X-4%03X-A%03X-%012X"/>\n'
                           % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(12),
                              r.getrandbits(48)))
                out.append('    <FileReference path="%s"/>\n' % route)
                out.append("   </WorkoutRoute>\n")
                self.meta += 2
                nrun += 1
            else:
                nstr += 1
            out.append("  </Workout>\n")
        self.counts["Workout(running)"] = nrun
        self.counts["Workout(strength)"] = nstr
        self.counts["WorkoutEvent"] = nev
        self.counts["WorkoutStatistics"] = nstat

    def activity_summaries(self, out):
        for o in self.days:
            out.append('  <ActivitySummary dateComponents="%s" activeEnergyBurned="%s" '
                       'activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveTime="0" '
                       'appleMoveTimeGoal="0" appleExerciseTime="%d" appleExerciseTimeGoal="30" '
                       'appleStandHours="%d" appleStandHoursGoal="12"/>\n'
                       % (DS[o], fmt(self.day_ae.get(o, 0.0), 3), self.day_ex.get(o, 0),
                          self.day_stand.get(o, 0)))
        self.counts["ActivitySummary"] = len(self.days)

    def generate(self, sink):
        out = []
        size = [0]

        def flush(force=False):
            if force or len(out) >= 20000:
                s = "".join(out).encode("utf-8")
                size[0] += len(s)
                sink(s)
                out.clear()

        out.append(HEADER)
        last = self.days[-1] if self.days else END_DATE.toordinal()
        out.append('<HealthData locale="en_US">\n')
        out.append(' <ExportDate value="%s"/>\n' % T(last + 1, 8 * 3600 + 1234))
        out.append(' <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-04-12" '
                   'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" '
                   'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" '
                   'HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" '
                   'HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n')
        total = 0
        for ti, (typ, fn) in enumerate(self.type_table()):
            n = 0
            for o in self.days:
                self.addr = Addr(o * 64 + ti)   # per (type, day): days do not depend on the size
                n += fn(out, o)
                flush()
            self.counts[typ] = n
            total += n
        self.counts["Record(top-level)"] = total
        self.correlations(out)
        flush()
        self.workouts(out)
        flush()
        self.activity_summaries(out)
        out.append("</HealthData>\n")
        flush(True)
        self.counts["InstantaneousBeatsPerMinute"] = self.beats
        self.counts["MetadataEntry"] = self.meta
        return size[0]


HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth                 CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex               CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType                   CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutActivity ((MetadataEntry|WorkoutEvent|WorkoutStatistics)*)>
<!ATTLIST WorkoutActivity
  uuid                  CDATA #REQUIRED
  startDate             CDATA #REQUIRED
  endDate               CDATA #IMPLIED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
>
<!ELEMENT WorkoutEvent EMPTY>
<!ATTLIST WorkoutEvent
  type                  CDATA #REQUIRED
  date                  CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type                  CDATA #REQUIRED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
  average               CDATA #IMPLIED
  minimum               CDATA #IMPLIED
  maximum               CDATA #IMPLIED
  sum                   CDATA #IMPLIED
  unit                  CDATA #IMPLIED
>
<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
<!ATTLIST WorkoutRoute
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT FileReference EMPTY>
<!ATTLIST FileReference
  path CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents           CDATA #IMPLIED
  activeEnergyBurned       CDATA #IMPLIED
  activeEnergyBurnedGoal   CDATA #IMPLIED
  activeEnergyBurnedUnit   CDATA #IMPLIED
  appleMoveTime            CDATA #IMPLIED
  appleMoveTimeGoal        CDATA #IMPLIED
  appleExerciseTime        CDATA #IMPLIED
  appleExerciseTimeGoal    CDATA #IMPLIED
  appleStandHours          CDATA #IMPLIED
  appleStandHoursGoal      CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
<!ATTLIST InstantaneousBeatsPerMinute
  bpm  CDATA #REQUIRED
  time CDATA #REQUIRED
>
<!ELEMENT ClinicalRecord EMPTY>
<!ATTLIST ClinicalRecord
  type              CDATA #REQUIRED
  identifier        CDATA #REQUIRED
  sourceName        CDATA #REQUIRED
  sourceURL         CDATA #REQUIRED
  fhirVersion       CDATA #REQUIRED
  receivedDate      CDATA #REQUIRED
  resourceFilePath  CDATA #REQUIRED
>
<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
<!ATTLIST Audiogram
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT SensitivityPoint EMPTY>
<!ATTLIST SensitivityPoint
  frequencyValue   CDATA #REQUIRED
  frequencyUnit    CDATA #REQUIRED
  leftEarValue     CDATA #IMPLIED
  leftEarUnit      CDATA #IMPLIED
  leftEarMasked    CDATA #IMPLIED
  leftEarClampingRangeLowerBound   CDATA #IMPLIED
  leftEarClampingRangeUpperBound   CDATA #IMPLIED
  rightEarValue    CDATA #IMPLIED
  rightEarUnit     CDATA #IMPLIED
  rightEarMasked   CDATA #IMPLIED
  rightEarClampingRangeLowerBound  CDATA #IMPLIED
  rightEarClampingRangeUpperBound  CDATA #IMPLIED
>
<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
<!ATTLIST VisionPrescription
  type             CDATA #REQUIRED
  dateIssued       CDATA #REQUIRED
  expirationDate   CDATA #IMPLIED
  brand            CDATA #IMPLIED
>
<!ELEMENT RightEye EMPTY>
<!ATTLIST RightEye
  sphere           CDATA #IMPLIED
  sphereUnit       CDATA #IMPLIED
  cylinder         CDATA #IMPLIED
  cylinderUnit     CDATA #IMPLIED
  axis             CDATA #IMPLIED
  axisUnit         CDATA #IMPLIED
  add              CDATA #IMPLIED
  addUnit          CDATA #IMPLIED
  vertex           CDATA #IMPLIED
  vertexUnit       CDATA #IMPLIED
  prismAmount      CDATA #IMPLIED
  prismAmountUnit  CDATA #IMPLIED
  prismAngle       CDATA #IMPLIED
  prismAngleUnit   CDATA #IMPLIED
  farPD            CDATA #IMPLIED
  farPDUnit        CDATA #IMPLIED
  nearPD           CDATA #IMPLIED
  nearPDUnit       CDATA #IMPLIED
  baseCurve        CDATA #IMPLIED
  baseCurveUnit    CDATA #IMPLIED
  diameter         CDATA #IMPLIED
  diameterUnit     CDATA #IMPLIED
>
<!ELEMENT LeftEye EMPTY>
<!ATTLIST LeftEye
  sphere           CDATA #IMPLIED
  sphereUnit       CDATA #IMPLIED
  cylinder         CDATA #IMPLIED
  cylinderUnit     CDATA #IMPLIED
  axis             CDATA #IMPLIED
  axisUnit         CDATA #IMPLIED
  add              CDATA #IMPLIED
  addUnit          CDATA #IMPLIED
  vertex           CDATA #IMPLIED
  vertexUnit       CDATA #IMPLIED
  prismAmount      CDATA #IMPLIED
  prismAmountUnit  CDATA #IMPLIED
  prismAngle       CDATA #IMPLIED
  prismAngleUnit   CDATA #IMPLIED
  farPD            CDATA #IMPLIED
  farPDUnit        CDATA #IMPLIED
  nearPD           CDATA #IMPLIED
  nearPDUnit       CDATA #IMPLIED
  baseCurve        CDATA #IMPLIED
  baseCurveUnit    CDATA #IMPLIED
  diameter         CDATA #IMPLIED
  diameterUnit     CDATA #IMPLIED
>
<!ELEMENT Attachment EMPTY>
<!ATTLIST Attachment
  identifier       CDATA #IMPLIED
>
]>
"""

CDA = """<?xml version="1.0" encoding="UTF-8"?>
<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <realmCode code="US"/>
 <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
 <title>Health Data Export</title>
 <effectiveTime value="20250701080000+0200"/>
 <component><structuredBody/></component>
</ClinicalDocument>
"""


def day_list(n):
    end = END_DATE.toordinal()
    return list(range(end - n + 1, end + 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-mb", type=float, default=1000.0, help="target export.xml size in MB (10^6 bytes)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "export.xml"))
    ap.add_argument("--days", type=int, default=0, help="generate exactly this many days (overrides --size-mb)")
    ap.add_argument("--no-zip", action="store_true", help="do not write export.zip")
    args = ap.parse_args()
    t0 = time.time()
    target = int(args.size_mb * 1e6)
    end = END_DATE.toordinal()
    prepare_calendar(end - 40000, end + 2)

    if args.days > 0:
        ndays = args.days
    else:
        # estimate bytes per day from a fixed, spread-out probe of 28 days
        probe = [end - 13 * i for i in range(28)][::-1]
        g = Gen(probe)
        size = g.generate(lambda b: None)
        hdr = Gen([]).generate(lambda b: None)
        per_day = (size - hdr) / len(probe)
        ndays = max(1, int(round((target - hdr) / per_day)))
    days = day_list(ndays)
    prepare_calendar(days[0], end + 2)

    out_path = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    tmp = out_path + ".tmp"
    g = Gen(days)
    with open(tmp, "wb", buffering=0) as f:
        size = g.generate(f.write)
    os.replace(tmp, out_path)
    t1 = time.time()
    print("export.xml: %s  %d bytes (%.1f MB)  %d days %s..%s  in %.1f s"
          % (out_path, size, size / 1e6, ndays, DS[days[0]], DS[days[-1]], t1 - t0))
    w = max(len(k) for k in g.counts)
    for k, v in g.counts.items():
        print("  %-*s %10d" % (w, k, v))

    if not args.no_zip:
        zpath = os.path.join(os.path.dirname(out_path), "export.zip")
        ztmp = zpath + ".tmp"
        with zipfile.ZipFile(ztmp, "w", compression=zipfile.ZIP_DEFLATED, allowZip64=True) as z:
            # fixed timestamps so the zip is byte-identical across runs
            zi = zipfile.ZipInfo("apple_health_export/export.xml", date_time=(2025, 7, 1, 8, 20, 34))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            with open(out_path, "rb") as src, z.open(zi, "w", force_zip64=True) as dst:
                while True:
                    b = src.read(1 << 22)
                    if not b:
                        break
                    dst.write(b)
            zc = zipfile.ZipInfo("apple_health_export/export_cda.xml", date_time=(2025, 7, 1, 8, 20, 34))
            zc.compress_type = zipfile.ZIP_DEFLATED
            zc.external_attr = 0o644 << 16
            z.writestr(zc, CDA.encode("utf-8"))
        os.replace(ztmp, zpath)
        print("export.zip: %s  %d bytes (%.1f MB)  in %.1f s"
              % (zpath, os.path.getsize(zpath), os.path.getsize(zpath) / 1e6, time.time() - t1))


if __name__ == "__main__":
    main()
