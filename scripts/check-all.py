#!/usr/bin/env python3
"""check-all.py [--plan] [--budget MINUTES]: the proofs of every tree that
are not current and green (scripts/records.py), a row at a time.

Each row of each proof (a make check kernel, a break, an architecture's
build and boot, a make bench, a bisect prefix in one configuration) is
proven by a make command of its own, which writes that row's record as
it ends: a run stopped anywhere keeps every row it finished, and the
next run starts at the first row that is still not proven.  The rows go
in records.py's PRIORITY order (the x86-64 series kernels, the breaks,
arm64, the other architectures, the defconfig kernels, make bench, the
bisect), the trees in turn within each proof.

Each row is expected to take what its last run took (records.py
row_seconds, the bisect ledger's build and boot), or, for a row never
run, what the nearest measured configuration took (records.py NEAREST),
said to be an estimate.  With a budget, a row is started only if it is
expected to end within it; the rows after it are still tried.  At the
end: what ran, what was left and how long the rest would take; then the
records of each tree that ran something are rendered (make proofs), and
committing them is all that is left to do.

--plan prints the rows, their times and which would run within the
budget, and runs nothing (make proofs-plan).  Interrupted (SIGINT,
SIGTERM, SIGHUP), the row that runs is stopped (its process group), and
the summary and the rendering still happen.
"""

import glob
import json
import os
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from records import NEAREST, PRIORITY  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A row with nothing near it measured: half an hour, a guess.
GUESS = 1800


def say(message):
    print(f'check-all: {message}', file=sys.stderr, flush=True)


def trees():
    return sorted(os.path.basename(p)[:-len('.conf')]
                  for p in glob.glob(os.path.join(REPO, 'configs', 'tree', '*.conf')))


def tree_rows(tree):
    """records.py rows of TREE."""
    out = subprocess.run([os.path.join(REPO, 'scripts', 'records.py'), 'rows'],
                         env=dict(os.environ, TREE=tree), cwd=REPO,
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f'check-all: the records of {tree} could not be read: '
                         f'{out.stderr.strip()}')
    return json.loads(out.stdout)


def items_of(rows, tree_order):
    """The rows grouped by the command that proves them (their tree and
    key): {tree, key, proof, rows: [(proof, row)], command, todo, seconds},
    in the order they are proven in."""
    items = {}
    for r in rows:
        it = items.setdefault((r['tree'], r['key']), {
            'tree': r['tree'], 'key': r['key'], 'proof': r['proof'], 'rows': [],
            'command': r['command'], 'todo': False, 'seconds': None,
            'needs': r.get('needs'), 'order': len(items)})
        # A row two proofs share is proven by the command of the first
        # in PRIORITY (make check's arm64-series, not make check ARCH=arm64's).
        if PRIORITY.index(r['proof']) < PRIORITY.index(it['proof']):
            it['proof'], it['command'] = r['proof'], r['command']
        it['rows'].append((r['proof'], r['row']))
        it['todo'] = it['todo'] or r['todo']
        if r['seconds'] is not None:
            it['seconds'] = max(it['seconds'] or 0, r['seconds'])
    return sorted(items.values(), key=lambda it: (PRIORITY.index(it['proof']),
                                                  tree_order.index(it['tree']), it['order']))


def estimate(item, items):
    """(seconds, where that comes from) for ITEM: its last run, else the
    nearest configuration measured (records.NEAREST), else GUESS."""
    if item['seconds']:
        return item['seconds'], 'its last run'
    measured = [it for it in items if it['seconds']]
    same = [it for it in measured if it['key'] == item['key']]
    if same:
        return same[0]['seconds'], f"estimate: the same row on {same[0]['tree']}"
    proof = item['proof']
    while proof:
        for mine in (True, False):
            like = [it['seconds'] for it in measured if it['proof'] == proof
                    and (it['tree'] == item['tree']) == mine]
            if like:
                where = item['tree'] if mine else 'the other tree'
                return (int(statistics.median(like)),
                        f'estimate: the median of {len(like)} rows of {proof} on {where}')
        proof = NEAREST.get(proof)
    return GUESS, 'a guess: nothing near it measured'


