"""Host tests of scripts/bench-report.py: what it makes of a bench boot's
lines and of a disassembly.  Prints its results as KTAP when run as a
script."""

import importlib.util
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', '..', 'scripts'))
from report_parser import run_as_ktap  # noqa: E402

spec = importlib.util.spec_from_file_location(
    'bench_report', os.path.join(HERE, '..', '..', 'scripts', 'bench-report.py'))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def parse(text):
    with tempfile.NamedTemporaryFile('w', suffix='.ktap') as f:
        f.write(text)
        f.flush()
        return bench.parse_bench(f.name)


# getppid as GCC lays it out.  SITE: a site (nop2) whose block is out of
# line after the return.  INLINE: -Os, the block inline, jumped over.
# OFF: no jump labels, a load, test and conditional jump over the block.
SITE = [(0x10, b'\x66\x90', 'xchg   %ax,%ax'),
        (0x12, b'\xe8\x00\x00\x00\x00', 'call   20 <__rcu_read_lock>'),
        (0x17, b'\xc3', 'ret'),
        (0x18, b'\xe8\x00\x00\x00\x00', 'call   30 <_printk>'),
        (0x1d, b'\xeb\xf3', 'jmp    12 <f+0x2>')]
INLINE = [(0x10, b'\x66\x90', 'xchg   %ax,%ax'),
          (0x12, b'\xeb\x05', 'jmp    19 <f+0x9>'),
          (0x14, b'\xe8\x00\x00\x00\x00', 'call   30 <_printk>'),
          (0x19, b'\xe8\x00\x00\x00\x00', 'call   20 <__rcu_read_lock>'),
          (0x1e, b'\xc3', 'ret')]
OFF = [(0x10, b'\x8b\x05\x00\x00\x00\x00', 'mov    0x0(%rip),%eax  # 1 <getppid_demo_key>'),
       (0x16, b'\x85\xc0', 'test   %eax,%eax'),
       (0x18, b'\x7e\x05', 'jle    1f <f+0xf>'),
       (0x1a, b'\xe8\x00\x00\x00\x00', 'call   30 <_printk>'),
       (0x1f, b'\xe8\x00\x00\x00\x00', 'call   20 <__rcu_read_lock>'),
       (0x24, b'\xc3', 'ret')]

# arm64, no jump labels: the frame record, then a load and a branch on it
# over the block (the site of a series kernel is one nop instead).
ARM64_OFF = [(0x10, bytes(4), 'stp\tx29, x30, [sp, #-16]!'),
             (0x14, bytes(4), 'adrp\tx0, 0 <getppid_demo_key>'),
             (0x18, bytes(4), 'ldr\tw0, [x0]'),
             (0x1c, bytes(4), 'cmp\tw0, #0x0'),
             (0x20, bytes(4), 'b.gt\t2c <f+0x1c>'),
             (0x24, bytes(4), 'bl\t40 <__rcu_read_lock>'),
             (0x28, bytes(4), 'ret'),
             (0x2c, bytes(4), 'bl\t50 <_printk>'),
             (0x30, bytes(4), 'b\t24 <f+0x14>')]


def addrs(path):
    return [a for a, _c, _t in path]


def size(path):
    return sum(len(c) for _a, c, _t in path)


class BenchLines(unittest.TestCase):
    def test_samples_and_flips_are_collected(self):
        r = parse('bench mode=time cpus=1\npipe_ns=100\npipe_ns=101\n'
                  'flip sites=10 enable_ns=5 disable_ns=6 taken=10 after=0\n'
                  'flip_sync sites=10 rounds=6 cpu_syncs=24 sites=10\n'
                  'bench done\n')
        self.assertEqual(r['errors'], [])
        self.assertEqual(r['pipe_ns'], [100, 101])
        self.assertEqual(r['flip'][10], [(5, 6)])
        self.assertEqual(r['flip_sync'][10], [(6, 24, -1, -1)])

    def test_a_flip_that_did_not_flip_is_an_error(self):
        r = parse('flip sites=10 enable_ns=5 disable_ns=6 taken=3 after=0\n'
                  'bench done\n')
        self.assertIn('not a real flip', r['errors'][0])

    def test_a_boot_cut_short_is_an_error(self):
        r = parse('bench mode=time cpus=1\npipe_ns=100\n')
        self.assertIn("no 'bench done'", r['errors'][0])

    def test_a_guest_error_is_reported(self):
        r = parse('error loading /modules/x.ko\nbench done\n')
        self.assertIn('error loading', r['errors'][0])


