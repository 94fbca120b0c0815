#!/usr/bin/env python3
"""The proofs of a tree, as records pinned to the code they proved.

A proof is what one make command shows on one tree (make check, make
check-debug, the defconfig kernels, make breaks, make cross-build, ...:
PROOFS below).  Its record, $TREE_DOCS/records/PROOF.json, holds a row
for each thing it proved (a kernel, a break, an architecture's build or
boot), and each row says what proved it: the verdict, the code hash of
the patches its kernel applied (lib.sh code_hash: their diffs, not their
changelogs), the tree's package version, the date, the harness commit
and the machine.  A run writes only its own rows, so a run of a few rows
(a slice, an interrupted check-all) keeps the others'; a row is current
while its code hash is that of the code as it is now.  make bench's
results and make bisect's ledger keep their own records (results.md,
bisect-proofs.txt) and are read as they are.

  records.py add-check CHECK.json    the runs of a make check record as rows
  records.py set PROOF ROW VERDICT [--hash-of VARIANT [PATCH]] [--detail T]
                                     one row (make breaks, make cross-build)
  records.py proven PROOF ROW [DETAIL]
                                     exit 0 if ROW is current and passed (and
                                     its detail ends with DETAIL)
  records.py status                  every proof of the tree, one line each
  records.py todo                    the make commands of the proofs that are
                                     not current and green, one a line
  records.py rows                    every row of every proof as JSON: its
                                     command alone, whether it is current and
                                     green, how long it took (make check-all)
  records.py seconds PROOF SECONDS SINCE ROW...
                                     how long the command that proved ROWs took,
                                     kept in those of them that are current and
                                     were written since SINCE (epoch seconds)
  records.py ktap                    the status as KTAP subtests (a host test
                                     of make check, which judges its own
                                     run's 'host' row itself)
  records.py letter                  the status as lines for the cover letter
  records.py render                  $TREE_DOCS/proofs.md, breaks.md and
                                     cross-build.md rendered from the records
  records.py merge DIR...            rows of other checkouts' records (their
                                     $TREE_DOCS/records/) added where newer
  records.py time NAME SECONDS STATE how long a run of NAME (make, make check)
                                     took from a STATE cache (run-state.sh:
                                     cold, warm, partial), kept in the cache
                                     ($ROOT/timings.json)
  records.py timings                 those into $TREE_DOCS/records/timings.json,
                                     the newest of each name and state
                                     (make check-readme)

The tree is the environment's TREE (or the machine's default), as
scripts/lib.sh picks it.
"""

import datetime
import glob
import json
import os
import platform
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import REPO, tree_path  # noqa: E402

OK, FAIL, SKIP, EXPECTED = 'ok', 'fail', 'skip', 'expected'


def say(message):
    print(f'records.py: {message}', file=sys.stderr)


def lib(script, env=None):
    """Standard output of SCRIPT run after scripts/lib.sh, for the tree."""
    return subprocess.run(['sh', '-c', '. scripts/lib.sh && ' + script],
                          cwd=REPO, env=dict(os.environ, REPO=REPO, **(env or {})),
                          capture_output=True, text=True, check=True).stdout


class Proof:
    """One kind of proof: its name, the make command that makes it (MAKE,
    with {tree}), and how its rows are named and hashed."""

    def __init__(self, name, make, title, rows=None, slice_make=None):
        self.name, self.make, self.title = name, make, title
        self._rows, self.slice_make = rows, slice_make

    def rows(self):
        return self._rows() if callable(self._rows) else list(self._rows)

    def command(self, tree, rows=None):
        """The make command that proves ROWS (all when None)."""
        if rows and self.slice_make and set(rows) != set(self.rows()):
            return self.slice_make.format(tree=tree, rows=','.join(rows))
        return self.make.format(tree=tree)

    def hash_spec(self, row):
        """(VARIANT, PATCH) whose code_hash pins ROW."""
        return (row, '')

    def row_key(self, row):
        """What proves ROW: rows of one key (of any proof) are proven by
        one command, row_command()."""
        return f'{self.name}:{row}'

    def row_command(self, tree, row):
        return self.command(tree, [row])

    def row_needs(self, row):
        """The key of a row that ROW's command proves first when it is not
        proven (None: none)."""
        return None


def check_variants(arch=''):
    """The kernels of a whole make check (ARCH=arch), whatever slice of it
    the environment names (make check VARIANTS=... exports CHECK_VARIANTS)."""
    return lib('echo $VARIANTS', {'HARNESS_ARCH': arch, 'CHECK_VARIANTS': ''}).split()


class CheckProof(Proof):
    """Rows are kernels (variants), and 'host' for the harness's tests.
    A kernel's run is a row of every proof that has it (arm64-series of
    check and check-arm64): one key."""

    def hash_spec(self, row):
        return ('series' if row == 'host' else row, '')

    def row_key(self, row):
        return f'run:{row}'


