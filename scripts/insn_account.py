"""insn_account.py: where make bench's kernels spend their instructions,
per function; a module of bench-report.py.

Reads the profile boots of each bench variant (scripts/bench-boot.sh:
VDIR/logs/profile-NAME.insns, one "ADDRESS COUNT" line per executed
instruction, written by the insn-count QEMU plugin) and the variant's
vmlinux, and takes two differences of boots that ran alike up to the
thing measured:

    pipe-test   profile-pipe-twice less profile-pipe: BENCH_ROUNDS round
                trips, everything else (boot, program start) cancelled
    module load profile-load less profile-idle: the flip module's
                finit_module(), less the same program doing nothing

Each executed instruction is charged to the function (STT_FUNC symbol)
that holds it, or to the nearest symbol before it when no function does
(entry code); user space and kernel text outside the vmlinux (modules)
are one line each.  account() gives the differences per kernel,
tables() the markdown with the functions whose counts differ most
between kernels.  Standard library only.
"""
import bisect
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sites as sitecount  # noqa: E402

# (title, boot measured, boot subtracted)
DIFFERENCES = (("pipe-test", "profile-pipe-twice", "profile-pipe"),
               ("module load", "profile-load", "profile-idle"))
USER = "[user space]"
OUTSIDE = "[kernel text outside the vmlinux: modules]"


def counts(path):
    """{address: executions} of one profile boot."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                raise SystemExit(f"{path}: {line.strip()}")
            addr, n = line.split()
            out[int(addr, 16)] = int(n)
    return out


class Symbols:
    """Address to function name, from the vmlinux's symbol table."""

    def __init__(self, vmlinux):
        elf = sitecount.Elf(vmlinux)
        funcs = sorted((v, s, n) for v, s, n in elf.functions if s)
        self.starts = [v for v, _s, _n in funcs]
        self.funcs = funcs
        named = sorted((v, n) for n, (v, _s) in elf.symbols.items()
                       if v >= 1 << 63 and not n.startswith("__"))
        self.any_starts = [v for v, _n in named]
        self.any = named
        ends = [v + s for v, s, _n in funcs]
        self.low, self.high = (min(self.starts), max(ends)) if funcs else (0, 0)

    def name(self, addr):
        if addr < 1 << 63:
            return USER
        if not self.low <= addr < self.high:
            return OUTSIDE
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0 and addr < self.funcs[i][0] + self.funcs[i][1]:
            return self.funcs[i][2]
        j = bisect.bisect_right(self.any_starts, addr) - 1
        return self.any[j][1] if j >= 0 else OUTSIDE


def per_function(logs, symbols, measured, subtracted):
    """{function: instructions of MEASURED less SUBTRACTED}, or None when
    a boot's counts are missing."""
    paths = [os.path.join(logs, f"{b}.insns") for b in (measured, subtracted)]
    if not all(os.path.exists(p) for p in paths):
        return None
    out = {}
    for path, sign in zip(paths, (1, -1)):
        for addr, n in counts(path).items():
            name = symbols.name(addr)
            out[name] = out.get(name, 0) + sign * n
    return out


def account(variants):
    """{variant short name: {difference title: {function: instructions}}}
    for VARIANTS, a list of (short name, variant dir)."""
    out = {}
    for short, vdir in variants:
        vmlinux = os.path.join(vdir, "src", ".build", "vmlinux")
        if not os.path.exists(vmlinux):
            continue
        symbols = Symbols(vmlinux)
        logs = os.path.join(vdir, "logs")
        out[short] = {}
        for title, measured, subtracted in DIFFERENCES:
            diff = per_function(logs, symbols, measured, subtracted)
            if diff is not None:
                out[short][title] = diff
    return out


def fmt(n):
    return f"{n:,}"


def tables(acct, rounds, top=12):
    """Markdown: per difference, the total of each kernel and the TOP
    functions whose counts differ most between the kernels (the largest
    of |series - off|, |distro - off|, |series - distro|)."""
    md = []
    names = [k for k in ("series", "distro", "off") if k in acct]
    for title, _m, _s in DIFFERENCES:
        have = [k for k in names if title in acct[k]]
        if len(have) < 2:
            continue
        per = {k: acct[k][title] for k in have}
        funcs = set().union(*(set(p) for p in per.values()))

        def get(k, f):
            return per[k].get(f, 0)

        def spread(f):
            vals = [get(k, f) for k in have]
            return max(vals) - min(vals)
        # Ties by name, so that the same counts give the same table.
        ranked = sorted((f for f in funcs if spread(f)),
                        key=lambda f: (-spread(f), f))
        what = "one load" if title == "module load" else \
            f"{fmt(rounds) if rounds else 'BENCH_ROUNDS'} round trips"
        md += [f"#### Instructions per function: {title} ({what})", ""]
        head = ["function"] + have
        if "off" in have:
            head += [f"{k} - off" for k in have if k != "off"]
        if "series" in have and "distro" in have:
            head += ["series - distro"]
        rows = []

        def row(label, vals):
            r = [label] + [fmt(vals[k]) for k in have]
            if "off" in have:
                r += [f"{vals[k] - vals['off']:+,}" for k in have if k != "off"]
            if "series" in have and "distro" in have:
                r += [f"{vals['series'] - vals['distro']:+,}"]
            return r
        rows.append(row("**all**", {k: sum(per[k].values()) for k in have}))
        for f in ranked[:top]:
            rows.append(row(f"`{f}`", {k: get(k, f) for k in have}))
        rest = ranked[top:]
        if rest:
            rows.append(row(f"the other {len(rest)} that differ",
                            {k: sum(get(k, f) for f in rest) for k in have}))
        md.append("| " + " | ".join(head) + " |")
        md.append("|---|" + "---:|" * (len(head) - 1))
        md += ["| " + " | ".join(r) + " |" for r in rows]
        md.append("")
    return md

