#!/usr/bin/env python3
"""break-verdict.py REPORT.json CHECK[,CHECK...] SERIAL [CRASH-SITE]: whether
a deliberate break (scripts/breaks.sh) was caught by what its patch says
catches it.  Caught: one of the CHECKs (or a case of one) failed; the
boot failing is not enough, since any break can crash a kernel.  A break
that is meant to crash names where (its patch's Crash-site: line): then a
boot that died with an oops or BUG whose report names CRASH-SITE (the
"kernel BUG at FILE" line, or the function of its RIP or pc; one of a
comma-separated list, where the same bug can stop the kernel in more
than one place) is caught too.  Prints what caught it, or what passed; exit status 1 if nothing
did."""

import json
import re
import sys

OOPS = re.compile(r'(kernel BUG at |BUG: |Oops: |Unable to handle kernel |'
                  r'general protection fault)')
WHERE = re.compile(r'(kernel BUG at \S+|RIP: [0-9a-f]+:(\S+)|pc : (\S+))')


def crash_report(serial):
    """The first oops of the kernel log SERIAL: its first line, and where
    it happened (the BUG's file and line, the RIP's or pc's function)."""
    try:
        lines = open(serial, errors='replace').read().splitlines()
    except OSError:
        return None, []
    for i, line in enumerate(lines):
        if OOPS.search(line):
            where = []
            for later in lines[i:i + 60]:
                m = WHERE.search(later)
                if m:
                    where.append(m.group(2) or m.group(3) or m.group(1))
            return line[OOPS.search(line).start():].strip(), where
    return None, []


def main(path, checks, serial, crash_site=''):
    with open(path) as f:
        rows = [row for run in json.load(f)['runs'].values() for row in run]
    names = checks.split(',')
    mine = [(n, status, why) for n, status, why in rows
            if any(n == c or n.startswith(c + '.') for c in names)]
    # a check the kernel died in stopped without a verdict of its own
    # (ktap.py: "no result line"): that is the crash's, judged below
    caught = [f'{n}: {why}' for n, status, why in mine if status == 'fail'
              and not why.startswith('no result line')]
    if caught:
        print('; '.join(c[:160] for c in caught[:3]))
        return 0
    oops, where = crash_report(serial)
    sites = [c.strip() for c in crash_site.split(',') if c.strip()]
    hit = [c for c in sites if any(c in w for w in where)]
    if oops and hit:
        print(f'crashed as meant, in {hit[0]}: {oops[:120]} ({", ".join(where[:2])})')
        return 0
    said = f'{len(mine)} rows of {checks} passed' if mine else f'{checks} did not run'
    if oops:
        said += (f'; the kernel died elsewhere than {crash_site}' if crash_site else
                 '; the kernel died, which names no check') + \
            f': {oops[:120]} ({", ".join(where[:2]) or "no RIP"})'
    print(said)
    return 1


if __name__ == '__main__':
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__)
    sys.exit(main(*sys.argv[1:]))