class BreaksProof(Proof):
    """Rows are each architecture's control (the series alone: control,
    control-ARCH) and each break, on its architecture's breaks worktree.
    A break's command boots its architecture's control first, unless the
    control is proven."""

    def row_needs(self, row):
        if row.startswith('control'):
            return None
        arch = break_arch(row)
        return self.row_key('control' if arch == 'x86_64' else f'control-{arch}')

    def hash_spec(self, row):
        if row.startswith('control'):
            arch = row[len('control-'):] if row != 'control' else 'x86_64'
            return (breaks_variant(arch), '')
        return (breaks_variant(break_arch(row)), f'breaks/{row}.patch')


class CrossProof(Proof):
    """Rows are 'ARCH build' and 'ARCH boot' for each row of configs/cross/;
    one command (ARCHES=ARCH) proves both."""

    def hash_spec(self, row):
        return ('series', '')

    def row_key(self, row):
        return f'{self.name}:{row.rsplit(" ", 1)[0]}'

    def row_command(self, tree, row):
        return f'make cross-build TREE={tree} ARCHES={row.rsplit(" ", 1)[0]}'


def break_patch(name):
    return os.path.join(tree_path('TREE_PATCHES'), 'breaks', name + '.patch')


def break_arch(name):
    """The architecture a break is for: its patch's Arch: line, or x86_64."""
    return patch_field(break_patch(name), 'Arch') or 'x86_64'


def breaks_variant(arch):
    return 'breaks' if arch == 'x86_64' else f'{arch}-breaks'


def breaks_rows():
    names = sorted(os.path.basename(p)[:-len('.patch')] for p in
                   glob.glob(os.path.join(tree_path('TREE_PATCHES'), 'breaks', '*.patch')))
    archs = sorted({break_arch(n) for n in names} - {'x86_64'})
    return ['control'] + [f'control-{a}' for a in archs] + names


def cross_rows():
    archs = sorted(os.path.basename(p)[:-len('.conf')] for p in
                   glob.glob(os.path.join(REPO, 'configs', 'cross', '*.conf')))
    return [f'{a} {step}' for a in archs for step in ('build', 'boot')]


PROOFS = [
    CheckProof('check', 'make check TREE={tree}',
               'make check: the x86-64 kernels and arm64-series, every check, and the harness\'s tests',
               lambda: check_variants() + ['host'],
               'make check TREE={tree} VARIANTS={rows}'),
    CheckProof('check-arm64', 'make check ARCH=arm64 TREE={tree}',
               'make check ARCH=arm64: the four arm64 kernels',
               lambda: check_variants('arm64'),
               'make check ARCH=arm64 TREE={tree} VARIANTS={rows}'),
    CheckProof('check-debug', 'make check-debug TREE={tree}',
               'make check-debug: the series with lockdep, UBSAN, debug_pagealloc and ftrace',
               ['debug']),
    CheckProof('defconfig', 'make check TREE={tree} VARIANTS=defconfig-series,defconfig-distro',
               'the x86-64 defconfig kernels (PTI on), every check',
               ['defconfig-series', 'defconfig-distro'],
               'make check TREE={tree} VARIANTS={rows}'),
    CheckProof('defconfig-arm64',
               'make check TREE={tree} VARIANTS=arm64-defconfig-series,arm64-defconfig-distro',
               'the arm64 defconfig kernels, every check',
               ['arm64-defconfig-series', 'arm64-defconfig-distro'],
               'make check TREE={tree} VARIANTS={rows}'),
    BreaksProof('breaks', 'make breaks TREE={tree}',
                'make breaks: each deliberate break caught by the checks it names',
                breaks_rows,
                'make breaks TREE={tree} BREAKS={rows}'),
    CrossProof('cross-build', 'make cross-build TREE={tree}',
               'make cross-build: the other architectures built and booted',
               cross_rows),
]
BY_NAME = {p.name: p for p in PROOFS}

# The order make check-all proves rows in: the x86-64 series kernels, the
# breaks, arm64, the other architectures, the defconfig kernels, make
# bench, the bisect.
PRIORITY = ['check', 'check-debug', 'breaks', 'check-arm64', 'cross-build', 'defconfig',
            'defconfig-arm64', 'bench', 'bench-arm64', 'bisect']
# A row that was never run takes about what the nearest configuration
# took: its own row on the other tree, else the rows of its proof, else
# those of the proof named here (make check-all's estimates).
NEAREST = {'check-debug': 'check', 'check-arm64': 'check', 'breaks': 'check',
           'defconfig-arm64': 'defconfig', 'bench-arm64': 'bench'}


def tree():
    return tree_path('TREE')


