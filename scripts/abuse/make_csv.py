#!/usr/bin/env python3
"""Writes the hostile chain files of scripts/abuse.sh: `cluster N SIDE_M` (N rows spread over a square SIDE_M metres
wide around Times Square), `pile N` (N rows on one point), `cell N` (N rows in a square metre) and `line N` (N rows
on a 2 km line through the point, a metre apart at most). Seeded; standard library only."""
import math
import random
import sys

LAT, LON = 40.758000, -73.985500


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    side = {"cluster": float(sys.argv[3]) if len(sys.argv) > 3 else 0.0, "cell": 1.0}.get(kind, 0.0)
    if kind not in ("cluster", "pile", "cell", "line"):
        sys.exit(f"make_csv.py: unknown layout {kind!r} (cluster, pile, cell, line)")
    rng = random.Random(28)
    out = sys.stdout
    out.write("id,name,lat,lon\n")
    for i in range(n):
        north = rng.uniform(-side / 2, side / 2)
        east = rng.uniform(-side / 2, side / 2)
        if kind == "line":
            north, east = 0.0, rng.uniform(-1000, 1000)
        lat = LAT + north / 111_195.0
        lon = LON + east / (111_195.0 * math.cos(math.radians(LAT)))
        # Seven decimals (1 cm): the cell's rows must not collapse onto a few points.
        out.write(f"{i},Dense {i},{lat:.7f},{lon:.7f}\n")


if __name__ == "__main__":
    main()
