#!/usr/bin/env python3
"""Write the summary of make bisect's logs as Markdown.

  bisect-summary.py BISECT-DIR SERIES-FILE > Documentation/bisect.md

BISECT-DIR holds one directory per prefix, NN-<patch>/<variant>/, each
with the logs of that prefix's run (build-seconds, failed, report).  Every
patch of SERIES-FILE gets a row per variant; a prefix that was not run
says so, so that the table never claims more than the logs show.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import read  # noqa: E402

VARIANTS = {'series': 'y', 'series-off': 'n'}
COUNTS = re.compile(r'^(\d+) passed, (\d+) failed, (\d+) skipped$', re.M)


def row(logs):
    """(build, boot, passed, failed, skipped, build seconds) of one run."""
    if not os.path.isdir(logs):
        return None
    failed = (read(os.path.join(logs, 'failed')) or '').strip()
    step = failed.split(' ', 1)[0] if failed else ''
    build = 'failed' if step in ('tree', 'prepare', 'build') else 'ok'
    report = read(os.path.join(logs, 'report')) or ''
    status = read(os.path.join(logs, 'boot.status'))
    if build != 'ok':
        boot = '-'
    elif step in ('initramfs', 'boot') or not status:
        boot = 'failed'
    else:
        boot = 'ok' if status.split()[0] == '0' else f'exit {status.split()[0]}'
    m = list(COUNTS.finditer(report))
    passed, nfail, skipped = (m[-1].groups() if m else ('-', '-', '-'))
    if boot == 'ok' and re.search(r'^boot\s+\S*fail', report, re.M):
        boot = 'failed'
    seconds = (read(os.path.join(logs, 'build-seconds')) or '-').strip()
    return build, boot, passed, nfail, skipped, seconds


def main(bisect_dir, series_file):
    with open(series_file) as f:
        patches = [l.split('#')[0].strip() for l in f]
    patches = [p for p in patches if p]
    out = ['# make bisect: every prefix of the series', '',
           'Written by `scripts/bisect-summary.py` from the logs of '
           '`make bisect` (`$CACHE_DIR/<version>/bisect/`); a row without '
           'figures is a prefix that run did not reach.  `JL`: '
           'CONFIG_JUMP_LABEL.  Checks: the harness\'s report for that '
           'prefix (build, boot, and every guest check).', '',
           '| prefix | patch | JL | build | boot | passed | failed | '
           'skipped | build s |',
           '|---:|---|:-:|---|---|---:|---:|---:|---:|']
    proven = {v: 0 for v in VARIANTS}
    for variant, jl in VARIANTS.items():
        for n, patch in enumerate(patches, 1):
            logs = os.path.join(bisect_dir, f'{n:02d}-{patch[:-6]}', variant)
            r = row(logs)
            name = patch[:-6] if patch.endswith('.patch') else patch
            if r is None:
                out.append(f'| {n} | {name} | {jl} | not run | | | | | |')
                continue
            out.append(f'| {n} | {name} | {jl} | ' + ' | '.join(r) + ' |')
            if r[0] == r[1] == 'ok' and r[3] == '0':
                proven[variant] += 1
    out += ['', 'Proven (built, booted, no check failed): ' + ', '.join(
        f'{n} of {len(patches)} prefixes with CONFIG_JUMP_LABEL={jl}'
        for (v, jl), n in zip(VARIANTS.items(), proven.values())) + '.']
    print('\n'.join(out))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    main(sys.argv[1], sys.argv[2])
