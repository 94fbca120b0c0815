#!/usr/bin/env python3
"""The CI matrix as data: every job the workflow runs (.github/workflows/
matrix.yml) is a row here, run by one command that does the same on a
runner and on this machine.

  ci.py list [--json]            the jobs, one id a line (--json: a list, for
                                 the workflow's matrix)
  ci.py list --local             the jobs that fit one machine (make ci-local's
                                 default): each tree's series, distro and host
                                 slices, and one bisect range
  ci.py command JOB              the make command of JOB
  ci.py run JOB OUT              JOB in a cache directory of its own
                                 ($CI_CACHE/JOB), its results into OUT/JOB/:
                                 job.json (command, exit status, seconds), the
                                 tree's records, its make check records and
                                 bisect ledger
  ci.py merge OUT [--jobs A,B] [--summary FILE]
                                 every job's results of OUT merged, each tree
                                 apart: the proof records (records.py merge),
                                 make check's table (report.py --merge), the
                                 bisect ledger; a Markdown summary to FILE (or
                                 standard output); exit 1, at the end, if a
                                 job of the list (or of --jobs) is missing or
                                 failed, or a proof failed

A job id is TREE:KIND[:ARG]: check:VARIANT (a kernel of make check, or
host), check-debug, breaks, cross-build, bisect:CONFIG:A-B (make bisect
of prefixes A to B, proven again from source).  Every boot is pinned to
TCG (ACCEL=tcg,thread=single), whatever the runner offers, so that
results compare.
"""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import REPO, tree_row  # noqa: E402
from headline import trees  # noqa: E402

# make check's kernels each job runs alone; host is the harness's tests
CHECK_SLICES = ('series', 'distro', 'off', 'series-off', 'host',
                'arm64-series', 'arm64-distro', 'arm64-off', 'arm64-series-off',
                'defconfig-series', 'defconfig-distro',
                'arm64-defconfig-series', 'arm64-defconfig-distro')
# make bisect's ranges, so that a job stays within a runner's time
BISECT_RANGE = 7
ACCEL = 'tcg,thread=single'


def series_length(tree):
    path = tree_row(tree)['TREE_SERIES']
    return len([line for line in open(path) if line.split('#')[0].strip()])


def bisect_ranges(tree):
    n = series_length(tree)
    return [f'{a}-{min(a + BISECT_RANGE - 1, n)}' for a in range(1, n + 1, BISECT_RANGE)]


def jobs():
    out = []
    for tree in trees():
        out += [f'{tree}:check:{v}' for v in CHECK_SLICES]
        out += [f'{tree}:check-debug', f'{tree}:breaks', f'{tree}:cross-build']
        out += [f'{tree}:bisect:{c}:{r}' for c in ('series', 'series-off')
                for r in bisect_ranges(tree)]
    return out


def local_jobs():
    """The jobs make ci-local runs by default: what one 2-CPU machine does
    in about an hour and a half, warm (the whole list takes days)."""
    out = [f'{tree}:check:{v}' for tree in trees() for v in ('series', 'distro', 'host')]
    first = trees()[0]
    return out + [f'{first}:bisect:series:{bisect_ranges(first)[0]}']


def parse(job):
    parts = job.split(':')
    if parts[0] not in trees() or len(parts) < 2:
        raise SystemExit(f'ci.py: no job {job} (ci.py list)')
    return parts[0], parts[1], parts[2:]


def command(job):
    """The make command of JOB, and its environment."""
    tree, kind, args = parse(job)
    env = {'ACCEL': ACCEL}
    if kind == 'check' and len(args) == 1 and args[0] in CHECK_SLICES:
        cmd = f'make check TREE={tree} VARIANTS={args[0]}'
    elif kind in ('check-debug', 'breaks', 'cross-build') and not args:
        cmd = f'make {kind} TREE={tree}'
    elif kind == 'bisect' and len(args) == 2:
        cmd = f'make bisect TREE={tree} CONFIGS={args[0]} PREFIXES={args[1]}'
        env['BISECT_FRESH'] = 'y'
    else:
        raise SystemExit(f'ci.py: no job {job} (ci.py list)')
    if job not in jobs():
        raise SystemExit(f'ci.py: {job} is not a job of the matrix (ci.py list)')
    return cmd, env


