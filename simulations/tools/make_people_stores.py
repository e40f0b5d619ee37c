#!/usr/bin/env python3
"""Places card stores where real people stayed, and distractors around them, for study III (issue 45).

    python3 simulations/tools/make_people_stores.py DATASETS_DIR OUT.csv [--places OUT_PLACES.csv]

DATASETS_DIR holds `trace-geolife-beijing-people/` and `trace-geolife-beijing/` (../shared/datasets). The method was
fixed, with its seed, before any replay on these people was run:

1. Staypoints, per trace file: trackintel's sliding method (`generate_staypoints`, after Li et al. 2008, "Mining
   user similarity based on location history") with its default thresholds — a staypoint is a run of fixes that
   stays within 100 m of its first fix for at least 5 minutes; its place is the mean of those fixes. One change:
   trackintel ends a staypoint at a silence longer than 15 minutes (`gap_threshold`); here a silence whose ends lie
   within the 100 m stays part of the stay, because a GPS-only logger falls silent indoors exactly where people stay.
2. Places: staypoints of all people whose places lie within 50 m of each other are one place (single linkage), at
   the mean of their positions.
3. Networks: 27 chains, as many as the 96 chain locations of central Helsinki's OpenStreetMap extract belong to
   (simulations/stores/SOURCE-helsinki.md); the wallet holds 3 (`simulations/wallets/beijing-people.json`). Each
   place is a store of a card chain with probability 1/2 (drawn among the 3), else of one of the 24 others: people
   also stay where they hold no card.
4. Distractors: stores of all 27 chains, drawn uniformly (a Poisson process) within 300 m of any place at central
   Helsinki's chain density — 96 chain locations in the extract's 1.67 km² bounding box, 58 per km² — but none
   within 60 m of a place (a stay there would be a visit to the distractor, not to the place). Walk-bys of card
   stores where nobody stays are what precision is tested on.
Seed 20261128. Standard library only.
"""
import csv, math, os, random, sys

SEED = 20261128
STAY_METERS = 100.0
STAY_SECONDS = 300.0
PLACE_LINK_METERS = 50.0
CHAINS = 27
CARD_CHAINS = ["cafe", "grocer", "pharmacy"]
CARD_SHARE = 0.5
DISTRACTOR_PER_KM2 = 96 / 1.6655
DISTRACTOR_REACH_METERS = 300.0
DISTRACTOR_CLEAR_METERS = 60.0
R = 6371008.8


