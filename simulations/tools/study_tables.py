#!/usr/bin/env python3
"""Markdown tables for simulations/README.md from the recorded sweeps (standard library only).

    python3 simulations/tools/study_tables.py simulations/results/helsinki-ios/sweep.json [...]

One row per configuration: mean over the seeds with the 95 % interval in brackets for recall, and the means of the
rest (their intervals are in sweep.json and in results/<scenario>.txt).
"""
import json, sys


def pct(p, name, ci=False):
    i = p["intervals"].get(name)
    if i is None:
        return "-"
    if ci and i["n"] > 1:
        return f"{100 * i['mean']:.0f} % [{100 * i['low']:.0f}–{100 * i['high']:.0f}]"
    return f"{100 * i['mean']:.0f} %"


def num(p, name, fmt):
    i = p["intervals"].get(name)
    return "-" if i is None else format(i["mean"], fmt)


def main():
    for path in sys.argv[1:]:
        sweep = json.load(open(path))
        print(f"<!-- {path}: {len(sweep['seeds'])} seeds, {sweep['traces']} traces, {sweep['hours']:.1f} h -->")
        print("| configuration | recall [95 %] | of oracle-os | precision | on time | refresh/h | GPS s/h | wakes/h "
              "| missed: not monitored / OS / region / policy |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for p in sweep["points"]:
            split = " / ".join(num(p, k, ".1f") for k in ("missed_not_monitored", "missed_os_detection",
                                                          "missed_region_detection", "missed_notification_policy"))
            print(f"| {p['label']} | {pct(p, 'recall', True)} | {pct(p, 'recall_vs_oracle_os')} | {pct(p, 'precision')} "
                  f"| {pct(p, 'on_time_recall')} | {num(p, 'refresh_calls_per_hour', '.2f')} | {num(p, 'gps_seconds_per_hour', '.0f')} "
                  f"| {num(p, 'wakes_per_hour', '.1f')} | {split} |")
        print()


if __name__ == "__main__":
    main()
