#!/usr/bin/env python3
"""Turn the logs of one or more runs into a table and a closing count.

  report.py [--json FILE] NAME=LOGDIR[:BOOT] ...
  report.py --scan SERIAL    the problems of one kernel log, one a line
                             (make cross-build's boots); exit 1 if any
  report.py --freeze CHECK.json...
                             tests/subtests/TREE/RUN: the names each run
                             reported, which later runs must report too

For each NAME (a variant, or 'host' for the harness's own tests) LOGDIR
holds what the run left: BOOT.status, BOOT.serial (the kernel log) and
BOOT.ktap (the guest's results), or only BOOT.ktap for host tests, and
'failed' if a step before the boot failed.  BOOT defaults to 'boot'.

Every run gets rows of its own for the steps that are not KTAP: 'build'
(build.sh finished: LOGDIR/build-seconds) and 'boot' (no panic, oops,
unexpected warning, stall or timeout; the guest finished its checks).
Exit status 1 if anything failed.
"""

import fnmatch
import functools
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

OK, FAIL, SKIP = ktap.OK, ktap.FAIL, ktap.SKIP

# Lines of the kernel log that fail a boot wherever they appear.
FATAL = [
    (re.compile(r'Kernel panic - not syncing: ?(.*)'), 'panic'),
    (re.compile(r'(Oops: .*|general protection fault.*|kernel BUG at .*|'
                r'int3: .*|BUG: .*|Unable to handle kernel .*)'), 'oops'),
    (re.compile(r'(rcu: INFO: .*stall.*|.*self-detected stall.*|'
                r'watchdog: BUG: soft lockup.*|INFO: task .* blocked for more than.*)'),
     'stall'),
]
# Reports of the kernel's detectors that are not "WARNING: CPU: ..." lines:
# lockdep and RCU-lockdep ("WARNING: possible circular locking dependency
# detected", "WARNING: suspicious RCU usage") and UBSAN.  Like warnings, a
# check may announce them.
DETECTOR = re.compile(r'(WARNING: (?!CPU: )(.*)|UBSAN: (.*))')
WARNING = re.compile(r'WARNING: CPU: \d+ PID: \d+ at (.*)')
# Warnings a test causes on purpose are announced around it, as
# "<tag>: expected warning begins" ... "<tag>: expected warning ends".  A
# window lets through one warning, the one its tag names here (a pattern
# of the "WARNING: CPU: N PID: N at <where>" line's <where>): a second is
# unexpected; a tag not named here opens no window.  Detector reports, oopses and stalls fail
# the boot inside a window as anywhere.
EXPECT_BEGIN = ': expected warning begins'
EXPECT_END = ': expected warning ends'
WINDOWS = {
    # a decrement below zero (the series' KUnit suite, the harness module)
    'static_keys_kunit': re.compile(r'kernel/jump_label\.c'),
    'static_keys_harness': re.compile(r'kernel/jump_label\.c'),
    # the distro's WARN_ON_ONCE on an increment that would overflow (the
    # harness module opens this window on the distro only)
    'static_keys_harness_overflow': re.compile(r'kernel/jump_label\.c'),
    # the distro's warning when two threads enable and disable one key
    # (tests/guest/torture.sh counts them: the series must show none)
    'static_keys_torture_concurrent': re.compile(r'kernel/jump_label\.c'),
}
FINISHED = re.compile(r'harness: all \d+ checks done')
# The console could not keep up: the log read is not the whole log, and
# what it lost may have been a warning.
DROPPED = re.compile(r'\*\* \d+ printk messages dropped \*\*')