def records_dir():
    return os.path.join(tree_path('TREE_DOCS'), 'records')


def record_path(proof):
    return os.path.join(records_dir(), proof + '.json')


def load(proof):
    try:
        with open(record_path(proof)) as f:
            rec = json.load(f)
    except FileNotFoundError:
        rec = {}
    rec.setdefault('proof', proof)
    rec.setdefault('tree', tree())
    rec.setdefault('rows', {})
    return rec


def write_whole(path, text):
    """TEXT into PATH whole or not at all (a run stopped while it writes
    leaves the old file)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + '.new', 'w') as f:
        f.write(text)
    os.replace(path + '.new', path)


def write_json(path, data):
    write_whole(path, json.dumps(data, indent=1, sort_keys=True) + '\n')


def save(rec):
    write_json(record_path(rec['proof']), rec)


_hashes = {}


def code_hashes(specs):
    """{(VARIANT, PATCH): code hash} for SPECS, asked of lib.sh at once."""
    want = sorted(set(specs) - set(_hashes))
    if want:
        script = '; '.join(f'code_hash {v} {p}' for v, p in want)
        for spec, h in zip(want, lib(script).split()):
            _hashes[spec] = h
    return {s: _hashes[s] for s in specs}


def code_hash(proof, row):
    spec = BY_NAME[proof].hash_spec(row)
    return code_hashes([spec])[spec]


def machine():
    """What the host is: architecture, CPUs, memory, system, QEMU."""
    try:
        with open('/proc/meminfo') as f:
            kib = int(f.readline().split()[1])
        mem = f'{round(kib / 2**20)} GiB'
    except (OSError, ValueError, IndexError):
        mem = '? GiB'
    system = platform.system()
    try:
        with open('/etc/os-release') as f:
            m = re.search(r'^PRETTY_NAME="?([^"\n]*)', f.read(), re.M)
            system = m.group(1) if m else system
    except OSError:
        pass
    try:
        qemu = subprocess.run(['qemu-system-x86_64', '--version'], capture_output=True,
                              text=True).stdout.split('\n')[0]
        qemu = re.sub(r'^QEMU emulator version (\S+).*', r'QEMU \1', qemu)
    except OSError:
        qemu = 'no QEMU'
    return f'{platform.machine()}, {os.cpu_count()} CPUs, {mem}, {system}, {qemu}'


def harness_commit():
    try:
        return subprocess.run(['git', '-C', REPO, 'describe', '--always', '--dirty'],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


def tree_version():
    try:
        return lib('pkg_version').strip()
    except subprocess.CalledProcessError:
        return 'unknown'


def new_row(proof, row, verdict, detail='', **extra):
    now = datetime.datetime.now(datetime.timezone.utc)
    out = {'verdict': verdict, 'detail': detail,
           'code_hash': code_hash(proof, row), 'tree_version': tree_version(),
           'date': now.strftime('%Y-%m-%d'), 'time': now.strftime('%H:%M:%S'),
           'harness': harness_commit(), 'machine': machine()}
    out.update(extra)
    return out


def proofs_of(run):
    """The proofs whose rows include the run (a variant, or 'host')."""
    return [p for p in PROOFS if isinstance(p, CheckProof) and run in p.rows()]


def add_check(path):
    """Each run of a make check record (report.py --json) as a row of every
    proof that has it: ok when no check failed."""
    if os.environ.get('CHECKS'):
        say(f'{path} not recorded: a run of some checks (CHECKS={os.environ["CHECKS"]}) proves no row')
        return
    with open(path) as f:
        check = json.load(f)
    changed = {}
    for run, rows in check['runs'].items():
        counts = {OK: 0, FAIL: 0, SKIP: 0}
        for _, status, _ in rows:
            counts[status] += 1
        failures = [f'{c}: {why}' if why else c for c, s, why in rows if s == FAIL]
        summary = check.get('summaries', {}).get(run, [])
        for proof in proofs_of(run):
            rec = changed.setdefault(proof.name, load(proof.name))
            rec['rows'][run] = new_row(
                proof.name, run, FAIL if failures or not rows else OK,
                '; '.join(failures[:3]) + (f' (+{len(failures) - 3} more)'
                                           if len(failures) > 3 else ''),
                passed=counts[OK], failed=counts[FAIL], skipped=counts[SKIP],
                failures=failures[:20], summary=summary[:1])
    for rec in changed.values():
        save(rec)
        say(f'{len(rec["rows"])} rows in {record_path(rec["proof"])}')


def set_row(proof, row, verdict, detail, seconds=None):
    if proof not in BY_NAME:
        raise SystemExit(f'records.py: no proof {proof} (one of: {" ".join(BY_NAME)})')
    if verdict not in (OK, FAIL, SKIP, EXPECTED):
        raise SystemExit(f'records.py: no verdict {verdict}')
    rec = load(proof)
    extra = {'seconds': int(seconds)} if seconds else {}
    rec['rows'][row] = new_row(proof, row, verdict, detail, **extra)
    save(rec)


# The status of a proof, from its rows: 'proven' (every row current, none
# failed), 'failed' (a current row failed), 'stale' (a row proves other
# code, or is missing; nothing current failed), 'missing' (no row).
def proof_status(proof, ignore=()):
    """The proof's state, its rows of IGNORE left out."""
    rec = load(proof.name)
    names = [r for r in proof.rows() if r not in ignore]
    hashes = code_hashes([proof.hash_spec(r) for r in names])
    rows, stale, failed, dates = rec['rows'], [], [], []
    for r in names:
        row = rows.get(r)
        if row is None or row.get('code_hash') != hashes[proof.hash_spec(r)]:
            stale.append(r)
            continue
        dates.append(row['date'])
        if row['verdict'] == FAIL:
            failed.append(r)
    if failed:
        state = 'failed'
    elif len(stale) == len(names):
        state = 'missing' if not any(r in rows for r in names) else 'stale'
    elif stale:
        state = 'stale'
    else:
        state = 'proven'
    return {'proof': proof.name, 'state': state, 'rows': names, 'stale': stale,
            'failed': failed, 'dates': sorted(set(dates)),
            'command': proof.command(tree(), stale or failed or None),
            'title': proof.title}


