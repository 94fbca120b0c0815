#!/usr/bin/env python3
"""bench-report.py OUTDIR VARIANT=VDIR...: make bench's report.

Reads, for each bench variant, what bench-boot.sh left in VDIR/logs
(bench-time-*.ktap: one vCPU under -icount; bench-sync.ktap: four vCPUs)
and the variant's vmlinux (VDIR/src/.build/vmlinux), and writes to OUTDIR:

    results.md     the goals met or missed, and the tables (also printed)
    results.json   every sample
    results.csv    one row per figure: level,variant,figure,min,median,max,n
    measured.json  what was measured: the code hash of the series and bench
                   patches (scripts/lib.sh bench_code_hash), the figures
                   missing or wrong, the plots
    flip-LEVEL.svg/.png  flip cost against sites, series and distro
    pipe-LEVEL.svg/.png  pipe-test per variant, every sample

with one section per optimisation level (LEVEL: O2 for the bench-o2-*
variants, the headline; Os for bench-*), each compared within itself.

It prints and does not assert: the checks are make check's.  A figure that
a boot did not produce is reported missing, and the exit status is 1.
Standard library, binutils (size, nm, objdump) and gnuplot.
"""
import csv
import json
import os
import re
import shlex
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sites as sitecount  # noqa: E402
import insn_account  # noqa: E402

FLIP_SITES = (1, 10, 100, 1000, 10000)
# The 2012 analysis (seeds, 011-...static-keys...): getppid on 3.3-rc2.
SEEDS_GETPPID = {
    "jump labels": {"length": None, "straight": 11, "branch": "1 / 5",
                    "insns": "`jmpq` patched to a 5-byte NOP"},
    "without": {"length": 80, "straight": 13, "branch": "3 / 10",
                "insns": "`mov key,%eax`; `test`; `jne`"},
}


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def arch_of(variant):
    """The architecture of a bench variant: its prefix when
    configs/arch/ has a row of that name (arm64-bench-series), x86-64's
    otherwise (bench-series)."""
    prefix = variant.split("-", 1)[0]
    if os.path.exists(os.path.join(REPO, "configs", "arch", prefix + ".conf")):
        return prefix
    return "x86_64"


def arch_row(arch):
    """The KEY=VALUE lines of configs/arch/ARCH.conf (shell syntax, no
    expansions), as a dict."""
    row = {}
    with open(os.path.join(REPO, "configs", "arch", arch + ".conf")) as f:
        for line in f:
            words = shlex.split(line, comments=True)
            if len(words) == 1 and "=" in words[0]:
                key, value = words[0].split("=", 1)
                row[key] = value
    return row


# How each architecture's objdump shows an instruction, and which
# mnemonics call, return, jump and branch on a condition.
X86 = {"insn": re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*(.*)$"),
       "call": ("call",), "jump": ("jmp",),
       "ret": lambda m, t: m.startswith("ret") or "__x86_return_thunk" in t,
       "cond": lambda m: m.startswith("j")}
ARM64 = {"insn": re.compile(r"^\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+(.*)$"),
         "call": ("bl", "blr"), "jump": ("b",),
         "ret": lambda m, t: m in ("ret", "retaa", "retab"),
         "cond": lambda m: m.startswith("b.") or m in ("cbz", "cbnz", "tbz",
                                                       "tbnz")}
ISA = {"x86_64": X86, "arm64": ARM64}


def pairs(text):
    return dict(re.findall(r"(\w+)=(\S+)", text))


def parse_bench(path):
    """The results of one bench boot: {figure: [samples]}, flips apart."""
    out = {"flip": {}, "flip_sync": {}, "errors": []}
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    if "bench done" not in lines:
        out["errors"].append(f"{path}: no 'bench done' (boot cut short?)")
    for line in lines:
        kv = pairs(line)
        if line.startswith("error"):
            out["errors"].append(f"{path}: {line}")
        elif line.startswith("bench mode="):
            out.setdefault("params", []).append(kv)
        elif line.startswith("flip_sync "):
            out["flip_sync"].setdefault(int(kv["sites"]), []).append(
                (int(kv["rounds"]), int(kv["cpu_syncs"]),
                 int(kv.get("mm_switches", -1)), int(kv.get("tlb_flushes", -1))))
        elif line.startswith("flip "):
            n = int(kv["sites"])
            if int(kv["taken"]) != n or int(kv["after"]) != 0:
                out["errors"].append(
                    f"{path}: flip of {n} sites took {kv['taken']} branches "
                    f"while on and {kv['after']} after: not a real flip")
            out["flip"].setdefault(n, []).append(
                (int(kv["enable_ns"]), int(kv["disable_ns"])))
        elif re.fullmatch(r"\w+=\d+", line):
            (k, v), = kv.items()
            out.setdefault(k, []).append(int(v))
    return out


