#!/usr/bin/env python3
"""headline.py [--text]: the figures a kernel developer asks first, from
the records in the repository: Documentation/check-results*.json (the
last make check, per architecture; make check-readme copies them there;
Documentation/6.12/ holds 6.12's)
and Documentation/bench/results.csv (the last make bench; make
bench-readme).  Markdown rows for README.md, or with --text a plain
table for the cover letter.  Figures only; no record, no row.
Standard library only.
"""
import csv
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(REPO, 'Documentation')

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


def bench(path=os.path.join(DOC, 'bench', 'results.csv')):
    """{(variant, figure): median} at -O2."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for row in csv.DictReader(f):
            if row['level'] == 'O2':
                out[(row['variant'], row['figure'])] = float(row['median'])
    return out


def checks():
    """[(variant, passed, failed, skipped)] of every record there is: 6.1's
    in Documentation/, then 6.12's in Documentation/6.12/ (its variants
    named "6.12 series" and so on)."""
    rows = []
    for docs, prefix in ((DOC, ''), (os.path.join(DOC, '6.12'), '6.12 ')):
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


def table():
    """[(figure, series, distro, off, series/distro, series/off)]."""
    b = bench()
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
    rows = table()
    head = ('-O2, one run of make bench', 'series', 'distro', 'off',
            'series/distro', 'series/off')
    if text:
        # The letter's lines stay under 80 columns: no 'off' column.
        head = ('-O2', 'series', 'distro', '/distro', '/off')
        rows = [(t.replace(' (guest ns)', '').replace(', 20,000 round trips', ''),
                 s, d, rd, ro) for t, s, d, _o, rd, ro in rows]
        widths = [max(len(str(r[i])) for r in rows + [head])
                  for i in range(len(head))]
        for r in [head] + rows:
            print('  ' + '  '.join(str(c).ljust(w) if i == 0 else
                                   str(c).rjust(w)
                                   for i, (c, w) in enumerate(zip(r, widths))
                                   ).rstrip())
        return 0
    if rows:
        print('| ' + ' | '.join(head) + ' |')
        print('|' + '---|' * len(head))
        for r in rows:
            print('| ' + ' | '.join(r) + ' |')
    c = checks()
    if c:
        print()
        print('| make check, kernel | passed | failed | skipped |')
        print('|---|---|---|---|')
        for v, ok, fail, skip in c:
            print(f'| {v} | {ok} | {fail} | {skip} |')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
