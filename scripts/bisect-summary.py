#!/usr/bin/env python3
"""Write the summary of make bisect's logs as Markdown.

  bisect-summary.py BISECT-DIR SERIES-FILE [PROOFS] > Documentation/bisect.md
  bisect-summary.py --proof LOGS VARIANT PREFIX CODE-HASH HARNESS DATE
      (the line of PROOFS for a proven prefix, from its logs)

BISECT-DIR holds one directory per prefix, NN-<patch>/<variant>/, each
with the logs of that prefix's run (build-seconds, failed, report, the
code hash it ran and, if it passed, that hash in 'proven'), and 'hashes'
with the code hash of every prefix of the series now.  Every patch of
SERIES-FILE gets a row per variant; a prefix that was not run, or was run
with other code, says so, so that the table never claims more than the
logs show.  PROOFS (Documentation/bisect-proofs.txt) holds the proofs of
earlier runs, on this machine or another: a prefix whose logs are not
here, or are of other code, is shown from it when its code hash is the
current one.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import read  # noqa: E402

VARIANTS = {'bisect-series': 'y', 'bisect-series-off': 'n'}
COUNTS = re.compile(r'^(\d+) passed, (\d+) failed, (\d+) skipped$', re.M)


def first_word(path, default='-'):
    text = (read(path) or '').split()
    return text[0] if text else default


def row(logs, code_hash):
    """The columns of one prefix's run, and whether it proves the prefix as
    the series is now (its code hash is the current one); None if not run.
    """
    if not os.path.isdir(logs):
        return None
    failed = (read(os.path.join(logs, 'failed')) or '').strip()
    step = failed.split(' ', 1)[0] if failed else ''
    if step in ('tree', 'prepare', 'build'):
        build = 'failed'
    elif not read(os.path.join(logs, 'build-seconds')):
        build = 'not finished'
    else:
        build = 'ok'
    report = read(os.path.join(logs, 'report')) or ''
    status = (read(os.path.join(logs, 'boot.status')) or '').split()
    if build != 'ok':
        boot = '-'
    elif step in ('initramfs', 'boot') or not status:
        boot = 'failed'
    else:
        boot = 'ok' if status[0] == '0' else f'exit {status[0]}'
    m = list(COUNTS.finditer(report))
    passed, nfail, skipped = (m[-1].groups() if m else ('-', '-', '-'))
    if boot == 'ok' and re.search(r'^boot\s+\S*fail', report, re.M):
        boot = 'failed'
    build_s = first_word(os.path.join(logs, 'build-seconds'))
    boot_s = status[1] if len(status) > 1 else '-'
    harness = first_word(os.path.join(logs, 'harness'), '?')
    profile = first_word(os.path.join(logs, 'profile'), 'full')
    proven = first_word(os.path.join(logs, 'proven'), '') == code_hash
    if first_word(os.path.join(logs, 'code-hash'), '') != code_hash:
        build = 'stale: older code'
    return ((build, boot, passed, nfail, skipped, build_s, boot_s, harness, profile),
            proven)


def read_proofs(path):
    """{(variant, prefix): (code hash, columns)} from the ledger."""
    proofs = {}
    for line in (read(path) or '').splitlines() if path else []:
        f = line.split()
        # the profile, the last column, is 'full' where a line has none
        if not f or f[0].startswith('#') or len(f) not in (10, 11):
            continue
        variant, n, code_hash, harness, date, build_s, boot_s = f[:7]
        passed, nfail, skipped = f[7:10]
        profile = f[10] if len(f) > 10 else 'full'
        proofs[(variant, int(n))] = (code_hash, (
            f'ok ({date})', 'ok', passed, nfail, skipped, build_s, boot_s,
            harness, profile))
    return proofs


def seconds(value):
    return int(value) if value.isdigit() else 0


def main(bisect_dir, series_file, proofs_file=None):
    with open(series_file) as f:
        patches = [l.split('#')[0].strip() for l in f]
    patches = [p for p in patches if p]
    hashes = {}
    for line in (read(os.path.join(bisect_dir, 'hashes')) or '').splitlines():
        n, code_hash = line.split()
        hashes[int(n)] = code_hash
    ledger = read_proofs(proofs_file)
    out = ['# make bisect: every prefix of the series', '',
           'Written by `scripts/bisect-summary.py` from the logs of '
           '`make bisect` (`$CACHE_DIR/<version>/bisect/`); a row without '
           'figures is a prefix no run has reached, a stale one was run '
           'with other code than its patches hold now (changelogs aside). '
           '`JL`: CONFIG_JUMP_LABEL.  Checks: the harness\'s report for '
           'that prefix (build, boot, and the guest checks of its '
           '`checks` profile: `quick`, those of `BISECT_QUICK_CHECKS` in '
           '`scripts/bisect.sh`; `full`, every one).  `harness`: '
           'the commit of this repository that ran it.  `ok (date)`: '
           'proven by an earlier run, on that date, with the same code '
           '(`Documentation/bisect-proofs.txt`, kept in git because the '
           'cache does not outlive a machine).', '',
           '| prefix | patch | JL | build | boot | passed | failed | '
           'skipped | build s | boot s | harness | checks |',
           '|---:|---|:-:|---|---|---:|---:|---:|---:|---:|---|---|']
    proven = {v: 0 for v in VARIANTS}
    total = 0
    for variant, jl in VARIANTS.items():
        for n, patch in enumerate(patches, 1):
            name = patch[:-6] if patch.endswith('.patch') else patch
            logs = os.path.join(bisect_dir, f'{n:02d}-{name}', variant)
            r = row(logs, hashes.get(n))
            earlier = ledger.get((variant, n))
            if (earlier and earlier[0] == hashes.get(n)
                    and (r is None or r[0][0].startswith('stale'))):
                r = (earlier[1], True)
            if r is None:
                out.append(f'| {n} | {name} | {jl} | not run '
                           '| | | | | | | | |')
                continue
            cols, ok = r
            out.append(f'| {n} | {name} | {jl} | ' + ' | '.join(cols) + ' |')
            if ok:
                proven[variant] += 1
                total += seconds(cols[5]) + seconds(cols[6])
    out += ['', 'Proven (built, booted, no check failed, with the code the '
            'patches hold now): ' + ', '.join(
                f'{n} of {len(patches)} prefixes with CONFIG_JUMP_LABEL={jl}'
                for (v, jl), n in zip(VARIANTS.items(), proven.values()))
            + '.',
            # A line of its own: the letter quotes the line above, which
            # says what is proven, not what proving it cost.
            f'Their builds and boots took {total // 60} min in all.']
    print('\n'.join(out))


def proof_line(logs, variant, n, code_hash, harness, date):
    """The ledger's line for one proven prefix, from its logs."""
    m = list(COUNTS.finditer(read(os.path.join(logs, 'report')) or ''))
    counts = m[-1].groups() if m else ('-', '-', '-')
    status = (read(os.path.join(logs, 'boot.status')) or '').split()
    return ' '.join((variant, n, code_hash, harness, date,
                     first_word(os.path.join(logs, 'build-seconds')),
                     status[1] if len(status) > 1 else '-') + counts
                    + (first_word(os.path.join(logs, 'profile'), 'full'),))


if __name__ == '__main__':
    if len(sys.argv) == 8 and sys.argv[1] == '--proof':
        print(proof_line(*sys.argv[2:]))
    elif len(sys.argv) in (3, 4):
        main(*sys.argv[1:])
    else:
        sys.exit(__doc__.strip())
