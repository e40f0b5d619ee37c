#!/usr/bin/env python3
"""Generates the independent reference vectors for Tests/GeoTests/Fixtures.

Oracles (PyPI):
  pygeohash     - geohash encode (bisection with value >= mid, so encode(90, 180) = 'zzzz...')
  python-geohash - geohash decode_exactly (cell centre and half-size) and neighbours
  geographiclib - great-circle inverse/direct problems on a sphere of radius 6,371,008.8 m (f = 0)

Usage:  python3 -m venv /tmp/v && /tmp/v/bin/pip install pygeohash python-geohash geographiclib
        /tmp/v/bin/python scripts/gen_geo_fixtures.py Tests/GeoTests/Fixtures
The seed is fixed, so the output is reproducible.
"""
import json, math, random, sys
import geohash as python_geohash
import pygeohash
from geographiclib.geodesic import Geodesic

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/GeoTests/Fixtures"
rng = random.Random(20261122)
R = 6371008.8
sphere = Geodesic(R, 0.0)

def rand_point():
    r = rng.random()
    if r < 0.1:   # near the antimeridian
        return rng.uniform(-89, 89), rng.choice([-1, 1]) * rng.uniform(179.9, 180.0)
    if r < 0.2:   # near the poles
        return rng.choice([-1, 1]) * rng.uniform(85, 90), rng.uniform(-180, 180)
    if r < 0.3:   # near (0, 0)
        return rng.uniform(-1e-6, 1e-6), rng.uniform(-1e-6, 1e-6)
    return rng.uniform(-90, 90), rng.uniform(-180, 180)

# Exact edge values where libraries are known to disagree; pygeohash's bisection is the contract.
edges = [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0), (-0.0, 0.0), (-1e-12, -1e-12), (1e-12, -1e-12),
         (-1e-12, 1e-12), (90.0, -180.0), (-90.0, 180.0), (45.0, 90.0), (-45.0, -90.0)]
encode = []
for lat, lon in edges + [rand_point() for _ in range(3000)]:
    p = rng.randint(1, 12)
    encode.append({"lat": lat, "lon": lon, "precision": p, "geohash": pygeohash.encode(lat, lon, p)})
for lat, lon in edges:
    encode.append({"lat": lat, "lon": lon, "precision": 12, "geohash": pygeohash.encode(lat, lon, 12)})

decode = []
for _ in range(1000):
    lat, lon = rand_point()
    h = pygeohash.encode(lat, lon, rng.randint(1, 12))
    clat, clon, dlat, dlon = python_geohash.decode_exactly(h)
    decode.append({"geohash": h, "min_lat": clat - dlat, "max_lat": clat + dlat, "min_lon": clon - dlon, "max_lon": clon + dlon})

neighbors = []
for h in ["xbpbp", "80000", "s0000", "kpbpb", "ebpbp", "7zzzz"] + [pygeohash.encode(*rand_point(), rng.randint(1, 9)) for _ in range(600)]:
    clat, clon, dlat, dlon = python_geohash.decode_exactly(h)
    if clat + 2 * dlat >= 90 or clat - 2 * dlat <= -90:
        continue  # python-geohash wraps over the poles; we do not (tested by hand)
    n = python_geohash.neighbors(h)
    neighbors.append({"geohash": h, "neighbors": sorted(n)})

inverse = []
for _ in range(2000):
    lat1, lon1 = rand_point()
    if rng.random() < 0.5:
        lat2 = max(-90, min(90, lat1 + rng.uniform(-1, 1)))
        lon2 = lon1 + rng.uniform(-1, 1)
        lon2 = (lon2 + 180) % 360 - 180
    else:
        lat2, lon2 = rand_point()
    g = sphere.Inverse(lat1, lon1, lat2, lon2)
    if g["s12"] > 19_000_000:
        continue  # near-antipodal: bearing is ill-conditioned
    inverse.append({"lat1": lat1, "lon1": lon1, "lat2": lat2, "lon2": lon2, "meters": g["s12"], "bearing": g["azi1"] % 360})

direct = []
for _ in range(2000):
    lat1, lon1 = rand_point()
    lat1 = max(-89.9, min(89.9, lat1))
    az = rng.uniform(0, 360)
    d = 10 ** rng.uniform(0, 7)
    g = sphere.Direct(lat1, lon1, az, d)
    direct.append({"lat1": lat1, "lon1": lon1, "bearing": az, "meters": d, "lat2": g["lat2"], "lon2": (g["lon2"] + 180) % 360 - 180})

for name, data in [("geohash_encode", encode), ("geohash_decode", decode), ("geohash_neighbors", neighbors),
                   ("sphere_inverse", inverse), ("sphere_direct", direct)]:
    with open(f"{out}/{name}.json", "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(name, len(data))