def merge(results):
    total = {"flip": {}, "flip_sync": {}, "errors": []}
    for r in results:
        for k, v in r.items():
            if k in ("flip", "flip_sync"):
                for n, s in v.items():
                    total[k].setdefault(n, []).extend(s)
            else:
                total.setdefault(k, []).extend(v)
    return total


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def vmlinux_size(tools, vmlinux):
    """text, data, bss as size(1) counts them (Berkeley format)."""
    line = run(tools + "size", vmlinux).splitlines()[1].split()
    return {"text": int(line[0]), "data": int(line[1]), "bss": int(line[2])}


def symbol(tools, vmlinux, name):
    for line in run(tools + "nm", "-S", vmlinux).splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == name:
            return int(f[0], 16), int(f[1], 16)
    return None


def disassemble(tools, isa, vmlinux, name):
    """[(address, bytes, text)] of function NAME, in memory order of the
    bytes (an arm64 word is shown as a number)."""
    insns = []
    raw = run(tools + "objdump", "-d", "-w", f"--disassemble={name}", vmlinux)
    for line in raw.splitlines():
        m = isa["insn"].match(line)
        if m:
            code = bytes.fromhex(m.group(2))
            if isa is ARM64:
                code = code[::-1]
            insns.append((int(m.group(1), 16), code, m.group(3).strip()))
    return insns


def jump_target(text, at):
    m = re.search(r"\s([0-9a-f]+) <", text)
    return int(m.group(1), 16) if m and int(m.group(1), 16) in at else None


def straight_line(isa, insns, avoid="_printk"):
    """The instructions from the entry to the return with the demo key off,
    which is the path that never calls AVOID (the demo block's printk):
    NOPs run through, unconditional jumps are followed, and at a
    conditional jump the side that avoids AVOID is taken (with -Os, GCC
    may put the block inline and jump over it when the key is off)."""
    at = {a: (b, t) for a, b, t in insns}

    def walk(pc, seen):
        path = []
        while pc in at and pc not in seen:
            seen = seen | {pc}
            code, text = at[pc]
            path.append((pc, code, text))
            mnem = text.split()[0] if text else ""
            if avoid and mnem in isa["call"] and f"<{avoid}>" in text:
                return None
            if isa["ret"](mnem, text):
                return path
            target = jump_target(text, at)
            if mnem in isa["jump"]:
                if target is None:
                    return path  # tail call
                pc = target
                continue
            if isa["cond"](mnem) and target is not None:
                fall = walk(pc + len(code), seen)
                taken = walk(target, seen)
                rest = fall if fall is not None else taken
                return None if rest is None else path + rest
            pc += len(code)
        return path

    return walk(insns[0][0], frozenset()) or []


def demo_branch(isa, path):
    """What the demo branch costs on PATH: the instructions in front of
    the function's body, whose first instruction is a call in every
    variant (rcu_read_lock()).  On arm64 the frame record's set-up
    stands there too, the same in every kernel."""
    for k, (_a, _c, text) in enumerate(path):
        if text.split()[0] in isa["call"]:
            return path[:k]
    return []


def getppid(tools, isa, vmlinux, name):
    """The demo function NAME: length, straight-line path, and what the
    demo branch costs on that path (the site's instruction, or the load,
    test and conditional jump that stand for it without jump labels)."""
    sym = symbol(tools, vmlinux, name)
    insns = disassemble(tools, isa, vmlinux, name)
    if not sym or not insns:
        return None
    _start, length = sym
    path = straight_line(isa, insns)
    branch = demo_branch(isa, path)
    return {
        "length": length,
        "straight_insns": len(path),
        "straight_bytes": sum(len(c) for _a, c, _t in path),
        "branch_insns": len(branch),
        "branch_bytes": sum(len(c) for _a, c, _t in branch),
        "branch": [t for _a, _c, t in branch],
        "listing": [f"{a:x}: {c.hex(' '):<24} {t}" for a, c, t in insns],
    }


