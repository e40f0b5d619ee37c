#!/usr/bin/env python3
"""A stand-in for `oncue serve` to develop and test the web console without building the server.

Serves Sources/RefreshServer/Console/ under /console/ and answers, with plausible JSON, the endpoints the console
uses: GET /v1/networks, GET /v1/locations, POST /v1/region-refresh, and the admin API (PUT /admin/networks/{id},
POST /admin/networks/{id}/aliases, POST /admin/imports with `Prefer: respond-async` jobs, GET /admin/jobs/{id},
GET /admin/imports, GET /admin/imports/{id}). The data are the IMLS public library outlets shipped in datasets/
(one network per library system, e.g. ny0778 = New York Public Library) plus a seeded synthetic coffee chain around
Midtown Manhattan. The region selection is a simplified version of the engine's (tiers, boundary distance, density
radius tiers, near-duplicate merge, refresh distance); it is not the engine.

    python3 scripts/console_mock_server.py [--port 8765] [--token test-token] [--slow-import 2.0]

Loopback only. Standard library only. Stops on Ctrl-C or SIGTERM.
"""
import argparse, csv, string, hashlib, io, json, math, os, pathlib, random, re, signal, sys, threading, time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs, unquote

REPO = pathlib.Path(__file__).resolve().parent.parent
CONSOLE = REPO / "Sources/RefreshServer/Console"
LIBRARIES = REPO / "datasets/us-public-libraries-imls/PLS_FY19_Outlet_pud19i.csv"
EARTH = 6371008.8
CELL = 0.01                       # degrees: the grid of the in-memory index
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".json": "application/json", ".png": "image/png", ".svg": "image/svg+xml"}
IMPORT_PARAMS = {"network", "network_column", "network_name_column", "category", "only_known_networks", "dry_run",
                 "replace", "fix_coordinates", "encoding", "delimiter", "file_name"}


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:100] or "network"


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(min(1.0, math.sqrt(a)))


class ApiError(Exception):
    def __init__(self, status, code, message, field=None):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field


