#!/usr/bin/env python3
"""Study IV's table (issue 64): the two-tier measures of replays of the recommendation, one row per replay, beside
`oracle-os` on the same people — what simulations/README.md's answer quotes.

    python3 simulations/tools/tier_table.py LABEL=results/heldout-people-ios [LABEL=…]

Each folder is a `--seeds` replay's output (sweep.json): the app's point and the references. Shares pooled over seeds
and people with their 95 % interval over people where the replay has one, the rest means over seeds. Standard library.
"""
import json, os, sys

REFERENCES = ("oracle", "oracle-os", "ideal-os")


def figure(point, name):
    for table in ("people_intervals", "intervals"):
        if name in point.get(table, {}):
            return point[table][name]
    return None


def pct(point, name, interval=True):
    f = figure(point, name)
    if f is None:
        return "-"
    if interval and "people_intervals" in point and name in point["people_intervals"]:
        return f"{100 * f['mean']:.1f} % [{100 * f['low']:.1f}–{100 * f['high']:.1f}]"
    return f"{100 * f['mean']:.1f} %"


def num(point, name, fmt="{:.1f}"):
    f = figure(point, name)
    return "-" if f is None else fmt.format(f["mean"])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| replay | moments | card on screen at the till [people 95 %] | ÷ oracle-os served | alert precision [people 95 %] "
          "| alert, stays ≥ 10 min | buzzes at no moment /10 h | quiet cards at no moment /10 h (median s on screen) "
          "| to screen / to alert p50 s | refresh/h | GPS s/h | no card on screen at the till: not mon. / OS / region / app held / removed / replaced / late |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for arg in sys.argv[1:]:
        label, folder = arg.split("=", 1)
        sweep = json.load(open(os.path.join(folder, "sweep.json")))
        app = next(p for p in sweep["points"] if p["strategy"] not in REFERENCES)
        oracle = next(p for p in sweep["points"] if p["strategy"] == "oracle-os")
        served = figure(oracle, "served_recall")["mean"]
        screen = figure(app, "on_screen_recall")["mean"]
        split = " / ".join(num(app, f"screen_missed_{k}") for k in
                           ("not_monitored", "os_detection", "region_detection", "app_held", "removed_before_till",
                            "replaced_before_till", "late"))
        print(f"| {label} | {num(app, 'card_moments', '{:.0f}')} | {pct(app, 'on_screen_recall')} | "
              f"{screen / served if served else 0:.2f} (oracle-os {100 * served:.1f} %) | {pct(app, 'alert_precision')} | "
              f"{pct(app, 'alert_long_stay_recall', False)} | {num(app, 'buzzes_per_10h', '{:.2f}')} | "
              f"{num(app, 'quiet_stray_per_10h')} ({num(app, 'quiet_stray_median_seconds', '{:.0f}')}) | "
              f"{num(app, 'screen_delay_p50_seconds', '{:.0f}')} / {num(app, 'alert_delay_p50_seconds', '{:.0f}')} | "
              f"{num(app, 'refresh_calls_per_hour', '{:.2f}')} | {num(app, 'gps_seconds_per_hour', '{:.0f}')} | {split} |")


if __name__ == "__main__":
    main()
