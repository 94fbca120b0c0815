"""Host tests of make check-all's planner (scripts/check-all.py) on records
these tests make up: the budget honoured, the priority order kept, a row
killed half-way run again, and a row whose kernel does not apply the
series (distro) still current after the series changed.  Nothing is
built or booted: the rows' commands are replaced by a runner that writes
their records, or is killed.  Prints KTAP when run as a script."""

import importlib.util
import json
import os
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, '..', '..', 'scripts')
sys.path.insert(0, HERE)
sys.path.insert(0, SCRIPTS)
from report_parser import run_as_ktap  # noqa: E402
import records  # noqa: E402

spec = importlib.util.spec_from_file_location('check_all', os.path.join(SCRIPTS, 'check-all.py'))
check_all = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_all)


def row(tree, proof, name, seconds, todo=True, key=None, needs=None):
    return {'tree': tree, 'proof': proof, 'row': name, 'key': key or f'{proof}:{name}',
            'command': f'make {proof} TREE={tree} ROW={name}', 'todo': todo,
            'seconds': seconds, 'needs': needs}


class FakeClock:
    """A clock that a fake runner moves on by each row's seconds."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Planner(unittest.TestCase):
    """The planner alone, on rows made up here."""

    def run_rows(self, rows, budget, order=('6.1', '6.12'), kill=None, fail=()):
        clock, seen = FakeClock(), []

        def runner(item, number):
            if item['key'] == kill:
                raise KeyboardInterrupt
            seen.append(item['key'])
            clock.now += item['seconds']
            return item['key'] not in fail
        todo = check_all.plan(list(order), rows)
        return check_all.run_plan(todo, budget, runner, clock), seen

    def test_the_budget_is_honoured(self):
        rows = [row('6.1', 'breaks', 'a', 600), row('6.1', 'breaks', 'b', 900),
                row('6.1', 'breaks', 'c', 300)]
        (ran, left, interrupted), seen = self.run_rows(rows, 1000)
        self.assertEqual(seen, ['breaks:a', 'breaks:c'])
        self.assertLessEqual(sum(it['seconds'] for it, _, _ in ran), 1000)
        self.assertEqual([it['key'] for it, _ in left], ['breaks:b'])
        self.assertIn('would not fit', left[0][1])
        self.assertFalse(interrupted)

    def test_nothing_starts_that_would_overrun(self):
        (ran, left, _), seen = self.run_rows([row('6.1', 'check', 'series', 3601)], 3600)
        self.assertEqual((seen, len(left)), ([], 1))

    def test_the_priority_order_is_kept(self):
        rows = [row('6.12', 'bisect', '1 (JL=y)', 60), row('6.1', 'bisect', '1 (JL=y)', 60),
                row('6.1', 'defconfig', 'defconfig-series', 60),
                row('6.1', 'cross-build', 'riscv64 build', 60),
                row('6.1', 'check-arm64', 'arm64-distro', 60),
                row('6.12', 'breaks', 'control', 60), row('6.1', 'breaks', 'control', 60),
                row('6.12', 'check', 'series', 60), row('6.1', 'check', 'series', 60)]
        (ran, _, _), seen = self.run_rows(rows, None)
        self.assertEqual([(it['tree'], it['proof']) for it, _, _ in ran], [
            ('6.1', 'check'), ('6.12', 'check'), ('6.1', 'breaks'), ('6.12', 'breaks'),
            ('6.1', 'check-arm64'), ('6.1', 'cross-build'), ('6.1', 'defconfig'),
            ('6.1', 'bisect'), ('6.12', 'bisect')])

    def test_rows_of_one_command_run_once(self):
        rows = [row('6.1', 'check', 'arm64-series', 60, key='run:arm64-series'),
                row('6.1', 'check-arm64', 'arm64-series', 60, key='run:arm64-series'),
                row('6.1', 'cross-build', 'mips build', 60, key='cross-build:mips'),
                row('6.1', 'cross-build', 'mips boot', 90, key='cross-build:mips')]
        (ran, _, _), seen = self.run_rows(rows, None)
        self.assertEqual(seen, ['run:arm64-series', 'cross-build:mips'])
        self.assertEqual(ran[0][0]['proof'], 'check')
        self.assertEqual(ran[1][0]['estimate'], 90)

    def test_a_break_counts_its_control_until_the_control_passed(self):
        rows = [row('6.1', 'breaks', 'control', 600), row('6.1', 'breaks', 'b', 300,
                                                          needs='breaks:control')]
        # the control (600 s) does not fit; the break alone would, but
        # its command boots the control first: 900 s
        (ran, left, _), seen = self.run_rows(rows + [row('6.1', 'bisect', '1 (JL=y)', 400)],
                                             500)
        self.assertEqual(seen, ['bisect:1 (JL=y)'])
        (ran, left, _), seen = self.run_rows(rows, 900)
        self.assertEqual(seen, ['breaks:control', 'breaks:b'])
        (ran, left, _), seen = self.run_rows(rows, None, fail=('breaks:control',))
        self.assertEqual(seen, ['breaks:control'])
        self.assertIn('control failed in this run', left[0][1])

    def test_a_row_never_run_is_estimated_from_the_nearest(self):
        rows = [row('6.1', 'breaks', 'x', None), row('6.12', 'breaks', 'x', 420, todo=False),
                row('6.1', 'check-arm64', 'arm64-off', None), row('6.1', 'check', 'off', 200, todo=False),
                row('6.1', 'bench', 'x86_64', None)]
        todo = check_all.plan(['6.1', '6.12'], rows)
        by = {it['key']: it for it in todo}
        self.assertEqual(by['breaks:x']['estimate'], 420)
        self.assertIn('estimate: the same row on 6.12', by['breaks:x']['basis'])
        self.assertEqual(by['check-arm64:arm64-off']['estimate'], 200)
        self.assertIn('of check', by['check-arm64:arm64-off']['basis'])
        self.assertEqual(by['bench:x86_64']['estimate'], check_all.GUESS)
        self.assertIn('a guess', by['bench:x86_64']['basis'])

    def test_an_interrupted_row_and_the_rest_are_left(self):
        rows = [row('6.1', 'check', v, 60) for v in ('series', 'distro', 'off')]
        (ran, left, interrupted), seen = self.run_rows(rows, None, kill='check:distro')
        self.assertTrue(interrupted)
        self.assertEqual(seen, ['check:series'])
        self.assertEqual([(it['key'], why) for it, why in left],
                         [('check:distro', 'interrupted'), ('check:off', 'not reached')])


class PlannerOnRecords(unittest.TestCase):
    """The planner on records of the tree's real series and code hashes,
    written in a directory of the test's own (TREE_DOCS)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        os.environ['TREE_DOCS'] = self.tmp.name
        records.tree_path.cache_clear()
        records.say = lambda message: None
        self.tree = records.tree()

    def tearDown(self):
        self.tmp.cleanup()
        del os.environ['TREE_DOCS']
        records.tree_path.cache_clear()

    def prove(self, *runs):
        """RUNS written as passing make check rows, as make check does."""
        path = os.path.join(self.tmp.name, 'run.json')
        with open(path, 'w') as f:
            json.dump({'meta': {}, 'summaries': {},
                       'runs': {r: [['boot', 'ok', '']] for r in runs}}, f)
        records.add_check(path)

    def todo(self):
        # make check's proofs: the others' rows are planned alike
        return check_all.plan([self.tree], records.plan_rows(['check', 'check-arm64']))

    def test_a_killed_row_runs_again_and_a_finished_one_does_not(self):
        first = [it for it in self.todo() if it['proof'] == 'check'][:2]
        self.assertEqual(len(first), 2)

        def runner(item, number):
            if item['key'] == first[1]['key']:
                raise KeyboardInterrupt  # killed half-way: no row written
            self.prove(*[r for _, r in item['rows']])
            return True
        ran, left, interrupted = check_all.run_plan(first, None, runner)
        self.assertTrue(interrupted)
        again = [it['key'] for it in self.todo()]
        self.assertNotIn(first[0]['key'], again)
        self.assertEqual(again[0], first[1]['key'])

    def test_a_distro_row_stays_current_after_a_series_change(self):
        self.prove('series', 'distro')
        keys = [it['key'] for it in self.todo()]
        self.assertNotIn('run:series', keys)
        self.assertNotIn('run:distro', keys)
        # the distro's kernel applies the checks' patches only: its code
        # hash is the off kernel's, not the series'
        self.assertEqual(records.code_hash('check', 'distro'), records.code_hash('check', 'off'))
        self.assertNotEqual(records.code_hash('check', 'distro'),
                            records.code_hash('check', 'series'))
        real, series = records.code_hashes, records.code_hash('check', 'series')

        def series_changed(specs):
            return {s: h + '-changed' if h == series else h for s, h in real(specs).items()}
        records.code_hashes = series_changed
        try:
            keys = [it['key'] for it in self.todo()]
        finally:
            records.code_hashes = real
        self.assertIn('run:series', keys)
        self.assertNotIn('run:distro', keys)

    def test_every_proof_named_has_its_rows(self):
        proofs = {r['proof'] for r in records.plan_rows(['check', 'breaks', 'cross-build'])}
        self.assertEqual(proofs, {'check', 'breaks', 'cross-build'})

    def test_the_seconds_a_row_took_are_kept_in_it(self):
        since = int(time.time())
        self.prove('series')
        records.cmd_seconds('check', '321', since, ['series', 'distro'])
        rows = records.load('check')['rows']
        self.assertEqual(rows['series']['seconds'], 321)
        self.assertNotIn('distro', rows)
        # a command that stopped before it wrote the row leaves it as it was
        records.cmd_seconds('check', '5', since + 3600, ['series'])
        self.assertEqual(records.load('check')['rows']['series']['seconds'], 321)
        by = {it['key']: it for it in check_all.items_of(records.plan_rows(['check']), [self.tree])}
        self.assertEqual(by['run:series']['seconds'], 321)


if __name__ == '__main__':
    sys.exit(run_as_ktap(sys.modules[__name__]))