def short_insn(text):
    """An objdump instruction without addresses: 'jle <f+0x16>'."""
    text = re.sub(r"#?\s*\b[0-9a-f]{16}\b\s*", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def stats(samples):
    if not samples:
        return None
    return {"min": min(samples), "median": statistics.median(samples),
            "max": max(samples), "n": len(samples)}


def ratio(a, b, digits=4):
    return f"{a / b:.{digits}f}" if a is not None and b else "-"


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:,.1f}"
    return f"{int(x):,}"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" if i == 0 else "---:"
                          for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


# What each time boot must print: a sample of these per repeat...
REPEATED = ("pipe_ns", "getppid_ns", "pipe_self_ns", "yield_ns")
# ...and of these once.
ONCE = ("jump_label_init_cycles", "load_ns")


def missing(variant, r):
    """What the boots of VARIANT (merged in R) should have printed and did
    not: each figure as many times as boots and repeats say, every flip,
    every sync round count.  A table with a gap must not be published."""
    errors = []
    params = [p for p in r.get("params", []) if p.get("mode") == "time"]
    if len(params) != r["boots"] or any(
            p.get("repeat") != params[0].get("repeat") or
            p.get("rounds") != params[0].get("rounds") for p in params):
        return [f"{variant}: the time boots do not all say 'bench mode=time "
                f"... repeat=R rounds=N' alike: {params}"]
    repeat, rounds = int(params[0]["repeat"]), int(params[0]["rounds"])
    r["repeat"], r["rounds"] = repeat, rounds
    want = {f: r["boots"] * repeat for f in REPEATED}
    want.update({f: r["boots"] for f in ONCE})
    want.update({f"flip of {n}": r["boots"] * repeat for n in FLIP_SITES})
    have = {f: len(r.get(f, [])) for f in REPEATED + ONCE}
    have.update({f"flip of {n}": len(r["flip"].get(n, []))
                 for n in FLIP_SITES})
    for fig, n in want.items():
        if have[fig] != n:
            errors.append(f"{variant}: {have[fig]} samples of {fig}, "
                          f"{n} expected ({r['boots']} boots)")
    for n in FLIP_SITES:
        for rounds, cpu_syncs, *_ in r["flip_sync"].get(n, []):
            if cpu_syncs and not rounds:
                errors.append(f"{variant}: the flip of {n} sites ran "
                              f"{cpu_syncs} CPU syncs in no sync round: the "
                              "round probe missed its calls (inlined?)")
        if len(r["flip_sync"].get(n, [])) != 1:
            errors.append(f"{variant}: {len(r['flip_sync'].get(n, []))} sync "
                          f"counts of the flip of {n} sites, 1 expected "
                          "(bench-sync.ktap)")
    return errors


def collect(variant, vdir):
    logs = os.path.join(vdir, "logs")
    vmlinux = os.path.join(vdir, "src", ".build", "vmlinux")
    boots = sorted(f for f in os.listdir(logs) if f.startswith("bench-time-")
                   and f.endswith(".ktap")) if os.path.isdir(logs) else []
    runs = [parse_bench(os.path.join(logs, f)) for f in boots]
    sync = os.path.join(logs, "bench-sync.ktap")
    if os.path.exists(sync):
        runs.append(parse_bench(sync))
    r = merge(runs)
    r["boots"] = len(boots)
    failed = os.path.join(logs, "failed")
    if os.path.exists(failed):
        with open(failed) as f:
            r["errors"].append(f"{variant}: step {f.read().strip()} "
                               f"(logs: {logs})")
    if not boots:
        r["errors"].append(f"{variant}: no bench boot logs in {logs}")
    else:
        r["errors"] += missing(variant, r)
    arch = arch_of(variant)
    row = arch_row(arch)
    tools = row.get("CROSS_COMPILE", "")
    if os.path.exists(vmlinux):
        r["size"] = vmlinux_size(tools, vmlinux)
        r["sites"] = sitecount.count(vmlinux)
        r["by_insn"] = sitecount.by_instruction(vmlinux)
        # Kept out of results.json (a leading "_"): per function and key.
        r["_functions"] = sitecount.function_sizes(vmlinux)
        r["_by_key"] = sitecount.by_key(vmlinux)
        r["getppid"] = getppid(tools, ISA[arch], vmlinux,
                               row["BENCH_GETPPID"])
        if not r["getppid"]:
            r["errors"].append(f"{variant}: no {row['BENCH_GETPPID']} in "
                               f"{vmlinux}")
    else:
        r["errors"].append(f"{variant}: {vmlinux} not built")
    return r


def short(v):
    """series, distro or off, whatever the architecture and optimisation."""
    return re.sub(r"^(\w+-)?bench-(o2-)?", "", v)