def scan_serial(text, status, finished=FINISHED):
    """Problems of one boot: [(kind, detail)], empty when it was clean.
    FINISHED: the line that says the guest's checks are done (None: a
    boot whose /init says so otherwise, make cross-build's)."""
    problems = []
    window, let_through = None, 0
    for line in text.splitlines():
        if EXPECT_BEGIN in line:
            tag = line.split(EXPECT_BEGIN)[0].split()[-1] if line.split(EXPECT_BEGIN)[0].split() else ''
            window, let_through = WINDOWS.get(tag), 0
            if window is None:
                problems.append(('unknown window', f'"{tag}" names no expected '
                                 'warning (scripts/report.py: WINDOWS)'))
        elif EXPECT_END in line:
            window = None
        if DROPPED.search(line):
            problems.append(('log incomplete', DROPPED.search(line).group(0)))
        m = WARNING.search(line)
        if m and window and window.search(m.group(1)) and not let_through:
            let_through = 1
        elif m:
            problems.append(('unexpected warning', m.group(1).strip()
                             + (' (a second in its window)' if window and window.search(m.group(1)) else '')))
        m = not m and DETECTOR.search(line)
        if m:
            problems.append(('detector', m.group(1).strip()))
        for pattern, kind in FATAL:
            m = pattern.search(line)
            if m:
                problems.append((kind, m.group(1).strip()))
                break
    expected = window is not None
    if expected:
        # A window never closed would hide every warning after it.
        problems.append(('unclosed window', 'an "expected warning begins" '
                         'with no "ends" after it'))
    if status and status[0] in (124, 137):
        problems.append(('timeout', f'no exit within {status[2]}s (a hang?)'))
    elif status and status[0] != 0:
        problems.append(('qemu', f'QEMU exited with {status[0]} (its messages: the '
                         'boot\'s .qemu file)'))
    elif finished and not finished.search(text) and not problems:
        problems.append(('unfinished', 'the guest stopped before its checks were done'))
    return problems


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return None


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tree_row(tree=None, names=('TREE_SERIES', 'TREE_PATCHES', 'TREE_DOCS',
                                'TREE_BENCH')):
    """{NAME: value} of a row of configs/tree/ as scripts/lib.sh has it:
    the row named TREE, or with None the one lib.sh picks (TREE, else the
    machine's default)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith('TREE_')}
    if tree is not None:
        env['TREE'] = tree
    script = '. scripts/lib.sh && ' + ' && '.join(f'echo "${n}"' for n in names)
    out = subprocess.run(['sh', '-c', script], cwd=REPO,
                         env=dict(env, REPO=REPO), capture_output=True,
                         text=True, check=True).stdout.split('\n')
    return dict(zip(names, out))


@functools.lru_cache(maxsize=None)
def tree_path(name):
    """A value of the tree's row (TREE_SERIES, TREE_PATCHES, ..., TREE), as
    scripts/lib.sh exports it, or asked of lib.sh once."""
    return os.environ.get(name) or tree_row(None, (name,))[name]


def expected_checks(boot):
    """The top-level checks a run of this kind must report, from the
    repository rather than from what the guest found to run: a check that
    never ran fails instead of going unnoticed.  None: no fixed list (the
    fault boots)."""
    def names(directory, exts):
        path = os.path.join(REPO, directory)
        return sorted(os.path.splitext(f)[0] for f in os.listdir(path)
                      if os.path.splitext(f)[1] in exts)
    if boot == 'boot' and os.environ.get('CHECKS'):
        # make run CHECKS=...: the boot ran those alone
        return sorted(os.environ['CHECKS'].split(','))
    if boot == 'boot':
        return names('tests/guest', ('.sh',))
    if boot == 'torture':
        return ['torture']
    if boot == 'host':
        return names('tests/host', ('.sh', '.py'))
    return None


def run_rows(logdir, boot='boot'):
    """[(check, status, reason)] for one run."""
    rows = []
    failed = read(os.path.join(logdir, 'failed'))
    if failed is not None:
        step, _, why = failed.strip().partition(' ')
        return [(step, FAIL, why)]
    status_text = read(os.path.join(logdir, boot + '.status'))
    serial = read(os.path.join(logdir, boot + '.serial'))
    if status_text is None and boot != 'host':
        # The results of a boot that never said how it ended prove nothing.
        rows.append(('boot', FAIL, f'no {boot}.status in {logdir}: the boot '
                     'did not run to its end'))
    if status_text is not None:
        # A build is shown by what build.sh writes when it has finished
        # (and removes when it starts), not by a boot: the boot may have
        # been of an older kernel.
        if read(os.path.join(logdir, 'build-seconds')) is None:
            rows.append(('build', FAIL, f'no finished build in {logdir} '
                         '(build-seconds): the kernel booted is not '
                         'known to be the one last built'))
        else:
            rows.append(('build', OK, ''))
        parts = status_text.split()
        status = (int(parts[0]), int(parts[1]), parts[2])
        problems = scan_serial(serial or '', status)
        if problems:
            kind, detail = problems[0]
            more = f' (+{len(problems) - 1} more)' if len(problems) > 1 else ''
            rows.append(('boot', FAIL, f'{kind}: {detail}{more}'))
        else:
            rows.append(('boot', OK, f'{status[1]}s'))
    tests, problems = ktap.parse(read(os.path.join(logdir, boot + '.ktap')) or '')
    for t in tests:
        rows += t.leaves()
    ran = {t.name for t in tests}
    for name in expected_checks(boot) or []:
        if name not in ran:
            rows.append((name, FAIL, 'did not run: no result for it'))
    if problems:
        rows.append(('results', FAIL, '; '.join(problems[:3])))
    return rows


SUBTESTS = os.path.join(REPO, 'tests', 'subtests')


def frozen_path(name):
    """The frozen list of run NAME's checks and subtests, for the tree."""
    return os.path.join(SUBTESTS, tree_path('TREE'), name)