def job_dir(job):
    return job.replace(':', '_')


def docs(tree):
    return tree_row(tree)['TREE_DOCS']


def ci_cache():
    return os.environ.get('CI_CACHE', os.path.expanduser('~/.cache/static-keys-ci'))


def share_pristine(tree, cache):
    """The tree's pristine tree, unpacked once for every job: seeded into
    CACHE from $CI_CACHE/pristine/VERSION (hard links: nothing writes a
    pristine tree's files), or, the first time, kept there from CACHE after
    the job unpacked it."""
    env = dict(os.environ, TREE=tree, REPO=REPO)
    try:
        version = subprocess.run(['sh', '-c', '. scripts/lib.sh && pkg_version'], cwd=REPO,
                                 env=env, capture_output=True, text=True, check=True).stdout.strip()
    except subprocess.CalledProcessError:
        return None
    shared = os.path.join(ci_cache(), 'pristine', version)
    mine = os.path.join(cache, version, 'pristine')
    if os.path.isdir(shared) and not os.path.exists(mine):
        os.makedirs(os.path.dirname(mine), exist_ok=True)
        subprocess.run(['cp', '-al', shared, mine], check=True)
    return shared, mine


def keep_pristine(shared, mine):
    if not os.path.exists(shared) and os.path.isdir(mine):
        os.makedirs(os.path.dirname(shared), exist_ok=True)
        subprocess.run(['cp', '-al', mine, shared], check=True)


def run(job, out):
    """JOB in its own cache directory; its results into OUT/JOB."""
    tree, kind, _ = parse(job)
    cmd, env = command(job)
    cache = os.path.join(ci_cache(), job_dir(job))
    env = dict(os.environ, CACHE_DIR=cache, **env)
    # the packages first, so that the tree's version is known
    subprocess.run(['make', 'deps', f'TREE={tree}'], cwd=REPO, env=env, check=False)
    pristine = share_pristine(tree, cache)
    dest = os.path.join(out, job_dir(job))
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    print(f'ci.py: {job}: {cmd} (CACHE_DIR={cache}; results: {dest})', file=sys.stderr, flush=True)
    start = time.time()
    rc = subprocess.run(cmd.split(), cwd=REPO, env=env).returncode
    seconds = int(time.time() - start)
    if pristine:
        keep_pristine(*pristine)
    # what the job proved: the tree's records as the run left them, its
    # make check records, its bisect ledger
    records = os.path.join(docs(tree), 'records')
    if os.path.isdir(records):
        shutil.copytree(records, os.path.join(dest, 'records'))
    for root, _dirs, files in os.walk(cache):
        for f in files:
            if f.startswith('check') and f.endswith('.json'):
                shutil.copy(os.path.join(root, f), os.path.join(dest, f))
        _dirs[:] = [d for d in _dirs if d not in ('pristine', 'src')]
    ledger = os.path.join(docs(tree), 'bisect-proofs.txt')
    if kind == 'bisect' and os.path.exists(ledger):
        shutil.copy(ledger, os.path.join(dest, 'bisect-proofs.txt'))
    with open(os.path.join(dest, 'job.json'), 'w') as f:
        json.dump({'job': job, 'tree': tree, 'command': cmd, 'rc': rc,
                   'seconds': seconds}, f, indent=1)
    print(f'ci.py: {job}: exit {rc} after {seconds} s', file=sys.stderr)
    return rc


def call(args, env):
    """ARGS (a script of the repository and its arguments) run with ENV,
    what it says passed on to this one's standard error; its exit status."""
    p = subprocess.run([os.path.join(REPO, 'scripts', args[0])] + args[1:], cwd=REPO,
                       env=env, capture_output=True, text=True)
    sys.stderr.write(p.stdout + p.stderr)
    return p.returncode


