"""Host tests of scripts/ktap.py and scripts/report.py: what a guest can
print, and what the harness must make of it.  Prints its results as KTAP
when run as a script."""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
import ktap  # noqa: E402
import report  # noqa: E402

GOOD = """KTAP version 1
1..3
    KTAP version 1
    1..2
    ok 1 first
    not ok 2 second
not ok 1 parent
ok 2 plain
ok 3 skipped # SKIP no hardware
"""


class KtapParser(unittest.TestCase):
    def test_nested_results_become_leaves(self):
        tests, problems = ktap.parse(GOOD)
        self.assertEqual(problems, [])
        leaves = [leaf for t in tests for leaf in t.leaves()]
        self.assertEqual(leaves, [
            ('parent.first', 'ok', ''), ('parent.second', 'fail', ''),
            ('plain', 'ok', ''), ('skipped', 'skip', 'no hardware')])

    def test_kunit_tab_and_diagnostic_lines(self):
        text = ('KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: suite\n'
                '    1..1\n\t# case: EXPECTATION FAILED at x.c:1\n    not ok 1 case\n'
                'not ok 1 suite\n')
        tests, problems = ktap.parse(text)
        self.assertEqual(problems, [])
        self.assertEqual(tests[0].leaves(), [('suite.case', 'fail', '')])

    def test_failed_parent_with_passing_subtests_still_fails(self):
        text = 'KTAP version 1\n1..1\n    1..1\n    ok 1 a\nnot ok 1 p\n'
        tests, _ = ktap.parse(text)
        self.assertIn(('p', 'fail', 'failed, no subtest did'), tests[0].leaves())

    def test_empty_output_is_a_problem(self):
        self.assertEqual(ktap.parse('')[1], ['no results at all'])

    def test_broken_line_is_a_problem(self):
        _, problems = ktap.parse('KTAP version 1\n1..2\nok 1 a\nthis is not KTAP\n')
        self.assertIn("line 4: not KTAP: 'this is not KTAP'", problems)
        self.assertIn('plan of 2 tests, 1 results', problems)

    def test_a_kunit_failure_message_belongs_to_its_diagnostic(self):
        text = ('KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: s\n    1..2\n'
                '    # c: EXPECTATION FAILED at lib/x.c:1\n    Expected a == b, but\n'
                '        a == 1\n        b == 2\n    not ok 1 c\n    ok 2 d\nnot ok 1 s\n')
        tests, problems = ktap.parse(text)
        self.assertEqual(problems, [])
        self.assertEqual(tests[0].leaves(), [('s.c', 'fail', ''), ('s.d', 'ok', '')])

    def test_a_line_that_follows_no_diagnostic_is_still_not_ktap(self):
        _, problems = ktap.parse('KTAP version 1\n1..1\nok 1 a\n# d\nok 2 b\nnot ktap\n')
        self.assertIn("line 6: not KTAP: 'not ktap'", problems)

    def test_an_error_after_a_plain_diagnostic_is_not_ktap(self):
        _, problems = ktap.parse('KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n'
                                 '    # figure: 3\n    sh: /x: not found\n    ok 1 a\nok 1 c\n')
        self.assertIn("line 6: not KTAP: 'sh: /x: not found'", problems)

    def test_a_check_the_guest_died_in_keeps_its_name_and_subtests(self):
        text = ('KTAP version 1\n1..2\n    # Subtest: a\n    KTAP version 1\n    1..1\n'
                '    ok 1 x\nok 1 a\n    # Subtest: b\n    KTAP version 1\n    1..3\n'
                '    ok 1 load\n    not ok 2 flush # count 1\n')
        tests, problems = ktap.parse(text)
        leaves = [leaf for t in tests for leaf in t.leaves()]
        self.assertIn(('b.flush', 'fail', 'count 1'), leaves)
        self.assertIn(('b.load', 'ok', ''), leaves)
        self.assertTrue(any(p.endswith('subtests with no result line') for p in problems), problems)

    def test_missing_results_break_the_plan(self):
        _, problems = ktap.parse('KTAP version 1\n1..3\nok 1 a\n')
        self.assertEqual(problems, ['plan of 3 tests, 1 results'])

    def test_out_of_order_numbers(self):
        _, problems = ktap.parse('KTAP version 1\n1..2\nok 2 a\nok 1 b\n')
        self.assertTrue(any('test 2 where 1 was due' in p for p in problems))

    def test_subtests_without_result(self):
        _, problems = ktap.parse('KTAP version 1\n1..1\n    1..1\n    ok 1 a\n')
        self.assertTrue(any('subtests with no result line' in p for p in problems))