def vanished(name, rows):
    """ROWS of run NAME with a failure for every name of its frozen list
    (tests/subtests/TREE/NAME, make subtests) that it did not report: a
    check or a subtest that disappears (compiled out, its plan cut) fails
    instead of going unnoticed.  One under a check that was skipped whole
    is not wanted: the skip is judged by tests/expected-skips."""
    text = read(frozen_path(name))
    if text is None:
        return rows
    have = {check for check, _, _ in rows}
    skipped = [check + '.' for check, status, _ in rows if status == SKIP]
    where = os.path.relpath(frozen_path(name), REPO)
    return rows + [(sub, FAIL, f'vanished: in {where}, not reported')
                   for sub in text.split()
                   if sub not in have and not sub.startswith(tuple(skipped))]


def freeze(paths):
    """tests/subtests/TREE/RUN written for each kernel's run of the make
    check records PATHS that failed nothing: the names it reported, one a
    line.  The harness's own tests (host) are not frozen: their subtests
    are made from the repository's files (a page, a patch each), which
    come and go with the files."""
    for path in paths:
        with open(path) as f:
            rec = json.load(f)
        for name, rows in rec['runs'].items():
            if name == 'host':
                continue
            failed = [c for c, s, _ in rows if s == FAIL]
            if failed or not rows:
                print(f'report.py: {name} of {path} not frozen: it failed {failed[:3]}',
                      file=sys.stderr)
                continue
            os.makedirs(os.path.dirname(frozen_path(name)), exist_ok=True)
            with open(frozen_path(name), 'w') as f:
                f.write(''.join(f'{c}\n' for c in sorted({c for c, _, _ in rows})))
            print(f'report.py: {os.path.relpath(frozen_path(name), REPO)}: {len(rows)} names',
                  file=sys.stderr)


def expected_skips(path=os.path.join(REPO, 'tests', 'expected-skips')):
    """[(variant patterns, check pattern, why)] of tests/expected-skips
    (or of tests/expected-failures, which has the same form), and of the
    tree's own file beside it, if there is one (expected-skips.6.12)."""
    rules = []
    text = (read(path) or '') + '\n' + (read(path + '.' + tree_path('TREE')) or '')
    for line in text.splitlines():
        words = line.split('#', 1)[0].split(None, 2)
        if len(words) >= 2:
            rules.append((words[0].split(','), words[1],
                          words[2].strip() if len(words) > 2 else ''))
    return rules


def expected_failures():
    return expected_skips(os.path.join(REPO, 'tests', 'expected-failures'))


def introduced_by(path=os.path.join(REPO, 'tests', 'introduced-by')):
    """[(check pattern, patch subject)] of tests/introduced-by."""
    rules = []
    for line in (read(path) or '').splitlines():
        words = line.split('#', 1)[0].split(None, 1)
        if len(words) == 2:
            rules.append((words[0], words[1].strip()))
    return rules


