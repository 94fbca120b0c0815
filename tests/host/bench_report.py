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


# A site (nop2 at 0x10) in front of the body, its out-of-line block after
# the return; an off kernel's load, test and jump instead.
SITE = [(0x10, b'\x66\x90', 'xchg   %ax,%ax'),
        (0x12, b'\xe8\x00\x00\x00\x00', 'call   20 <__rcu_read_lock>'),
        (0x17, b'\xc3', 'ret'),
        (0x18, b'\x48\xc7\xc7\x00\x00\x00\x00', 'mov    $0x0,%rdi'),
        (0x1f, b'\xeb\xf1', 'jmp    12 <f+0x2>')]
OFF = [(0x10, b'\x8b\x05\x00\x00\x00\x00', 'mov    0x0(%rip),%eax  # 1 <getppid_demo_key>'),
       (0x16, b'\x85\xc0', 'test   %eax,%eax'),
       (0x18, b'\x7f\x02', 'jg     1c <f+0xc>'),
       (0x1a, b'\xeb\x01', 'jmp    1d <f+0xd>'),
       (0x1c, b'\x90', 'nop'),
       (0x1d, b'\xc3', 'ret')]


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
        path = bench.straight_line(SITE)
        self.assertEqual([a for a, _c, _t in path], [0x10, 0x12, 0x17])

    def test_straight_line_follows_unconditional_jumps(self):
        path = bench.straight_line(OFF)
        self.assertEqual([a for a, _c, _t in path], [0x10, 0x16, 0x18, 0x1a, 0x1d])

    def test_the_branch_is_the_site(self):
        branch = bench.demo_branch(bench.straight_line(SITE), {0x10})
        self.assertEqual([len(c) for _a, c, _t in branch], [2])

    def test_without_a_site_the_branch_is_load_test_jump(self):
        branch = bench.demo_branch(bench.straight_line(OFF), set())
        self.assertEqual(sum(len(c) for _a, c, _t in branch), 10)
        self.assertEqual(len(branch), 3)


if __name__ == '__main__':
    sys.exit(run_as_ktap(sys.modules[__name__]))
