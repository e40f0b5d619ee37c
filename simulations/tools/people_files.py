#!/usr/bin/env python3
"""Prints the GeoLife PLT files of one side of the person split (simulations/people/split.json), one per line.

    python3 simulations/tools/people_files.py development|heldout DATASETS_DIR

The files are those `make_people_stores.py` reads (the same folders); a person's files go together. Standard library.
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(__file__))
from make_people_stores import trace_files  # noqa: E402


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("development", "heldout"):
        sys.exit(__doc__)
    split = json.load(open(os.path.join(os.path.dirname(__file__), "..", "people", "split.json")))
    people = set(split[sys.argv[1]])
    for person, path in trace_files(sys.argv[2]):
        if person in people:
            print(path)


if __name__ == "__main__":
    main()
