#!/usr/bin/env python3
"""Counts the `public` declarations under Sources/, and those of them that are members of a type that is not public
(a `public` that gives nothing: a member is never more visible than its type). What issue 61 measured the library's
surface by.

Usage: python3 scripts/count-public.py [--list] [--narrow] [--check] [DIR]   (DIR defaults to Sources)
  --list     names each member of a non-public type declared public, with its type's access
  --narrow   rewrites those as their type's access (`package`, or none for an internal type)
  --check    exits 1 when there is any (CI runs it)

A reading of the text, not of the compiler's: braces, comments and string literals are followed well enough for this
code base's layout; a type's access is taken from its declaration anywhere under DIR (an extension's members are
bounded by the extended type's), and a type declared nowhere under DIR (String, a package's type) counts as public."""
import os
import re
import sys

ACCESS = r"(?:open|public|package|internal|fileprivate|private)"
TYPE_DECL = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*((?:(?:" + ACCESS + r"|final|indirect|nonisolated|distributed)\s+)*)"
    r"(struct|class|enum|actor|protocol|extension)\s+([A-Za-z_][\w.]*)"
)
PUBLIC_DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:open|public)\s")


def strip_code(line, state):
    """The line without comments and string contents; `state` carries a block comment or a multi-line string."""
    out, i = [], 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"], i = False, end + 2
            continue
        if state["text"]:
            end = line.find('"""', i)
            if end < 0:
                return "".join(out)
            state["text"], i = False, end + 3
            out.append('""')
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"], i = True, i + 2
            continue
        if line.startswith('"""', i):
            state["text"], i = True, i + 3
            continue
        if line[i] == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            out.append('""')
            i = j + 1
            continue
        out.append(line[i])
        i += 1
    return "".join(out)


def files(root):
    for dirpath, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(dirpath, name)


def declared_access(root):
    """Each type name's access word: `public` when any declaration of it is public or open."""
    access = {}
    for path in files(root):
        state = {"block": False, "text": False}
        for raw in open(path, encoding="utf-8"):
            code = strip_code(raw, state)
            m = TYPE_DECL.match(code)
            if not m or m.group(2) == "extension":
                continue
            name = m.group(3).split(".")[-1]
            if access.get(name) != "public":
                access[name] = access_word(m.group(1))
    return access


def access_word(modifiers):
    for word in ("public", "package", "fileprivate", "private"):
        if re.search(r"\b" + word + r"\b", modifiers):
            return word
    return "public" if re.search(r"\bopen\b", modifiers) else "internal"


def narrowest(levels):
    order = ["package", "internal", "fileprivate", "private"]
    return max(levels, key=order.index)


def scan(root):
    access = declared_access(root)
    total, wasted = 0, []
    for path in files(root):
        state = {"block": False, "text": False}
        # Each open brace's scope: whether it is a type (or extension) that is not public.
        stack = []
        pending = None
        for number, raw in enumerate(open(path, encoding="utf-8"), 1):
            code = strip_code(raw, state)
            m = TYPE_DECL.match(code)
            if m:
                name = m.group(3).split(".")[-1]
                # A type declared nowhere here (String, a dependency's) is public.
                level = access.get(name, "public") if m.group(2) == "extension" else access_word(m.group(1))
                pending = None if level == "public" else level
            if PUBLIC_DECL.match(code):
                total += 1
                closed = [scope for scope in stack if scope is not None]
                if closed:
                    wasted.append((path, number, narrowest(closed), raw.strip()[:100]))
            for ch in code:
                if ch == "{":
                    stack.append(pending)
                    pending = None
                elif ch == "}" and stack:
                    stack.pop()
    return total, wasted


def narrow(wasted):
    """Rewrites each wasted `public` (or `open`) as its type's own access: `package`, or nothing for internal."""
    by_file = {}
    for path, number, level, _ in wasted:
        by_file.setdefault(path, []).append((number, level))
    for path, edits in by_file.items():
        lines = open(path, encoding="utf-8").read().split("\n")
        for number, level in edits:
            word = "package " if level == "package" else ""
            lines[number - 1] = re.sub(r"\b(public|open) ", word, lines[number - 1], count=1)
        open(path, "w", encoding="utf-8").write("\n".join(lines))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    total, wasted = scan(args[0] if args else "Sources")
    if "--list" in sys.argv:
        print("\n".join(f"{path}:{number}: ({level}) {text}" for path, number, level, text in wasted))
    if "--narrow" in sys.argv:
        narrow(wasted)
    print(f"{total} public declarations, {len(wasted)} of them members of non-public types")
    if "--check" in sys.argv and wasted and "--narrow" not in sys.argv:
        print("count-public: a member is never more visible than its type; `--list` names them, `--narrow` rewrites them")
        sys.exit(1)


if __name__ == "__main__":
    main()
