#!/usr/bin/env python3
"""Cuts a replay's figures by person: one row per person (GeoLife user folder, else the file) of every strategy and
reference in the scenario seed's summary.json — the card on screen at the till and the alerts' figures (study IV),
served recall, precision, cost and the loss split.

    python3 simulations/tools/by_person.py LABEL=results/heldout-people-ios [LABEL=…]

Counts are summed over a person's traces, so a person's row is what the replay's totals would be for them alone.
Standard library only.
"""
import json, os, sys

COUNTS = ["hours", "card_moments", "served", "notifications", "served_notifications", "refresh_calls", "gps_seconds",
          "missed_not_monitored", "missed_os_detection", "missed_region_detection", "missed_not_confirmed",
          "missed_app_policy", "late"]
TIERS = ["moments", "on_screen", "alerts", "alerts_at_moment", "long_stays", "long_stays_alerted", "stray_alerts", "stray_quiet"]


def person(path):
    parts = path.split("/")
    return "GeoLife " + parts[-3] if len(parts) >= 3 and parts[-2] == "Trajectory" else os.path.basename(path)


def pct(a, b):
    return f"{100 * a / b:.0f} %" if b else "-"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        label, folder = arg.split("=", 1)
        summary = json.load(open(os.path.join(folder, "summary.json")))
        rows = {}
        for trace in summary["traces"]:
            who = person(trace["report"]["file"])
            for run in trace["strategies"] + [dict(trace["oracle_os"], strategy="oracle-os")]:
                total = rows.setdefault((run["strategy"], who), dict.fromkeys(COUNTS + ["tier_" + k for k in TIERS], 0))
                for key in COUNTS:
                    total[key] += run.get(key, 0) or 0
                for key in TIERS:
                    total["tier_" + key] += (run.get("two_tier") or {}).get(key, 0) or 0
        print(f"### {label} (seed {summary['seed']})\n")
        print("| strategy | person | hours | moments | on screen at the till | alert precision | alert, stays ≥ 10 min "
              "| buzzes / quiet cards at no moment per 10 h | served | precision | refresh/h | GPS s/h "
              "| not served: not mon. / OS / region / app unconfirmed / app policy / app late |")
        print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|")
        for (strategy, who), t in sorted(rows.items()):
            split = " / ".join(str(t[k]) for k in COUNTS[7:])
            hours = t["hours"]
            per10 = lambda k: f"{10 * t[k] / hours:.1f}" if hours else "-"
            print(f"| {strategy} | {who} | {hours:.1f} | {t['card_moments']} | {pct(t['tier_on_screen'], t['tier_moments'])} "
                  f"| {pct(t['tier_alerts_at_moment'], t['tier_alerts'])} | {pct(t['tier_long_stays_alerted'], t['tier_long_stays'])} "
                  f"| {per10('tier_stray_alerts')} / {per10('tier_stray_quiet')} | {pct(t['served'], t['card_moments'])} "
                  f"| {pct(t['served_notifications'], t['notifications'])} | {t['refresh_calls'] / hours if hours else 0:.2f} "
                  f"| {t['gps_seconds'] / hours if hours else 0:.0f} | {split} |")
        print()


if __name__ == "__main__":
    main()
