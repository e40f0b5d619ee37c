#!/usr/bin/env python3
"""Synthetic, redistributable store locations around the GeoLife Beijing traces (seeded, deterministic).

Where a trace dwells (stays within 60 m for >= 3 min) a store is placed 25 m away -- those are the visits the
simulator should catch; every ~1.5 km of path a decoy store is placed 150-400 m off the path -- those compete
for the 20 region slots. Brands alternate between two synthetic chains.
Usage: make_stores.py OUT.csv PLT...
"""
import csv, math, random, sys

R = 6371008.8
def dist(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0]); dl = math.radians(b[1] - a[1])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(min(1, math.sqrt(h)))
def offset(p, north, east):
    return (p[0] + north / 111195.08, p[1] + east / (111195.08 * math.cos(math.radians(p[0]))))
def read_plt(path):
    out = []
    for line in open(path).read().splitlines()[6:]:
        f = line.split(',')
        if len(f) >= 7:
            h, m, s = map(int, f[6].split(':'))
            out.append((float(f[0]), float(f[1]), float(f[4]) * 86400))
    return out

rng = random.Random(20251122)
brands = ["Cafe Synthetic", "Grocer Synthetic"]
rows = []
for path in sys.argv[2:]:
    pts = read_plt(path)
    i = 0
    while i < len(pts):
        j = i
        while j + 1 < len(pts) and dist(pts[i], pts[j + 1]) <= 60: j += 1
        if pts[j][2] - pts[i][2] >= 180:
            lat, lon = offset(pts[(i + j) // 2], rng.uniform(-25, 25), rng.uniform(-25, 25))
            rows.append((lat, lon, brands[len(rows) % 2], "dwell"))
            i = j + 1
        else:
            i += 1
    travelled = 0.0
    for a, b in zip(pts, pts[1:]):
        travelled += dist(a, b)
        if travelled >= 1500:
            travelled = 0
            ang = rng.uniform(0, 2 * math.pi); d = rng.uniform(150, 400)
            lat, lon = offset(b, d * math.cos(ang), d * math.sin(ang))
            rows.append((lat, lon, brands[len(rows) % 2], "decoy"))
with open(sys.argv[1], "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["id", "name", "brand", "latitude", "longitude", "address"])
    for n, (lat, lon, brand, kind) in enumerate(rows, 1):
        w.writerow([f"s{n:04d}", f"{brand} #{n}", brand, f"{lat:.6f}", f"{lon:.6f}", f"synthetic {kind} store"])
print(f"{len(rows)} stores -> {sys.argv[1]}")