def one_boot(drop=''):
    """A time boot and a sync boot of one repeat, merged as collect()
    does, without the lines that start with DROP."""
    time = ['bench mode=time cpus=1 repeat=1 rounds=20',
            'jump_label_init_cycles=7', 'load_ns=9', 'pipe_ns=1',
            'getppid_ns=2', 'pipe_self_ns=3', 'yield_ns=4']
    time += [f'flip sites={n} enable_ns=1 disable_ns=1 taken={n} after=0'
             for n in bench.FLIP_SITES]
    sync = ['bench mode=sync cpus=4']
    sync += [f'flip_sync sites={n} rounds=6 cpu_syncs=24'
             for n in bench.FLIP_SITES]
    runs = [parse('\n'.join(l for l in lines if not (drop and l.startswith(drop)))
                  + '\nbench done\n') for lines in (time, sync)]
    r = bench.merge(runs)
    r['boots'] = 1
    return r


class Completeness(unittest.TestCase):
    def test_a_whole_run_misses_nothing(self):
        r = one_boot()
        self.assertEqual(bench.missing('series', r), [])
        self.assertEqual((r['repeat'], r['rounds']), (1, 20))

    def test_cpu_syncs_without_rounds_are_an_error(self):
        r = one_boot()
        r['flip_sync'][10] = [(0, 24)]
        self.assertIn('round probe missed', ' '.join(bench.missing('series', r)))

    def test_a_missing_figure_is_an_error(self):
        for drop in ('jump_label_init', 'flip sites=10000', 'pipe_ns',
                     'flip_sync sites=1 ', 'bench mode=time'):
            self.assertNotEqual(bench.missing('series', one_boot(drop)), [], drop)


class Disassembly(unittest.TestCase):
    def test_straight_line_stops_at_the_return(self):
        self.assertEqual(addrs(bench.straight_line(bench.X86, SITE)), [0x10, 0x12, 0x17])

    def test_straight_line_jumps_over_an_inline_block(self):
        self.assertEqual(addrs(bench.straight_line(bench.X86, INLINE)), [0x10, 0x12, 0x19, 0x1e])

    def test_straight_line_takes_the_jump_that_avoids_the_block(self):
        self.assertEqual(addrs(bench.straight_line(bench.X86, OFF)), [0x10, 0x16, 0x18, 0x1f, 0x24])

    def test_the_branch_is_the_site(self):
        self.assertEqual(size(bench.demo_branch(bench.X86, bench.straight_line(bench.X86, SITE))), 2)

    def test_the_branch_of_an_inline_block_is_site_and_jump(self):
        self.assertEqual(size(bench.demo_branch(bench.X86, bench.straight_line(bench.X86, INLINE))), 4)

    def test_without_a_site_the_branch_is_load_test_jump(self):
        branch = bench.demo_branch(bench.X86, bench.straight_line(bench.X86, OFF))
        self.assertEqual((len(branch), size(branch)), (3, 10))

    def test_arm64_takes_the_side_that_avoids_the_block(self):
        path = bench.straight_line(bench.ARM64, ARM64_OFF)
        self.assertEqual(addrs(path), [0x10, 0x14, 0x18, 0x1c, 0x20, 0x24, 0x28])
        self.assertEqual(len(bench.demo_branch(bench.ARM64, path)), 5)

    def test_an_arm64_objdump_line_is_one_word_in_memory_order(self):
        m = bench.ARM64['insn'].match('ffffffc008036498:\ta9bf7bfd \tstp\tx29, x30, [sp, #-16]!')
        self.assertEqual(bytes.fromhex(m.group(2))[::-1], b'\xfd\x7b\xbf\xa9')