def bench_archs():
    """The architectures make bench measures (configs/arch/), x86-64 first."""
    archs = [os.path.basename(p)[:-len('.conf')] for p in
             sorted(glob.glob(os.path.join(REPO, 'configs', 'arch', '*.conf')))]
    return sorted(archs, key=lambda a: a != 'x86_64')


def bench_name(arch):
    return 'bench' if arch == 'x86_64' else f'bench-{arch}'


def bench_status(arch):
    """make bench's results for ARCH: proven when results.md measured the
    code as it is now (lib.sh measured_code_hash, bench_code_hash)."""
    out = lib(f'load_arch {arch}; d=$TREE_BENCH; [ {arch} = x86_64 ] || d=$d/{arch}; '
              'echo "$d/results.md $(bench_code_hash) $(measured_code_hash "$d")"').split()
    path, now, had = out[0], out[1], (out[2] if len(out) > 2 else '')
    name = bench_name(arch)
    make = f'make bench TREE={tree()}' + ('' if arch == 'x86_64' else f' ARCH={arch}')
    readme = make.replace('make bench', 'make bench-readme')
    # results.md says no date: the day it was committed
    date = subprocess.run(['git', '-C', REPO, 'log', '-1', '--format=%cs', '--', path],
                          capture_output=True, text=True).stdout.strip()
    state = 'missing' if not had else 'proven' if had == now else 'stale'
    return {'proof': name, 'state': state, 'rows': [arch],
            'stale': [] if state == 'proven' else [arch], 'failed': [],
            'dates': [date] if date and state == 'proven' else [],
            'command': f'{make} && {readme}',
            'title': f'make bench{"" if arch == "x86_64" else " ARCH=" + arch}: '
                     'speed and size against the distro kernel'}


def bisect_status():
    """make bisect's ledger: proven when every prefix of the series as it
    is now is proven in both configurations."""
    want = dict(line.split() for line in lib('prefix_code_hashes').splitlines())
    ledger = os.path.join(tree_path('TREE_DOCS'), 'bisect-proofs.txt')
    have, dates, quick, seconds = set(), set(), 0, {}
    for line in (open(ledger).read().splitlines() if os.path.exists(ledger) else []):
        w = line.split()
        if line.startswith('#') or len(w) < 5:
            continue
        # how long the prefix took, of whatever code (make check-all's estimate)
        seconds[(w[0], w[1])] = sum(int(x) for x in w[5:7] if x.isdigit()) or None
        if want.get(w[1]) == w[2]:
            have.add((w[0], w[1]))
            quick += len(w) > 10 and w[10] == 'quick'
            dates.add(w[4])
    rows = [(v, n) for v in ('bisect-series', 'bisect-series-off') for n in want]
    stale = [f'{n} ({"JL=y" if v == "bisect-series" else "JL=n"})'
             for v, n in rows if (v, n) not in have]
    state = 'proven' if not stale else 'missing' if not have else 'stale'
    return {'proof': 'bisect', 'state': state, 'seconds': seconds,
            'rows': [f'{n}' for _, n in rows], 'stale': stale, 'failed': [],
            'dates': sorted(dates), 'command': f'make bisect TREE={tree()}',
            'title': f'make bisect: every prefix of the series built, booted and '
                     f'checked with CONFIG_JUMP_LABEL=y and =n ({len(rows) - len(stale)} of '
                     f'{len(rows)} proven'
                     + (f', {quick} of them with the quick profile of checks' if quick else '')
                     + ')'}