FINISHED = 'harness: all 3 checks done\n'


class SerialLog(unittest.TestCase):
    def kinds(self, text, status=(0, 5, '600')):
        return [k for k, _ in report.scan_serial(text, status)]

    def test_clean_boot(self):
        self.assertEqual(self.kinds('Linux version 6.1\n' + FINISHED), [])

    def test_panic(self):
        found = report.scan_serial(
            'Kernel panic - not syncing: Attempted to kill init!\n', (0, 3, '600'))
        self.assertEqual(found, [('panic', 'Attempted to kill init!')])

    def test_oops_and_int3(self):
        self.assertEqual(self.kinds('int3: 0000 [#1] SMP\n' + FINISHED), ['oops'])
        self.assertEqual(self.kinds('BUG: kernel NULL pointer dereference\n'), ['oops'])

    def test_unexpected_warning(self):
        text = 'WARNING: CPU: 1 PID: 7 at kernel/foo.c:3 foo+0x1/0x2\n' + FINISHED
        self.assertEqual(self.kinds(text), ['unexpected warning'])

    T = 'static_keys_harness'

    def test_announced_warning_is_expected(self):
        text = (self.T + report.EXPECT_BEGIN + '\njump label: negative count!\n'
                'WARNING: CPU: 1 PID: 7 at kernel/jump_label.c:3 x+0x1/0x2\n' +
                self.T + report.EXPECT_END + '\n' + FINISHED)
        self.assertEqual(self.kinds(text), [])

    def test_a_window_lets_through_only_its_warning(self):
        text = (self.T + report.EXPECT_BEGIN + '\n'
                'WARNING: CPU: 1 PID: 7 at mm/slub.c:3 x+0x1/0x2\n' +
                self.T + report.EXPECT_END + '\n' + FINISHED)
        self.assertEqual(self.kinds(text), ['unexpected warning'])

    def test_a_window_of_no_known_tag_opens_nothing(self):
        text = ('t' + report.EXPECT_BEGIN + '\n'
                'WARNING: CPU: 1 PID: 7 at kernel/jump_label.c:3 x+0x1/0x2\n'
                't' + report.EXPECT_END + '\n' + FINISHED)
        self.assertEqual(self.kinds(text), ['unknown window', 'unexpected warning'])

    def test_detectors_fail_inside_a_window(self):
        for line in ('WARNING: possible circular locking dependency detected',
                     'UBSAN: shift-out-of-bounds in kernel/x.c:3:5',
                     'BUG: sleeping function called from invalid context',
                     'INFO: task x:1 blocked for more than 120 seconds.'):
            text = (self.T + report.EXPECT_BEGIN + '\n' + line + '\n' +
                    self.T + report.EXPECT_END + '\n' + FINISHED)
            self.assertNotEqual(self.kinds(text), [], line)

    def test_warning_after_the_window_is_not(self):
        text = (self.T + report.EXPECT_BEGIN + '\n' + self.T + report.EXPECT_END +
                '\nWARNING: CPU: 0 PID: 1 at a.c:1 b+0x0/0x1\n' + FINISHED)
        self.assertEqual(self.kinds(text), ['unexpected warning'])

    def test_a_second_warning_in_a_window_is_unexpected(self):
        text = ('static_keys_kunit: expected warning begins\n'
                'WARNING: CPU: 0 PID: 1 at kernel/jump_label.c:10 f\n'
                'WARNING: CPU: 0 PID: 1 at kernel/jump_label.c:10 f\n'
                'static_keys_kunit: expected warning ends\n' + FINISHED)
        self.assertEqual(self.kinds(text), ['unexpected warning'])

    def test_dropped_messages_fail(self):
        self.assertEqual(self.kinds('** 12 printk messages dropped **\n' + FINISHED),
                         ['log incomplete'])

    def test_a_qemu_error_fails(self):
        self.assertEqual(self.kinds(FINISHED, status=(1, 5, '600')), ['qemu'])

    def test_timeout(self):
        self.assertEqual(self.kinds('booting\n', (124, 20, '20')), ['timeout'])

    def test_stall(self):
        text = 'rcu: INFO: rcu_sched self-detected stall on CPU\n' + FINISHED
        self.assertEqual(self.kinds(text), ['stall'])

    def test_guest_that_stops_early(self):
        self.assertEqual(self.kinds('Linux version 6.1\n'), ['unfinished'])

    def test_window_without_end_fails(self):
        text = (self.T + report.EXPECT_BEGIN + '\n'
                'WARNING: CPU: 0 PID: 1 at a.c:1 b+0x0/0x1\n' + FINISHED)
        self.assertEqual(self.kinds(text), ['unexpected warning', 'unclosed window'])

    def test_lockdep_rcu_and_ubsan_reports(self):
        for line in ('WARNING: possible circular locking dependency detected',
                     'WARNING: suspicious RCU usage',
                     'UBSAN: shift-out-of-bounds in kernel/x.c:3:5'):
            self.assertEqual(self.kinds(line + '\n' + FINISHED), ['detector'], line)

    def test_not_ok_skip_is_a_failure(self):
        tests, _ = ktap.parse('KTAP version 1\n1..1\nnot ok 1 a # SKIP why\n')
        self.assertEqual(tests[0].status, 'fail')