# The optimisation levels a bench variant is built at, the headline
# first: -O2 (bench-o2-*, configs/o2.config), as distributions build, and
# tinyconfig's -Os (bench-*).
LEVELS = (("O2", "-O2 (CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE), as distributions "
           "build"),
          ("Os", "-Os (CONFIG_CC_OPTIMIZE_FOR_SIZE), tinyconfig's"))


def level(v):
    """O2 or Os: how VARIANT was compiled."""
    return "O2" if re.match(r"^(\w+-)?bench-o2-", v) else "Os"


def report(res, variants):
    md = []
    by_name = {short(v): res[v] for v in variants}
    ref = {"distro": by_name.get("distro", {}), "off": by_name.get("off", {})}
    arch = arch_of(variants[0])
    row = arch_row(arch)
    sync_round, sync_cpu = row["SYNC_PROBES"].split()

    def get(r, *path):
        for p in path:
            if r is None or p not in r:
                return None
            r = r[p]
        return r

    # Code size and sites; the instructions a site can hold are the
    # architecture's (sites.py --by-insn)
    insn_names = next((tuple(k for k in res[v]["by_insn"] if k != "other")
                       for v in variants if res[v].get("by_insn")), ())
    insn_names += ("other",)
    md += ["### Code size", ""]
    funcs = {v: res[v].get("_functions") or {} for v in variants}
    everywhere = set.intersection(*(set(f) for f in funcs.values()))

    def common_bytes(v):
        return sum(funcs[v][n] for n in everywhere) if funcs[v] else None

    rows = []
    ref_v = {k: next((v for v in variants if short(v) == k), None)
             for k in ("distro", "off")}
    for v in variants:
        total = sum(funcs[v].values()) if funcs[v] else None
        common = common_bytes(v)
        d, o = ref_v["distro"], ref_v["off"]
        s = res[v].get("sites", {})
        rows.append([short(v), fmt(total),
                     ratio(total, d and sum(funcs[d].values()), 5),
                     ratio(total, o and sum(funcs[o].values()), 5),
                     fmt(common), ratio(common, d and common_bytes(d), 5),
                     ratio(common, o and common_bytes(o), 5),
                     fmt(s.get("table_bytes")),
                     fmt(get(res[v], "size", "data"))])
    md += table(["kernel", "functions, bytes", "/distro", "/off",
                 f"the {fmt(len(everywhere))} functions of every kernel, "
                 "bytes", "/distro", "/off", "jump table, bytes", "data"],
                rows)
    md += ["", "Functions: the sum of the st_size of every function symbol "
           "of the vmlinux (nm -S), which counts what a kernel alone builds "
           "(the series' KUnit suite and conversions); the functions of "
           "every kernel: only those whose name all of them have, so that "
           "code generation is compared like with like.  Jump table: "
           "__stop___jump_table less __start___jump_table.  data: "
           "size(1)'s.", ""]

    # Sites, on the keys that every kernel with jump labels has and on a
    # kernel's own (the series' KUnit keys and conversions)
    md += ["### Sites", ""]
    keyed = {v: res[v].get("_by_key") for v in variants
             if res[v].get("_by_key")}
    shared = (set.intersection(*(set(k) for k in keyed.values()))
              if keyed else set())
    short_insns = ("nop2", "jmp8")
    rows = []
    for v in variants:
        r = res[v]
        s, b = r.get("sites", {}), r.get("by_insn", {})
        k = r.get("_by_key") or {}
        on_shared = [i for name in shared for i in k.get(name, [])]
        own = sum(len(i) for name, i in k.items() if name not in shared)

        def share(insns):
            return (f"{100 * sum(i in short_insns for i in insns) / len(insns):.2f}%"
                    if insns else "-")
        rows.append([short(v), fmt(s.get("keys")), fmt(s.get("sites"))]
                    + [fmt(b.get(i)) for i in insn_names]
                    + ([share([i for x in k.values() for i in x])]
                       if arch == "x86_64" else [])
                    + [fmt(len(on_shared))]
                    + ([share(on_shared)] if arch == "x86_64" else [])
                    + [fmt(own)])
    two = ["2-byte"] if arch == "x86_64" else []
    md += table(["kernel", "keys", "sites"] + list(insn_names) + two
                + [f"sites on the {fmt(len(shared))} keys of every kernel "
                   "with jump labels"]
                + (["their 2-byte share"] if two else [])
                + ["sites on its own keys"], rows)
    md += ["", "Sites by the instruction the linked vmlinux holds (a key "
           "whose default is true starts as a jump).  Keys are matched by "
           "symbol name (name+offset in an array of keys); the bench "
           "patches add one key and one site to each kernel.", ""]

    # getppid
    md += ["### getppid, as in the 2012 analysis", ""]
    rows = []
    for v in variants:
        g = res[v].get("getppid")
        if not g:
            rows.append([short(v), "-", "-", "-", "-"])
            continue
        rows.append([short(v), g["length"],
                     f"{g['straight_insns']} / {g['straight_bytes']}",
                     f"{g['branch_insns']} / {g['branch_bytes']}",
                     "; ".join(f"`{short_insn(t)}`" for t in g["branch"])])
    for k, s in SEEDS_GETPPID.items() if arch == "x86_64" else ():
        rows.append([f"2012, {k}", s["length"] or "-", f"{s['straight']} / -",
                     s["branch"], s["insns"]])
    md += table(["kernel", "bytes", "straight line: insns / bytes",
                 "the off branch: insns / bytes", "instructions"], rows)
    md += ["", "bytes: the symbol's size; straight line: entry to return "
           "with the key off; the off branch: what the `if "
           "(static_key_false(&key))` costs on that path (the instructions "
           "in front of the body, wherever GCC puts the printk)" + (", with the frame record's set-up, the same "
                               "in every kernel" if arch == "arm64" else "")
           + ".  " + ("The 2012 rows: the seeds' listings, 3.3-rc2.  "
                      if arch == "x86_64" else "")
           + "Listings: results.json.", ""]

    # pipe-test and getppid loop
    md += ["### pipe-test, its parts, and a getppid loop (guest ns under "
           "-icount shift=0: instructions)", ""]
    rows = []
    for fig, label in (("pipe_ns", "pipe-test"), ("pipe_self_ns", "pipe-self"),
                       ("yield_ns", "yield pair"), ("getppid_ns", "getppid loop")):
        for v in variants:
            s = stats(res[v].get(fig, []))
            d = stats(ref["distro"].get(fig, []))
            o = stats(ref["off"].get(fig, []))
            if not s:
                rows.append([label, short(v)] + ["-"] * 6)
                continue
            spread = 100 * (s["max"] - s["min"]) / s["median"]
            rows.append([label, short(v), fmt(s["min"]), fmt(s["median"]),
                         fmt(s["max"]), f"{spread:.4f}%",
                         ratio(s["median"], d and d["median"]),
                         ratio(s["median"], o and o["median"])])
    md += table(["test", "kernel", "min", "median", "max", "spread",
                 "/distro", "/off"], rows)
    pipe_n = stats(res[variants[0]].get("pipe_ns", []))
    rounds = res[variants[0]].get("rounds")
    md += ["", f"{pipe_n['n'] if pipe_n else 0} samples per kernel "
           f"({res[variants[0]].get('boots', 0)} boots); spread = "
           f"(max - min) / median.  pipe-test: {fmt(rounds)} round trips between "
           "two processes; pipe-self: its system calls without the "
           f"context switches (one process writes and reads {fmt(rounds)} "
           "bytes); yield pair: its context switches without the pipes (two "
           f"processes, {fmt(rounds)} sched_yield() each); getppid: "
           f"{fmt(rounds and rounds * 10)} calls through the demo branch.", ""]

    # flip cost
    md += ["### Flip cost: enable then disable a key of N sites", ""]
    rows = []
    for n in FLIP_SITES:
        for v in variants:
            f = res[v]["flip"].get(n, [])
            en = stats([e for e, _d in f])
            dis = stats([d for _e, d in f])
            tot = stats([e + d for e, d in f])
            dref = stats([e + d for e, d in ref["distro"]["flip"].get(n, [])]) \
                if ref["distro"] else None
            sync = res[v]["flip_sync"].get(n)
            mm = "-"
            if sync and sync[0][2] >= 0:
                mm = f"{sync[0][2]} / {sync[0][3]}"
            rows.append([fmt(n), short(v), fmt(en and en["median"]),
                         fmt(dis and dis["median"]), fmt(tot and tot["median"]),
                         ratio(tot and tot["median"], dref and dref["median"]),
                         f"{sync[0][0]} / {sync[0][1]}" if sync else "-", mm])
    md += table(["sites", "kernel", "enable ns", "disable ns", "total ns",
                 "total/distro", "sync rounds / CPU syncs",
                 "mm switches / TLB flushes"], rows)
    md += ["", "ns: median guest ns under -icount, one vCPU.  Sync rounds: "
           + (f"{sync_round.split('@')[0]}() calls for {sync_cpu}()"
              if "@" in sync_round else f"{sync_round}() calls")
           + " during enable + disable, four vCPUs"
           + (" (three per text_poke_bp() batch)" if arch == "x86_64" else
              "") + f"; CPU syncs: the {sync_cpu}() runs on all CPUs they "
           "caused.  mm switches / TLB flushes: the switches to the "
           "temporary mm that maps text for text_poke() and the flushes of "
           "its TLB entries, each counted by a kprobe event "
           "(harness.mm, the architecture's MM_PROBES; '-' where it has "
           "none).  Without jump labels a flip is a counter update.", ""]

    # boot cost
    md += ["### Boot cost", ""]
    rows = []
    for v in variants:
        r = res[v]
        j = stats(r.get("jump_label_init_cycles", []))
        ld = stats(r.get("load_ns", []))
        jd = stats(ref["distro"].get("jump_label_init_cycles", []))
        ldd = stats(ref["distro"].get("load_ns", []))
        ldo = stats(ref["off"].get("load_ns", []))
        jl = ld["median"] - ldo["median"] if ld and ldo else None
        jld = ldd["median"] - ldo["median"] if ldd and ldo else None
        rows.append([short(v), fmt(j and j["median"]),
                     ratio(j and j["median"], jd and jd["median"]),
                     fmt(ld and ld["median"]),
                     ratio(ld and ld["median"], ldd and ldd["median"]),
                     fmt(jl), ratio(jl, jld) if jl else "-"])
    counter = {"x86_64": "TSC", "arm64": "CNTVCT"}.get(arch, "counter")
    md += table(["kernel", f"jump_label_init() {counter} cycles", "/distro",
                 f"load of the {fmt(sum(FLIP_SITES))}-site module, ns",
                 "/distro",
                 "of it, jump labels", "/distro"], rows)
    md += ["", ("TSC cycles under -icount count guest instructions" if
                arch == "x86_64" else f"{counter} cycles under -icount count "
                "guest instructions, 16 a cycle (QEMU virt's 62.5 MHz "
                "counter)") + ".  The "
           "load is finit_module() of static_keys_flip.ko, all of it "
           "(relocation included), median of the boots; what jump labels "
           "add to it is the load less the off kernel's, which loads the "
           "same module without a jump table (sorting the table, checking "
           "and attaching every site, and the table's relocations).", ""]
    return md