def statuses(ignore=()):
    out = [proof_status(p, ignore) for p in PROOFS]
    out += [bench_status(a) for a in bench_archs()]
    out.append(bisect_status())
    return out


def when(s):
    if not s['dates']:
        return ''
    return s['dates'][0] if len(s['dates']) == 1 else f"{s['dates'][0]} to {s['dates'][-1]}"


def describe(s):
    """One line: the proof, its state, its dates, and what to run."""
    n, stale, failed = len(s['rows']), s['stale'], s['failed']
    if s['state'] == 'proven':
        return f"proven on this code ({when(s)})"
    if s['state'] == 'failed':
        return f"FAILED on this code: {', '.join(failed)} ({when(s)})"
    if s['state'] == 'missing':
        return f"not proven on this code, no record: run {s['command']}"
    return (f"not proven on this code: {len(stale)} of {n} rows "
            f"({', '.join(stale[:4])}{', ...' if len(stale) > 4 else ''}): run {s['command']}")


def cmd_status():
    for s in statuses():
        print(f"{s['proof']:<16} {describe(s)}")


def cmd_todo():
    for s in statuses():
        if s['state'] != 'proven':
            print(s['command'])


def row_seconds(row):
    """How long ROW's command took: the seconds make check-all measured,
    else, for a kernel of make check, its build and boot."""
    if row.get('seconds'):
        return int(row['seconds'])
    m = re.search(r'build (\d+) s, boot (\d+) s', ''.join(row.get('summary') or []))
    return int(m[1]) + int(m[2]) if m else None


def plan_rows(names=None):
    """Every row of every proof of the tree (or of the proofs NAMES), as
    make check-all plans them: the proof, the row, the key of the command
    that proves it (and that command alone), 'todo' when it is not current
    and green, and the seconds its last run took (None when it has no
    record)."""
    out, t = [], tree()
    for proof in PROOFS:
        if names is not None and proof.name not in names:
            continue
        rec, rows = load(proof.name), proof.rows()
        hashes = code_hashes([proof.hash_spec(r) for r in rows])
        for r in rows:
            row = rec['rows'].get(r)
            current = row is not None and row.get('code_hash') == hashes[proof.hash_spec(r)]
            out.append({'tree': t, 'proof': proof.name, 'row': r, 'key': proof.row_key(r),
                        'command': proof.row_command(t, r),
                        'todo': not current or row['verdict'] == FAIL,
                        'seconds': row_seconds(row) if row else None,
                        'needs': proof.row_needs(r)})
    for a in bench_archs():
        if names is not None and bench_name(a) not in names:
            continue
        s = bench_status(a)
        took = load_json(seconds_path(), {}).get(s['proof'], {}).get('seconds')
        out.append({'tree': t, 'proof': s['proof'], 'row': s['rows'][0],
                    'key': s['proof'], 'command': s['command'],
                    'todo': s['state'] != 'proven', 'seconds': took})
    if names is not None and 'bisect' not in names:
        return out
    bisect = bisect_status()
    stale = set(bisect['stale'])
    for n in sorted(set(bisect['rows']), key=int):
        for v, config, jl in (('bisect-series', 'series', 'JL=y'),
                              ('bisect-series-off', 'series-off', 'JL=n')):
            out.append({'tree': t, 'proof': 'bisect', 'row': f'{n} ({jl})',
                        'key': f'bisect:{v}:{n}',
                        'command': f'make bisect TREE={t} PREFIXES={n}-{n} CONFIGS={config}',
                        'todo': f'{n} ({jl})' in stale,
                        'seconds': bisect['seconds'].get((v, n))})
    return out


def row_proven(proof, r, detail=''):
    """Whether row R of PROOF is current and passed (and its detail ends
    with DETAIL: a control proven with the checks it must run now)."""
    row = load(proof)['rows'].get(r)
    return (proof in BY_NAME and row is not None and row['verdict'] == OK
            and row.get('code_hash') == code_hash(proof, r)
            and (row.get('detail') or '').endswith(detail))


def made_at(row):
    """When ROW was written, in seconds since the epoch (0 if unknown)."""
    try:
        return datetime.datetime.strptime(f"{row['date']} {row.get('time', '00:00:00')}",
                                          '%Y-%m-%d %H:%M:%S').replace(
            tzinfo=datetime.timezone.utc).timestamp()
    except (KeyError, ValueError):
        return 0


def seconds_path():
    """make check-all's times of the proofs that keep no rows (make bench)."""
    return os.path.join(records_dir(), 'seconds.json')


