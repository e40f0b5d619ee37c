#!/usr/bin/env python3
"""Lists every Swift function, initializer, deinitializer or subscript longer than a limit, and fails if one exists.

A declaration's length is counted from the line of its keyword (`func`, `init`, ...) to the line of the brace that
closes its body, both included; attributes and doc comments above it are not counted. Bodies are matched by their
braces with comments and string literals (multi-line, raw, interpolated) taken out first, so a brace inside a string
does not count.

    python3 scripts/check-function-length.py                 # Sources/, limit 80
    python3 scripts/check-function-length.py --max 60 Sources Tests

Exit status: 0 when every body is within the limit, 1 when one is not, 2 on a file it cannot read.
"""

import argparse
import os
import sys

KEYWORDS = {"func", "init", "deinit", "subscript"}
# Words that start another declaration: met before a `{`, they show that the declaration had no body (a protocol
# requirement). Words that can stand in a signature (throws, async, where, some, any, inout, ...) are not here.
DECLARATION_WORDS = KEYWORDS | {
    "var", "let", "case", "typealias", "associatedtype", "struct", "class", "enum", "protocol", "extension",
    "actor", "static", "mutating", "nonmutating", "public", "private", "internal", "fileprivate", "open", "package",
    "override", "convenience", "required", "final", "import", "macro",
}


def tokens(text):
    """Yields (kind, value, line) for words and for the brackets `{}()[]`, skipping comments and string literals.

    Code inside a string's interpolation is code: it is scanned, and its brackets matched, like any other.
    """
    i, n, line = 0, len(text), 1
    # Each entry is a string being read inside interpolation: (raw hashes, multi-line, paren depth of its interpolation).
    # The scanner is either in code (`mode == "code"`) or in the string on top of `strings`.
    strings = []
    mode = "code"
    interp_depth = []   # paren depth inside each open interpolation
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if mode == "string":
            hashes, multi = strings[-1]
            if c == "\\" and text.startswith("#" * hashes, i + 1):
                j = i + 1 + hashes
                if j < n and text[j] == "(":
                    mode = "code"
                    interp_depth.append(0)
                    i = j + 1
                    continue
                i = j + 1   # an escaped character, whatever it is
                continue
            closing = ('"""' if multi else '"') + "#" * hashes
            if text.startswith(closing, i):
                strings.pop()
                i += len(closing)
                mode = "string" if len(strings) > len(interp_depth) else "code"
                continue
            i += 1
            continue
        # code
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth > 0:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        line += 1
                    i += 1
            continue
        if c == "#" or c == '"':
            j = i
            while j < n and text[j] == "#":
                j += 1
            if j < n and text[j] == '"':
                hashes = j - i
                multi = text.startswith('"""', j)
                strings.append((hashes, multi))
                mode = "string"
                i = j + (3 if multi else 1)
                continue
            i = j if j > i else i + 1   # `#if`, `#available`, ...: the word after it is read next
            continue
        if c == "(" and interp_depth:
            interp_depth[-1] += 1
        elif c == ")" and interp_depth:
            if interp_depth[-1] == 0:
                interp_depth.pop()
                mode = "string"
                i += 1
                continue
            interp_depth[-1] -= 1
        if c in "{}()[]":
            yield ("bracket", c, line)
            i += 1
            continue
        if c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            yield ("word", text[i:j], line)
            i = j
            continue
        if c == "`":   # a backticked name is a name, never a keyword
            j = text.find("`", i + 1)
            j = i + 1 if j < 0 else j + 1
            yield ("name", text[i:j], line)
            i = j
            continue
        if c == ".":
            yield ("dot", c, line)
        i += 1


def long_bodies(path, limit):
    with open(path, encoding="utf-8") as f:
        toks = list(tokens(f.read()))
    found = []
    for k, (kind, value, line) in enumerate(toks):
        if kind != "word" or value not in KEYWORDS:
            continue
        if k > 0 and toks[k - 1][0] == "dot":   # `self.init(...)`, `.init(...)`: a call, not a declaration
            continue
        name = value
        if value == "func" and k + 1 < len(toks) and toks[k + 1][0] in ("word", "name"):
            name = toks[k + 1][1]
        # The body's `{` is the first one outside the signature's parentheses and brackets.
        depth, j, start = 0, k + 1, None
        while j < len(toks):
            t_kind, t_value, _ = toks[j]
            if t_value in "([":
                depth += 1
            elif t_value in ")]":
                depth -= 1
            elif depth == 0 and t_value == "{":
                start = j
                break
            elif depth == 0 and (t_value == "}" or (t_kind == "word" and t_value in DECLARATION_WORDS)):
                break
            j += 1
        if start is None:
            continue
        depth, j = 0, start
        while j < len(toks):
            if toks[j][1] == "{":
                depth += 1
            elif toks[j][1] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        end_line = toks[j][2] if j < len(toks) else toks[-1][2]
        length = end_line - line + 1
        if length > limit:
            found.append((path, line, name, length))
    return found


def swift_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for directory, subdirectories, files in os.walk(root):
            subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
            for f in sorted(files):
                if f.endswith(".swift"):
                    yield os.path.join(directory, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=80, help="the most lines a body may take (default 80)")
    parser.add_argument("paths", nargs="*", default=["Sources"], help="files or folders (default Sources)")
    args = parser.parse_args()
    found = []
    for path in swift_files(args.paths):
        try:
            found += long_bodies(path, args.max)
        except (OSError, UnicodeDecodeError) as error:
            print(f"check-function-length: {path}: {error}", file=sys.stderr)
            return 2
    for path, line, name, length in sorted(found, key=lambda f: -f[3]):
        print(f"{path}:{line}: {name} is {length} lines (limit {args.max})")
    if found:
        print(f"check-function-length: {len(found)} over {args.max} lines", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