def subjects(series):
    """The subjects of the patches a quilt series file names (the file
    names are relative to the tree's patches/, as in its series file)."""
    out = set()
    for name in (read(series) or '').split():
        text = read(os.path.join(tree_path('TREE_PATCHES'), name)) or ''
        m = re.search(r'^Subject: (?:\[PATCH[^]]*\] )?(.*(?:\n .*)*)', text, re.M)
        if m:
            out.add(' '.join(m.group(1).split()))
    return out


def not_yet_introduced(rows, series, rules):
    """ROWS of a prefix of the series (SERIES, make bisect): a check whose
    behaviour a later patch introduces (tests/introduced-by) is a skip
    whatever its outcome."""
    have = subjects(series)
    out = []
    for check, status, reason in rows:
        need = [subj for pattern, subj in rules
                if fnmatch.fnmatchcase(check, pattern) and subj not in have]
        if need and status != OK:
            out.append((check, SKIP, f'needs "{need[0]}": {reason}'))
        else:
            out.append((check, status, reason))
    return out


def rule_for(name, check, rules):
    """The first rule of RULES that covers CHECK on run NAME, or None."""
    for variants, pattern, why in rules:
        if fnmatch.fnmatchcase(check, pattern) and \
                any(fnmatch.fnmatchcase(name, v) for v in variants):
            return why or pattern
    return None


def unexpected_skips(name, rows, rules, fail_rules=()):
    """ROWS of run NAME with every skip that no rule expects for NAME
    turned into a failure: a variant may skip only what it lacks by
    design (tests/expected-skips).  A check that FAIL_RULES
    (tests/expected-failures) expect to fail on NAME passes when it fails
    and fails when it passes: that it fails there shows it can."""
    out = []
    for check, status, reason in rows:
        failing = rule_for(name, check, fail_rules)
        if status == SKIP and rule_for(name, check, rules) is None:
            out.append((check, FAIL, f'unexpected skip on {name}: {reason}'))
        elif failing is not None and status == FAIL:
            out.append((check, OK, f'fails as expected ({failing}): {reason}'))
        elif failing is not None and status == OK:
            out.append((check, FAIL, f'expected to fail on {name} ({failing}), '
                        f'but passed: {reason}'))
        else:
            out.append((check, status, reason))
    return out


def table(runs):
    names = [n for n, _ in runs]
    order, cells = [], {}
    for name, rows in runs:
        for check, status, reason in rows:
            if check not in cells:
                cells[check] = {}
                order.append(check)
            cells[check][name] = (status, reason)
    notes = {}
    width = max([len(c) for c in order] + [5])
    lines = ['check'.ljust(width) + ''.join(f'  {n:<8}' for n in names)]
    for check in order:
        line = check.ljust(width)
        for name in names:
            status, reason = cells[check].get(name, ('-', ''))
            mark = {OK: 'ok', FAIL: 'FAIL', SKIP: 'skip'}.get(status, '-')
            if reason and status in (FAIL, SKIP):
                # One note for each distinct reason, however many cells share it.
                mark += f'[{notes.setdefault(reason, len(notes) + 1)}]'
            line += f'  {mark:<8}'
        lines.append(line.rstrip())
    return lines + [''] + [f'[{n}] {r}' for r, n in notes.items()]


def summary(name, logdir, boot, rows):
    """One line of figures for a run: build and boot seconds, checks."""
    parts = []
    seconds = read(os.path.join(logdir, 'build-seconds'))
    if seconds:
        parts.append(f'build {seconds.strip()} s')
    status = read(os.path.join(logdir, boot + '.status'))
    if status:
        code, secs, _, accel = (status.split() + [''] * 4)[:4]
        parts.append(f'boot {secs} s ({accel})')
    sites = read_sites(logdir)
    if sites:
        line = f"{sites['sites']} sites on {sites['keys']} keys"
        # 2-byte sites are x86's; an arm64 site is always 4 bytes
        if sites['short'] or not sites['long']:
            line += f", {sites['short']} of 2 bytes ({short_share(sites):.2%})"
        parts.append(line)
    parts.append(f'{len(rows)} checks')
    return f'{name}: ' + ', '.join(parts)