def cmd_seconds(proof, seconds, since, rows):
    """SECONDS kept in each of ROWS of PROOF that is current and was
    written at or after SINCE (seconds since the epoch): the time of the
    command that just proved it, not of one that stopped before it wrote
    the row.  For make bench, which keeps no rows, in seconds.json once
    its results are of this code."""
    if proof not in BY_NAME:
        arch = next((a for a in bench_archs() if bench_name(a) == proof), None)
        if arch is None or bench_status(arch)['state'] != 'proven':
            return
        times = load_json(seconds_path(), {})
        times[proof] = {'seconds': int(seconds)}
        write_json(seconds_path(), times)
        return
    rec = load(proof)
    p = BY_NAME[proof]
    hashes = code_hashes([p.hash_spec(r) for r in rows])
    kept = [r for r in rows if r in rec['rows']
            and rec['rows'][r].get('code_hash') == hashes[p.hash_spec(r)]
            and made_at(rec['rows'][r]) >= int(since) - 1]
    for r in kept:
        rec['rows'][r]['seconds'] = int(seconds)
    if kept:
        save(rec)


def ktap(ss):
    """A subtest per proof of SS (statuses()): ok when proven, not ok when
    a current row failed, a skip when it is stale or missing (shown, not
    failed: other work may go in while a re-proof runs;
    tests/expected-skips).  The lines, and whether none failed."""
    lines = ['KTAP version 1', f'1..{len(ss)}']
    for i, s in enumerate(ss, 1):
        name = s['proof'].replace('-', '_')
        if s['state'] == 'proven':
            lines.append(f'ok {i} {name}')
        elif s['state'] == 'failed':
            lines.append(f'not ok {i} {name} # {describe(s)}')
        else:
            lines.append(f'ok {i} {name} # SKIP {describe(s)}')
    return lines, not any(s['state'] == 'failed' for s in ss)


def cmd_ktap():
    # make check's host tests are this 'host' row's run: they judge it
    # themselves, and an old failure of it is not theirs to repeat.
    lines, passed = ktap(statuses(ignore=('host',)))
    print('\n'.join(lines))
    return 0 if passed else 1


def cmd_letter():
    """Each proof with its status and date; for the other architectures,
    which booted."""
    for s in statuses():
        line = f"- {s['proof']}: {describe(s)}"
        if s['proof'] == 'cross-build' and s['state'] != 'missing':
            rows = load('cross-build')['rows']
            booted = [r.rsplit(' ', 1)[0] for r in s['rows']
                      if r.endswith(' boot') and rows.get(r, {}).get('verdict') == OK
                      and r not in s['stale']]
            line += f"; booted and flipped: {', '.join(booted) or 'none'}"
        print(line)


def md_escape(text):
    return str(text).replace('|', '\\|').replace('\n', ' ')


def render_rows(proof, rec, hashes):
    lines = ['| row | verdict | date | code | what it showed |', '|---|---|---|---|---|']
    for r in proof.rows():
        row = rec['rows'].get(r)
        if row is None:
            lines.append(f'| {r} | not run | | | |')
            continue
        current = row['code_hash'] == hashes[proof.hash_spec(r)]
        what = row.get('detail') or ''
        if 'passed' in row:
            what = (f"{row['passed']} passed, {row['failed']} failed, {row['skipped']} skipped"
                    + (f': {what}' if what else '')
                    + (f" ({row['summary'][0].split(': ', 1)[-1]})" if row.get('summary') else ''))
        lines.append(f"| {r} | {row['verdict']} | {row['date']} | "
                     f"{row['code_hash'][:12]}{'' if current else ' (stale)'} | {md_escape(what)} |")
    return lines


def render_proofs(ss):
    lines = [f'# Proofs of the {tree()} series', '',
             'Written by `scripts/records.py render` from the records of',
             f'`{os.path.relpath(records_dir(), REPO)}/` (and make bench\'s results and make',
             "bisect's ledger): each proof, whether it holds for the series' code as",
             'it is now, and the command that makes it again.  `make check` reads the',
             'same records (host test `proofs`): a proof that failed on this code',
             'fails it; one that is stale or missing is shown, not failed.', '',
             'Three tiers ([harness.md](' + os.path.relpath(
                 os.path.join(REPO, 'Documentation', 'harness.md'),
                 tree_path('TREE_DOCS')) + '#proofs-in-tiers-a-row-at-a-time)):',
             'every change passes `.ci/run` to land; a series change proves the rows',
             'whose code changed with `make check-all BUDGET=<minutes>`, a slice at a',
             'time, committed as each row ends (a stale row never blocks a landing);',
             'a release has every row of both trees current.  `make proofs-plan`',
             'lists the rows not current, each with the time it is expected to take.', '',
             '| proof | status | what it is |', '|---|---|---|']
    for s in ss:
        lines.append(f"| {s['proof']} | {md_escape(describe(s))} | {md_escape(s['title'])} |")
    for proof in PROOFS:
        rec = load(proof.name)
        if not rec['rows']:
            continue
        names = proof.rows()
        hashes = code_hashes([proof.hash_spec(r) for r in names])
        machines = sorted({rec['rows'][r]['machine'] for r in names if r in rec['rows']})
        harness = sorted({rec['rows'][r]['harness'] for r in names if r in rec['rows']})
        lines += ['', f'## {proof.name}', '', proof.title + '.', '',
                  f"Made by `{proof.command(tree())}` on {'; '.join(machines)}, "
                  f"harness {', '.join(harness)}.", ''] + render_rows(proof, rec, hashes)
    return lines