def merge(out, wanted, summary):
    """Every job's results merged, tree by tree; the summary's lines and
    whether anything is missing or failed."""
    lines, bad = ['# static-keys matrix', ''], False
    for tree in trees():
        mine = [j for j in wanted if parse(j)[0] == tree]
        if not mine:
            continue
        lines += [f'## {tree}', '', '| job | result | seconds |', '|---|---|---:|']
        present = []
        for job in mine:
            path = os.path.join(out, job_dir(job), 'job.json')
            if not os.path.exists(path):
                lines.append(f'| {job} | MISSING: no results | |')
                bad = True
                continue
            with open(path) as f:
                rec = json.load(f)
            present.append(job)
            ok = rec['rc'] == 0
            bad |= not ok
            lines.append(f"| {job} | {'ok' if ok else 'FAILED (exit %d)' % rec['rc']} | {rec['seconds']} |")
        lines.append('')
        env = dict(os.environ, TREE=tree)
        dirs = [os.path.join(out, job_dir(j)) for j in present]
        records = [os.path.join(d, 'records') for d in dirs if os.path.isdir(os.path.join(d, 'records'))]
        if records:
            call(['records.py', 'merge'] + records, env)
        checks = [os.path.join(d, f) for d in dirs for f in sorted(os.listdir(d))
                  if f.startswith('check') and f.endswith('.json')]
        if checks:
            rep = subprocess.run([os.path.join(REPO, 'scripts', 'report.py'), '--merge'] + checks,
                                 cwd=REPO, env=env, capture_output=True, text=True)
            bad |= rep.returncode != 0
            lines += ['make check, merged:', '', '```'] + rep.stdout.rstrip().split('\n') + \
                     ['```', '']
            if rep.returncode and rep.stderr:
                lines += [f'    {rep.stderr.strip()}', '']
        ledgers = [os.path.join(d, 'bisect-proofs.txt') for d in dirs
                   if os.path.exists(os.path.join(d, 'bisect-proofs.txt'))]
        if ledgers:
            call(['bisect.sh', '--merge'] + ledgers, env)
        call(['records.py', 'render'], env)
        status = subprocess.run([os.path.join(REPO, 'scripts', 'records.py'), 'status'],
                                cwd=REPO, env=env, capture_output=True, text=True)
        lines += ['Proofs of this tree after the merge:', '', '```'] + \
            status.stdout.rstrip().split('\n') + ['```', '']
        bad |= any(' FAILED on this code' in line for line in status.stdout.split('\n'))
    text = '\n'.join(lines) + '\n'
    if summary:
        with open(summary, 'a') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 1 if bad else 0


def main(argv):
    if argv[:1] == ['list']:
        if argv[1:] == ['--local']:
            print('\n'.join(local_jobs()))
        elif argv[1:] == ['--json']:
            print(json.dumps(jobs()))
        else:
            print('\n'.join(jobs()))
        return 0
    if argv[:1] == ['command'] and len(argv) == 2:
        cmd, env = command(argv[1])
        print(' '.join(f'{k}={v}' for k, v in sorted(env.items())) + ' ' + cmd)
        return 0
    if argv[:1] == ['run'] and len(argv) == 3:
        return run(argv[1], argv[2])
    if argv[:1] == ['merge'] and len(argv) >= 2:
        wanted, summary = jobs(), None
        rest = argv[2:]
        while rest:
            if rest[0] == '--jobs' and len(rest) > 1:
                wanted, rest = rest[1].split(','), rest[2:]
            elif rest[0] == '--summary' and len(rest) > 1:
                summary, rest = rest[1], rest[2:]
            else:
                raise SystemExit(__doc__)
        for j in wanted:
            parse(j)
        return merge(argv[1], wanted, summary)
    raise SystemExit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
