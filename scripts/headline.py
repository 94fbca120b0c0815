#!/usr/bin/env python3
"""headline.py [--text]: the figures a kernel developer asks first, from
the records in the repository, for each tree of configs/tree/ (6.1
first): its last make check (check-results*.json in the tree's
Documentation directory, per architecture; make check-readme copies them
there) and its last make bench (results.csv in its bench directory; make
bench-readme).  Markdown tables for README.md, every tree's; with --text
a plain table of the tree being worked on (TREE), for its cover letter.
Figures only; no record, no row.  Standard library only.
"""
import csv
import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, 'scripts'))
from report import tree_path, tree_row  # noqa: E402

# (title, figure, how): the -O2 medians of make bench, series against
# distro and off; "ratio" prints series/distro and series/off, "counts"
# the three values.
BENCH = [
    ('pipe-test, 20,000 round trips (guest ns)', 'pipe_ns', 'ratio'),
    ('sched_yield() pair (guest ns)', 'yield_ns', 'ratio'),
    ('getppid loop through a branch (guest ns)', 'getppid_ns', 'ratio'),
    ('enabling a key of 1 site (guest ns)', 'flip_1_enable_ns', 'ratio'),
    ('enabling a key of 10,000 sites (guest ns)', 'flip_10000_enable_ns', 'ratio'),
    ('  sync rounds, enable + disable', 'flip_10000_sync_rounds', 'counts'),
    ('  text_poke() mm switches', 'flip_10000_sync_mm_switches', 'counts'),
    ('  TLB flushes', 'flip_10000_sync_tlb_flushes', 'counts'),
    ('load of a module of 11,111 sites (guest ns)', 'load_ns', 'ratio'),
    ('jump_label_init() (TSC, -icount)', 'jump_label_init_cycles', 'ratio'),
]


def trees():
    """The trees of configs/tree/, oldest first: 6.1, 6.12."""
    names = [n[:-5] for n in os.listdir(os.path.join(REPO, 'configs', 'tree'))
             if n.endswith('.conf')]
    return sorted(names, key=lambda t: [int(x) for x in re.findall(r'\d+', t)])


def tree_dirs(tree):
    """(TREE_DOCS, TREE_BENCH) of TREE, as scripts/lib.sh has them."""
    row = tree_row(tree)
    return row['TREE_DOCS'], row['TREE_BENCH']


def bench(tree):
    """{(variant, figure): median} of TREE's make bench, at -O2."""
    out = {}
    path = os.path.join(tree_dirs(tree)[1], 'results.csv')
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for row in csv.DictReader(f):
            if row['level'] == 'O2':
                out[(row['variant'], row['figure'])] = float(row['median'])
    return out


def checks():
    """[(variant, passed, failed, skipped)] of every record there is, tree
    by tree (the first tree's variants by their names, another's as
    "6.12 series" and so on)."""
    rows = []
    for i, tree in enumerate(trees()):
        docs = tree_dirs(tree)[0]
        prefix = f'{tree} ' if i else ''
        if not os.path.isdir(docs):
            continue
        for name in sorted(os.listdir(docs)):
            if not (name.startswith('check-results') and name.endswith('.json')):
                continue
            with open(os.path.join(docs, name)) as f:
                rec = json.load(f)
            for variant, results in rec.get('runs', rec).items():
                n = {s: sum(1 for r in results if r[1] == s)
                     for s in ('ok', 'fail', 'skip')}
                rows.append((prefix + variant, n['ok'], n['fail'], n['skip']))
    return rows


def fmt(x):
    return f'{x:,.0f}' if x >= 10 else f'{x:g}'


def table(tree):
    """[(figure, series, distro, off, series/distro, series/off)] of
    TREE's make bench."""
    b = bench(tree)
    out = []
    for title, fig, how in BENCH:
        vals = [b.get((v, fig)) for v in ('series', 'distro', 'off')]
        if vals[0] is None:
            continue
        s, d, o = vals
        if how == 'ratio':
            out.append((title, fmt(s), fmt(d) if d is not None else '-',
                        fmt(o) if o is not None else '-',
                        f'{s / d:.4f}' if d else '-',
                        f'{s / o:.4f}' if o and fig != 'flip_1_enable_ns'
                        and 'flip' not in fig and 'init' not in fig else '-'))
        else:
            out.append((title, fmt(s), fmt(d) if d is not None else '-',
                        fmt(o) if o is not None else '-', '', ''))
    return out


def main(argv):
    text = argv[1:2] == ['--text']
    if text:
        # The letter's lines stay under 80 columns: no 'off' column.
        tree = tree_path('TREE')
        head = ('-O2', 'series', 'distro', '/distro', '/off')
        rows = [(t.replace(' (guest ns)', '').replace(', 20,000 round trips', ''),
                 s, d, rd, ro) for t, s, d, _o, rd, ro in table(tree)]
        widths = [max(len(str(r[i])) for r in rows + [head])
                  for i in range(len(head))]
        for r in [head] + rows:
            print('  ' + '  '.join(str(c).ljust(w) if i == 0 else
                                   str(c).rjust(w)
                                   for i, (c, w) in enumerate(zip(r, widths))
                                   ).rstrip())
        return 0
    blocks = []
    for tree in trees():
        rows = table(tree)
        if not rows:
            continue
        head = (f'{tree}, -O2, one run of make bench', 'series', 'distro',
                'off', 'series/distro', 'series/off')
        blocks.append(['| ' + ' | '.join(head) + ' |',
                       '|' + '---|' * len(head)] +
                      ['| ' + ' | '.join(r) + ' |' for r in rows])
    c = checks()
    if c:
        blocks.append(['| make check, kernel | passed | failed | skipped |',
                       '|---|---|---|---|'] +
                      [f'| {v} | {ok} | {fail} | {skip} |'
                       for v, ok, fail, skip in c])
    print('\n\n'.join('\n'.join(b) for b in blocks))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