def row_cell(proof, rec, r, hashes):
    """A row as one cell: its detail, verdict, date and whether it is of
    other code."""
    row = rec['rows'].get(r)
    if row is None:
        return 'not run'
    stale = '' if row['code_hash'] == hashes[proof.hash_spec(r)] else ', of other code'
    return md_escape(f"{row['detail'] or row['verdict']} ({row['verdict']}, {row['date']}{stale})")


def patch_field(path, field):
    m = re.search(rf'^{field}: *(.*)$', open(path).read(), re.M)
    return m.group(1).strip() if m else ''


def render_breaks():
    proof = BY_NAME['breaks']
    rec = load('breaks')
    names = proof.rows()
    hashes = code_hashes([proof.hash_spec(r) for r in names])
    patches = tree_path('TREE_PATCHES')
    lines = ['# Deliberate breaks: the checks shown to fail', '',
             'Rendered by `scripts/records.py` from the breaks record that `make breaks`',
             f'(scripts/breaks.sh) writes: each break of `{os.path.relpath(patches, REPO)}/breaks/`',
             'on top of the series, its kernel built and booted with only the checks',
             'its `Caught-by:` line names (x86-64 with `pti=on`, or the architecture',
             'its `Arch:` line names).  Caught: one of them failed, or, for a break',
             'meant to crash the kernel, it died where its `Crash-site:` line says; the',
             'last column is what caught it (or what passed), its verdict, date, and',
             'whether it was made on other code than the series and the break as',
             'they are now.', '',
             'The control of each architecture, the series without a break booted with',
             "every one of the checks that architecture's breaks name:", '']
    controls = [r for r in names if r.startswith('control')]
    for r in controls:
        lines.append(f"- {r}: {row_cell(proof, rec, r, hashes)}")
    lines += ['', '| break | arch | what it breaks | caught by | what failed |',
              '|---|---|---|---|---|']
    for r in names:
        if r in controls:
            continue
        path = break_patch(r)
        site = patch_field(path, 'Crash-site')
        lines.append(f"| {r} | {break_arch(r)} | {md_escape(patch_field(path, 'Break'))} | "
                     f"`{patch_field(path, 'Caught-by')}`"
                     f"{f' or a crash in `{site}`' if site else ''} | "
                     f"{row_cell(proof, rec, r, hashes)} |")
    return lines


def render_cross():
    proof = BY_NAME['cross-build']
    rec = load('cross-build')
    names = proof.rows()
    hashes = code_hashes([proof.hash_spec(r) for r in names])
    row = lib('echo "$CROSS_SYSCTL $CROSS_KEY"').split()
    sysctl, key = (row + ['', ''])[:2]
    lines = ['# The series on the other architectures', '',
             'Rendered by `scripts/records.py` from the cross-build record that `make',
             'cross-build` writes: for each architecture of `configs/cross/`, first',
             "`kernel/jump_label.o` and the architecture's `arch/*/kernel/jump_label.o`",
             'of the whole series, tinyconfig with `CONFIG_JUMP_LABEL=y`, modules and',
             "debugfs, built with Debian's cross compiler (build); then the whole",
             'series booted (`scripts/cross-boot.sh`, boot): a kernel of tinyconfig,',
             "`configs/cross-boot.config` and the row's options, under QEMU's TCG, with",
             "one static `/init` (`tests/cross/init.c`).  The series' KUnit suite flips",
             'its keys at boot, a JMP-form site (`static_branch_likely()` on a false key)',
             'among them, and reads them back through the branches; `/init` flips',
             f'`{sysctl}` and reads the count of its key, `{key}`, back from the',
             'debugfs view.  Where the kernel does not build, never prints or times',
             'out, the same config is built from the tree without the series and',
             "booted; a row that fails the same way is the tree's failure",
             '(`expected`).  arm64 and x86-64 are built, booted and checked by `make',
             'check`.', '',
             '| architecture | build | boot |', '|---|---|---|']
    archs = []
    for r in names:
        a = r.rsplit(' ', 1)[0]
        if a not in archs:
            archs.append(a)
    for a in archs:
        lines.append(f'| {a} | {row_cell(proof, rec, a + " build", hashes)} | '
                     f'{row_cell(proof, rec, a + " boot", hashes)} |')
    return lines