def meters(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * R * math.asin(min(1, math.sqrt(h)))


def read_plt(path):
    fixes = []
    with open(path, newline="") as f:
        for i, line in enumerate(f):
            if i < 6:
                continue
            parts = line.strip().split(",")
            if len(parts) < 5:
                continue
            try:
                lat, lon, days = float(parts[0]), float(parts[1]), float(parts[4])
            except ValueError:
                continue
            if -90 <= lat <= 90 and -180 <= lon <= 180:
                fixes.append((days * 86400.0, lat, lon))
    fixes.sort()
    return fixes


def trace_files(datasets):
    """(person, path) of every PLT file the study may use: never people 006-010 of the people folder."""
    roots = [os.path.join(datasets, "trace-geolife-beijing-people", "geolife_long_10_MB"),
             os.path.join(datasets, "trace-geolife-beijing", "geolife_long"),
             os.path.join(datasets, "trace-geolife-beijing", "geolife_modes")]
    out = []
    for root in roots:
        if not os.path.isdir(root):
            continue
        for person in sorted(os.listdir(root)):
            folder = os.path.join(root, person, "Trajectory")
            if os.path.isdir(folder):
                out += [(person, os.path.join(folder, f)) for f in sorted(os.listdir(folder)) if f.endswith(".plt")]
    return out


def staypoints(fixes):
    """trackintel's sliding staypoints (100 m, 5 min), silences kept inside a stay when their ends are within 100 m."""
    out = []
    i, n = 0, len(fixes)
    while i < n:
        j = i + 1
        while j < n and meters(fixes[i][1:], fixes[j][1:]) <= STAY_METERS:
            j += 1
        if fixes[j - 1][0] - fixes[i][0] >= STAY_SECONDS:
            run = fixes[i:j]
            out.append((sum(f[1] for f in run) / len(run), sum(f[2] for f in run) / len(run)))
            i = j
        else:
            i += 1
    return out


def places(points):
    """Single-linkage clusters of points within PLACE_LINK_METERS, as their means (in a stable order)."""
    parent = list(range(len(points)))

    def find(k):
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a in range(len(points)):
        for b in range(a + 1, len(points)):
            if meters(points[a], points[b]) <= PLACE_LINK_METERS:
                parent[find(a)] = find(b)
    groups = {}
    for k, p in enumerate(points):
        groups.setdefault(find(k), []).append(p)
    means = [(sum(p[0] for p in g) / len(g), sum(p[1] for p in g) / len(g)) for g in groups.values()]
    return sorted(means)


def chain_name(k):
    return CARD_CHAINS[k] if k < len(CARD_CHAINS) else f"other-{k - len(CARD_CHAINS) + 1:02d}"


def distractors(place_list, rng):
    lat0 = min(p[0] for p in place_list) - 0.01
    lat1 = max(p[0] for p in place_list) + 0.01
    lon0 = min(p[1] for p in place_list) - 0.01
    lon1 = max(p[1] for p in place_list) + 0.01
    out = []
    # Grid cells of ~0.01°, each with its own Poisson draw, so the work follows where the places are.
    step = 0.01
    la = lat0
    while la < lat1:
        lo = lon0
        while lo < lon1:
            near = [p for p in place_list if abs(p[0] - (la + step / 2)) < step + 0.005 and abs(p[1] - (lo + step / 2)) < (step + 0.005) / math.cos(math.radians(la)) + 0.005]
            if near:
                area = (step * 111.195) * (step * 111.195 * math.cos(math.radians(la)))
                count = poisson(rng, DISTRACTOR_PER_KM2 * area)
                for _ in range(count):
                    p = (la + rng.random() * step, lo + rng.random() * step)
                    d = min(meters(p, q) for q in near)
                    if DISTRACTOR_CLEAR_METERS <= d <= DISTRACTOR_REACH_METERS and all(meters(p, q) >= DISTRACTOR_CLEAR_METERS for q in near):
                        out.append((p, rng.randrange(CHAINS)))
            lo += step
        la += step
    return out


def poisson(rng, mean):
    k, limit, product = 0, math.exp(-mean), rng.random()
    while product > limit:
        k += 1
        product *= rng.random()
    return k


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    datasets, out_path = sys.argv[1], sys.argv[2]
    files = trace_files(datasets)
    if not files:
        sys.exit(f"no GeoLife PLT files under {datasets}")
    points = []
    for _, path in files:
        points += staypoints(read_plt(path))
    place_list = places(points)
    rng = random.Random(SEED)
    rows = []
    for k, p in enumerate(place_list):
        chain = rng.randrange(len(CARD_CHAINS)) if rng.random() < CARD_SHARE else rng.randrange(len(CARD_CHAINS), CHAINS)
        rows.append((f"p{k + 1:04d}", chain, p, "place where people stayed"))
    for k, (p, chain) in enumerate(distractors(place_list, rng)):
        rows.append((f"d{k + 1:05d}", chain, p, "distractor"))
    with open(out_path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "name", "brand", "latitude", "longitude", "address"])
        for ident, chain, p, what in rows:
            name = chain_name(chain)
            w.writerow([ident, f"{name} {ident}", name, f"{p[0]:.6f}", f"{p[1]:.6f}", what])
    print(f"{len(files)} files, {len(points)} staypoints, {len(place_list)} places, {len(rows) - len(place_list)} distractors",
          file=sys.stderr)


if __name__ == "__main__":
    main()