# The series' goals against the distro kernel, at every optimisation
# level: (what, figure, bound on series/distro).  A figure is the median
# of its samples; a flip's is the median of enable plus disable.
GOALS = (
    ("pipe-test", "pipe_ns", 1.0),
    ("pipe-self", "pipe_self_ns", 1.0),
    ("yield pair", "yield_ns", 1.0),
    ("getppid loop", "getppid_ns", 1.0),
    ("flip of a key of 10,000 sites", "flip_10000", 0.25),
    (f"load of the {fmt(sum(FLIP_SITES))}-site module", "load_ns", 1.0),
    ("jump_label_init()", "jump_label_init_cycles", 0.2),
)


def samples(r, figure):
    if figure.startswith("flip_"):
        return [e + d for e, d in r["flip"].get(int(figure[5:]), [])]
    return r.get(figure, [])


def init_sites(res, s, d, lvl):
    """Why jump_label_init() may miss: the sites it visits, per kernel."""
    ns, nd = (res[v].get("sites", {}).get("sites") for v in (s, d))
    cs, cd = (stats(res[v].get("jump_label_init_cycles", [])) for v in (s, d))
    if not (ns and nd and cs and cd):
        return []
    ks, kd = res[s].get("_by_key") or {}, res[d].get("_by_key") or {}
    more = sorted(((len(ks[k]) - len(kd[k]), k) for k in set(ks) & set(kd)
                   if len(ks[k]) > len(kd[k])), reverse=True)
    per_s, per_d = cs["median"] / ns, cd["median"] / nd
    line = (f"- jump_label_init() at -{lvl} visits each of vmlinux's sites: "
            f"the series kernel has {fmt(ns)}, the distro {fmt(nd)}; per "
            f"site it takes {per_s:.0f} cycles against {per_d:.0f} "
            f"({per_s / per_d:.4f}x).")
    if more:
        top = ", ".join(f"{k} {fmt(len(ks[k]))} against {fmt(len(kd[k]))}"
                        for _n, k in more[:3])
        line += (f"  {fmt(sum(n for n, _k in more))} more sites are on keys "
                 f"both kernels have (most on {top}): more copies of the "
                 "code that holds them.")
    return [line]


