#!/bin/sh
# readme-blocks.sh: the generated blocks of README.md written again from
# the records in the repository, between their marker lines: "timing"
# (each tree's timings of make and make check, cold and warm, make
# bisect's from its ledger, and its last make check's table), "make
# help" (the Makefile's own list of targets and variables) and "headline" (scripts/headline.py: the last make
# check's counts and the last make bench's headline figures).  Run by
# make check-readme and make bench-readme; writes nothing else.
set -eu
. "$(dirname "$0")/lib.sh"
readme=$REPO/README.md

# block NAME: replace what stands between NAME's markers by standard input.
block() {
	begin=$(grep -x "<!-- $1: written by .* -->" "$readme") ||
		die "$readme lacks the marker line '<!-- $1: written by ... -->'"
	grep -qx "<!-- end of $1 -->" "$readme" ||
		die "$readme lacks the marker line '<!-- end of $1 -->'"
	new=$(mktemp)
	{
		sed "/^$begin\$/q" "$readme"
		echo
		cat
		echo
		sed -n "/^<!-- end of $1 -->\$/,\$p" "$readme"
	} > "$new"
	cat "$new" > "$readme"
	rm -f "$new"
}

# Each tree's timings (records.py timings: make and make check, from an
# empty cache and with every kernel built, as a run measured them), and
# its last make check's whole table, oldest tree first.
python3 - "$REPO" <<'PY' | block timing
import json, os, sys
repo = sys.argv[1]
sys.path.insert(0, os.path.join(repo, 'scripts'))
from headline import trees
from report import tree_row

def took(s):
    return f"{s // 60} min {s % 60} s"

lines = []
for tree in trees():
    docs = os.path.relpath(tree_row(tree)['TREE_DOCS'], repo)
    path = os.path.join(repo, docs, 'records', 'timings.json')
    rows = json.load(open(path)) if os.path.exists(path) else {}
    for name in ('make', 'make check', 'make check-all'):
        how = {'cold': 'from an empty cache', 'warm': 'with every kernel built'}
        if name == 'make check-all':
            how = {'cold': 'with no proof current', 'warm': 'with every proof current'}
        said = [f"{took(r['seconds'])} {how[state]} ({r['date']})"
                for state in ('cold', 'warm') for r in [rows.get(f'{name} ({state})')] if r]
        if said:
            machines = sorted({r['machine'] for k, r in rows.items() if k.startswith(name + ' (')})
            lines.append(f"`{name} TREE={tree}`: " + '; '.join(said) + f", on {'; '.join(machines)}.")
    # make bisect: the build and boot seconds of its ledger's prefixes,
    # summed per profile of checks (bisect.sh; a line without one is full)
    ledger = os.path.join(repo, docs, 'bisect-proofs.txt')
    series = [l for l in open(tree_row(tree)['TREE_SERIES']) if l.split('#')[0].strip()]
    sums = {}
    for line in (open(ledger).read().splitlines() if os.path.exists(ledger) else []):
        w = line.split()
        # the prefixes of the series as long as it is now
        if line.startswith('#') or len(w) < 10 or int(w[1]) > len(series):
            continue
        profile = w[10] if len(w) > 10 else 'full'
        n, total = sums.get(profile, (0, 0))
        sums[profile] = (n + 1, total + sum(int(x) for x in w[5:7] if x.isdigit()))
    if sums:
        said = [f"{profile} profile, {n} prefix runs: {total // 3600} h {total % 3600 // 60} min"
                for profile, (n, total) in sorted(sums.items())]
        lines.append(f"`make bisect TREE={tree}`, its ledger's build and boot seconds summed "
                     f"([{docs}/bisect-proofs.txt]({docs}/bisect-proofs.txt), both configurations): "
                     + '; '.join(said) + '.')
    check = os.path.join(repo, docs, 'check-results.json')
    if os.path.exists(check):
        meta = json.load(open(check)).get('meta', {})
        lines.append(f"The last `make check TREE={tree}` ({meta.get('date', '?')}): its whole table is "
                     f"[{docs}/check-results.md]({docs}/check-results.md).")
print('\n\n'.join(lines))
PY
make -s -C "$REPO" help | sed -e '/^$/d' -e 's/^/    /' | block "make help"
"$REPO/scripts/headline.py" | block headline
note "README.md's generated blocks written again"
