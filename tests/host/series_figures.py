#!/usr/bin/env python3
"""A figure stated in the series' text must be one the generated results
hold.  In every patch's changelog and notes and in the cover letter's
written text (Documentation/cover-letter.md), a number given with a unit
that make bench or make bisect measures (sites, instructions, cycles, ns,
sync rounds or CPU syncs, a ratio such as 0.2245 or 0.22x, a percentage)
must equal a figure of the tree's make bench results.csv or its
bisect.md; and the cover letter's "Over N changed lines:
A, B and C" must name exactly the patches of more changed lines than N.
KTAP on standard output."""
import csv
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))
from report import tree_path  # noqa: E402

# The tree's files, as scripts/lib.sh has them.
SERIES = tree_path('TREE_SERIES')
PATCHES = tree_path('TREE_PATCHES')
DOCS = tree_path('TREE_DOCS')
BENCH = tree_path('TREE_BENCH')
UNITS = r'(?:sites?|instructions|cycles|ns|sync rounds|rounds|CPU syncs|%|x\b)'
FIGURE = re.compile(r'(?<![\w.-])(\d[\d,]*(?:\.\d+)?)\s*' + UNITS)
RATIO = re.compile(r'(?<![\w.])(0\.\d{3,})(?!\d)')


def known_figures():
    """Every figure the generated results hold, as numbers."""
    out = set()
    path = os.path.join(BENCH, 'results.csv')
    if os.path.exists(path):
        rows = list(csv.DictReader(open(path)))
        for r in rows:
            for k in ('min', 'median', 'max'):
                out.add(round(float(r[k]), 4))
        med = {(r['level'], r['variant'], r['figure']): float(r['median'])
               for r in rows}
        for (lvl, v, fig), x in med.items():
            for ref in ('distro', 'off'):
                y = med.get((lvl, ref, fig))
                if y:
                    out.add(round(x / y, 4))
                    out.add(round(x / y, 2))
    for name in ('bisect.md',):
        path = os.path.join(DOCS, name)
        if os.path.exists(path):
            for m in re.finditer(r'\d[\d,]*(?:\.\d+)?', open(path).read()):
                out.add(round(float(m.group().replace(',', '')), 4))
    return out


def texts():
    """(name, text): each patch's changelog and notes, up to its diff, and
    the cover letter's written text."""
    for name in open(SERIES).read().split():
        t = open(os.path.join(PATCHES, name)).read()
        t = t.split('\ndiff --git ', 1)[0]
        t = t.split('\nSubject: ', 1)[-1]
        yield name, t
    t = open(os.path.join(DOCS, 'cover-letter.md')).read()
    yield 'cover-letter.md', re.sub(r'<!--.*?-->', '', t, flags=re.S)


def changed_lines():
    out = {}
    for i, name in enumerate(open(SERIES).read().split(), 1):
        t = open(os.path.join(PATCHES, name)).read()
        m = re.search(r'(\d+) insertions?\(\+\)', t)
        d = re.search(r'(\d+) deletions?\(-\)', t)
        out[i] = (int(m.group(1)) if m else 0) + (int(d.group(1)) if d else 0)
    return out


def main():
    known = known_figures()
    results = []
    for name, text in texts():
        bad = []
        for m in list(FIGURE.finditer(text)) + list(RATIO.finditer(text)):
            x = round(float(m.group(1).replace(',', '')), 4)
            if x not in known:
                bad.append(m.group(0).strip())
        results.append((not bad, f'figures_of_{name}',
                        'not in the generated results: ' + ', '.join(bad)))
    letter = dict(texts())['cover-letter.md']
    m = re.search(r'Over (\d+) changed\s+lines:\s*([^.]*)', letter)
    if m:
        said = {int(n) for n in re.findall(r'\b(\d+)\b', m.group(2))}
        sizes = changed_lines()
        real = {i for i, n in sizes.items() if n > int(m.group(1))}
        results.append((said == real, 'cover_letter_large_patches',
                        f'says {sorted(said)}, the patches over {m.group(1)} '
                        f'changed lines are {sorted(real)}'))
    print('KTAP version 1')
    print(f'1..{len(results)}')
    for i, (ok, name, why) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}" + ('' if ok else f' # {why}'))
    return 0 if all(r[0] for r in results) else 1


if __name__ == '__main__':
    sys.exit(main())