def goal_verdict(a, b, bound):
    """Whether the series' figure A meets BOUND against the distro's B
    (each a stats() dict; for a sum of figures, the medians alone): met,
    missed, or for a bound of 1 missed by the medians but within the
    samples' ranges (the series' least at most the distro's most)."""
    q = a["median"] / b["median"]
    if q <= bound:
        return q, "met"
    if bound == 1.0 and "min" in a and "max" in b and a["min"] <= b["max"]:
        return q, (f"not by the medians ({fmt(a['median'])} against "
                   f"{fmt(b['median'])}); within the samples' ranges "
                   f"(series' least {fmt(a['min'])}, distro's most {fmt(b['max'])})")
    return q, "missed"


def goals(res, groups):
    """The goals section: every goal at every level, met or not."""
    rows, why = [], []
    for lvl, _title, vs in groups:
        by = {short(v): v for v in vs}
        s, d = by.get("series"), by.get("distro")
        if not (s and d):
            continue
        for what, figure, bound in GOALS:
            a, b = stats(samples(res[s], figure)), stats(samples(res[d], figure))
            if not (a and b):
                rows.append([what, f"-{lvl}", "-", f"≤ {bound}", "no figure"])
                continue
            q, verdict = goal_verdict(a, b, bound)
            if verdict == "missed" and figure == "jump_label_init_cycles":
                why += init_sites(res, s, d, lvl)
            rows.append([what, f"-{lvl}", f"{q:.4f}", f"≤ {bound}", verdict])
    if not rows:
        return []
    md = ["## Goals: the series against the distro kernel", ""]
    md += table(["goal", "level", "series/distro", "bound", "met"], rows)
    md += [""] + why + ([""] if why else [])
    return md


