#!/usr/bin/env python3
"""Sensitivity as a result (issue 30): the recommended configuration's served recall and precision on the held-out
walkers while each value the OS model marks "assumed" moves across a plausible range, one at a time.

    python3 simulations/tools/sensitivity.py ONCUE STORE.sqlite SEEDS > simulations/results/sensitivity.md

Each row is one replay of `oncue replay --recommended simulations/recommended.json` over
simulations/traces/helsinki-heldout with one scenario value changed (a scenario file written to a temporary folder, so
array values such as the position sources can change too), and the development sweep of run.sh at that value with
tools/choose.py's rule applied: where the choice would differ, the row names it. Standard library only.
"""
import glob, json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(__file__))
import choose  # noqa: E402  (the study's rule, beside this file)

# The grid run.sh chooses from on the development walkers.
DEV_GRID = ["--sweep", "strategy=guaranteed+clamp+gps,guaranteed+clamp+gps+motion,staged+gps", "--sweep", "app.min_refresh_interval_seconds=0,900,1800",
            "--sweep", "app.gps_confirm_seconds=15,30,60"]

# (platform, what, scenario key path, values; the profile's default first). Plausible ranges, not measurements:
# the iOS check cadence is undocumented (Android's guide says alerts come within 2 minutes moving, 6 still).
ASSUMED = [
    ("ios", "fence check while moving (s)", "os.fence_check_moving_seconds", [30, 15, 60, 120]),
    ("ios", "fence check while still (s)", "os.fence_check_stationary_seconds", [180, 90, 360]),
    ("ios", "delivery after the decision, at most (s)", "os.detection_delay_max_seconds", [10, 5, 30]),
    ("ios", "Wi-Fi share of the OS's positions", "fixes.sources", ["70 %", "50 %", "90 %"]),
    ("ios", "position error correlation (s)", "fixes.error_correlation_seconds", [60, 20, 180]),
    ("ios", "the app's own GPS fix (s)", "app.gps_fix_seconds", [8, 4, 20]),
    ("ios", "motion sensor latency (s)", "os.motion_latency_seconds", [20, 5, 60]),
    ("android", "fence check while moving (s)", "os.fence_check_moving_seconds", [60, 30, 120]),
    ("android", "delivery after the decision, at most (s)", "os.detection_delay_max_seconds", [5, 2, 20]),
    ("android", "Wi-Fi share of the OS's positions", "fixes.sources", ["70 %", "50 %", "90 %"]),
    ("android", "motion sensor latency (s)", "os.motion_latency_seconds", [20, 5, 60]),
]


def sources(share):
    """Position sources with `share` from Wi-Fi, 5 % cell, the rest GPS (accuracies as the profile's)."""
    wifi = int(share.rstrip(" %")) / 100
    return [
        {"name": "gps", "weight": round(0.95 - wifi, 2), "accuracy_min_meters": 5, "accuracy_max_meters": 10, "recorded": True},
        {"name": "wifi", "weight": wifi, "accuracy_min_meters": 20, "accuracy_max_meters": 50},
        {"name": "cell", "weight": 0.05, "accuracy_min_meters": 300, "accuracy_max_meters": 1500},
    ]


def nested(path, value):
    out = value
    for key in reversed(path.split(".")):
        out = {key: out}
    return out


def merge(base, over):
    for k, v in over.items():
        base[k] = merge(base.get(k, {}), v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
    return base


def replay(oncue, store, seeds, scenario_file, walks, extra):
    out = subprocess.run([oncue, "replay", *walks, "--db", store, "--wallet", "simulations/wallets/helsinki.json",
                          "--scenario", scenario_file, "--seeds", str(seeds), "--format", "json", *extra],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def run(oncue, store, seeds, platform, path, value, tmp, rechoose):
    """The recommendation on the held-out walkers at this value, and what the rule would choose on the development
    walkers at it (the choice is only re-made for values other than the default)."""
    scenario = json.load(open(f"simulations/scenarios/helsinki-{platform}.json"))
    merge(scenario, nested(path, sources(value) if path == "fixes.sources" else value))
    file = os.path.join(tmp, "scenario.json")
    json.dump(scenario, open(file, "w"))
    heldout = sorted(glob.glob("simulations/traces/helsinki-heldout/heldout-*.gpx"))
    point = replay(oncue, store, seeds, file, heldout, ["--recommended", "simulations/recommended.json"])["points"][0]
    if not rechoose:
        return point["people_intervals"], None
    dev = sorted(glob.glob("simulations/traces/helsinki/walk-*.gpx"))
    chosen = choose.choose(replay(oncue, store, seeds, file, dev, DEV_GRID), choose.served_f1_key)
    return point["people_intervals"], chosen["label"]


def cell(i):
    return f"{100 * i['mean']:.0f} % [{100 * i['low']:.0f}–{100 * i['high']:.0f}]"


def main():
    oncue, store, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    recommended = json.load(open("simulations/recommended.json"))
    print("| platform | assumed value | value | served [people 95 %] | precision [people 95 %] | the rule's choice on the development walkers at this value |")
    print("|---|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for platform, what, path, values in ASSUMED:
            rec = recommended[platform]
            rec_label = " ".join([rec["strategy"]] + [f"{k}={v}" for k, v in rec["set"].items()])
            for k, value in enumerate(values):
                i, chosen = run(oncue, store, seeds, platform, path, value, tmp, rechoose=k > 0)
                same = chosen is None or sorted(chosen.split()) == sorted(rec_label.split())
                label = f"{value}" + (" (default)" if k == 0 else "")
                print(f"| {platform} | {what} (`{path}`) | {label} | {cell(i['served_recall'])} | {cell(i['precision'])} "
                      f"| {'the same' if same else chosen} |", flush=True)


if __name__ == "__main__":
    main()
