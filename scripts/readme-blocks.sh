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

# The timing line of each tree's last make check (configs/tree/), oldest
# tree first.
python3 - "$REPO" <<'PY' | block timing
import json, os, sys
repo = sys.argv[1]
sys.path.insert(0, os.path.join(repo, 'scripts'))
from headline import trees
from report import tree_row
lines = []
for tree in trees():
    docs = os.path.relpath(tree_row(tree)['TREE_DOCS'], repo)
    path = os.path.join(repo, docs, 'check-results.json')
    if not os.path.exists(path):
        continue
    meta = json.load(open(path)).get('meta', {})
    def took(s):
        return f"{s // 60} min {s % 60} s"
    what = f'`make check TREE={tree}`'
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
