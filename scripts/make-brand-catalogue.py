#!/usr/bin/env python3
"""The brand catalogue (datasets/brands/brands.tsv) from the name-suggestion-index's brand files.

    python3 scripts/make-brand-catalogue.py ../shared/datasets/brands-name-suggestion-index datasets/brands

It also writes Sources/LocationStore/Model/Generated/BrandCatalogue+Data.swift, the same text compiled into the binary.

One line per Wikidata id, tab-separated: the id, the display name (the brand's name in English or Latin script, see
`display_name`), the names it goes by (brand, name, localised names
and the spellings NSI has seen in the wild, `|`-separated, first the display name), the places it operates in and those
it does not (`locationSet` include and exclude, `,`-separated: ISO 3166-1 alpha-2 codes, "001" for the world, M49
region codes; a subdivision such as us-ca.geojson or gb-eng becomes its country; custom circles are left out). A brand
listed in several NSI categories (a supermarket and a fuel station) is one line, its names and places merged. Sorted by
id, so the output is the same for the same input. A sixth column holds the brand's name by language
(`brand:xx` tags, `xx=name` `|`-separated), so that an import can name a network in the data's language.
"""
import glob
import json
import os
import sys

NAME_KEYS = ("brand", "name", "official_name", "short_name", "alt_name")
ENGLISH_SPEAKING = {"us", "gb", "ca", "au", "ie", "nz"}


def latin(name):
    """Whether every letter of `name` is in Latin script (accents allowed): what an id can be made of."""
    import unicodedata
    return all(not c.isalpha() or "LATIN" in unicodedata.name(c, "") for c in name)


def display_name(candidates):
    """The brand's name for ids and display: the brand tag of its first entry when that is in Latin script (as before),
    else its English brand name (`brand:en`), the brand tag of its worldwide or English-speaking entry, its English
    name (`name:en`) or any Latin-script brand tag, in that order; else its first brand tag (the import transliterates
    it for an id). NSI files list a brand's entries country by country, and the first is sometimes another script's
    (Starbucks' Serbian 'Старбакс')."""
    if latin(candidates[0]["brand"]):
        return candidates[0]["brand"]
    for key in ("brand_en", "world", "english", "name_en", "latin"):
        for c in candidates:
            if c[key] and latin(c[key]):
                return c[key]
    return candidates[0]["brand"]


def place(code):
    if not isinstance(code, str):
        return None  # a custom circle [lon, lat, km]
    code = code.lower().removesuffix(".geojson")
    head = code.split("-")[0]
    if head.isdigit():
        return head  # "001" the world, or an M49 region
    return head if len(head) == 2 and head.isalpha() else None


def main():
    source, out = sys.argv[1], sys.argv[2]
    brands = {}
    files = sorted(glob.glob(os.path.join(source, "data", "brands", "**", "*.json"), recursive=True))
    for path in files:
        with open(path, encoding="utf-8") as f:
            items = json.load(f).get("items", [])
        for item in items:
            tags = item.get("tags", {})
            qid = tags.get("brand:wikidata")
            if not qid:
                continue
            # The brand tag is how the brand writes itself ("Target"); NSI's displayName may carry a qualifier
            # ("Target (USA)") that tells two brands of one name apart in its own lists.
            entry = brands.setdefault(qid, {"candidates": [], "names": [], "include": [], "exclude": [], "languages": {}})
            brand = tags.get("brand") or item.get("displayName") or qid
            places = {place(code) for code in item.get("locationSet", {}).get("include", [])}
            entry["candidates"].append({"brand": brand, "brand_en": tags.get("brand:en"), "name_en": tags.get("name:en"),
                                        "world": brand if "001" in places else None,
                                        "english": brand if places & ENGLISH_SPEAKING else None,
                                        "latin": brand})
            for key, value in tags.items():
                parts = key.split(":")
                if parts[0] == "brand" and len(parts) == 2 and parts[1] != "wikidata" and parts[1] != "wikipedia":
                    if "|" not in value and "=" not in value and "\t" not in value:
                        entry["languages"].setdefault(parts[1], value.strip())
            names = [brand, item.get("displayName")]
            for key, value in sorted(tags.items()):
                base = key.split(":")[0]
                if base in NAME_KEYS and key not in ("brand:wikidata", "brand:wikipedia", "name:wikidata"):
                    names.extend(v.strip() for v in value.split(";"))
            names.extend(item.get("matchNames", []))
            for name in names:
                if name and "\t" not in name and "|" not in name and name not in entry["names"]:
                    entry["names"].append(name)
            location = item.get("locationSet", {})
            for key in ("include", "exclude"):
                for code in map(place, location.get(key, [])):
                    if code and code not in entry[key]:
                        entry[key].append(code)
    for b in brands.values():
        b["display"] = display_name(b["candidates"])
        if b["display"] in b["names"]:
            b["names"].remove(b["display"])
        b["names"].insert(0, b["display"])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "brands.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# wikidata\tdisplay_name\tnames\tinclude\texclude\tby_language  (name-suggestion-index, BSD-3-Clause; see SOURCE.md)\n")
        for qid in sorted(brands, key=lambda q: (len(q), q)):
            b = brands[qid]
            languages = "|".join(f"{k}={v}" for k, v in sorted(b["languages"].items()))
            f.write("\t".join([qid, b["display"], "|".join(b["names"]), ",".join(sorted(b["include"])),
                               ",".join(sorted(b["exclude"])), languages]) + "\n")
    with open(os.path.join(out, "brands.tsv"), encoding="utf-8") as f:
        text = f.read()
    assert '"""#' not in text
    swift = os.path.join(os.path.dirname(__file__), "..", "Sources", "LocationStore", "Model", "Generated", "BrandCatalogue+Data.swift")
    with open(swift, "w", encoding="utf-8", newline="\n") as f:
        f.write("// Generated by scripts/make-brand-catalogue.py from datasets/brands/brands.tsv. Do not edit; run the script again.\n")
        f.write("// Data: name-suggestion-index, BSD-3-Clause (datasets/brands/LICENSE.md).\n// swift-format-ignore-file\n\n")
        f.write("extension BrandCatalogue {\n    static let embeddedTSV = #\"\"\"\n" + text + "\"\"\"#\n}\n")
    print(f"{len(brands)} brands from {len(files)} files -> {out}/brands.tsv and {swift}", file=sys.stderr)


if __name__ == "__main__":
    main()