def cmd_render():
    ss = statuses()
    docs = tree_path('TREE_DOCS')
    for name, lines in (('proofs.md', render_proofs(ss)), ('breaks.md', render_breaks()),
                        ('cross-build.md', render_cross())):
        path = os.path.join(docs, name)
        write_whole(path, '\n'.join(lines) + '\n')
        say(f'wrote {os.path.relpath(os.path.join(docs, name), REPO)}')


def made(row):
    """When ROW was made, for the newer of two (rows written before
    records kept the time of day sort before that day's others)."""
    return (row['date'], row.get('time', ''))


def cmd_merge(dirs):
    """Rows of other checkouts' records (DIR/<proof>.json, or a checkout
    whose records are under its tree's documentation) that are current
    where this one's are not, or newer (made(): date and time of day)."""
    merged = 0
    for proof in PROOFS:
        rec = load(proof.name)
        names = proof.rows()
        hashes = code_hashes([proof.hash_spec(r) for r in names])
        for d in dirs:
            candidates = [os.path.join(d, proof.name + '.json'),
                          os.path.join(d, os.path.relpath(record_path(proof.name), REPO))]
            path = next((c for c in candidates if os.path.isfile(c)), None)
            if path is None:
                continue
            with open(path) as f:
                other = json.load(f)
            if other.get('tree') != tree():
                raise SystemExit(f'records.py: {path} is of tree {other.get("tree")}, not {tree()}')
            for r, row in other.get('rows', {}).items():
                if r not in names or row.get('code_hash') != hashes[proof.hash_spec(r)]:
                    continue
                mine = rec['rows'].get(r)
                if (mine is None or mine.get('code_hash') != row['code_hash']
                        or made(mine) < made(row)):
                    rec['rows'][r] = row
                    merged += 1
        save(rec)
    say(f'{merged} rows merged')


def cache_timings():
    return os.path.join(lib('tree_root').strip(), 'timings.json')


def load_json(path, default):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def cmd_time(name, seconds, state):
    """A run's time into the cache's timings (the last of each name and
    state); not a run of some checks (CHECKS), which says nothing of the
    whole run's."""
    if os.environ.get('CHECKS'):
        return
    path = cache_timings()
    rows = load_json(path, {})
    rows[f'{name} ({state})'] = {
        'name': name, 'state': state, 'seconds': int(seconds),
        'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d'),
        'harness': harness_commit(), 'machine': machine()}
    write_json(path, rows)


def cmd_timings():
    """The cache's timings into the tree's records: a cold or warm one
    replaces the published one of its name and state."""
    mine = load_json(cache_timings(), {})
    path = os.path.join(records_dir(), 'timings.json')
    rows = load_json(path, {})
    for key, row in mine.items():
        if row['state'] in ('cold', 'warm') and row['date'] >= rows.get(key, {}).get('date', ''):
            rows[key] = row
    write_json(path, rows)
    say(f'{len(rows)} timings in {os.path.relpath(path, REPO)}')


def main(argv):
    if not argv:
        raise SystemExit(__doc__)
    cmd, args = argv[0], argv[1:]
    if cmd == 'add-check' and len(args) == 1:
        add_check(args[0])
    elif cmd == 'set' and len(args) >= 3:
        detail, seconds = '', None
        rest = args[3:]
        while rest:
            if rest[0] == '--detail' and len(rest) > 1:
                detail, rest = rest[1], rest[2:]
            elif rest[0] == '--seconds' and len(rest) > 1:
                seconds, rest = rest[1], rest[2:]
            else:
                raise SystemExit(f'records.py set: unknown argument {rest[0]}')
        set_row(args[0], args[1], args[2], detail, seconds)
    elif cmd == 'status':
        cmd_status()
    elif cmd == 'todo':
        cmd_todo()
    elif cmd == 'proven' and len(args) in (2, 3):
        return 0 if row_proven(*args) else 1
    elif cmd == 'rows':
        print(json.dumps(plan_rows(), indent=1))
    elif cmd == 'seconds' and len(args) >= 4:
        cmd_seconds(args[0], args[1], args[2], args[3:])
    elif cmd == 'ktap':
        return cmd_ktap()
    elif cmd == 'letter':
        cmd_letter()
    elif cmd == 'render':
        cmd_render()
    elif cmd == 'time' and len(args) == 3:
        cmd_time(*args)
    elif cmd == 'timings':
        cmd_timings()
    elif cmd == 'merge' and args:
        cmd_merge(args)
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
