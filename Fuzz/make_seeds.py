#!/usr/bin/env python3
"""Writes the starting seeds of every fuzz target into Fuzz/Corpus/<target>/ (scripts/fuzz.sh seeds).

Seeds come from three places: small slices of the redistributable data sets in ../shared/datasets (the IMLS
library outlets, U.S. public-use data; the GeoLife PLT files, MIT via trackintel; the gpxpy GPX files, Apache-2.0;
the movingpandas/trackintel CSV traces, BSD-3/MIT; see each folder's SOURCE.md), the inline fixtures of the test
suites (Tests/), and hand-written edge cases. The chain files without a licence are not used: synthetic rows in
their shape stand in for them. The campaign then grows the corpora and `-merge=1` keeps the inputs that add coverage.
"""
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("ONCUE_SHARED_DATASETS", os.path.join(os.path.dirname(ROOT), "shared", "datasets"))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")


def put(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def head(path, lines=None, size=None):
    """The first lines (or bytes) of a data file; None when the shared data sets are not there."""
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        data = f.read(size or 1 << 20)
    if lines is not None:
        data = b"".join(data.splitlines(keepends=True)[:lines])
    return data


def test_literals(folder):
    """Multi-line and raw string literals of the Swift tests in `folder`, dedented as Swift does."""
    out = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".swift"):
            continue
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        for m in re.finditer(r'"""\n(.*?)\n([ \t]*)"""', text, re.S):
            indent = m.group(2)
            body = "\n".join(line[len(indent):] if line.startswith(indent) else line for line in m.group(1).split("\n"))
            out.append(body + "\n")
        out += [m.group(1) for m in re.finditer(r'#"(.*?)"#', text)]
    return out


def csv_seeds():
    imls = head(os.path.join(SHARED, "chain-us-public-libraries-imls", "PLS_FY19_Outlet_pud19i.csv"), lines=12)
    if imls:
        yield imls                                      # Windows-1252, quoted fields, FSCSKEY/FSCS_SEQ ids
        yield imls.replace(b"\n", b"\r\n")
    for body in test_literals(os.path.join(ROOT, "Tests", "ChainImportTests")):
        if "," in body or ";" in body:
            yield body
    # Synthetic rows in the shape of the unlicensed chain files (brand, address, coordinates, ZIP without zeros).
    yield ("name,address,city,state,zip,latitude,longitude,brand\n"
           "Store 1,1 Main St,Boston,MA,2108,42.3601,-71.0589,costco\n"
           "\"Store, 2\",\"2 \"\"Elm\"\" St\",Austin,TX,78701,30.2672,97.7431,target\n"
           "Café 3,3 Rue,Montréal,QC,,45.5,-73.56,\n")
    yield "\ufeffid;name;lat;lon\r\n1;Bäckerei;52,52;13,40\r\n2;Kiosk;52,5;13,4\r\n"
    yield b"name\tlat\tlon\nA\t10.00\t20.00\nB\t10.01\t20.01\nC\t10.02\t20.02"
    yield b"\xff\xfename,lat,lon\n"
    yield b"store|latitude|longitude\nCaf\xe9 \x96 Nord|48.85|2.35\n"
    yield "latitude,longitude,name\n\"40.7\n\",-74.0,multi\nline\"\n"


def gpx_seeds():
    folder = os.path.join(SHARED, "trace-gpx-slovenia-croatia-gpxpy")
    for name in ["around-visnjan-with-car.gpx", "cerknicko-without-times.gpx", "track-with-empty-segment.gpx"]:
        data = head(os.path.join(folder, name), size=6000)
        if not data:
            continue
        cut = data.rfind(b"</trkpt>")
        if cut > 0:   # a few points, then the document closed again
            data = data[:cut + len(b"</trkpt>")] + b"</trkseg></trk></gpx>\n"
        yield data
    for body in test_literals(os.path.join(ROOT, "Tests", "TraceReplayTests")):
        if "<gpx" in body:
            yield body
    yield ('<gpx><rte><rtept lat="1" lon="2"><time>2020-01-01T00:00:00Z</time><ele>3</ele><hdop>2</hdop></rtept></rte>'
           '<wpt lat="9" lon="9"/></gpx>')


def plt_seeds():
    folder = os.path.join(SHARED, "trace-geolife-beijing")
    for dirpath, _, files in sorted(os.walk(folder)):
        for name in sorted(files)[:2]:
            if name.endswith(".plt"):
                yield head(os.path.join(dirpath, name), lines=14)
            elif name == "labels.txt":
                yield head(os.path.join(dirpath, name), lines=5)
    yield ("Geolife trajectory\r\nWGS 84\r\nAltitude is in Feet\r\nReserved 3\r\n0,2,255,My Track,0,0,2,8421376\r\n0\r\n"
           "39.9,116.3,0,-777,39744.12,2008-10-23,02:53:04\r\n39.9,116.3,0,492,39744.13,2008-10-23,02:53:10\r\n")