def minutes(seconds):
    return f'{(seconds + 59) // 60} min'


def describe(item):
    rows = ', '.join(r for _, r in item['rows'])
    return f"{item['tree']} {item['proof']} {rows}"


def plan(tree_order, rows):
    """The rows to prove, in order, each with its estimate."""
    items = items_of(rows, tree_order)
    todo = [it for it in items if it['todo']]
    for it in todo:
        it['estimate'], it['basis'] = estimate(it, items)
    return todo


def run_plan(todo, budget, runner, clock=time.monotonic):
    """Each item of TODO run by RUNNER(item, number) if it is expected to
    end within BUDGET seconds (None: no budget) from now.  An item whose
    command proves a row it needs first (a break's control) that is still
    to do is expected to take that row's time too, and is left if that row
    failed in this run.  Returns what ran [(item, ok, seconds)], what was
    left [(item, why)], and whether it was interrupted (RUNNER raised
    KeyboardInterrupt: that item and the rest are left)."""
    start = clock()
    ran, left = [], []
    pending = {(it['tree'], it['key']): it for it in todo}
    outcome = {}
    for i, it in enumerate(todo):
        used = clock() - start
        need = pending.get((it['tree'], it['needs'])) if it['needs'] else None
        if need is not None and outcome.get(id(need)) is False:
            left.append((it, f"{need['key'].split(':', 1)[-1]} failed in this run"))
            continue
        extra = need['estimate'] if need is not None and not outcome.get(id(need)) else 0
        if budget is not None and used + it['estimate'] + extra > budget:
            left.append((it, f"would not fit: about {minutes(it['estimate'] + extra)}, "
                             f"{minutes(max(0, int(budget - used)))} of the budget left"))
            continue
        began = clock()
        try:
            ok = runner(it, i + 1)
        except KeyboardInterrupt:
            left.append((it, 'interrupted'))
            left += [(rest, 'not reached') for rest in todo[i + 1:]]
            return ran, left, True
        outcome[id(it)] = ok
        ran.append((it, ok, int(clock() - began)))
    return ran, left, False


