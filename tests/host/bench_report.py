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
        self.assertEqual(r['flip_sync'][10], [(6, 24)])

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


class Disassembly(unittest.TestCase):
    def test_straight_line_stops_at_the_return(self):
        self.assertEqual(addrs(bench.straight_line(SITE)), [0x10, 0x12, 0x17])

    def test_straight_line_jumps_over_an_inline_block(self):
        self.assertEqual(addrs(bench.straight_line(INLINE)), [0x10, 0x12, 0x19, 0x1e])

    def test_straight_line_takes_the_jump_that_avoids_the_block(self):
        self.assertEqual(addrs(bench.straight_line(OFF)), [0x10, 0x16, 0x18, 0x1f, 0x24])

    def test_the_branch_is_the_site(self):
        self.assertEqual(size(bench.demo_branch(bench.straight_line(SITE))), 2)

    def test_the_branch_of_an_inline_block_is_site_and_jump(self):
        self.assertEqual(size(bench.demo_branch(bench.straight_line(INLINE))), 4)

    def test_without_a_site_the_branch_is_load_test_jump(self):
        branch = bench.demo_branch(bench.straight_line(OFF))
        self.assertEqual((len(branch), size(branch)), (3, 10))


if __name__ == '__main__':
    sys.exit(run_as_ktap(sys.modules[__name__]))
