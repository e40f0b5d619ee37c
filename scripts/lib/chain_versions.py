"""Two versions of a small chain at the anchor kit's query points, for benchmarks that import it again and again:
each version renames every row, so every import changes every row. Used by scripts/soak.sh, scripts/bench-update.sh
and section 5 of scripts/bench-postgis.sh.

    python3 scripts/lib/chain_versions.py QUERIES.csv OUT_DIR ROWS ID_PREFIX NAME SHIFT
writes OUT_DIR/chain-v1.csv and chain-v2.csv (store_id,name,lat,lon): rows "ID_PREFIX-i", named "NAME i vN", at the
first ROWS query points moved SHIFT degrees north and east (times N when SHIFT ends in "*v", so the versions move too).
"""
import csv
import sys

queries, out, rows, prefix, name, shift = sys.argv[1:7]
per_version = shift.endswith("*v")
step = float(shift[:-2] if per_version else shift)
points = [(float(r["lat"]), float(r["lon"])) for _, r in zip(range(int(rows)), csv.DictReader(open(queries)))]
for version in (1, 2):
    d = step * version if per_version else step
    with open(f"{out}/chain-v{version}.csv", "w") as f:
        f.write("store_id,name,lat,lon\n")
        for i, (lat, lon) in enumerate(points):
            f.write(f"{prefix}-{i},{name} {i} v{version},{lat + d:.6f},{lon + d:.6f}\n")