class RunRows(unittest.TestCase):
    """report.run_rows(): what a log directory of one run yields."""

    def rows(self, files, boot='boot'):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in files.items():
                with open(os.path.join(tmp, name), 'w') as f:
                    f.write(text)
            return report.run_rows(tmp, boot)

    def all_guest_checks(self):
        names = report.expected_checks('boot')
        return ('KTAP version 1\n1..%d\n' % len(names) +
                ''.join('ok %d %s\n' % (i, n) for i, n in enumerate(names, 1)))

    def test_every_check_reported_passes(self):
        rows = self.rows({'boot.ktap': self.all_guest_checks(),
                          'boot.status': '0 10 600 tcg',
                          'build-seconds': '100\n',
                          'boot.serial': FINISHED})
        self.assertTrue(rows and all(s == 'ok' for _, s, _ in rows), rows)

    def test_a_boot_without_a_finished_build_fails_the_build(self):
        rows = self.rows({'boot.ktap': self.all_guest_checks(),
                          'boot.status': '0 10 600 tcg',
                          'boot.serial': FINISHED})
        self.assertEqual([s for c, s, _ in rows if c == 'build'], ['fail'])

    def test_results_without_status_fail(self):
        rows = self.rows({'boot.ktap': self.all_guest_checks()})
        self.assertIn('boot', [c for c, s, _ in rows if s == 'fail'])

    def test_missing_check_fails(self):
        ktap_text = self.all_guest_checks()
        first = report.expected_checks('boot')[0]
        lines = [l for l in ktap_text.splitlines() if not l.endswith(' ' + first)]
        n = len(report.expected_checks('boot')) - 1
        lines = ['KTAP version 1', '1..%d' % n] + [
            'ok %d %s' % (i, l.split(' ', 2)[2]) for i, l in enumerate(lines[2:], 1)]
        rows = self.rows({'boot.ktap': '\n'.join(lines) + '\n',
                          'boot.status': '0 10 600 tcg',
                          'boot.serial': FINISHED})
        self.assertIn((first, 'fail', 'did not run: no result for it'), rows)


