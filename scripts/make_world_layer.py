#!/usr/bin/env python3
"""Builds the console's offline base map, Sources/RefreshServer/Console/world.json, from Natural Earth.

The source is Natural Earth's 1:110m "Admin 0 - Countries" layer (public domain) as the geopandas wheel ships it,
`geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp` (+ .dbf). The shapefile is read here with the
standard library alone (no geopandas, no shapely), so the output depends on nothing but the wheel's bytes.

Output: a GeoJSON FeatureCollection, one Feature per country (properties name, iso_a3, continent; geometry a
MultiPolygon, outer rings counter-clockwise as RFC 7946 asks), coordinates rounded to 3 decimals (~100 m,
finer than the 1:110m data), repeated points dropped, one feature per line so that diffs stay readable.

    python3 scripts/make_world_layer.py [WHEEL] [--out Sources/RefreshServer/Console/world.json]

Pinned versions: geopandas==0.14.4 (the last wheel line that ships the Natural Earth files; 1.0 removed them),
wheel geopandas-0.14.4-py3-none-any.whl, sha256 below. Without WHEEL, the script fetches exactly that wheel with
`pip download --no-deps geopandas==0.14.4` into ~/.cache/oncue/wheels. Python 3.9 or later.
Deterministic: the same wheel gives the same bytes.
"""
import argparse, hashlib, io, json, pathlib, struct, subprocess, sys, zipfile

WHEEL_NAME = "geopandas-0.14.4-py3-none-any.whl"
WHEEL_SHA256 = "3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa"
MEMBER = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
DECIMALS = 3


def fetch_wheel():
    cache = pathlib.Path.home() / ".cache" / "oncue" / "wheels"
    wheel = cache / WHEEL_NAME
    if not wheel.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(cache), "geopandas==0.14.4"],
                       check=True)
    return wheel


def read_dbf(data, encoding):
    """The attribute table: a list of dicts, one per record, in file order."""
    count, header_len, record_len = struct.unpack("<IHH", data[4:12])
    fields, pos = [], 32
    while data[pos] != 0x0D:
        name = data[pos:pos + 11].split(b"\0", 1)[0].decode("ascii")
        fields.append((name.lower(), chr(data[pos + 11]), data[pos + 16]))
        pos += 32
    rows = []
    for i in range(count):
        rec = data[header_len + i * record_len: header_len + (i + 1) * record_len]
        row, off = {}, 1                       # byte 0 is the deletion flag
        for name, kind, length in fields:
            text = rec[off:off + length].decode(encoding).strip()
            off += length
            row[name] = text
        rows.append(row)
    return rows


def read_polygons(data):
    """Each record's rings (lists of (lon, lat)) in file order; shapefile outer rings are clockwise."""
    shapes, pos = [], 100
    while pos < len(data):
        _, words = struct.unpack(">ii", data[pos:pos + 8])
        content = data[pos + 8: pos + 8 + 2 * words]
        pos += 8 + 2 * words
        shape_type = struct.unpack("<i", content[:4])[0]
        if shape_type == 0:
            shapes.append([])
            continue
        if shape_type not in (5, 15, 25):
            raise SystemExit(f"unexpected shape type {shape_type}")
        parts_n, points_n = struct.unpack("<ii", content[36:44])
        parts = list(struct.unpack(f"<{parts_n}i", content[44:44 + 4 * parts_n]))
        base = 44 + 4 * parts_n
        coords = struct.unpack(f"<{2 * points_n}d", content[base:base + 16 * points_n])
        points = [(coords[2 * k], coords[2 * k + 1]) for k in range(points_n)]
        bounds = parts + [points_n]
        shapes.append([points[bounds[j]:bounds[j + 1]] for j in range(parts_n)])
    return shapes


def rounded_ring(ring):
    out = []
    for lon, lat in ring:
        p = [round(lon, DECIMALS), round(lat, DECIMALS)]
        p = [0.0 if v == 0 else v for v in p]       # no "-0.0"
        if not out or out[-1] != p:
            out.append(p)
    if out and out[0] != out[-1]:
        out.append(list(out[0]))
    return out if len(out) >= 4 else None


def signed_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:])) / 2


def contains(ring, point):
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
        if (y0 > y) != (y1 > y) and x < (x1 - x0) * (y - y0) / (y1 - y0) + x0:
            inside = not inside
    return inside


def multipolygon(rings):
    """Groups rings into polygons: clockwise rings are outers, each hole goes to the outer that contains it."""
    outers, holes = [], []
    for raw in rings:
        ring = rounded_ring(raw)
        if ring is None:
            continue
        (outers if signed_area(ring) < 0 else holes).append(ring)
    polygons = [[list(reversed(o))] for o in outers]   # counter-clockwise outers (RFC 7946)
    for hole in holes:
        owner = next((p for p, o in zip(polygons, outers) if contains(o, hole[0])), None)
        if owner is None:                                # an anticlockwise ring with no outer: treat it as an outer
            polygons.append([hole])
        else:
            owner.append(list(reversed(hole)))           # clockwise holes
    return polygons


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("wheel", nargs="?", help=f"path to {WHEEL_NAME} (fetched with pip when omitted)")
    ap.add_argument("--out", default="Sources/RefreshServer/Console/world.json")
    args = ap.parse_args()

    wheel = pathlib.Path(args.wheel) if args.wheel else fetch_wheel()
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        raise SystemExit(f"{wheel}: sha256 {digest}, expected {WHEEL_SHA256} ({WHEEL_NAME})")
    with zipfile.ZipFile(wheel) as z:
        shp = z.read(MEMBER + ".shp")
        dbf = z.read(MEMBER + ".dbf")
        encoding = z.read(MEMBER + ".cpg").decode("ascii").strip() or "ISO-8859-1"

    rows, shapes = read_dbf(dbf, encoding), read_polygons(shp)
    if len(rows) != len(shapes):
        raise SystemExit(f"{len(rows)} attribute rows but {len(shapes)} shapes")

    features = []
    for row, rings in zip(rows, shapes):
        polygons = multipolygon(rings)
        if not polygons:
            continue
        features.append({
            "type": "Feature",
            "properties": {"name": row.get("name", ""), "iso_a3": row.get("iso_a3", ""), "continent": row.get("continent", "")},
            "geometry": {"type": "MultiPolygon", "coordinates": polygons},
        })
    features.sort(key=lambda f: (f["properties"]["name"], f["properties"]["iso_a3"]))

    dump = lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    head = {"source": "Natural Earth 1:110m Admin 0 - Countries, via " + WHEEL_NAME,
            "attribution": "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com"}
    lines = ['{"type":"FeatureCollection",' + dump(head)[1:-1] + ',"features":[']
    lines += [dump(f) + ("," if i + 1 < len(features) else "") for i, f in enumerate(features)]
    lines.append("]}")
    text = "\n".join(lines) + "\n"
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    points = sum(len(r) for f in features for p in f["geometry"]["coordinates"] for r in p)
    print(f"{out}: {len(features)} countries, {points} points, {len(text.encode('utf-8'))} bytes")


if __name__ == "__main__":
    main()
