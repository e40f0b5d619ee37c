#!/usr/bin/env python3
"""Writes the hostile chain files of scripts/abuse.sh: `cluster N SIDE_M` (N rows spread over a square SIDE_M metres
wide around Times Square) and `pile N` (N rows on one point). Seeded; standard library only."""
import math
import random
import sys

LAT, LON = 40.758000, -73.985500


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    side = float(sys.argv[3]) if kind == "cluster" else 0.0
    rng = random.Random(28)
    out = sys.stdout
    out.write("id,name,lat,lon\n")
    for i in range(n):
        north = rng.uniform(-side / 2, side / 2)
        east = rng.uniform(-side / 2, side / 2)
        lat = LAT + north / 111_195.0
        lon = LON + east / (111_195.0 * math.cos(math.radians(LAT)))
        out.write(f"{i},Dense {i},{lat:.6f},{lon:.6f}\n")


if __name__ == "__main__":
    main()
