#!/usr/bin/env bash
# Every relative link in the repository's Markdown files must lead to a file or folder that exists: inline links and
# images (`[text](path)`, `![alt](path#anchor "title")`) and reference definitions (`[name]: path`), outside fenced
# code blocks and code spans. Links with a scheme (https:, mailto:, …) and links to an anchor of the same page are
# not checked; a fragment is dropped before the path is looked up, relative to the Markdown file's folder (or to the
# repository for a path starting with /). Build folders (.build*, which covers Fuzz/.build) and .git are skipped.
# Prints each broken link as FILE:LINE: TARGET and exits 1 when there is one. Run by .ci/run before the build.
#
#   bash scripts/check-links.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec python3 - <<'PY'
import os
import re
import sys

# [text](target "title") and ![alt](target): the target may be in <…>, or hold balanced parentheses.
INLINE = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]"
    r"\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)"
    r"""(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)"""
)
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def markdown_files():
    for folder, subfolders, names in os.walk("."):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".build") and d != ".git")
        for name in sorted(names):
            if name.endswith(".md"):
                yield os.path.normpath(os.path.join(folder, name))


def targets(lines):
    """(line number, target) of every link outside fenced code blocks and code spans."""
    fence = None
    for number, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if m:
            marker = m.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker):]:
                fence = None
            continue
        if fence is not None:
            continue
        text = CODE_SPAN.sub("", line)
        for m in INLINE.finditer(text):
            yield number, m.group(1)
        m = REFERENCE.match(text)
        if m:
            yield number, m.group(1)


broken, checked, files = [], 0, 0
for path in markdown_files():
    files += 1
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    for number, target in targets(lines):
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1]
        if not target or target.startswith("#") or SCHEME.match(target):
            continue
        checked += 1
        file_part = target.split("#", 1)[0].split("?", 1)[0]
        if file_part.startswith("/"):
            resolved = os.path.normpath(file_part.lstrip("/"))
        else:
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        if not os.path.exists(resolved):
            broken.append(f"{path}:{number}: {target}")

for line in broken:
    print(line)
print(f"check-links: {checked} relative links in {files} Markdown files, {len(broken)} broken", file=sys.stderr)
sys.exit(1 if broken else 0)
PY
