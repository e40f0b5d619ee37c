#!/usr/bin/env python3
# Standard library only (python3 >= 3.11); shares no code with make_helsinki.py on purpose.
"""Independent check of the Helsinki scenario's ground truth.

Recomputes stays from the noiseless paths (simulations/traces/helsinki/true/walk-NN.csv) with the replay's rule
(Sources/TraceReplay/Truth/GroundTruth.swift): a stay at a store is a run of consecutive path points within
radius + nominal accuracy (25 m + 10 m, as in simulations/scenarios/helsinki-*.json) of it lasting >= 120 s. Then:
  - every truth.csv visit must lie inside such a stay, and the path must stay within 10 m of the store while inside;
  - stays that cover no truth.csv visit of that store are listed as extra (card stores in full, others counted):
    "beside" when they overlap an intended visit to another store, "walk-by" otherwise;
  - the GPX fixes are compared with the true path (noise, claimed accuracy, time order) as a sanity check.
Exits 1 if a truth visit fails.

    python3 simulations/tools/check_helsinki_truth.py [--radius 25] [--accuracy 10] [--min-dwell 120] [--list-all]
"""
import argparse, csv, datetime, json, math, pathlib, re, sys, unicodedata, xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parents[2]
R = 6371008.8


def dist(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * R * math.asin(min(1.0, math.sqrt(h)))


def parse_t(s):
    return datetime.datetime.strptime(s.strip(), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc).timestamp()


def fmt_t(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%H:%M:%S")


def network_id(brand):
    # Network.slug: letters and digits (accents folded), runs of anything else become one dash, apostrophes vanish.
    s = "".join(c for c in unicodedata.normalize("NFKD", brand.lower()) if not unicodedata.combining(c))
    s = re.sub(r"[’']", "", s)
    return "-".join(p for p in re.split(r"[^\w]+|_", s) if p)


def chain_places(places, mapping):
    """The chain stores as the mapping file's network_patterns pick them from the places file, read here on their own
    terms (Python's re, not the importer): the first of `match`'s properties a rule matches at its start, ignoring
    case, gives the chain; points only, which is all this extract's chains are."""
    patterns = json.load(open(mapping, encoding="utf-8"))["network_patterns"]
    rules = [(re.compile(r["pattern"], re.I), r["network"]) for r in patterns["rules"]]
    stores = {}
    for line in open(places, encoding="utf-8"):
        line = line.strip().lstrip("\x1e")
        if not line:
            continue
        feature = json.loads(line)
        p = feature["properties"]
        chain = next((network for key in patterns["match"] for rx, network in rules
                      if p.get(key, "").strip() and rx.match(p[key].strip())), None)
        if chain is None:
            continue
        if feature["geometry"]["type"] != "Point":
            sys.exit(f"{p['@type']}/{p['@id']}: a chain mapped as {feature['geometry']['type']}; this check reads points only")
        lon, lat = feature["geometry"]["coordinates"]
        stores[f"{p['@type']}/{p['@id']}"] = {"brand": chain, "lat": lat, "lon": lon}
    return stores


def stays(path, lat, lon, limit, min_dwell):
    out, start, last = [], None, None
    for t, la, lo in path:
        if dist(la, lo, lat, lon) <= limit:
            if start is None:
                start = t
            last = t
        else:
            if start is not None and last - start >= min_dwell:
                out.append((start, last))
            start = None
    if start is not None and last - start >= min_dwell:
        out.append((start, last))
    return out


def interp(path, t):
    lo, hi = 0, len(path) - 1
    if t < path[0][0] or t > path[-1][0]:
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if path[mid][0] <= t:
            lo = mid
        else:
            hi = mid
    (t0, a0, b0), (t1, a1, b1) = path[lo], path[hi]
    f = 0.0 if t1 == t0 else (t - t0) / (t1 - t0)
    return a0 + (a1 - a0) * f, b0 + (b1 - b0) * f


def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=str(ROOT / "simulations/traces/helsinki"))
    ap.add_argument("--places", default=str(ROOT / "simulations/stores/helsinki-osm.geojsonseq"))
    ap.add_argument("--mapping", default=str(ROOT / "simulations/stores/helsinki-chains.json"))
    ap.add_argument("--wallet", default=str(ROOT / "simulations/wallets/helsinki.json"))
    ap.add_argument("--radius", type=float, default=25.0)
    ap.add_argument("--accuracy", type=float, default=10.0)
    ap.add_argument("--min-dwell", type=float, default=120.0)
    ap.add_argument("--inside-m", type=float, default=10.0, help="how close the path must stay to the store during a visit")
    ap.add_argument("--list-all", action="store_true", help="list extra stays at non-card stores too")
    a = ap.parse_args()
    d = pathlib.Path(a.dir)
    limit = a.radius + a.accuracy

    stores = chain_places(a.places, a.mapping)
    cards = {c["network_id"] for c in json.load(open(a.wallet, encoding="utf-8"))["cards"]}
    for r in stores.values():
        r["card"] = network_id(r["brand"]) in cards
    missing_cards = cards - {network_id(r["brand"]) for r in stores.values()}
    truth = list(csv.DictReader(open(d / "truth.csv", encoding="utf-8")))
    traces = sorted({p.stem for p in d.glob("*.gpx")})

    failures, extras, checked = [], [], 0
    noise, within_acc, n_fix, order_errors, outside_span = [], 0, 0, 0, 0
    for name in traces:
        path = [(parse_t(r["time"]), float(r["lat"]), float(r["lon"])) for r in csv.DictReader(open(d / "true" / f"{name}.csv"))]
        mine = [v for v in truth if v["trace"] == f"{name}.gpx"]
        for v in mine:
            v["arr"], v["dep"] = parse_t(v["arrival"]), parse_t(v["departure"])
        for sid, s in sorted(stores.items()):
            found = stays(path, s["lat"], s["lon"], limit, a.min_dwell)
            intended = [v for v in mine if v["store_id"] == sid]
            for v in intended:
                checked += 1
                cover = [st for st in found if st[0] <= v["arr"] and st[1] >= v["dep"]]
                inside = [dist(la, lo, s["lat"], s["lon"]) for t, la, lo in path if v["arr"] <= t <= v["dep"]]
                if not cover:
                    failures.append(f"{name} {sid} {s['brand']} {v['arrival']}-{v['departure']}: no stay of >= {a.min_dwell:.0f} s "
                                    f"within {limit:.0f} m covers it")
                elif v["dep"] - v["arr"] < a.min_dwell:
                    failures.append(f"{name} {sid} {s['brand']}: dwell {v['dep'] - v['arr']:.0f} s < {a.min_dwell:.0f} s")
                elif not inside or max(inside) > a.inside_m:
                    failures.append(f"{name} {sid} {s['brand']}: path strays {max(inside or [math.inf]):.1f} m from the store "
                                    f"during the visit (> {a.inside_m:.0f} m)")
            for st in found:
                if any(v["arr"] >= st[0] and v["dep"] <= st[1] for v in intended):
                    continue
                beside = [v for v in mine if v["arr"] <= st[1] and v["dep"] >= st[0]]
                extras.append((name, sid, s, st, "beside " + beside[0]["store_id"] if beside else "walk-by"))

        # GPX against the true path.
        root = ET.parse(d / f"{name}.gpx").getroot()
        prev = None
        for el in root.iter():
            if el.tag.split("}")[-1] != "trkpt":
                continue
            t = h = None
            for c in el:
                tag = c.tag.split("}")[-1]
                if tag == "time":
                    t = parse_t(c.text)
                elif tag == "hdop":
                    h = float(c.text)
            n_fix += 1
            if prev is not None and t <= prev:
                order_errors += 1
            prev = t
            p = interp(path, t)
            if p is None:
                outside_span += 1
                continue
            e = dist(float(el.get("lat")), float(el.get("lon")), *p)
            noise.append(e)
            within_acc += e <= h * 5.0

    print(f"{len(traces)} traces; {checked} truth visits checked against stays within {a.radius:.0f} m + {a.accuracy:.0f} m "
          f"for >= {a.min_dwell:.0f} s; path within {a.inside_m:.0f} m of the store while inside")
    print(f"  {checked - len(failures)} ok, {len(failures)} failed")
    for f in failures:
        print("  FAIL " + f)
    if missing_cards:
        print(f"  wallet cards with no store in the CSV: {', '.join(sorted(missing_cards))}")
    card_x = [x for x in extras if x[2]["card"]]
    other_x = [x for x in extras if not x[2]["card"]]
    def kinds(xs):
        return f"{sum(x[4] == 'walk-by' for x in xs)} walk-by, {sum(x[4] != 'walk-by' for x in xs)} beside an intended visit"
    print(f"extra stays the generator did not intend: {len(card_x)} at card stores ({kinds(card_x)}), "
          f"{len(other_x)} at other stores ({kinds(other_x)})")
    if card_x:
        durations = [x[3][1] - x[3][0] for x in card_x if x[4] == "walk-by"]
        if durations:
            print(f"  card walk-by stays last {min(durations):.0f}-{max(durations):.0f} s (median {pct(durations, 0.5):.0f} s)")
    for name, sid, s, (t0, t1), kind in (extras if a.list_all else card_x):
        print(f"  {name} {sid:15s} {s['brand']:16s} {fmt_t(t0)}-{fmt_t(t1)} {t1 - t0:5.0f} s  {kind}")
    print(f"GPX: {n_fix} fixes, {order_errors} out of time order, {outside_span} outside the true path's span; "
          f"error vs true path median {pct(noise, 0.5):.1f} m, p95 {pct(noise, 0.95):.1f} m, max {max(noise):.1f} m, "
          f"{sum(e > 30 for e in noise)} beyond 30 m; {100 * within_acc / max(1, len(noise)):.0f}% within their stated accuracy")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
