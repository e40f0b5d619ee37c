#!/usr/bin/env python3
"""The study's choice, made on the development walkers only (issue 30's protocol), written as simulations/recommended.json.

    python3 simulations/tools/choose.py ios=results/dev-helsinki-ios/sweep.json android=results/dev-helsinki-android/sweep.json

The rule: among the app configurations of a platform's sweep that stay within the issue's budgets — at most 2 refresh
calls and at most 300 GPS seconds an hour (means over seeds) — the one with the highest F1 of served recall and
precision (both pooled over seeds and walkers); ties go to fewer GPS seconds an hour. When no configuration stays
within the GPS budget, the refresh budget alone bounds the choice.

The refresh budget and F1 were fixed before the held-out walkers were first replayed. The GPS budget joined them
when `+motion` made configurations within it possible (before that none of the sweep came near it in central
Helsinki, and the rule said it was reported, not used); that was after held-out figures of the configurations without
`+motion` had been seen, none of `+motion`'s. The metric's till rule (a return visit is a till of its own) changed
after that too; the choice on the development walkers was the same before and after it. Standard library only.
"""
import json, sys

MAX_REFRESH_PER_HOUR = 2.0
MAX_GPS_SECONDS_PER_HOUR = 300.0


def f1(recall, precision):
    return 0.0 if recall + precision == 0 else 2 * recall * precision / (recall + precision)


def scalar(text):
    """A sweep's value as JSON should hold it: a number when it reads as one, else the word (`location`)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def choose(sweep):
    within = []
    for p in sweep["points"]:
        if p["strategy"] in ("oracle", "oracle-os", "ideal-os"):
            continue
        if p["intervals"]["refresh_calls_per_hour"]["mean"] > MAX_REFRESH_PER_HOUR:
            continue
        served = p["people_intervals"]["served_recall"]["mean"]
        precision = p["people_intervals"]["precision"]["mean"]
        gps = p["intervals"]["gps_seconds_per_hour"]["mean"]
        within.append(((round(f1(served, precision), 6), -gps), gps <= MAX_GPS_SECONDS_PER_HOUR, p))
    if not within:
        sys.exit("no configuration makes at most 2 refresh calls an hour")
    candidates = [w for w in within if w[1]] or within
    return max(candidates, key=lambda w: w[0])[2]


def main():
    out = {}
    for arg in sys.argv[1:]:
        platform, path = arg.split("=", 1)
        p = choose(json.load(open(path)))
        out[platform] = {"strategy": p["strategy"], "set": {k: scalar(v) for k, v in sorted(p["settings"].items())}}
        print(f"{platform}: {p['label']} (dev: served {p['people_intervals']['served_recall']['mean']:.3f}, "
              f"precision {p['people_intervals']['precision']['mean']:.3f})", file=sys.stderr)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
