#!/usr/bin/env python3
"""Code lines of Swift files: not blank, not a comment, not inside a multi-line string literal (help text), the
literal's opening line counted. What issue 61 measured ServeCommand.swift and ImportCommand.swift by.

Usage: python3 scripts/count-code-lines.py FILE..."""
import sys


def code_lines(path):
    count, in_text = 0, False
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        if in_text:
            in_text = '"""' not in s
            continue
        if not s or s.startswith("//"):
            continue
        in_text = s.count('"""') == 1
        count += 1
    return count


for path in sys.argv[1:]:
    print(code_lines(path), path)
