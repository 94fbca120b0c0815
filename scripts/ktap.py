"""A small, strict KTAP parser (Documentation/dev-tools/ktap.rst).

parse(text) returns (tests, problems): the top-level tests, each with its
subtests, and a list of what was wrong with the text (lines that are not
KTAP, plans that do not match the results, a subtest block with no result
line).  A text with no test at all is a problem too: a guest that printed
nothing has not passed.
"""

import re
from dataclasses import dataclass, field

OK, FAIL, SKIP = 'ok', 'fail', 'skip'

HEADER = re.compile(r'^(KTAP version \d+|TAP version \d+)$')
PLAN = re.compile(r'^1\.\.(\d+)$')
# A KUnit failure's diagnostic, whose message follows on lines of their
# own without a '#' (6.1: "Expected a == b, but", then the values).
FAILURE_DIAGNOSTIC = re.compile(r'^#.*\b(EXPECTATION|ASSERTION) FAILED\b')
SUBTEST = re.compile(r'^#\s*Subtest:\s*(.*)$')
RESULT = re.compile(r'^(ok|not ok) (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(.*))?$')


@dataclass
class Test:
    name: str
    status: str
    reason: str = ''
    subtests: list = field(default_factory=list)

    def leaves(self, prefix=''):
        """(name, status, reason) of every leaf, names joined with '.'."""
        name = prefix + self.name
        if not self.subtests:
            return [(name, self.status, self.reason)]
        out = []
        for sub in self.subtests:
            out += sub.leaves(name + '.')
        # A failed parent whose subtests all passed failed on its own.
        if self.status == FAIL and all(s != FAIL for _, s, _ in out):
            out.append((name, FAIL, self.reason or 'failed, no subtest did'))
        return out


def _indent(line):
    return len(line) - len(line.lstrip(' \t'))


def _unfinished(name, subtests):
    """A block of subtests with no result line: the test they belong to
    stopped (the guest died in it), named by the "# Subtest:" line before
    the block if there was one."""
    return Test(name or '(unfinished)', FAIL,
                'no result line: it stopped before its end', subtests)


def _block(lines, i, level, problems):
    """Parse the KTAP block whose lines are indented by level, from i."""
    tests, plan, pending, pending_line = [], None, None, 0
    pending_name = subtest = None
    diagnostic = False
    while i < len(lines):
        lineno, raw = lines[i]
        text = raw.strip()
        ind = _indent(raw)
        if text.startswith('#'):
            # Diagnostics may stand at any indent (KUnit's use tabs).
            diagnostic = bool(FAILURE_DIAGNOSTIC.match(text))
            m = SUBTEST.match(text)
            if m and pending is None:
                # the name of the block that follows, until its result
                subtest = m.group(1).strip()
            i += 1
            continue
        if diagnostic and not (HEADER.match(text) or PLAN.match(text) or
                               RESULT.match(text)):
            # The lines after a KUnit failure's diagnostic until the next
            # KTAP line are its own: 6.1's KUnit prints a failed
            # expectation's "Expected ..." and its values without a "#"
            # of their own.  After any other diagnostic, a line that is
            # not KTAP is a problem (a shell's error, say).
            i += 1
            continue
        diagnostic = False
        if ind < level:
            break
        if ind > level:
            if pending is not None:
                problems.append(f'line {pending_line}: subtests with no result line')
                tests.append(_unfinished(pending_name, pending))
            pending_line, pending_name = lineno, subtest
            pending, i = _block(lines, i, ind, problems)
            continue
        i += 1
        if HEADER.match(text):
            if tests or plan is not None:
                problems.append(f'line {lineno}: version line in the middle of a block')
            continue
        m = PLAN.match(text)
        if m:
            if plan is not None:
                problems.append(f'line {lineno}: a second plan')
            plan = int(m.group(1))
            continue
        m = RESULT.match(text)
        if not m:
            problems.append(f'line {lineno}: not KTAP: {text[:80]!r}')
            continue
        ok, number, name, directive = m.groups()
        directive = directive or ''
        if int(number) != len(tests) + 1:
            problems.append(f'line {lineno}: test {number} where {len(tests) + 1} was due')
        if directive.upper().startswith('SKIP') and ok == 'not ok':
            # A skip that says it failed is not let off as a skip.
            status, reason = FAIL, 'not ok with a SKIP: ' + directive[4:].strip()
        elif directive.upper().startswith('SKIP'):
            status, reason = SKIP, directive[4:].strip()
        else:
            status, reason = (OK if ok == 'ok' else FAIL), directive
        tests.append(Test(name.strip() or f'test{number}', status, reason, pending or []))
        pending = subtest = None
    if pending is not None:
        problems.append(f'line {pending_line}: subtests with no result line')
        tests.append(_unfinished(pending_name, pending))
    if plan is not None and plan != len(tests):
        problems.append(f'plan of {plan} tests, {len(tests)} results')
    return tests, i


def parse(text):
    lines = [(n + 1, l.rstrip('\r\n')) for n, l in enumerate(text.splitlines())]
    lines = [(n, l) for n, l in lines if l.strip()]
    problems = []
    if not lines:
        return [], ['no results at all']
    level = _indent(lines[0][1])
    tests, i = _block(lines, 0, level, problems)
    if i < len(lines):
        problems.append(f'line {lines[i][0]}: text after the results')
    if not tests:
        problems.append('no test results')
    return tests, problems
