#!/usr/bin/env python3
"""The CI workflow (.github/workflows/matrix.yml) parses as YAML and runs
the whole matrix: every kernel of make check (both architectures), make
check-debug, make breaks, and make bisect over every prefix in both configurations,
as slices whose ranges cover 1..N with no gap or overlap; and its last
job merges them.  KTAP on standard output."""
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


want = variants('') | variants('arm64') | {'host'}
have = set()
for row in jobs['check']['strategy']['matrix']['include']:
    have |= set(row['variants'].split(','))
result(want == have, 'every_kernel_of_make_check',
       f'missing: {sorted(want - have)}; unknown: {sorted(have - want)}')

n = len([line for line in open(os.path.join(REPO, 'series')) if line.strip()])
ranges = jobs['bisect']['strategy']['matrix']['prefixes']
covered = []
for r in ranges:
    a, b = map(int, re.fullmatch(r'(\d+)-(\d+)', r).groups())
    covered += range(a, b + 1)
result(sorted(covered) == list(range(1, n + 1)), 'bisect_ranges_cover_the_series',
       f'{ranges} for {n} patches')
result(set(jobs['bisect']['strategy']['matrix']['config']) == {'series', 'series-off'},
       'bisect_both_configurations')
steps = ' '.join(str(s.get('run', '')) for s in jobs['merge']['steps'])
result('make report SLICES=' in steps and set(jobs['merge']['needs']) >= {'check', 'bisect'},
       'last_job_merges')

print('KTAP version 1')
print(f'1..{len(results)}')
for i, (ok, name, why) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} {name}" + (f' # {why}' if why and not ok else ''))
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
