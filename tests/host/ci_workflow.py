#!/usr/bin/env python3
"""The CI workflow (.github/workflows/matrix.yml) parses as YAML and runs
the whole matrix, for both trees: every kernel of make check (both
architectures), make check-debug, make breaks, and make bisect over every
prefix in both configurations, as slices whose ranges cover 1..N with no
gap or overlap; and its last job merges each tree's.  KTAP on standard output."""
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The trees (configs/tree/) and their series files.
TREES = {'6.1': 'series', '6.12': os.path.join('patches', '6.12', 'series')}
results = []


def result(ok, name, why=''):
    results.append((ok, name, why))


try:
    import yaml
except ImportError:
    with open(os.environ.get('SKIP_FILE', os.devnull), 'w') as f:
        f.write('no python3-yaml (make deps)')
    sys.exit(4)

with open(os.path.join(REPO, '.github', 'workflows', 'matrix.yml')) as f:
    wf = yaml.safe_load(f)
jobs = wf['jobs']
result(set(jobs) >= {'check', 'check-debug', 'breaks', 'bisect', 'merge'}, 'jobs',
       f'jobs: {sorted(jobs)}')


def variants(arch):
    out = subprocess.run(['sh', '-c', '. scripts/lib.sh && echo "$VARIANTS"'],
                         cwd=REPO, capture_output=True, text=True,
                         env=dict(os.environ, REPO=REPO, HARNESS_ARCH=arch, CHECK_VARIANTS=''))
    return set(out.stdout.split())


want = {(tree, v) for tree in TREES
        for v in variants('') | variants('arm64') | {'host'}}
have = set()
for row in jobs['check']['strategy']['matrix']['include']:
    have |= {(str(row['tree']), v) for v in row['variants'].split(',')}
result(want == have, 'every_kernel_of_make_check_in_every_tree',
       f'missing: {sorted(want - have)}; unknown: {sorted(have - want)}')

bisect = jobs['bisect']['strategy']['matrix']
result(set(map(str, bisect['tree'])) == set(TREES), 'bisect_every_tree',
       f"trees: {bisect['tree']}")
for tree, series in TREES.items():
    n = len([line for line in open(os.path.join(REPO, series)) if line.strip()])
    covered = []
    for r in bisect['prefixes']:
        a, b = map(int, re.fullmatch(r'(\d+)-(\d+)', r).groups())
        covered += range(a, b + 1)
    result(sorted(covered) == list(range(1, n + 1)), f'bisect_ranges_cover_the_{tree}_series',
           f"{bisect['prefixes']} for {n} patches")
result(set(bisect['config']) == {'series', 'series-off'},
       'bisect_both_configurations')
steps = ' '.join(str(s.get('run', '')) for s in jobs['merge']['steps'])
result(all(f'make report TREE={tree} SLICES=' in steps for tree in TREES) and
       set(jobs['merge']['needs']) >= {'check', 'bisect'},
       'last_job_merges_every_tree')

print('KTAP version 1')
print(f'1..{len(results)}')
for i, (ok, name, why) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} {name}" + (f' # {why}' if why and not ok else ''))
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
