"""Host tests of scripts/records.py: rows pinned to the code they proved,
and what a proof's status makes of them.  Each test writes records into a
directory of its own (TREE_DOCS), for the tree's real series and code
hashes.  Prints its results as KTAP when run as a script."""

import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', '..', 'scripts'))
from report_parser import run_as_ktap  # noqa: E402
import records  # noqa: E402


class Records(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.docs = self.tmp.name
        os.environ['TREE_DOCS'] = self.docs
        records.tree_path.cache_clear()
        records.say = lambda message: None

    def tearDown(self):
        self.tmp.cleanup()
        del os.environ['TREE_DOCS']
        records.tree_path.cache_clear()

    def check_record(self, runs):
        """A make check record (report.py --json) of RUNS {name: rows}."""
        path = os.path.join(self.docs, 'check.json')
        with open(path, 'w') as f:
            json.dump({'meta': {}, 'runs': runs, 'summaries': {}}, f)
        return path

    def state(self, proof):
        return records.proof_status(records.BY_NAME[proof])

    def test_no_record_is_missing(self):
        self.assertEqual(self.state('defconfig')['state'], 'missing')

    def test_every_row_of_this_code_passing_is_proven(self):
        records.add_check(self.check_record({
            'defconfig-series': [['boot', 'ok', ''], ['kunit_builtin', 'ok', '']],
            'defconfig-distro': [['boot', 'ok', ''], ['kunit_builtin', 'skip', 'no']]}))
        s = self.state('defconfig')
        self.assertEqual((s['state'], s['stale'], s['failed']), ('proven', [], []))

    def test_a_failed_row_fails_the_proof(self):
        records.add_check(self.check_record({
            'defconfig-series': [['boot', 'ok', ''], ['kunit_builtin', 'fail', 'oops']],
            'defconfig-distro': [['boot', 'ok', '']]}))
        s = self.state('defconfig')
        self.assertEqual((s['state'], s['failed']), ('failed', ['defconfig-series']))
        self.assertIn('kunit_builtin: oops',
                      records.load('defconfig')['rows']['defconfig-series']['failures'])

    def test_a_run_with_no_rows_fails(self):
        records.add_check(self.check_record({'defconfig-series': [],
                                             'defconfig-distro': [['boot', 'ok', '']]}))
        self.assertEqual(self.state('defconfig')['state'], 'failed')

    def test_a_row_of_other_code_is_stale_and_names_its_command(self):
        records.add_check(self.check_record({
            'defconfig-series': [['boot', 'ok', '']],
            'defconfig-distro': [['boot', 'ok', '']]}))
        rec = records.load('defconfig')
        rec['rows']['defconfig-series']['code_hash'] = '0' * 64
        records.save(rec)
        s = self.state('defconfig')
        self.assertEqual((s['state'], s['stale']), ('stale', ['defconfig-series']))
        self.assertIn('VARIANTS=defconfig-series', s['command'])
        self.assertNotIn('defconfig-distro', s['command'])

    def test_a_stale_failure_does_not_fail(self):
        records.add_check(self.check_record({
            'defconfig-series': [['boot', 'fail', 'oops']],
            'defconfig-distro': [['boot', 'ok', '']]}))
        rec = records.load('defconfig')
        rec['rows']['defconfig-series']['code_hash'] = '0' * 64
        records.save(rec)
        self.assertEqual(self.state('defconfig')['state'], 'stale')

    def test_a_slice_keeps_the_other_rows(self):
        records.add_check(self.check_record({'defconfig-series': [['boot', 'ok', '']]}))
        records.add_check(self.check_record({'defconfig-distro': [['boot', 'ok', '']]}))
        self.assertEqual(sorted(records.load('defconfig')['rows']),
                         ['defconfig-distro', 'defconfig-series'])

    def test_a_run_in_two_proofs_is_a_row_of_each(self):
        records.add_check(self.check_record({'arm64-series': [['boot', 'ok', '']]}))
        self.assertIn('arm64-series', records.load('check')['rows'])
        self.assertIn('arm64-series', records.load('check-arm64')['rows'])

    def test_a_break_is_pinned_to_its_own_patch(self):
        names = records.breaks_rows()
        self.assertEqual(names[0], 'control')
        breaks = [n for n in names if not n.startswith('control')]
        if breaks:
            self.assertNotEqual(records.code_hash('breaks', breaks[0]),
                                records.code_hash('breaks', 'control'))

    def test_expected_and_skipped_rows_do_not_fail(self):
        for row in records.cross_rows():
            records.set_row('cross-build', row, 'expected' if 'boot' in row else 'skip', 'why')
        self.assertEqual(self.state('cross-build')['state'], 'proven')

    def test_the_host_test_fails_only_on_a_failure(self):
        records.add_check(self.check_record({
            'defconfig-series': [['boot', 'fail', 'oops']],
            'defconfig-distro': [['boot', 'ok', '']]}))
        lines, passed = records.ktap(records.statuses())
        self.assertFalse(passed)
        self.assertTrue(any(l.startswith('not ok') and l.split()[3] == 'defconfig'
                            for l in lines), lines)
        self.assertTrue(any('# SKIP not proven on this code' in l for l in lines), lines)

    def test_merge_takes_current_rows_of_another_checkout(self):
        records.add_check(self.check_record({'defconfig-series': [['boot', 'ok', '']]}))
        other = os.path.join(self.docs, 'other')
        os.makedirs(other)
        os.replace(records.record_path('defconfig'), os.path.join(other, 'defconfig.json'))
        records.cmd_merge([other])
        self.assertIn('defconfig-series', records.load('defconfig')['rows'])

    def test_merge_takes_a_later_row_of_the_same_day(self):
        records.add_check(self.check_record({'defconfig-series': [['boot', 'ok', '']]}))
        later = records.load('defconfig')
        later['rows']['defconfig-series']['time'] = '23:59:59'
        other = os.path.join(self.docs, 'other')
        os.makedirs(other)
        with open(os.path.join(other, 'defconfig.json'), 'w') as f:
            json.dump(later, f)
        earlier = records.load('defconfig')
        earlier['rows']['defconfig-series'].update(verdict='fail', time='00:00:00')
        records.save(earlier)
        records.cmd_merge([other])
        self.assertEqual(records.load('defconfig')['rows']['defconfig-series']['verdict'], 'ok')


if __name__ == '__main__':
    sys.exit(run_as_ktap(sys.modules[__name__]))