class Store:
    """Networks, locations with a grid index, the import log and import jobs; one lock for all."""

    def __init__(self):
        self.lock = threading.RLock()
        self.networks = {}        # id -> dict (name, category, is_large_area, default_radius_meters, aliases)
        self.locations = {}       # id -> dict (id, network_id, name, address, lat, lon)
        self.grid = {}
        self.density = {}
        self.imports = []
        self.jobs = {}

    def cell(self, lat, lon):
        return (math.floor(lat / CELL), math.floor(lon / CELL))

    def add_network(self, nid, name, category=None):
        if nid not in self.networks:
            self.networks[nid] = {"id": nid, "name": name, "category": category, "is_large_area": False,
                                  "default_radius_meters": None, "aliases": []}
        return self.networks[nid]

    def put_location(self, loc):
        old = self.locations.get(loc["id"])
        if old:
            self.grid[self.cell(old["lat"], old["lon"])].remove(old["id"])
        self.locations[loc["id"]] = loc
        self.grid.setdefault(self.cell(loc["lat"], loc["lon"]), []).append(loc["id"])
        self.density.clear()

    def within_box(self, west, south, east, north):
        (r0, c0), (r1, c1) = self.cell(south, west), self.cell(north, east)
        if (r1 - r0 + 1) * (c1 - c0 + 1) > len(self.grid):
            cells = [ids for (r, c), ids in self.grid.items() if r0 <= r <= r1 and c0 <= c <= c1]
        else:
            cells = [self.grid.get((r, c), ()) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
        for ids in cells:
            for lid in ids:
                loc = self.locations[lid]
                if south <= loc["lat"] <= north and west <= loc["lon"] <= east:
                    yield loc

    def near(self, lat, lon, meters):
        dlat = math.degrees(meters / EARTH)
        dlon = dlat / max(0.01, math.cos(math.radians(lat)))
        for loc in self.within_box(lon - dlon, lat - dlat, lon + dlon, lat + dlat):
            d = haversine(lat, lon, loc["lat"], loc["lon"])
            if d <= meters:
                yield loc, d

    def radius(self, loc):
        """(metres, rule, density) like RadiusPolicy: location, network default, else tiers by neighbours within 1 km."""
        if loc.get("radius_meters"):
            return loc["radius_meters"], "location", 0
        net = self.networks.get(loc["network_id"], {})
        if loc["id"] not in self.density:
            self.density[loc["id"]] = sum(1 for _ in self.near(loc["lat"], loc["lon"], 1000)) - 1
        n = self.density[loc["id"]]
        if net.get("default_radius_meters"):
            return net["default_radius_meters"], "network-default", n
        if net.get("is_large_area"):
            return 1000.0, "large-area", n
        if n >= 20:
            return max(30.0, 100 - (n - 20) * 70 / 40), "dense-urban", n
        if n >= 5:
            return 300 - (n - 5) * 200 / 14, "suburban", n
        return 500 - n * 50.0, "rural", n


def load_data(store, libraries):
    if libraries.exists():
        with open(libraries, encoding="cp1252", newline="") as f:
            for row in csv.DictReader(f):
                try:
                    lat, lon = float(row["LATITUDE"]), float(row["LONGITUD"])
                except ValueError:
                    continue
                nid = row["FSCSKEY"].lower()
                net = store.add_network(nid, string.capwords(row["LIBNAME"]), "library")
                if row["C_OUT_TY"] == "CE":
                    net["name"] = string.capwords(row["LIBNAME"])
                store.put_location({"id": f"loc_{nid}_{row['FSCS_SEQ']}", "network_id": nid, "name": string.capwords(row["LIBNAME"]),
                                    "address": f"{string.capwords(row['ADDRESS'])}, {string.capwords(row['CITY'])}, {row['STABR']} {row['ZIP']}",
                                    "lat": lat, "lon": lon})
    # A synthetic chain around Midtown Manhattan, with two near-duplicates that merge.
    rnd = random.Random(20261124)
    store.add_network("demo-coffee", "Demo Coffee (synthetic)", "coffee")["aliases"] = ["Demo Coffee Co"]
    for i in range(1, 41):
        lat, lon = 40.7549 + rnd.uniform(-0.02, 0.02), -73.9840 + rnd.uniform(-0.025, 0.025)
        store.put_location({"id": f"loc_demo-coffee_{i:03d}", "network_id": "demo-coffee", "name": f"Demo Coffee #{i}",
                            "address": f"{rnd.randint(1, 999)} Example Street, New York, NY", "lat": lat, "lon": lon})
    store.put_location({"id": "loc_demo-coffee_041", "network_id": "demo-coffee", "name": "Demo Coffee #41 (kiosk)",
                        "address": "Near #40", "lat": store.locations["loc_demo-coffee_040"]["lat"] + 0.0002,
                        "lon": store.locations["loc_demo-coffee_040"]["lon"] + 0.0001})
    park = store.add_network("demo-park", "Demo Park (synthetic large area)", "theme-park")
    park["is_large_area"] = True
    store.put_location({"id": "loc_demo-park_001", "network_id": "demo-park", "name": "Demo Park",
                        "address": "Central Park, New York, NY", "lat": 40.7812, "lon": -73.9665})


# ---------------------------------------------------------------- region refresh

def number(body, key, lo, hi, default=None, required=False):
    v = body.get(key, default)
    if v is None and not required:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo <= v <= hi):
        raise ApiError(400, "invalid_field", f"field '{key}' must be a number in [{lo}, {hi}]", key)
    return float(v)


