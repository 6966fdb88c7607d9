#!/usr/bin/env bash
# Every relative link in README.md and docs/*.md resolves (a ctest, "docs_links"): the file or
# folder it names exists in the tree, and a #fragment names a heading of the target page (GitHub's
# anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered -1, -2...). Links
# inside code blocks and inline code are not links. Web links (http, https, mailto) are not checked.
# Prints every broken link (file:line: target: why) and exits 1 when there is one.
# usage: check_docs_links.sh [SRC_DIR]
set -uo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root" || exit 1
python3 - README.md docs/*.md <<'PY'
import os, re, sys

def strip_code(lines):
    """The lines with fenced blocks blanked and inline code removed (line numbers kept)."""
    out, fence = [], False
    for line in lines:
        if line.lstrip().startswith('```'):
            fence = not fence
            out.append('')
            continue
        out.append('' if fence else re.sub(r'`[^`]*`', '', line))
    return out

def anchors(path):
    seen, result = {}, set()
    fence = False
    for line in open(path, encoding='utf-8').read().split('\n'):
        if line.lstrip().startswith('```'):
            fence = not fence
        if fence:
            continue
        m = re.match(r'#{1,6} (.*)', line)
        if not m:
            continue
        text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', m.group(1).strip())
        slug = re.sub(r'[^\w\- ]', '', text.lower()).replace(' ', '-')
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else f'{slug}-{n}')
    for m in re.finditer(r'<a (?:name|id)="([^"]+)"', open(path, encoding='utf-8').read()):
        result.add(m.group(1))
    return result

bad = 0
checked = 0
for page in sys.argv[1:]:
    if not os.path.isfile(page):
        continue
    lines = strip_code(open(page, encoding='utf-8').read().split('\n'))
    for no, line in enumerate(lines, 1):
        for m in re.finditer(r'!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)', line):
            target = m.group(1)
            if re.match(r'(https?|mailto):', target):
                continue
            checked += 1
            path, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            why = None
            if os.path.isabs(path) or dest.startswith('..'):
                why = 'points outside the tree'
            elif not os.path.exists(dest):
                why = 'no such file'
            elif frag and (not dest.endswith('.md') or frag not in anchors(dest)):
                why = f'no heading #{frag} in {dest}'
            if why:
                print(f'docs_links: {page}:{no}: {target}: {why}')
                bad += 1
if bad:
    sys.exit(1)
if checked == 0:
    print('docs_links: FAIL: no links found (README.md and docs/*.md)')
    sys.exit(1)
print(f'docs_links: ok ({checked} links in README.md and docs/ resolve)')
PY
