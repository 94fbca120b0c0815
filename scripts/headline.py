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
import importlib.util
import json
import os
import re
import sys
import textwrap

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
    ('enabling and disabling it, together (guest ns)', 'flip_10000_enable_ns+flip_10000_disable_ns', 'ratio'),
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


def bench_stats(tree, arch='x86_64'):
    """{(level, variant, figure): {min, median, max}} of TREE's make bench
    for ARCH (results.csv; another architecture's in its subdirectory); a
    figure 'A+B' is the sum of A's and B's medians."""
    out = {}
    path = os.path.join(tree_dirs(tree)[1], '' if arch == 'x86_64' else arch, 'results.csv')
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for row in csv.DictReader(f):
            out[(row['level'], row['variant'], row['figure'])] = {
                k: float(row[k]) for k in ('min', 'median', 'max')}
    return out


def figure(stats, level, variant, fig):
    """The stats of FIG (a sum of figures: its medians') or None."""
    parts = [stats.get((level, variant, f)) for f in fig.split('+')]
    if None in parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return {'median': sum(p['median'] for p in parts)}


def bench(tree):
    """{(variant, figure): median} of TREE's make bench, at -O2."""
    st = bench_stats(tree)
    return {(v, f): figure(st, 'O2', v, f)['median'] for v in ('series', 'distro', 'off')
            for _t, f, _h in BENCH if figure(st, 'O2', v, f)}


def bench_report():
    """scripts/bench-report.py as a module: its goals and their verdict."""
    spec = importlib.util.spec_from_file_location(
        'bench_report', os.path.join(REPO, 'scripts', 'bench-report.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def goals(tree, arch='x86_64'):
    """[(goal, level, series/distro, bound, verdict)] of TREE's make bench
    for ARCH, by make bench's own goals and verdict (bench-report.py
    GOALS); the flip's figure is its enable and disable together."""
    br = bench_report()
    st = bench_stats(tree, arch)
    out = []
    for level in ('O2', 'Os'):
        for what, fig, bound in br.GOALS:
            if fig.startswith('flip_'):
                fig = f'{fig}_enable_ns+{fig}_disable_ns'
            a, b = (figure(st, level, v, fig) for v in ('series', 'distro'))
            if a and b:
                q, verdict = br.goal_verdict(a, b, bound)
                out.append((what, level, q, bound, verdict))
    return out


def goals_line(tree):
    """One paragraph: how many of make bench's goals are met, and each
    one that is not, with its figure; x86-64's, then each other
    architecture's that has results."""
    parts = []
    for arch in ['x86_64'] + [a for a in ('arm64',) if bench_stats(tree, a)]:
        rows = goals(tree, arch)
        if not rows:
            continue
        met = [r for r in rows if r[4] == 'met']
        missed = [r for r in rows if r[4] == 'missed']
        close = [r for r in rows if r[4] not in ('met', 'missed')]
        name = 'x86-64' if arch == 'x86_64' else arch
        line = f'{name}: {len(met)} of {len(rows)} met'
        if close:
            line += ('; ' + ', '.join(f'{w} at -{lv} ({q:.4f})' for w, lv, q, _b, _v in close)
                     + ' missed by the medians but within the samples\' ranges')
        if missed:
            line += ('; missed: ' + ', '.join(f'{w} at -{lv}, {q:.4f} against ≤ {b}'
                                              for w, lv, q, b, _v in missed))
        parts.append(line)
    if not parts:
        return ''
    return ('Make bench\'s goals (series/distro at most the bound, -O2 and -Os): '
            + '. '.join(parts) + '.')


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
        line = goals_line(tree)
        if line:
            print()
            print(textwrap.fill(line, 72, break_on_hyphens=False))
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
        if goals_line(tree):
            blocks.append([goals_line(tree)])
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