def region_refresh(store, body):
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_body", "the body must be a JSON object")
    lat = number(body, "lat", -90, 90, required=True)
    lon = number(body, "lon", -180, 180, required=True)
    accuracy = number(body, "accuracy", 0, 100000, 65.0)
    radius_km = number(body, "radius_km", 0.001, 200, 50.0)
    max_regions = body.get("max_regions", 20)
    if isinstance(max_regions, bool) or not isinstance(max_regions, int) or not 1 <= max_regions <= 100:
        raise ApiError(400, "invalid_field", "field 'max_regions' must be an integer in [1, 100]", "max_regions")
    cards = body.get("user_networks", [])
    if not isinstance(cards, list) or not all(isinstance(c, str) and c for c in cards):
        raise ApiError(400, "invalid_field", "field 'user_networks' must be an array of strings", "user_networks")
    cards = set(cards)
    others = body.get("include_other_networks", True) is not False
    reserve = body.get("reserve_refresh_region", False) is True
    explain = body.get("explain", False) is True

    with store.lock:
        candidates = []
        for loc, d in store.near(lat, lon, radius_km * 1000):
            tier = 1 if loc["network_id"] in cards else 2
            if tier == 2 and not others:
                continue
            r, rule, n = store.radius(loc)
            candidates.append({"loc": loc, "d": d, "r": r, "tier": tier, "rule": rule, "density": n})
    candidates.sort(key=lambda c: (c["tier"], max(0.0, c["d"] - c["r"]), c["d"], c["loc"]["id"]))

    slots = max_regions - (1 if reserve else 0)
    chosen, unselected = [], []
    for c in candidates:
        loc = c["loc"]
        twin = next((s for s in chosen if s["loc"]["network_id"] == loc["network_id"]
                     and haversine(s["loc"]["lat"], s["loc"]["lon"], loc["lat"], loc["lon"]) <= max(s["r0"], c["r"])), None)
        if twin is not None:
            sep = haversine(twin["lat"], twin["lon"], loc["lat"], loc["lon"])
            if sep + c["r"] > twin["r"]:        # grow the circle just enough to enclose the new one
                grow = (sep + c["r"] - twin["r"]) / 2
                f = grow / sep if sep > 0 else 0
                twin["lat"] += (loc["lat"] - twin["lat"]) * f
                twin["lon"] += (loc["lon"] - twin["lon"]) * f
                twin["r"] += grow
            twin["merged"].append(loc["id"])
        elif len(chosen) < slots:
            chosen.append({**c, "lat": loc["lat"], "lon": loc["lon"], "r0": c["r"], "merged": [loc["id"]]})
        else:
            unselected.append(c)
    gaps = [c["d"] - c["r"] for c in unselected if c["tier"] == 1]
    distance = (min(gaps) - accuracy) if gaps else 50000.0
    refresh = min(50000.0, max(distance, 100.0))

    regions = []
    for i, c in enumerate(chosen, 1):
        loc = c["loc"]
        region = {"id": loc["id"], "network_id": loc["network_id"], "lat": round(c["lat"], 7), "lon": round(c["lon"], 7),
                  "radius_meters": round(c["r"], 1), "priority": i, "name": loc["name"], "address": loc["address"],
                  "kind": "location"}
        if len(c["merged"]) > 1:
            region["merged_location_ids"] = c["merged"]
        if explain:
            region["explain"] = {"tier": c["tier"], "distance_meters": round(c["d"], 1),
                                 "boundary_distance_meters": round(max(0.0, c["d"] - c["r"]), 1), "visit_boost": 1.0,
                                 "time_of_day_boost": 1.0, "score": round(max(0.0, c["d"] - c["r"]), 1),
                                 "radius_rule": c["rule"], "local_density": c["density"]}
        regions.append(region)
    if reserve:
        regions.append({"id": "oncue-refresh", "network_id": "oncue-refresh", "lat": lat, "lon": lon,
                        "radius_meters": round(refresh, 1), "priority": len(regions) + 1, "name": "Refresh region",
                        "kind": "refresh"})
    return {"regions": regions, "refresh_after_meters": round(refresh, 1), "cache_ttl_seconds": 21600,
            "server_time": now(), "coverage_guaranteed": distance >= 100}


# ---------------------------------------------------------------- imports

LAT_NAMES = ("lat", "latitude", "y")
LON_NAMES = ("lon", "lng", "long", "longitude", "longitud", "x")
NAME_NAMES = ("name", "store_name", "libname", "title")
ID_NAMES = ("id", "store_id", "external_id", "fscs_seq", "libid", "ref")
ADDRESS_NAMES = ("address", "street", "addr")


