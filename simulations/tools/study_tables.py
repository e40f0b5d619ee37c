#!/usr/bin/env python3
"""Markdown tables for simulations/README.md from the recorded sweeps (standard library only).

    python3 simulations/tools/study_tables.py simulations/results/helsinki-ios/sweep.json [...]

One row per configuration: served recall and precision pooled over seeds and traces with the 95 % interval over
people in brackets, the rest means over seeds (their seed intervals are in sweep.json); * fewer than 50 card moments.
"""
import json, sys


def pct(p, name, people=False):
    i = (p.get("people_intervals") or {}).get(name) if people else None
    if i is not None:
        return f"{100 * i['mean']:.0f} % [{100 * i['low']:.0f}–{100 * i['high']:.0f}]"
    i = p["intervals"].get(name)
    return "-" if i is None else f"{100 * i['mean']:.0f} %"


def num(p, name, fmt):
    i = p["intervals"].get(name)
    return "-" if i is None else format(i["mean"], fmt)


def main():
    for path in sys.argv[1:]:
        sweep = json.load(open(path))
        print(f"<!-- {path}: {len(sweep['seeds'])} seeds, {sweep['traces']} traces of {sweep.get('people', '?')} people, "
              f"{sweep['hours']:.1f} h -->")
        print("| configuration | moments | served [people 95 %] | card by +1/+2/+5/+10 min | precision [people 95 %] "
              "| before leaving | refresh/h | GPS s/h | not served: not monitored / OS / region / app unconfirmed / app policy / app late |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for p in sweep["points"]:
            moments = p["intervals"].get("card_moments", {}).get("mean", 0)
            flag = "*" if moments < 50 else ""
            by = "/".join(pct(p, f"card_by_{m}_min").replace(" %", "") for m in (1, 2, 5, 10)) + " %"
            split = " / ".join(num(p, k, ".1f") for k in ("missed_not_monitored", "missed_os_detection",
                                                          "missed_region_detection", "missed_not_confirmed",
                                                          "missed_app_policy", "late"))
            print(f"| {p['label']} | {moments:.0f}{flag} | {pct(p, 'served_recall', True)} | {by} | {pct(p, 'precision', True)} "
                  f"| {pct(p, 'recall_before_leaving')} | {num(p, 'refresh_calls_per_hour', '.2f')} "
                  f"| {num(p, 'gps_seconds_per_hour', '.0f')} | {split} |")
        print()


if __name__ == "__main__":
    main()
