#!/usr/bin/env python3
"""Checks that every module a target imports is one its Package.swift entry declares.

SwiftPM lets a target import any module that some other dependency happens to bring along; such a target builds
until that other dependency changes. This compares each target's `import` lines with the dependencies that
`swift package dump-package` reports for it, for the root package and for the packages under Fuzz/ and Benchmarks/.
Exit 1 names every undeclared import.
"""
import json
import os
import re
import subprocess
import sys

# Modules of the toolchain and the system, importable without a package dependency.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "_FoundationICU",
    "Dispatch", "Glibc", "Musl", "Darwin", "Android", "WinSDK", "XCTest", "Testing", "Synchronization", "os",
    "Observation", "RegexBuilder", "Swift", "_Concurrency", "_StringProcessing", "Distributed", "PackageDescription",
}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([\w., ]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)",
                    re.M)


def dependencies(target):
    names = set()
    for dep in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dep:
                names.add(dep[kind][0])
    return names


def check(package_dir):
    dump = json.loads(subprocess.run(["swift", "package", "--package-path", package_dir, "dump-package"],
                                     check=True, capture_output=True, text=True).stdout)
    problems = []
    for target in dump["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        kind_dir = "Tests" if target["type"] == "test" else "Sources"
        path = os.path.join(package_dir, target.get("path") or os.path.join(kind_dir, target["name"]))
        allowed = dependencies(target) | SYSTEM | {target["name"]}
        for root, _, files in os.walk(path):
            for name in files:
                if not name.endswith(".swift"):
                    continue
                file = os.path.join(root, name)
                with open(file, encoding="utf-8") as f:
                    text = f.read()
                for module in sorted(set(IMPORT.findall(text)) - allowed):
                    problems.append(f"{os.path.relpath(file)}: imports {module}, which target {target['name']} does not declare")
    return problems


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(repo)
    problems = []
    for package_dir in (".", "Fuzz", "Benchmarks"):
        if os.path.exists(os.path.join(package_dir, "Package.swift")):
            problems += check(package_dir)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check-imports: {len(problems)} undeclared imports", file=sys.stderr)
        return 1
    print("check-imports: every import is declared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
