#!/bin/sh
# readme-blocks.sh: the generated blocks of README.md written again from
# the records in the repository, between their marker lines: "timing"
# (each tree's last make check's date and duration, its
# check-results.json), "make help" (the Makefile's own list of targets
# and variables) and "headline" (scripts/headline.py: the last make
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

# The timing line of each tree's last make check (configs/tree/), the
# README's own tree (6.1) first.
python3 - "$REPO" <<'PY' | block timing
import json, os, sys
repo = sys.argv[1]
lines = []
for tree, docs in (('6.1', 'Documentation'), ('6.12', 'Documentation/6.12')):
    path = os.path.join(repo, docs, 'check-results.json')
    if not os.path.exists(path):
        continue
    meta = json.load(open(path)).get('meta', {})
    def took(s):
        return f"{s // 60} min {s % 60} s"
    what = '`make check`' if tree == '6.1' else '`make check TREE=6.12`'
    slices = meta.get('slices', [])
    if len(slices) > 1:
        took = (f"ran as {len(slices)} slices, of "
                + ', '.join(took(s) for s in slices[:-1])
                + f" and {took(slices[-1])} ({took(sum(slices))} together)")
    else:
        took = 'took ' + took(int(meta.get('seconds', 0)))
    lines.append(f"The last {what} ({meta.get('date', '?')}) {took} on "
                 f"{meta.get('cpus', '?')} host CPUs; its whole table is "
                 f"[{docs}/check-results.md]({docs}/check-results.md).")
print('\n\n'.join(lines))
PY
make -s -C "$REPO" help | sed -e '/^$/d' -e 's/^/    /' | block "make help"
"$REPO/scripts/headline.py" | block headline
note "README.md's generated blocks written again"
