#!/usr/bin/env python3
"""break-verdict.py REPORT.json CHECK[,CHECK...]: whether a deliberate
break (scripts/breaks.sh) was caught: one of the CHECKs (or a case of
one) failed, or the boot did (the kernel died while they ran).  Prints
the failures that caught it, or what passed; exit status 1 if none."""

import json
import sys


def main(path, checks):
    with open(path) as f:
        rows = [row for run in json.load(f)['runs'].values() for row in run]
    names = checks.split(',')
    caught = [f'{n}: {why}' for n, status, why in rows if status == 'fail' and
              (n == 'boot' or any(n == c or n.startswith(c + '.') for c in names))]
    if caught:
        print('; '.join(c[:160] for c in caught[:3]))
        return 0
    ran = [n for n, status, _ in rows if any(n == c or n.startswith(c + '.') for c in names)]
    print(f'{len(ran)} rows of {checks} and the boot passed' if ran else f'{checks} did not run')
    return 1


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:3]))
