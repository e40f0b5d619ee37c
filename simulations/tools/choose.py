#!/usr/bin/env python3
"""The study's choice, made on the development walkers only (issue 30's protocol), written as simulations/recommended.json.

    python3 simulations/tools/choose.py ios=results/dev-helsinki-ios/sweep.json android=results/dev-helsinki-android/sweep.json

The rule, fixed before the held-out walkers were replayed: among the app configurations of a platform's sweep that make
at most 2 refresh calls an hour, the one with the highest F1 of served recall and precision (both pooled over seeds and
walkers); ties go to fewer GPS seconds an hour. The GPS budget (300 s/h) is reported, not used to choose: no
configuration of the sweep meets it in central Helsinki. Standard library only.
"""
import json, sys

MAX_REFRESH_PER_HOUR = 2.0


def f1(recall, precision):
    return 0.0 if recall + precision == 0 else 2 * recall * precision / (recall + precision)


def choose(sweep):
    best = None
    for p in sweep["points"]:
        if p["strategy"] in ("oracle", "oracle-os", "ideal-os"):
            continue
        refresh = p["intervals"]["refresh_calls_per_hour"]["mean"]
        if refresh > MAX_REFRESH_PER_HOUR:
            continue
        served = p["people_intervals"]["served_recall"]["mean"]
        precision = p["people_intervals"]["precision"]["mean"]
        key = (round(f1(served, precision), 6), -p["intervals"]["gps_seconds_per_hour"]["mean"])
        if best is None or key > best[0]:
            best = (key, p)
    if best is None:
        sys.exit("no configuration makes at most 2 refresh calls an hour")
    return best[1]


def main():
    out = {}
    for arg in sys.argv[1:]:
        platform, path = arg.split("=", 1)
        p = choose(json.load(open(path)))
        out[platform] = {"strategy": p["strategy"], "set": {k: float(v) if "." in v else int(v) for k, v in sorted(p["settings"].items())}}
        print(f"{platform}: {p['label']} (dev: served {p['people_intervals']['served_recall']['mean']:.3f}, "
              f"precision {p['people_intervals']['precision']['mean']:.3f})", file=sys.stderr)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
