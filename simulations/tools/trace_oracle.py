#!/usr/bin/env python3
"""Independent oracle for the trace readers' and cleaner's counts (Tests/TraceReplayTests/DatasetReaderTests.swift).

Re-implements, without sharing code with the Swift side, the file-order statistics and the cleaning rules
(synthesise nothing, stable sort when time goes backwards, drop exact duplicates, drop fixes faster than
250 km/h from the last kept fix (re-anchor after 10 drops), split at gaps > 2 h).
Usage: trace_oracle.py FILE...
"""
import math, re, sys, datetime, xml.etree.ElementTree as ET

R = 6371008.8
def dist(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dl = math.radians(b[1] - a[1]); dp = p2 - p1
    h = math.sin(dp/2)**2 + math.cos(p1)*math.cos(p2)*math.sin(dl/2)**2
    return 2*R*math.asin(min(1, math.sqrt(max(0, h))))

def iso(s):
    s = s.strip()
    m = re.match(r'(\d{4})[-/](\d\d)[-/](\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?(Z|[+-]\d\d(?::?\d\d)?)?$', s)
    if not m: return None
    y, mo, d, h, mi = map(int, m.groups()[:5]); sec = int(m.group(6) or 0)
    frac = float('0.' + m.group(7)) if m.group(7) else 0.0
    t = datetime.datetime(y, mo, d, h, mi, sec, tzinfo=datetime.timezone.utc).timestamp() + frac
    z = m.group(8)
    if z and z != 'Z':
        sign = 1 if z[0] == '+' else -1
        digits = z[1:].replace(':', '')
        off = int(digits[:2]) * 3600 + (int(digits[2:4]) * 60 if len(digits) >= 4 else 0)
        t -= sign * off
    return t

def read(path):
    low = path.lower()
    if low.endswith('.gpx'):
        root = ET.parse(path).getroot()
        def loc(tag): return tag.split('}')[-1]
        pts = []
        for el in root.iter():
            if loc(el.tag) == 'trkpt':
                t = None
                for c in el:
                    if loc(c.tag) == 'time': t = iso(c.text)
                pts.append((float(el.get('lat')), float(el.get('lon')), t))
        return pts
    if low.endswith('.plt'):
        lines = open(path).read().splitlines()[6:]
        return [(float(f[0]), float(f[1]), iso(f[5] + ' ' + f[6])) for f in (l.split(',') for l in lines if l)]
    if low.endswith('.csv'):
        lines = open(path).read().splitlines()
        head = lines[0].split(';')
        if 'X' in head: la, lo, ti = head.index('Y'), head.index('X'), head.index('t')
        else: la, lo, ti = head.index('latitude'), head.index('longitude'), head.index('tracked_at')
        out = []
        for l in lines[1:]:
            f = l.split(';')
            out.append((float(f[la]), float(f[lo]), iso(f[ti])))
        return out

def stats(pts, vmax=250/3.6, split=7200, maxdrops=10):
    back = gaps = spikes = 0; prev = None
    for p in pts:
        if prev and prev[2] is not None and p[2] is not None:
            dt = p[2] - prev[2]
            if dt < 0: back += 1
            if dt > 300: gaps += 1
            if dt > 0 and dist(prev, p) / dt > vmax: spikes += 1
        if p[2] is not None: prev = p
    timed = [p for p in pts if p[2] is not None]
    if back: timed = sorted(timed, key=lambda p: p[2])  # Python's sort is stable
    dups = drops = splits = 0; segs = []; cur = []; last = None; run = 0
    for p in timed:
        if last is None: cur = [p]; last = p; continue
        if p == last: dups += 1; continue
        dt = p[2] - last[2]
        if dt > split: splits += 1; segs.append(cur); cur = [p]; last = p; run = 0; continue
        d = dist(last, p)
        if d > vmax * dt and d > 0:
            run += 1
            if run <= maxdrops: drops += 1; continue
            segs.append(cur); cur = [p]; last = p; run = 0; continue
        run = 0; cur.append(p); last = p
    if cur: segs.append(cur)
    return dict(points=len(pts), notime=len(pts) - len(timed), back=back, gaps5=gaps, spikes=spikes,
                dups=dups, drops=drops, splits=splits, segments=len(segs), fixes=sum(map(len, segs)))

for path in sys.argv[1:]:
    print(path.split('datasets/')[-1], stats(read(path)))