def csv_trace_seeds():
    folder = os.path.join(SHARED, "trace-csv-misc")
    for name in ["demodata_geolife.csv", "posmo_trajectory.csv"]:
        data = head(os.path.join(folder, name), lines=12)
        if data:
            yield data
    yield "lat,lon,time\r\n1,2,100\r\n1,2.001,110\r\n"
    yield "3;4;2020-01-02T03:04:05Z\n"
    yield "when,lat,lon,accuracy\n2020-01-01 00:00:00,52.5,13.4,5\n1577836810000,52.5,13.41,0\n"


def geojson_seeds():
    for body in test_literals(os.path.join(ROOT, "Tests", "TraceReplayTests")):
        if "coordinates" in body:
            yield body
    yield '{"type":"LineString","coordinates":[[13.4,52.5],[13.41,52.51,40]]}'
    yield ('{"type":"Feature","properties":{"times":[[1577836800],[1577836810]]},"geometry":{"type":"GeometryCollection",'
           '"geometries":[{"type":"MultiLineString","coordinates":[[[1,2]],[[3,4],[5,"x"]]]}]}}')


def request_seeds():
    text = open(os.path.join(ROOT, "Tests", "RegionRefreshTests", "RequestParsingTests.swift"), encoding="utf-8").read()
    for m in re.finditer(r'#"(.*?)"#', text):
        yield m.group(1)
    yield '{"lat": 40, "lon": -74, "network_visits": {"a": 1, "b": 2}, "user_networks": ["a"], "local_time": "2025-11-22T18:30:00Z"}'


def chain_geojson_seeds():
    """GeoJSON chain files, which the row parser reads as well as CSV (told apart by the first byte)."""
    point = b'{"type":"Feature","geometry":{"type":"Point","coordinates":[-71.0589,42.3601]},' \
            b'"properties":{"ref":"1","name":"Store \\"1\\"","brand":"Costco","addr:street":"Main St","addr:housenumber":"1",' \
            b'"addr:state":"MA","brand:wikidata":"Q715583"}}'
    square = b'{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[24.94,60.17],[24.941,60.17],[24.941,60.171],' \
             b'[24.94,60.171],[24.94,60.17]],[[24.9403,60.1703],[24.9407,60.1703],[24.9407,60.1707],[24.9403,60.1703]]]},' \
             b'"properties":{"@type":"way","@id":45,"name":"Forum","brand":"Forum"}}'
    empty = b'{"type":"Feature","geometry":null,"properties":{"ref":"2","brand":"x","addr:city":"Helsinki"}}'
    line = b'{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"brand":"y"}}'
    features = [point, square, empty, line]
    yield b'{"type":"FeatureCollection","bbox":[1,2,3,4],"features":[' + b",\n".join(features) + b"]}"
    yield b"".join(b"\x1e" + f + b"\n" for f in features)
    yield b"\n".join(features) + b"\n"
    yield b"[" + b",".join(features) + b"]"
    yield b'{"type":"FeatureCollection","features":[' + point + b"," + square[:60]
    yield b"\x1e" + point[:40] + b"\x1e" + point + b"\n"


def geohash_seeds():
    path = os.path.join(ROOT, "Tests", "GeoTests", "Fixtures", "geohash_decode.json")
    found = re.findall(r'"geohash": *"([^"]{1,12})"', open(path).read())
    for g in sorted(set(found))[:40]:
        yield g
    for g in ["zzzzzzzzzzzz", "000000000000", "u4pruydqqvj", "DR5REGW3PG", "s", "a", "ezs42!"]:
        yield g


def main():
    seeds = {
        "CSVTokenizerFuzzer": list(csv_seeds()),
        "CSVRowsFuzzer": list(csv_seeds()) + list(chain_geojson_seeds()),
        "EncodingFuzzer": list(csv_seeds()),
        "GPXFuzzer": list(gpx_seeds()),
        "PLTFuzzer": list(plt_seeds()),
        "CSVTraceFuzzer": list(csv_trace_seeds()),
        "GeoJSONFuzzer": list(geojson_seeds()),
        "RequestDiffFuzzer": list(request_seeds()),
        "GeohashFuzzer": list(geohash_seeds()),
    }
    for target, items in seeds.items():
        for item in items:
            if item:
                put(target, item)
        print(f"{target}: {len(items)} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
