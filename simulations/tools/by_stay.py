#!/usr/bin/env python3
"""Served recall by the length of the stay, from the event CSVs a replay writes with --out (the scenario seed).

Why: the study's walkers stay 3-20 minutes (the generator's uniform draw), and published figures for real shoppers
differ by store kind. Served recall by stay length lets a reader weigh the result by any other stay distribution:
a short stop's till comes sooner, so its card is more often late.

Each moment is one `visit` row ("card moment of N s") of the configuration's rows; its outcome is the
`moment_caught` row of its network that follows ("... +X s after arrival, till at +Y s": served when
-300 <= X <= Y, the study's window) or a `moment_missed` row.

With --walkers DIR (a generated trace set: truth.csv, passes.csv) it first prints the walkers' own stays and
walk-bys, the figures to set beside published ones: each intended visit's dwell, and the share of passers-by within
50 m of a store who went in (a "storefront conversion", as retail footfall counters report it).

Usage: python3 simulations/tools/by_stay.py [--walkers DIR ...] LABEL=OUT_DIR [LABEL=OUT_DIR ...]   (markdown)
"""
import csv
from datetime import datetime
import glob
import re
import sys

BINS = [(0, 300, "under 5 min"), (300, 600, "5-10 min"), (600, 1200, "10-20 min"), (1200, float("inf"), "20 min or more")]
EARLIEST = -300.0


def seconds(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def first_configuration(out_dir):
    """Each trace's event rows of the first configuration in its CSV (the recommendation, when run with it)."""
    for path in sorted(glob.glob(out_dir + "/*.events.csv")):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if rows:
            yield [r for r in rows if r["strategy"] == rows[0]["strategy"]]


def os_reports(out_dir):
    """For each card moment with a card: seconds from arrival to the OS's first report (entry or state inside) of
    its network from 5 minutes before arrival on, and from that report to the card."""
    to_report, to_card = [], []
    for rows in first_configuration(out_dir):
        for v in (r for r in rows if r["kind"] == "visit"):
            arrival = seconds(v["time"])
            after = [r for r in rows if r["network"] == v["network"] and seconds(r["time"]) >= arrival + EARLIEST]
            report = next((seconds(r["time"]) for r in after if r["kind"] in ("enter", "state_inside")), None)
            card = next((seconds(r["time"]) for r in after if r["kind"] == "notification"), None)
            if report is not None and card is not None and report <= card:
                to_report.append(report - arrival)
                to_card.append(card - report)
    return to_report, to_card


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else float("nan")


def moments(out_dir):
    """(stay seconds, served) for every card moment of the first configuration in each trace's event CSV."""
    found = []
    for rows in first_configuration(out_dir):
        pending = {}
        for r in rows:
            if r["kind"] == "visit":
                stay = float(re.search(r"card moment of (\d+) s", r["detail"]).group(1))
                pending.setdefault(r["network"], []).append(stay)
            elif r["kind"] in ("moment_caught", "moment_missed") and pending.get(r["network"]):
                stay = pending[r["network"]].pop(0)
                served = False
                m = re.search(r"([+-]\d+) s after .*?till at ([+-]\d+) s", r["detail"])
                if r["kind"] == "moment_caught" and m:
                    delay, till = float(m.group(1)), float(m.group(2))
                    served = EARLIEST <= delay <= till
                found.append((stay, served))
    return found


def walkers(directory):
    """One markdown row: the generator's visits, their dwell, and walk-bys within 50 m per visit."""
    with open(directory + "/truth.csv", newline="") as f:
        dwell = sorted(float(r["dwell_s"]) for r in csv.DictReader(f))
    with open(directory + "/passes.csv", newline="") as f:
        walk_bys = sum(1 for r in csv.DictReader(f) if r["kind"] == "walk-by" and float(r["closest_m"]) <= 50)
    n = len(dwell)
    return (
        f"| `{directory}` | {n} | {sum(dwell) / n / 60:.1f} min | {dwell[n // 2] / 60:.1f} min | "
        f"{100 * sum(d < 300 for d in dwell) / n:.0f} % | {walk_bys} | {100 * n / (n + walk_bys):.1f} % |"
    )


def main(args):
    sets = []
    while len(args) >= 2 and args[0] == "--walkers":
        sets.append(args[1])
        args = args[2:]
    if not args or any("=" not in a for a in args):
        sys.exit(__doc__)
    if sets:
        print("| walkers | visits | mean dwell | median dwell | under 5 min | walk-bys within 50 m | went in |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for d in sets:
            print(walkers(d))
        print()
    columns = [(label, moments(d)) for label, d in (a.split("=", 1) for a in args)]
    print("| card moment lasts | " + " | ".join(f"{label}: moments | served" for label, _ in columns) + " |")
    print("|---|" + "---:|---:|" * len(columns))
    for lo, hi, name in BINS:
        cells = []
        for _, ms in columns:
            inside = [s for stay, s in ms if lo <= stay < hi]
            share = f"{100 * sum(inside) / len(inside):.0f} %" if inside else "-"
            cells += [f"{len(inside)} ({100 * len(inside) / max(len(ms), 1):.0f} %)", share]
        print(f"| {name} | " + " | ".join(cells) + " |")
    cells = []
    for _, ms in columns:
        mean = sum(stay for stay, _ in ms) / max(len(ms), 1) / 60
        cells += [f"{len(ms)}, mean stay {mean:.1f} min", f"{100 * sum(s for _, s in ms) / max(len(ms), 1):.0f} %"]
    print("| all | " + " | ".join(cells) + " |")
    print()
    for label, d in (a.split("=", 1) for a in args):
        to_report, to_card = os_reports(d)
        print(
            f"{label}: of {len(to_card)} moments with a card after the OS's report, the report came a median "
            f"{median(to_report):.0f} s after arrival and the card {median(to_card):.0f} s after the report."
        )


if __name__ == "__main__":
    main(sys.argv[1:])