class Variants(unittest.TestCase):
    def test_a_variant_is_named_the_same_on_every_architecture(self):
        self.assertEqual([bench.short(v) for v in ('bench-series', 'arm64-bench-distro', 'arm64-bench-off')],
                         ['series', 'distro', 'off'])

    def test_an_o2_variant_is_named_as_its_os_one_with_its_level(self):
        names = ('bench-o2-series', 'bench-series', 'arm64-bench-o2-off', 'arm64-bench-distro')
        self.assertEqual([bench.short(v) for v in names], ['series', 'series', 'off', 'distro'])
        self.assertEqual([bench.level(v) for v in names], ['O2', 'Os', 'O2', 'Os'])

    def test_the_architecture_comes_from_the_prefix(self):
        self.assertEqual([bench.arch_of(v) for v in ('bench-off', 'arm64-bench-off')],
                         ['x86_64', 'arm64'])
        self.assertEqual(bench.arch_row('arm64')['BENCH_GETPPID'], '__arm64_sys_getppid')


class InstructionAccount(unittest.TestCase):
    ACCT = {'series': {'pipe-test': {'a': 100, 'b': 50, 'same': 7}},
            'distro': {'pipe-test': {'a': 100, 'b': 60, 'same': 7}},
            'off': {'pipe-test': {'a': 90, 'c': 5, 'same': 7}}}

    def rows(self):
        md = bench.insn_account.tables(self.ACCT, 20)
        return [l for l in md if l.startswith('| ')]

    def test_totals_and_differences_per_kernel(self):
        self.assertEqual(self.rows()[0], '| function | series | distro | off | series - off | distro - off | series - distro |')
        self.assertEqual(self.rows()[1], '| **all** | 157 | 167 | 102 | +55 | +65 | -10 |')

    def test_functions_that_differ_most_first_and_equal_ones_left_out(self):
        self.assertEqual([r.split(' | ')[0] for r in self.rows()[2:]], ['| `b`', '| `a`', '| `c`'])



class Goals(unittest.TestCase):
    @staticmethod
    def kernel(pipe, init, sites, by_key):
        return {'pipe_ns': pipe, 'pipe_self_ns': [10], 'yield_ns': [10],
                'getppid_ns': [10], 'load_ns': [10],
                'jump_label_init_cycles': [init], 'flip': {10000: [(1, 1)]},
                'sites': {'sites': sites}, '_by_key': by_key}

    def verdicts(self, series, distro):
        res = {'bench-series': series, 'bench-distro': distro}
        md = bench.goals(res, [('Os', '', list(res))])
        rows = {l.split(' | ')[0][2:]: l.split(' | ')[-1][:-2] for l in md
                if l.startswith('| ') and ' -Os ' in l}
        return rows, [l for l in md if l.startswith('- ')]

    def test_a_figure_over_its_bound_is_missed(self):
        rows, why = self.verdicts(self.kernel([90], 30, 3, {}), self.kernel([100], 100, 3, {}))
        self.assertEqual(rows['pipe-test'], 'met')
        self.assertEqual(rows['jump_label_init()'], 'missed')
        self.assertEqual(rows['flip of a key of 10,000 sites'], 'missed')

    def test_a_median_over_one_within_the_ranges_says_so(self):
        rows, _why = self.verdicts(self.kernel([99, 101, 102], 1, 3, {}), self.kernel([100, 100, 100], 10, 3, {}))
        self.assertTrue(rows['pipe-test'].startswith('not by the medians'), rows['pipe-test'])

    def test_a_missed_init_names_the_sites_each_kernel_visits(self):
        _rows, why = self.verdicts(self.kernel([1], 60, 6, {'k': [0] * 5, 'own': [0]}),
                                   self.kernel([1], 100, 2, {'k': [0] * 2}))
        self.assertEqual(len(why), 1)
        self.assertIn('the series kernel has 6, the distro 2; per site it takes 10 cycles against 50', why[0])
        self.assertIn('3 more sites are on keys both kernels have (most on k 5 against 2)', why[0])


if __name__ == '__main__':
    sys.exit(run_as_ktap(sys.modules[__name__]))