class FrozenSubtests(unittest.TestCase):
    """report.vanished(): a run reports every name of its frozen list."""

    def setUp(self):
        import tempfile
        self.tmp = tempfile.TemporaryDirectory()
        self.real = report.SUBTESTS
        report.SUBTESTS = self.tmp.name
        os.makedirs(os.path.dirname(report.frozen_path('series')))
        with open(report.frozen_path('series'), 'w') as f:
            f.write('boot\nkeys_kvm.a\nkeys_kvm.b\nkunit_builtin.x\n')

    def tearDown(self):
        report.SUBTESTS = self.real
        self.tmp.cleanup()

    def test_a_vanished_subtest_fails(self):
        rows = report.vanished('series', [('boot', 'ok', ''), ('keys_kvm.a', 'ok', ''),
                                          ('kunit_builtin.x', 'ok', '')])
        self.assertEqual([(c, s) for c, s, _ in rows if s == 'fail'], [('keys_kvm.b', 'fail')])

    def test_a_check_skipped_whole_wants_none_of_its_subtests(self):
        rows = report.vanished('series', [('boot', 'ok', ''), ('keys_kvm', 'skip', 'no SVM'),
                                          ('kunit_builtin.x', 'ok', '')])
        self.assertFalse([c for c, s, _ in rows if s == 'fail'])

    def test_no_list_wants_nothing(self):
        self.assertEqual(report.vanished('distro', []), [])


class ExpectedSkips(unittest.TestCase):
    """report.unexpected_skips(): a variant may skip only what
    tests/expected-skips gives it."""

    ROWS = [('kunit_builtin', 'skip', 'no KUnit suites'),
            ('keys_net.busy_poll_on', 'skip', 'no net_busy_poll_on'),
            ('jump_table_kcore', 'ok', '')]

    def statuses(self, name):
        rules = report.expected_skips()
        return [s for _, s, _ in report.unexpected_skips(name, self.ROWS, rules)]

    def test_the_distro_skips_what_the_series_adds(self):
        self.assertEqual(self.statuses('distro'), ['skip', 'skip', 'ok'])
        self.assertEqual(self.statuses('arm64-distro'), ['skip', 'skip', 'ok'])

    def test_a_skip_on_the_series_fails(self):
        self.assertEqual(self.statuses('series'), ['fail', 'fail', 'ok'])
        self.assertEqual(self.statuses('arm64-series'), ['fail', 'fail', 'ok'])

    def test_jump_labels_off_skips_only_what_needs_sites(self):
        self.assertEqual(self.statuses('series-off'), ['fail', 'skip', 'ok'])
        self.assertEqual(self.statuses('off'), ['skip', 'skip', 'ok'])

    def test_a_run_of_no_rule_skips_nothing(self):
        self.assertEqual(self.statuses('host'), ['fail', 'fail', 'ok'])


class ExpectedFailures(unittest.TestCase):
    """tests/expected-failures: a check listed for a variant must fail
    there, and passes the run only if it does."""

    RULES = [(['distro'], 'key_sync_rounds.several_modules_one_batch', 'why')]
    ROWS = [('key_sync_rounds.several_modules_one_batch', 'fail', '6 rounds'),
            ('key_sync_rounds.unload', 'ok', '')]

    def statuses(self, name, rows):
        return [s for _, s, _ in report.unexpected_skips(name, rows, [], self.RULES)]

    def test_a_listed_failure_passes(self):
        self.assertEqual(self.statuses('distro', self.ROWS), ['ok', 'ok'])

    def test_a_listed_check_that_passes_fails(self):
        rows = [(self.ROWS[0][0], 'ok', '3 rounds')] + self.ROWS[1:]
        self.assertEqual(self.statuses('distro', rows), ['fail', 'ok'])

    def test_other_variants_are_not_excused(self):
        self.assertEqual(self.statuses('series', self.ROWS), ['fail', 'ok'])

    def test_the_file_parses(self):
        for variants, check, why in report.expected_failures():
            self.assertTrue(variants and check and why, (variants, check))