def pick(headers, names):
    low = [h.strip().lower() for h in headers]
    return next((low.index(n) for n in names if n in low), None)


def run_import(store, data, query, progress):
    """Parses and (unless dry_run) applies a CSV; returns the ImportReport. progress(rows, bytes, stage)."""
    started = time.time()
    flag = lambda k: query.get(k, "false").lower() in ("true", "1", "yes")
    try:
        text, encoding = data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        text, encoding = data.decode("cp1252", errors="replace"), "windows-1252"
    first = text.split("\n", 1)[0]
    delim = {"tab": "\t"}.get(query.get("delimiter"), query.get("delimiter")) or max(",;|\t", key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    headers = next(reader, [])
    ci = {k: pick(headers, n) for k, n in (("lat", LAT_NAMES), ("lon", LON_NAMES), ("name", NAME_NAMES),
                                            ("id", ID_NAMES), ("address", ADDRESS_NAMES))}
    net_col = pick(headers, (query["network_column"].lower(),)) if query.get("network_column") else None
    if query.get("network_column") and net_col is None:
        raise ApiError(400, "invalid_parameter", f"no column '{query['network_column']}' in the header", "network_column")
    if ci["lat"] is None or ci["lon"] is None:
        raise ApiError(400, "missing_columns", "the header names no latitude and longitude columns")

    counts = dict.fromkeys(("read", "inserted", "updated", "unchanged", "removed", "rejected", "warned"), 0)
    issues, by_rej, by_warn, by_net, created, rows = [], {}, {}, {}, [], []
    line, consumed, total = 1, len(first) + 1, len(data)

    def issue(severity, code, message, ext=None):
        if len(issues) < 1000:
            issues.append({"line": line, "severity": severity, "code": code, "message": message,
                           **({"external_id": ext} if ext else {})})
        (by_rej if severity == "rejected" else by_warn)[code] = (by_rej if severity == "rejected" else by_warn).get(code, 0) + 1

    for rec in reader:
        line += 1
        consumed += sum(len(f) + 1 for f in rec)
        if not any(f.strip() for f in rec):
            continue
        counts["read"] += 1
        if counts["read"] % 500 == 0:
            progress(counts["read"], min(consumed, total), "validating")
        get = lambda k: rec[ci[k]].strip() if ci[k] is not None and ci[k] < len(rec) else ""
        ext = get("id") or str(line)
        network = rec[net_col].strip() if net_col is not None and net_col < len(rec) else query.get("network", "")
        if not network:
            issue("rejected", "missing_network", "the row names no network", ext)
            counts["rejected"] += 1
            continue
        try:
            lat, lon = float(get("lat")), float(get("lon"))
        except ValueError:
            issue("rejected", "invalid_coordinates", f"latitude '{get('lat')[:40]}' or longitude '{get('lon')[:40]}' is not a number", ext)
            counts["rejected"] += 1
            continue
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            if flag("fix_coordinates") and -90 <= lon <= 90 and -180 <= lat <= 180:
                lat, lon = lon, lat
                issue("warning", "swapped_coordinates", "latitude and longitude were swapped; corrected", ext)
                counts["warned"] += 1
            else:
                issue("rejected", "coordinates_out_of_range", f"({lat}, {lon}) is outside the globe", ext)
                counts["rejected"] += 1
                continue
        if len(get("lat").split(".")[-1]) <= 2 and len(get("lon").split(".")[-1]) <= 2:
            issue("warning", "coarse_coordinates", "coordinates with two decimals or fewer (~1 km)", ext)
            counts["warned"] += 1
        if not get("name"):
            issue("warning", "missing_name", "no name: the network's name is used", ext)
            counts["warned"] += 1
        rows.append((slug(network), network, ext, get("name") or network, get("address"), lat, lon))
        by_net[slug(network)] = by_net.get(slug(network), 0) + 1

    progress(counts["read"], total, "writing")
    with store.lock:
        for nid, network, ext, name, address, lat, lon in rows:
            if nid not in store.networks:
                if flag("only_known_networks"):
                    counts["rejected"] += 1
                    continue
                if nid not in created:
                    created.append(nid)
            lid = f"loc_{nid}_{slug(ext)}"
            old = store.locations.get(lid)
            new = {"id": lid, "network_id": nid, "name": name, "address": address, "lat": lat, "lon": lon}
            if old is None:
                counts["inserted"] += 1
            elif all(old.get(k) == v for k, v in new.items()):
                counts["unchanged"] += 1
            else:
                counts["updated"] += 1
            if not flag("dry_run"):
                store.add_network(nid, network, query.get("category"))
                store.put_location(new)
        progress(counts["read"], total, "indexing")
        record_id = len(store.imports) + 1
        file_name = query.get("file_name", "upload.csv")
        record = {"id": record_id, "file_name": file_name, "file_size": total, "sha256": hashlib.sha256(data).hexdigest(),
                  "encoding": encoding, "options": {k: v for k, v in query.items() if k != "file_name"},
                  "started_at": datetime.fromtimestamp(started, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "finished_at": now(), "status": "dry-run" if flag("dry_run") else "committed", "counts": counts,
                  "issues": issues}
        store.imports.insert(0, record)
    seconds = max(1e-3, time.time() - started)
    return {"files": [{"import_id": record_id, "file_name": file_name, "file_size": total, "sha256": record["sha256"],
                       "encoding": encoding, "mixed_encoding": False, "byte_order_mark": data.startswith(b"\xef\xbb\xbf"),
                       "delimiter": "tab" if delim == "\t" else delim, "headers": headers,
                       "columns": {k: headers[i] for k, i in ci.items() if i is not None}, "counts": counts,
                       "rejected_by_reason": by_rej, "warnings_by_reason": by_warn, "issues": issues,
                       "issues_truncated": len(issues) >= 1000, "rows_by_network": by_net, "seconds": round(seconds, 3)}],
            "totals": counts, "dry_run": flag("dry_run"), "committed": not flag("dry_run"), "replaced_networks": [],
            "networks_created": created, "seconds": round(seconds, 3), "rows_per_second": round(counts["read"] / seconds, 1)}


def start_job(store, data, query, slow):
    job_id = hashlib.sha256(f"{time.time()}{len(store.jobs)}".encode()).hexdigest()[:12]
    job = {"status": "running", "progress": {"rows": 0, "bytes": 0, "total_bytes": len(data), "stage": "queued"},
           "result": None, "error": None}
    store.jobs[job_id] = job

    def progress(rows, done, stage):
        job["progress"] = {"rows": rows, "bytes": done, "total_bytes": len(data), "stage": stage}

    def work():
        try:
            # Pretend the work takes `slow` seconds, so the console's second progress bar has something to show.
            steps = 10
            for k in range(1, steps + 1):
                progress(0, len(data) * k // (steps * 2), "reading")
                time.sleep(slow / steps / 2)
            result = run_import(store, data, query, progress)
            time.sleep(slow / 2)
            job.update(status="committed", result=result,
                       progress={"rows": result["totals"]["read"], "bytes": len(data), "total_bytes": len(data), "stage": "done"})
        except ApiError as e:
            job.update(status="failed", error={"error": e.code, "message": e.message})
        except Exception as e:  # a mock: report anything as a failed job
            job.update(status="failed", error={"error": "internal", "message": str(e)})

    threading.Thread(target=work, daemon=True).start()
    return job_id


# ---------------------------------------------------------------- HTTP

class Handler(BaseHTTPRequestHandler):
    server_version = "oncue-console-mock/1"
    store: Store = None
    token = ""
    slow = 2.0
    sync = False
    locations_cap = 5000
    quiet = False

    def log_message(self, fmt, *args):
        if not self.quiet:
            sys.stderr.write("%s %s\n" % (self.log_date_time_string(), fmt % args))

    def send_json(self, status, value, headers=()):
        body = json.dumps(value, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def body(self, limit):
        length = int(self.headers.get("Content-Length") or 0)
        if length > limit:
            raise ApiError(413, "body_too_large", f"the body is over {limit} bytes")
        return self.rfile.read(length)

    def json_body(self):
        if not (self.headers.get("Content-Type") or "").startswith("application/json"):
            raise ApiError(415, "unsupported_media_type", "send Content-Type: application/json")
        try:
            return json.loads(self.body(65536) or b"null")
        except json.JSONDecodeError as e:
            raise ApiError(400, "invalid_json", f"the body is not JSON: {e}")

    def admin(self):
        auth = self.headers.get("Authorization") or ""
        if not auth.startswith("Bearer "):
            raise ApiError(401, "unauthorized", "this route needs Authorization: Bearer TOKEN")
        if auth[7:] != self.token:
            raise ApiError(403, "forbidden", "wrong admin token")

    def dispatch(self, method):
        url = urlsplit(self.path)
        path, query = url.path, {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        try:
            if method == "GET" and (path == "/" or path == "/console"):
                self.send_response(302)
                self.send_header("Location", "/console/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if method == "GET" and path.startswith("/console/"):
                return self.static(path[len("/console/"):] or "index.html")
            route = self.route(method, path, query)
            if route is None:
                raise ApiError(404, "not_found", f"no route {path}")
            status, value = route
            self.send_json(status, value)
        except ApiError as e:
            err = {"error": e.code, "message": e.message, **({"field": e.field} if e.field else {})}
            self.send_json(e.status, err)

    def static(self, name):
        target = (CONSOLE / unquote(name)).resolve()
        if CONSOLE.resolve() not in target.parents or not target.is_file():
            raise ApiError(404, "not_found", f"no console file {name}")
        data = target.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(target.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(data)

    def route(self, method, path, query):
        s = self.store
        if path == "/v1/networks" and method == "GET":
            with s.lock:
                nets = sorted(s.networks.values(), key=lambda n: n["id"])
                counts = {}
                for loc in s.locations.values():
                    counts[loc["network_id"]] = counts.get(loc["network_id"], 0) + 1
                return 200, {"networks": [{**n, "aliases": sorted(n["aliases"]), "location_count": counts.get(n["id"], 0)}
                                          for n in nets]}
        if path == "/v1/locations" and method == "GET":
            try:
                west, south, east, north = (float(v) for v in query.get("bbox", "").split(","))
                assert -180 <= west <= east <= 180 and -90 <= south <= north <= 90
            except (ValueError, AssertionError):
                raise ApiError(400, "invalid_parameter", "bbox must be MINLON,MINLAT,MAXLON,MAXLAT", "bbox")
            limit = int(query.get("limit", "1000")) if query.get("limit", "1000").isdigit() else 0
            if not 1 <= limit <= 5000:
                raise ApiError(400, "invalid_parameter", "limit must be an integer in 1...5000", "limit")
            limit = min(limit, self.locations_cap)
            with s.lock:
                found = sorted(s.within_box(west, south, east, north), key=lambda l: l["id"])
            return 200, {"locations": found[:limit], "truncated": len(found) > limit}
        if path == "/v1/region-refresh" and method == "POST":
            return 200, region_refresh(s, self.json_body())
        if path.startswith("/admin/"):
            return self.admin_route(method, path, query)
        return None

    def admin_route(self, method, path, query):
        s = self.store
        self.admin()
        m = re.fullmatch(r"/admin/networks/([a-z0-9]+(?:-[a-z0-9]+)*)(/aliases)?", path)
        if m and not m.group(2) and method == "PUT":
            body = self.json_body()
            if not isinstance(body, dict) or not isinstance(body.get("name"), str) or not body["name"].strip():
                raise ApiError(400, "invalid_field", "field 'name' must be a non-empty string", "name")
            radius = body.get("default_radius_meters")
            if radius is not None and (not isinstance(radius, (int, float)) or not 0 < radius <= 50000):
                raise ApiError(400, "invalid_field", "field 'default_radius_meters' must be in (0, 50000]", "default_radius_meters")
            with s.lock:
                net = s.add_network(m.group(1), body["name"].strip())
                net.update(name=body["name"].strip(), category=body.get("category"),
                           is_large_area=bool(body.get("is_large_area", False)), default_radius_meters=radius)
                s.density.clear()
                out = {k: net[k] for k in ("id", "name", "is_large_area")}
                if net["category"]:
                    out["category"] = net["category"]
                if radius is not None:
                    out["default_radius_meters"] = radius
            return 200, out
        if m and m.group(2) and method == "POST":
            body = self.json_body()
            alias = body.get("alias", "").strip() if isinstance(body, dict) and isinstance(body.get("alias"), str) else ""
            if not alias:
                raise ApiError(400, "invalid_field", "field 'alias' must contain letters or digits", "alias")
            with s.lock:
                if m.group(1) not in s.networks:
                    raise ApiError(404, "not_found", f"no network '{m.group(1)}'")
                if alias not in s.networks[m.group(1)]["aliases"]:
                    s.networks[m.group(1)]["aliases"].append(alias)
            return 201, {"network_id": m.group(1), "alias": alias}
        if path == "/admin/imports" and method == "POST":
            unknown = set(query) - IMPORT_PARAMS
            if unknown:
                raise ApiError(400, "invalid_parameter", f"unknown query parameter '{sorted(unknown)[0]}'", sorted(unknown)[0])
            if query.get("network") and query.get("network_column"):
                raise ApiError(400, "invalid_parameter", "give either 'network' or 'network_column', not both", "network_column")
            if not (self.headers.get("Content-Type") or "").startswith("text/csv"):
                raise ApiError(415, "unsupported_media_type", "send Content-Type: text/csv")
            data = self.body(256 * 1024 * 1024)
            if "respond-async" in (self.headers.get("Prefer") or "") and not self.sync:
                return 202, {"job": start_job(s, data, query, self.slow), "status": "running"}
            return 200, run_import(s, data, query, lambda *a: None)
        m = re.fullmatch(r"/admin/jobs/([0-9a-f]+)", path)
        if m and method == "GET":
            job = s.jobs.get(m.group(1))
            if job is None:
                raise ApiError(404, "not_found", f"no job {m.group(1)}")
            return 200, job
        if path == "/admin/imports" and method == "GET":
            with s.lock:
                return 200, {"imports": [{**r, "issues": r["issues"][:100]} for r in s.imports[:100]]}
        m = re.fullmatch(r"/admin/imports/(\d+)", path)
        if m and method == "GET":
            with s.lock:
                record = next((r for r in s.imports if r["id"] == int(m.group(1))), None)
            if record is None:
                raise ApiError(404, "not_found", f"no import {m.group(1)}")
            return 200, record
        return None

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_PUT(self):
        self.dispatch("PUT")


def main():
    ap = argparse.ArgumentParser(description="Mock of oncue serve for the web console.")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--token", default=os.environ.get("ONCUE_ADMIN_TOKEN", "test-token"))
    ap.add_argument("--libraries", type=pathlib.Path, default=LIBRARIES)
    ap.add_argument("--slow-import", type=float, default=2.0, help="seconds an async import job pretends to take")
    ap.add_argument("--sync-imports", action="store_true", help="ignore Prefer: respond-async (answer 200 with the report)")
    ap.add_argument("--locations-cap", type=int, default=5000, help="answer at most this many locations (to see truncation)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if not args.host.startswith("127.") and args.host not in ("localhost", "::1"):
        raise SystemExit("the mock serves loopback only")

    store = Store()
    load_data(store, args.libraries)
    Handler.store, Handler.token, Handler.slow, Handler.quiet = store, args.token, args.slow_import, args.quiet
    Handler.sync, Handler.locations_cap = args.sync_imports, args.locations_cap
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"console mock: http://{args.host}:{server.server_port}/console/ ({len(store.networks)} networks, "
          f"{len(store.locations)} locations; admin token from --token)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