def figures(logdir, boot):
    """The "figure: ..." lines the checks logged (what a torture run or a
    churn loop held), in the order of the KTAP file."""
    text = read(os.path.join(logdir, boot + '.ktap')) or ''
    return [m.group(1).strip() for m in
            re.finditer(r'^\s*#.*?\bfigure: (.*)$', text, re.M)]


def read_sites(logdir):
    """sites.py's key=value line for the run's vmlinux, as ints, or None."""
    text = read(os.path.join(logdir, 'sites'))
    if not text:
        return None
    return {k: int(v) for k, v in
            (pair.split('=') for pair in text.split())}


def short_share(sites):
    return sites['short'] / sites['sites'] if sites['sites'] else 0.0


# The x86-64 kernels of the series that the checks of the linked vmlinux
# are for (make check, check-debug, the defconfig kernels).
SERIES_X86 = ('series', 'debug', 'defconfig-series')


def site_rows(mine):
    """The checks of a series vmlinux's sites (sites.py's counts MINE):
    every 5-byte site is one whose jump a 2-byte site could not have
    reached (the series has the assembler size each site, and objtool
    keeps that size), and the core kernel's jump table is in (key, site)
    order as linked (scripts/sorttable sorts it; jump_label_init() would
    sort one that is not, silently)."""
    names = ('sites.five_byte_sites_out_of_rel8_reach', 'sites.core_table_sorted_at_link')
    if not mine or 'long_in_reach' not in mine or 'unsorted' not in mine:
        return [(n, FAIL, 'no site counts (sites.py did not run?)') for n in names]
    if not mine['sites']:
        return [(n, FAIL, 'the series kernel has no sites') for n in names]
    rows = []
    if mine['long_in_reach']:
        rows.append((names[0], FAIL, f"{mine['long_in_reach']} of the series' "
                     f"{mine['long']} 5-byte sites jump within rel8 reach"))
    else:
        rows.append((names[0], OK, ''))
    if mine['unsorted']:
        rows.append((names[1], FAIL, f"{mine['unsorted']} of {mine['sites']} entries "
                     'follow one of a later key or site'))
    else:
        rows.append((names[1], OK, ''))
    return rows


def check_site_sizes(runs, logdirs):
    """site_rows() for each x86-64 series kernel of RUNS."""
    for run_name, rows in runs:
        if run_name in SERIES_X86 and run_name in logdirs:
            rows += site_rows(read_sites(logdirs[run_name]))