class IntroducedBy(unittest.TestCase):
    """tests/introduced-by: at a prefix without the patch a check is a
    skip; every subject named there is a patch of the series."""

    RULES = [('key_sync_rounds.*', 'jump_label: write all sites of a key in one batch')]
    ROWS = [('key_sync_rounds.several_modules_one_batch', 'fail', '51 rounds'),
            ('key_sync_rounds.unload', 'ok', '')]

    def test_subjects_are_the_series(self):
        have = report.subjects(os.path.join(report.REPO, 'series'))
        for _, subject in report.introduced_by():
            self.assertIn(subject, have)

    def test_a_prefix_without_the_patch_skips(self):
        import tempfile
        with tempfile.NamedTemporaryFile('w') as f:
            f.write(open(os.path.join(report.REPO, 'series')).readline())
            f.flush()
            rows = report.not_yet_introduced(self.ROWS, f.name, self.RULES)
        self.assertEqual([s for _, s, _ in rows], ['skip', 'ok'])

    def test_the_whole_series_counts_as_it_comes(self):
        rows = report.not_yet_introduced(
            self.ROWS, os.path.join(report.REPO, 'series'), self.RULES)
        self.assertEqual([s for _, s, _ in rows], ['fail', 'ok'])


class MergeSlices(unittest.TestCase):
    """report.merge(): slices of make check as one record; slices of other
    patches, or a kernel in two slices, are refused."""

    def slice(self, tmp, name, runs, series='abc'):
        import json
        d = os.path.join(tmp, name, '6.1.192-3')
        os.makedirs(d)
        with open(os.path.join(d, 'check.json'), 'w') as f:
            json.dump({'meta': {'series': series, 'seconds': len(name)},
                       'runs': runs,
                       'summaries': {k: [f'{k}: line'] for k in runs}}, f)
        return os.path.join(tmp, name)

    def test_two_slices_are_one_record(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            a = self.slice(tmp, 'a', {'series': [['x', 'ok', '']]})
            b = self.slice(tmp, 'bb', {'distro': [['x', 'skip', 'why']],
                                       'host': [['h', 'ok', '']]})
            runs, summaries = report.merge([a, b])
        self.assertEqual([n for n, _ in runs], ['series', 'distro', 'host'])
        self.assertEqual(runs[1][1], [('x', 'skip', 'why')])
        self.assertEqual(summaries['host'], ['host: line'])
        # each slice's seconds, in order; the record takes the longest
        self.assertEqual(report.merge.slices, [1, 2])
        meta = report.record(runs, summaries, report.merge.slices)['meta']
        self.assertEqual((meta['slices'], meta['seconds']), ([1, 2], 2))

    def test_other_patches_are_refused(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            a = self.slice(tmp, 'a', {'series': []})
            b = self.slice(tmp, 'b', {'distro': []}, series='def')
            with self.assertRaises(SystemExit) as e:
                report.merge([a, b])
        self.assertIn('other patches', str(e.exception))

    def test_a_kernel_in_two_slices_is_refused(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            a = self.slice(tmp, 'a', {'series': []})
            b = self.slice(tmp, 'b', {'series': []})
            with self.assertRaises(SystemExit) as e:
                report.merge([a, b])
        self.assertIn('two slices', str(e.exception))


class SiteSizes(unittest.TestCase):
    """report.check_site_sizes(): no 5-byte site of the series within rel8
    reach, and its core table in order as linked, from the sites file
    build.sh writes (x86-64 series kernels only)."""

    def check(self, series):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            dirs = {'series': os.path.join(tmp, 'series')}
            os.mkdir(dirs['series'])
            if series is not None:
                with open(os.path.join(dirs['series'], 'sites'), 'w') as f:
                    f.write(series)
            runs = [('series', []), ('distro', [])]
            report.check_site_sizes(runs, dirs)
            return runs[0][1], runs[1][1]

    GOOD = 'sites=10 keys=4 short=9 long=1 other=0 long_in_reach=0 unsorted=0'

    def test_long_sites_out_of_reach_and_in_order_pass(self):
        mine, theirs = self.check(self.GOOD)
        self.assertEqual(mine, [('sites.five_byte_sites_out_of_rel8_reach', 'ok', ''),
                                ('sites.core_table_sorted_at_link', 'ok', '')])
        self.assertEqual(theirs, [])

    def test_long_site_in_reach_fails_with_counts(self):
        mine, _ = self.check(self.GOOD.replace('long_in_reach=0', 'long_in_reach=7'))
        self.assertEqual(mine[0][1], 'fail')
        self.assertIn('7 of', mine[0][2])
        self.assertIn('1 5-byte', mine[0][2])

    def test_a_table_out_of_order_fails(self):
        mine, _ = self.check(self.GOOD.replace('unsorted=0', 'unsorted=3'))
        self.assertEqual(mine[1][:2], ('sites.core_table_sorted_at_link', 'fail'))
        self.assertIn('3 of 10 entries', mine[1][2])

    def test_no_sites_fails(self):
        mine, _ = self.check('sites=0 keys=0 short=0 long=0 other=0 long_in_reach=0 unsorted=0')
        self.assertEqual([s for _, s, _ in mine], ['fail', 'fail'])

    def test_missing_counts_fail(self):
        for text in (None, 'sites=10 keys=4 short=9 long=1 other=0 long_in_reach=0'):
            mine, _ = self.check(text)
            self.assertEqual([s for _, s, _ in mine], ['fail', 'fail'])


class BreakVerdict(unittest.TestCase):
    """scripts/break-verdict.py: a break is caught by a failure of a check
    it names, or by a crash where its patch says it crashes; a crash
    elsewhere catches nothing."""

    OOPS = ('BUG: unable to handle page fault for address: ffffffff81a1e57c\n'
            'RIP: 0010:arch_jump_entry_size+0x7/0x1e\n')

    def verdict(self, rows, serial, crash_site=''):
        import importlib.util
        import tempfile
        spec = importlib.util.spec_from_file_location(
            'break_verdict', os.path.join(report.REPO, 'scripts', 'break-verdict.py'))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, 'report.json'), 'w') as f:
                json.dump({'runs': {'series': rows}}, f)
            with open(os.path.join(tmp, 'serial'), 'w') as f:
                f.write(serial)
            import contextlib
            import io
            with contextlib.redirect_stdout(io.StringIO()):
                return module.main(os.path.join(tmp, 'report.json'), 'key_sync_rounds',
                                   os.path.join(tmp, 'serial'), crash_site)

    def test_a_named_check_failing_catches(self):
        self.assertEqual(self.verdict([['key_sync_rounds.a', 'fail', 'x']], ''), 0)

    def test_a_boot_failure_alone_does_not(self):
        self.assertEqual(self.verdict([['boot', 'fail', 'oops'], ['key_sync_rounds.a', 'ok', '']],
                                      self.OOPS), 1)

    def test_a_check_the_kernel_died_in_is_the_crash(self):
        rows = [['key_sync_rounds', 'fail', 'no result line: it stopped before its end']]
        self.assertEqual(self.verdict(rows, self.OOPS), 1)
        self.assertEqual(self.verdict(rows, self.OOPS, 'arch_jump_entry_size'), 0)

    def test_a_crash_where_the_break_says_catches(self):
        self.assertEqual(self.verdict([['boot', 'fail', 'oops']], self.OOPS,
                                      'arch_jump_entry_size'), 0)
        self.assertEqual(self.verdict([['boot', 'fail', 'oops']], self.OOPS,
                                      'jump_label_bad_site'), 1)


class KtapResult(unittest.TextTestResult):
    """Prints each test as a KTAP result line."""

    def __init__(self, stream, *args, **kwargs):
        super().__init__(stream, *args, **kwargs)
        self.number = 0

    def _line(self, test, ok, detail=''):
        self.number += 1
        for line in detail.splitlines():
            print('# ' + line)
        print(f"{'ok' if ok else 'not ok'} {self.number} {test.id().split('.', 1)[1]}")

    def addSuccess(self, test):
        self._line(test, True)

    def addFailure(self, test, err):
        self._line(test, False, self._exc_info_to_string(err, test))
        self.failures.append((test, ''))

    def addError(self, test, err):
        self._line(test, False, self._exc_info_to_string(err, test))
        self.errors.append((test, ''))


def run_as_ktap(module):
    """Runs MODULE's tests, printing KTAP; the exit status."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    print('KTAP version 1')
    print(f'1..{suite.countTestCases()}')
    result = unittest.TextTestRunner(stream=open(os.devnull, 'w'),
                                     resultclass=KtapResult).run(suite)
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(run_as_ktap(sys.modules[__name__]))
