#!/usr/bin/env python3
"""The 6.12 series is the 6.1 series rebased: patch by patch, the same
subject, changelog and added and removed lines, except where
patches/6.12/differs says what differs and why (and that file names no
difference that is not there).  KTAP on standard output."""
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))
from report import tree_row  # noqa: E402

# (tree, its patches' directory, its series file), as lib.sh has them.
TREES = tuple((t, r['TREE_PATCHES'], r['TREE_SERIES'])
              for t in ('6.1', '6.12') for r in [tree_row(t)])
results = []


def result(ok, name, why=''):
    results.append((ok, name, why))


def patches(top, series):
    """{number: (subject, changelog, changed lines)} of a series."""
    out = {}
    for name in open(series).read().split():
        text = open(os.path.join(top, name)).read()
        head, _, diff = text.partition('\ndiff --git ')
        subject = re.search(r'^Subject: (?:\[PATCH[^]]*\] )?(.*(?:\n .*)*)', head, re.M)
        subject = ' '.join(subject.group(1).split()) if subject else ''
        body = head.split('\n\n', 1)[1] if '\n\n' in head else ''
        changelog = body.split('\n---\n', 1)[0].strip()
        lines = [line for line in diff.splitlines()
                 if line[:1] in '+-' and not line.startswith(('+++ ', '--- '))]
        out[name[:4]] = (subject, changelog, lines)
    return out


old = patches(*TREES[0][1:])
new = patches(*TREES[1][1:])
declared = {}
for line in open(os.path.join(REPO, 'patches', '6.12', 'differs')):
    words = line.split('#', 1)[0].split(None, 2)
    if len(words) == 3:
        declared[words[0]] = set(words[1].split(','))

result(sorted(old) == sorted(new), 'same_number_of_patches',
       f'6.1: {len(old)}, 6.12: {len(new)}')
wrong = []
for n in sorted(set(old) & set(new)):
    differs = set()
    if old[n][:2] != new[n][:2]:
        differs.add('text')
    if old[n][2] != new[n][2]:
        differs.add('code')
    if differs != declared.get(n, set()):
        wrong.append(f"{n}: differs in {','.join(sorted(differs)) or 'nothing'}, "
                     f"differs says {','.join(sorted(declared.get(n, set()))) or 'nothing'}")
result(not wrong, 'differences_as_declared', '; '.join(wrong[:4]))

print('KTAP version 1')
print(f'1..{len(results)}')
for i, (ok, name, why) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} {name}" + (f' # {why}' if why and not ok else ''))
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
