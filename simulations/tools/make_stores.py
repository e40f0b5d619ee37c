#!/usr/bin/env python3
"""Synthetic, redistributable store locations around the GeoLife Beijing traces (seeded, deterministic).

Where a trace dwells (stays within 60 m for >= 3 min) a store is placed 25 m away -- those are the visits the
simulator should catch; every ~1.5 km of path a decoy store is placed 150-400 m off the path -- those compete
for the 20 region slots. Brands alternate between two synthetic chains, but no two stores of one chain stand within
MIN_SAME_CHAIN_M of each other: a real chain does not open a branch next door to itself, and a cluster of same-chain
stores would let one region stand for several visits. A place whose turn falls on a chain already standing nearby
gets the other chain; a place where both chains already stand nearby gets no store.
Usage: make_stores.py OUT.csv PLT...
The recorded CSV was made from the Beijing traces in sorted order; geolife_modes/010 (a train journey across
western China, see datasets/trace-geolife-beijing/SOURCE.md) is left out, else it adds ~1,350 stores far from Beijing:
  python3 simulations/tools/make_stores.py simulations/stores/beijing-synthetic.csv \
    $(find datasets/trace-geolife-beijing -name '*.plt' -not -path '*/010/*' | sort)
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

MIN_SAME_CHAIN_M = 150.0
rng = random.Random(20251122)
brands = ["Cafe Synthetic", "Grocer Synthetic"]
rows = []
skipped = 0
def place(lat, lon, kind):
    global skipped
    # The turn order is kept so that, with no conflicts, the output is the alternation it always was.
    turn = len(rows) % 2
    lat, lon = round(lat, 6), round(lon, 6)   # check the coordinates as the CSV will hold them
    for brand in (brands[turn], brands[1 - turn]):
        if all(dist((lat, lon), r[:2]) >= MIN_SAME_CHAIN_M for r in rows if r[2] == brand):
            rows.append((lat, lon, brand, kind))
            return
    skipped += 1
for path in sys.argv[2:]:
    pts = read_plt(path)
    i = 0
    while i < len(pts):
        j = i
        while j + 1 < len(pts) and dist(pts[i], pts[j + 1]) <= 60: j += 1
        if pts[j][2] - pts[i][2] >= 180:
            lat, lon = offset(pts[(i + j) // 2], rng.uniform(-25, 25), rng.uniform(-25, 25))
            place(lat, lon, "dwell")
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
            place(lat, lon, "decoy")
with open(sys.argv[1], "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["id", "name", "brand", "latitude", "longitude", "address"])
    for n, (lat, lon, brand, kind) in enumerate(rows, 1):
        w.writerow([f"s{n:04d}", f"{brand} #{n}", brand, f"{lat:.6f}", f"{lon:.6f}", f"synthetic {kind} store"])
closest = {b: min((dist(p[:2], q[:2]) for i, p in enumerate(rows) for q in rows[i + 1:] if p[2] == q[2] == b), default=None)
           for b in brands}
print(f"{len(rows)} stores -> {sys.argv[1]} ({skipped} places skipped: both chains within {MIN_SAME_CHAIN_M:.0f} m)")
for b in brands:
    n = sum(r[2] == b for r in rows)
    print(f"  {b}: {n} stores, closest two {closest[b]:.1f} m" if closest[b] is not None else f"  {b}: {n} stores")
