#!/bin/sh
# readme-blocks.sh: the generated blocks of README.md written again from
# the records in the repository, between their marker lines: "timing"
# (the last make check's date and duration, Documentation/
# check-results.json), "make help" (the Makefile's own list of targets
# and variables) and "headline" (scripts/headline.py: the last make
# check's counts and the last make bench's headline figures).  Run by
# make check-readme and make bench-readme; writes nothing else.
set -eu
. "$(dirname "$0")/lib.sh"
readme=$REPO/README.md
record=$TREE_DOCS/check-results.json

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

if [ -s "$record" ]; then
	python3 - "$record" <<'PY' | block timing
import json, sys
meta = json.load(open(sys.argv[1])).get('meta', {})
s = int(meta.get('seconds', 0))
print(f"The last `make check` ({meta.get('date', '?')}) took {s // 60} min {s % 60} s "
      f"on {meta.get('cpus', '?')} host CPUs; its whole table is "
      "[Documentation/check-results.md](Documentation/check-results.md).")
PY
fi
make -s -C "$REPO" help | sed -e '/^$/d' -e 's/^/    /' | block "make help"
"$REPO/scripts/headline.py" | block headline
note "README.md's generated blocks written again"