class Runner:
    """Runs an item's make command, in a process group of its own that a
    SIGINT or SIGTERM of this script is passed on to, then keeps how long
    it took in the rows it proved."""

    def __init__(self, total, budget):
        self.total, self.budget, self.start = total, budget, time.monotonic()

    def __call__(self, item, number):
        used = int(time.monotonic() - self.start)
        left = (f'; {minutes(max(0, self.budget - used))} of the budget left'
                if self.budget is not None else '')
        say(f"[{number} of {self.total}] {describe(item)}: {item['command']} "
            f"(about {minutes(item['estimate'])}, {item['basis']}{left})")
        began, since = time.monotonic(), int(time.time())
        child = subprocess.Popen(['sh', '-c', item['command']], cwd=REPO,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            rc = child.wait()
        except KeyboardInterrupt:
            self.stop(child, item)
            raise
        seconds = int(time.monotonic() - began)
        for proof in sorted({p for p, _ in item['rows']}):
            subprocess.run([os.path.join(REPO, 'scripts', 'records.py'), 'seconds', proof,
                            str(seconds), str(since)]
                           + [r for p, r in item['rows'] if p == proof],
                           cwd=REPO, env=dict(os.environ, TREE=item['tree']), check=False)
        say(f"{describe(item)}: {'done' if rc == 0 else f'FAILED (exit {rc})'} "
            f"in {minutes(seconds)}")
        return rc == 0


    @staticmethod
    def stop(child, item):
        """CHILD's whole process group stopped: SIGTERM (a background job
        of a shell, as make check's builder lane, ignores SIGINT), then,
        after 120 s or once the command has ended, SIGKILL for what is
        left of it.  Further signals wait meanwhile."""
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        say(f"interrupted: stopping {item['command']}")

        def kill(sig):
            try:
                os.killpg(child.pid, sig)
            except ProcessLookupError:
                pass
        kill(signal.SIGTERM)
        try:
            child.wait(timeout=120)
        except subprocess.TimeoutExpired:
            pass
        kill(signal.SIGKILL)
        child.wait()


# What stops a run: Ctrl-C, kill, a terminal's or a session's end.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def print_plan(todo, budget):
    total = sum(it['estimate'] for it in todo)
    print(f"{len(todo)} rows not current and green, about {minutes(total)} in all"
          + (f'; a budget of {minutes(budget)}' if budget is not None else ''))
    # what a run would do if each row took its estimate
    clock = [0]

    def runner(item, number):
        clock[0] += item['estimate']
        return True
    _, left, _ = run_plan(todo, budget, runner, lambda: clock[0])
    why = {id(it): w for it, w in left}
    for i, it in enumerate(todo, 1):
        verdict = f"left: {why[id(it)]}" if id(it) in why else 'runs'
        print(f"{i:3}. {describe(it)}: about {minutes(it['estimate'])} ({it['basis']}); "
              f"{verdict}\n     {it['command']}")


def summary(ran, left, interrupted):
    print(f"check-all: ran {len(ran)} rows{', interrupted' if interrupted else ''}:")
    for it, ok, seconds in ran:
        print(f"  {'ok    ' if ok else 'FAILED'} {describe(it)} ({minutes(seconds)})")
    rest = sum(it['estimate'] for it, _ in left)
    print(f'check-all: left {len(left)} rows, about {minutes(rest)} in all:')
    for it, why in left:
        print(f'  {describe(it)}: {why}')


def main(argv):
    budget, only_plan = None, False
    args = list(argv)
    while args:
        if args[0] == '--plan':
            only_plan, args = True, args[1:]
        elif args[0] == '--budget' and len(args) > 1:
            try:
                budget = int(float(args[1]) * 60)
            except ValueError:
                raise SystemExit(f'check-all: BUDGET={args[1]} is not a number of minutes')
            args = args[2:]
        else:
            raise SystemExit(__doc__)
    order = trees()
    rows = [r for t in order for r in tree_rows(t)]
    todo = plan(order, rows)
    if only_plan:
        print_plan(todo, budget)
        return 0
    say(f"{len(todo)} rows to prove, about {minutes(sum(it['estimate'] for it in todo))}"
        + (f'; budget {minutes(budget)}' if budget is not None else '') + ' (make proofs-plan lists them)')

    def stop(signum, frame):
        raise KeyboardInterrupt
    for sig in STOP_SIGNALS:
        signal.signal(sig, stop)
    ran, left, interrupted = run_plan(todo, budget, Runner(len(todo), budget))
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    summary(ran, left, interrupted)
    for t in order:
        if any(it['tree'] == t for it, _, _ in ran) or (
                interrupted and left and left[0][0]['tree'] == t):
            say(f'{t}: the records rendered (make proofs TREE={t})')
            subprocess.run(['make', '-s', 'proofs', f'TREE={t}'], cwd=REPO,
                           stdin=subprocess.DEVNULL, check=False)
    if not left:
        # A whole check-all's time per tree (make check-readme publishes
        # it): cold when none of its rows was current, warm when all were.
        for t in order:
            mine = [r for r in rows if r['tree'] == t]
            todo_rows = sum(r['todo'] for r in mine)
            state = 'warm' if not todo_rows else 'cold' if todo_rows == len(mine) else 'partial'
            seconds = sum(sec for it, _, sec in ran if it['tree'] == t)
            subprocess.run([os.path.join(REPO, 'scripts', 'records.py'), 'time', 'make check-all',
                            str(seconds), state], cwd=REPO, env=dict(os.environ, TREE=t),
                           check=False)
    failed = [it for it, ok, _ in ran if not ok]
    if interrupted:
        return 130
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