def plots(outdir, res, variants, lvl):
    flip = os.path.join(outdir, f"flip-{lvl}.dat")
    with open(flip, "w") as f:
        f.write("# sites " + " ".join(short(v) for v in variants) + "\n")
        for n in FLIP_SITES:
            cols = []
            for v in variants:
                t = stats([e + d for e, d in res[v]["flip"].get(n, [])])
                cols.append(str(t["median"] / 1000 if t else "NaN"))
            f.write(f"{n} " + " ".join(cols) + "\n")
    pipe = os.path.join(outdir, f"pipe-{lvl}.dat")
    with open(pipe, "w") as f:
        for i, v in enumerate(variants):
            for s in res[v].get("pipe_ns", []):
                f.write(f"{i} {s / 1e6}\n")
    jl = [v for v in variants if res[v]["flip"].get(10000)]
    for ext, term in (("svg", "svg size 640,420 dynamic font 'sans,11'"),
                      ("png", "pngcairo size 640,420 font 'sans,10'")):
        plot_script(outdir, variants, jl, flip, pipe, ext, term,
                    res[variants[0]].get("rounds"), lvl)


def plot_script(outdir, variants, jl, flip, pipe, ext, term, rounds, lvl):
    script = f"""
set terminal {term}
set output '{outdir}/flip-{lvl}.{ext}'
set title 'Flip cost at -{lvl}: enable + disable a key (median guest us, -icount)'
set logscale xy
set xlabel 'sites of the key'
set ylabel 'guest us'
set key top left
set grid
plot """ + ", ".join(
        f"'{flip}' using 1:{variants.index(v) + 2} with linespoints "
        f"title '{short(v)}'" for v in jl) + f"""
set output '{outdir}/pipe-{lvl}.{ext}'
unset logscale
set title 'pipe-test at -{lvl}: {fmt(rounds)} round trips (guest ms, -icount), every sample'
set xlabel ''
set ylabel 'guest ms'
set xrange [-0.5:{len(variants) - 0.5}]
set xtics ({", ".join(f"'{short(v)}' {i}" for i, v in enumerate(variants))})
set key off
plot '{pipe}' using 1:2 with points pointtype 7 pointsize 0.6
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


CODE_HASH_LINE = "Measured: the series and bench patches of code hash"


def bench_code_hash(arch):
    """The code hash of the series and ARCH's bench patches as they are
    now (scripts/lib.sh bench_code_hash), which the variants were just
    prepared from; None if it cannot be had."""
    try:
        return subprocess.run(
            ["sh", "-c", '. scripts/lib.sh && load_arch "$1" && bench_code_hash',
             "sh", arch], cwd=REPO, env=dict(os.environ, REPO=REPO),
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main(argv):
    if len(argv) < 3:
        raise SystemExit("usage: bench-report.py OUTDIR VARIANT=VDIR...")
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    variants, res, vdirs = [], {}, {}
    for arg in argv[2:]:
        v, vdir = arg.split("=", 1)
        variants.append(v)
        vdirs[v] = vdir
        res[v] = collect(v, vdir)
    # One section per optimisation level, each compared within itself.
    groups = [(lvl, title, [v for v in variants if level(v) == lvl])
              for lvl, title in LEVELS]
    groups = [g for g in groups if g[2]]
    md = []
    code_hash = bench_code_hash(arch_of(variants[0]))
    if code_hash:
        md += [f"{CODE_HASH_LINE} `{code_hash}` (scripts/lib.sh "
               "bench_code_hash: their diffs, not their changelogs).", ""]
    else:
        res[variants[0]]["errors"].append(
            "the code hash of the series and bench patches could not be had")
    md += goals(res, groups)
    for lvl, title, vs in groups:
        md += [f"## {title}", ""] + report(res, vs)
        acct = insn_account.account([(short(v), vdirs[v]) for v in vs])
        for v in vs:
            for t, _m, _s in insn_account.DIFFERENCES:
                if t not in acct.get(short(v), {}):
                    res[v]["errors"].append(
                        f"{v}: no instruction counts for the {t} "
                        f"(profile boots in {vdirs[v]}/logs)")
        md += ["### Where the instructions go", ""]
        md += insn_account.tables(acct, res[vs[0]].get("rounds"))
        md += ["Every instruction the guest executed, counted by address "
               "by a QEMU plugin (tests/qemu-plugin/insn-count.c) in profile "
               "boots run like the time boots, and charged to the function "
               "that holds it (scripts/insn_account.py).  pipe-test: a "
               "boot with twice the round trips less one with the round "
               "trips, so that all but the round trips cancel (its all row "
               "is the timed median's counterpart); module load: a boot "
               "that loads the flip module less one that runs the same "
               "program doing nothing.  Rows: the functions whose counts "
               "differ most between the kernels, a function inlined in "
               "one kernel being counted in its caller there.", ""]
        md += [f"![flip cost against sites, -{lvl}](flip-{lvl}.svg)",
               f"![pipe-test per kernel, -{lvl}](pipe-{lvl}.svg)", ""]
    errors = [e for v in variants for e in res[v]["errors"]]
    if errors:
        md += ["## Missing or wrong", ""] + [f"- {e}" for e in errors] + [""]
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump({v: {k: x for k, x in res[v].items()
                       if not k.startswith("_")} for v in variants}, f,
                  indent=1,
                  default=str)
    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["level", "variant", "figure", "min", "median", "max",
                    "n"])
        for v in variants:
            r = res[v]
            lv = level(v)
            for fig in ("pipe_ns", "pipe_self_ns", "yield_ns", "getppid_ns",
                        "jump_label_init_cycles", "load_ns"):
                s = stats(r.get(fig, []))
                if s:
                    w.writerow([lv, short(v), fig, s["min"], s["median"],
                                s["max"], s["n"]])
            for n in FLIP_SITES:
                for k, col in (("enable_ns", 0), ("disable_ns", 1)):
                    s = stats([x[col] for x in r["flip"].get(n, [])])
                    if s:
                        w.writerow([lv, short(v), f"flip_{n}_{k}", s["min"],
                                    s["median"], s["max"], s["n"]])
                for k, col in (("rounds", 0), ("cpu_syncs", 1),
                               ("mm_switches", 2), ("tlb_flushes", 3)):
                    sync = [x[col] for x in r["flip_sync"].get(n, [])
                            if x[col] >= 0]
                    if sync:
                        w.writerow([lv, short(v), f"flip_{n}_sync_{k}",
                                    min(sync),
                                    statistics.median(sync), max(sync),
                                    len(sync)])
    try:
        for lvl, _title, vs in groups:
            plots(outdir, res, vs, lvl)
    except (OSError, subprocess.CalledProcessError) as e:
        errors.append(f"gnuplot failed: {e}")
    with open(os.path.join(outdir, "measured.json"), "w") as f:
        json.dump({"code_hash": code_hash or "", "errors": errors,
                   "plots": sorted(p for p in os.listdir(outdir) if p.endswith(".svg"))},
                  f, indent=1)
        f.write("\n")
    print("\n".join(md))
    print(f"bench: results in {outdir} (results.md, .json, .csv, measured.json; "
          "flip and pipe plots, .svg and .png)")
    for e in errors:
        print(f"bench: error: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