def series_hash():
    """The hash of ./series and its patches (apply-series.sh --hash): what
    a record of make check was made from."""
    try:
        return subprocess.run([os.path.join(REPO, 'scripts', 'apply-series.sh'),
                               '--hash'], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


def record(runs, summaries, slices=None):
    """make check's record (check.json): each run's rows and the lines the
    table prints under it, what the run was made from and how long it
    took (CHECK_SECONDS; of merged slices, each one's seconds in 'slices'
    and the longest as the record's)."""
    meta = {'series': series_hash()}
    seconds = max(slices) if slices else None
    if seconds is None and os.environ.get('CHECK_SECONDS', '').isdigit():
        seconds = int(os.environ['CHECK_SECONDS'])
    if seconds is not None:
        meta['seconds'] = seconds
    if slices:
        meta['slices'] = slices
    return {'meta': meta, 'runs': {n: rows for n, rows in runs},
            'summaries': summaries}


def slice_record(path):
    """The record of a slice: PATH is its check.json, or a CACHE_DIR (or a
    tree root in one) that holds one."""
    for candidate in [path, os.path.join(path, 'check.json')] + sorted(
            os.path.join(path, d, 'check.json') for d in
            (os.listdir(path) if os.path.isdir(path) else [])):
        if os.path.isfile(candidate):
            with open(candidate) as f:
                return candidate, json.load(f)
    raise SystemExit(f'report.py: no check.json in {path}: run make check there')


def merge(paths):
    """The records of several slices as one: (runs, summaries), or an exit
    naming the slice made from other patches, or a kernel run twice."""
    runs, summaries, made_from = [], {}, None
    merge.slices = []
    for path in paths:
        where, rec = slice_record(path)
        merge.slices.append(rec.get('meta', {}).get('seconds', 0))
        if 'meta' not in rec:
            raise SystemExit(f'report.py: {where} is from an older harness: '
                             'run that slice again')
        if made_from is None:
            made_from = (where, rec['meta']['series'])
        elif rec['meta']['series'] != made_from[1]:
            raise SystemExit(f'report.py: {where} was made from other patches '
                             f'than {made_from[0]} (series hash '
                             f"{rec['meta']['series'][:12]}, not "
                             f'{made_from[1][:12]}): not merged')
        for name, rows in rec['runs'].items():
            if name in dict(runs):
                raise SystemExit(f'report.py: {name} is in two slices '
                                 f'(again in {where}): not merged')
            runs.append((name, [tuple(r) for r in rows]))
            summaries[name] = rec['summaries'].get(name, [])
    return runs, summaries


def main(argv):
    if argv[:1] == ['--freeze'] and len(argv) > 1:
        freeze(argv[1:])
        return 0
    if argv[:1] == ['--scan'] and len(argv) == 2:
        problems = scan_serial(read(argv[1]) or '', None, finished=None)
        print('\n'.join(f'{kind}: {detail}' for kind, detail in problems))
        return 1 if problems else 0
    json_out = None
    merging = argv[:1] == ['--merge']
    if merging:
        argv = argv[1:]
    if argv[:1] == ['--json']:
        json_out, argv = argv[1], argv[2:]
    if merging:
        runs, summaries = merge(argv)
    else:
        runs, places, frozen = [], [], []
        rules = expected_skips()
        fail_rules = expected_failures()
        prefix = os.environ.get('SERIES_PREFIX_FILE')
        # make bisect's prefix of the whole series is held to what the
        # series itself is (bisect-series as series): tests/expected-skips'
        # 'bisect-*' rule is for the shorter prefixes only.
        whole = prefix and subjects(prefix) == subjects(tree_path('TREE_SERIES'))
        for arg in argv:
            name, _, rest = arg.partition('=')
            logdir, _, boot = rest.partition(':')
            rows = run_rows(logdir, boot or 'boot')
            if prefix:
                rows = not_yet_introduced(rows, prefix, introduced_by())
            as_name = name[len('bisect-'):] if whole and name.startswith('bisect-') else name
            frozen.append(as_name if (boot or 'boot') == 'boot' and not os.environ.get('CHECKS')
                          and (whole or not prefix) else None)
            runs.append((name, unexpected_skips(as_name, rows, rules, fail_rules)))
            places.append((logdir, boot or 'boot'))
        check_site_sizes(runs, {name: logdir for (name, _), (logdir, _) in
                                zip(runs, places)})
        # what a run did not report, once every row of it is in (the site
        # rows of check_site_sizes() too)
        runs = [(name, vanished(as_name, rows) if as_name else rows)
                for (name, rows), as_name in zip(runs, frozen)]
        summaries = {}
        for (name, rows), (logdir, boot) in zip(runs, places):
            summaries[name] = [summary(name, logdir, boot, rows)] + \
                [f'    {f}' for f in figures(logdir, boot)]
    lines = [line for name, _ in runs for line in summaries.get(name, [])]
    print('\n'.join(table(runs) + [''] + lines))
    counts = {OK: 0, FAIL: 0, SKIP: 0}
    for _, rows in runs:
        for _, status, _ in rows:
            counts[status] += 1
    if json_out:
        with open(json_out, 'w') as f:
            json.dump(record(runs, summaries,
                             merge.slices if merging else None), f, indent=1)
    print(f'\n{counts[OK]} passed, {counts[FAIL]} failed, {counts[SKIP]} skipped')
    return 1 if counts[FAIL] or not any(rows for _, rows in runs) else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
