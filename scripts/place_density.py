#!/usr/bin/env python3
"""Place density (people per km^2) from datasets/geonames-populated-places/places.tsv, as the engine computes it
(Sources/RegionRefresh/Policy/PopulatedPlaces.swift), for looking at places by hand. Standard library only.

Each GeoNames place i (population P_i, one point at its centroid) is spread around its point by a heavy-tailed
kernel whose mass is P_i:

    D(x) = sum_i  P_i / (pi s_i^2) * (1 + d_i^2 / s_i^2)^-2      for d_i < 5 s_i   (people per km^2)

    d_i   great-circle distance from x to place i (haversine, R = 6371.0088 km)
    s_i   scale: s_i = max(S_MIN, sqrt(P_i / (pi * rho_c(P_i)))), so a place's centre has density rho_c
    rho_c(P) = RHO0 * (P / 100000) ** GAMMA   (bigger cities are denser)

Tiers (RadiusPolicy): dense urban >= 6000 /km^2, suburban >= 300, rural below.

    python3 scripts/place_density.py            # density and tier at the check points
    python3 scripts/place_density.py --table    # places within 5/15/30 km of each check point
    python3 scripts/place_density.py --at 40.7549 -73.9840
"""
import argparse, math, pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PLACES = ROOT / "datasets" / "geonames-populated-places" / "places.tsv"
EARTH_KM = 6371.0088

RHO0 = 3000.0      # people/km^2 at the centre of a 100 000-people place
GAMMA = 0.2        # rho_c grows as P^0.2: ~1 300 for 1 600 people, ~5 800 for Chicago, ~8 600 for Beijing's 19 M
S_MIN = 1.7        # km
REACH = 5.0        # a place counts out to 5 scales
DENSE_URBAN = 6000.0   # D >= 6000 /km^2 -> dense urban
SUBURBAN = 300.0       # 300 <= D < 6000 -> suburban; below -> rural

CHECKS = [
    ("Times Square NYC", 40.7549, -73.9840), ("downtown Chicago", 41.8827, -87.6233),
    ("central Beijing", 39.9075, 116.3972), ("Naperville IL", 41.7508, -88.1535), ("rural Iowa", 42.5, -94.5),
    ("Des Moines", 41.5868, -93.6250), ("Helsinki centre", 60.1699, 24.9384), ("Honolulu", 21.3069, -157.8583),
    ("Fiji +179.9", -16.8, 179.9), ("Fiji -179.9", -16.8, -179.9), ("Longyearbyen", 78.2232, 15.6267),
    ("McMurdo", -77.846, 166.676), ("Versailles", 48.8014, 2.1301), ("rural France", 46.5, 2.5),
    ("Lagos", 6.4550, 3.3941), ("Sao Paulo", -23.5505, -46.6333), ("rural Kansas", 38.5, -99.0),
]


def haversine_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def rho_c(pop):
    return RHO0 * (pop / 100000.0) ** GAMMA


def scale_km(pop):
    return max(S_MIN, math.sqrt(pop / (math.pi * rho_c(pop))))


def support_km(pop):
    return REACH * scale_km(pop)


class Places:
    def __init__(self, path=PLACES):
        self.rows, self.grid = [], {}
        with open(path, encoding="utf-8") as f:
            next(f)
            for line in f:
                lat, lon, pop, feature, cc, name = line.rstrip("\n").split("\t")
                row = (float(lat), float(lon), int(pop), cc, name, support_km(int(pop)))
                self.rows.append(row)
                self.grid.setdefault((math.floor(row[0]), math.floor(row[1]) % 360), []).append(row)
        self.max_r = max(r[5] for r in self.rows)

    def within(self, lat, lon, km):
        """(distance, row) for every place within km of (lat, lon), longitude wrapping, poles included."""
        dlat = km / 111.19 + 1e-9
        lat0, lat1 = math.floor(lat - dlat), math.floor(lat + dlat)
        worst = max(abs(lat - dlat), abs(lat + dlat))
        if worst >= 89.9:
            lons = range(360)
        else:
            dlon = km / (111.19 * math.cos(math.radians(worst)))
            lons = range(360) if dlon >= 180 else range(math.floor(lon - dlon), math.floor(lon + dlon) + 1)
        cells = {(a, b % 360) for a in range(lat0, lat1 + 1) for b in lons}
        out = []
        for c in cells:
            for r in self.grid.get(c, ()):
                d = haversine_km(lat, lon, r[0], r[1])
                if d <= km:
                    out.append((d, r))
        return out

    def nearest(self, lat, lon):
        for km in (50, 200, 1000, 5000, 20100):
            near = self.within(lat, lon, km)
            if near:
                return min(near)
        return None

    def density(self, lat, lon):
        total, parts = 0.0, []
        for d, r in self.within(lat, lon, self.max_r):
            if d < r[5]:
                s = r[5] / REACH
                v = r[2] / (math.pi * s * s) / (1 + d * d / (s * s)) ** 2
                total += v
                parts.append((v, d, r))
        parts.sort(key=lambda p: -p[0])
        return total, parts


def classify(d):
    return "dense urban" if d >= DENSE_URBAN else "suburban" if d >= SUBURBAN else "rural"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--at", nargs=2, type=float, metavar=("LAT", "LON"))
    a = ap.parse_args()
    pl = Places()
    checks = [("point", a.at[0], a.at[1])] if a.at else CHECKS
    if a.table:
        for name, lat, lon in checks:
            near = pl.within(lat, lon, 30)
            print(f"{name} ({lat}, {lon})")
            for km in (5, 15, 30):
                s = sorted(((d, r) for d, r in near if d <= km), key=lambda x: (-x[1][2], x[0]))
                top = "; ".join(f"{r[4]} {r[2]:,} @{d:.1f} km" for d, r in s[:3])
                print(f"  {km:2d} km: {len(s):4d} places, pop {sum(r[2] for _, r in s):>11,}  {top}")
            if not near:
                n = pl.nearest(lat, lon)
                print("  nearest: " + (f"{n[1][4]} ({n[1][3]}) {n[1][2]:,} @{n[0]:.1f} km" if n else "none"))
        return
    print(f"RHO0={RHO0:g} GAMMA={GAMMA:g} S_MIN={S_MIN:g} km; max reach {pl.max_r:.1f} km")
    print(f"classes: dense urban >= {DENSE_URBAN:g} /km2 > suburban >= {SUBURBAN:g} /km2 > rural")
    for name, lat, lon in checks:
        d, parts = pl.density(lat, lon)
        top = "; ".join(f"{r[4]} {v:.0f} (d {dd:.1f}/s {r[5] / REACH:.1f})" for v, dd, r in parts[:3])
        print(f"{name:18s} {d:8.0f} /km2  {classify(d):11s}  {len(parts):3d} places  {top}")


if __name__ == "__main__":
    main()
