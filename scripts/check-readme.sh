#!/bin/sh
# check-readme.sh: the record of the last 'make check' into the
# repository: $ROOT/check.json (what make check's report wrote, not the
# logs as they are now) to Documentation/check-results.json, with the
# run's date, duration and host CPUs; its table and figures to
# Documentation/check-results.md; and README.md's generated blocks
# (scripts/readme-blocks.sh).  With HARNESS_ARCH (make check-readme
# ARCH=arm64): the last 'make check ARCH=arm64', to
# Documentation/check-results-arm64.{json,md}.  With TREE=6.12: the
# same, in Documentation/6.12/.
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(tree_root)
arch=${HARNESS_ARCH:-}
run=check${arch:+-$arch}
json=$TREE_DOCS/check-results${arch:+-$arch}.json
out=$TREE_DOCS/check-results${arch:+-$arch}.md
mkdir -p "$TREE_DOCS"
[ -s "$ROOT/$run.json" ] ||
	die "no finished make check${arch:+ ARCH=$arch} in $ROOT: run it first"
[ ! -f "$ROOT/$run.start" ] || [ -n "$(find "$ROOT/$run.json" -newer "$ROOT/$run.start")" ] ||
	die "$ROOT/$run.json is older than the last make check${arch:+ ARCH=$arch}'s start: that run did not finish"
seconds=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("meta", {}).get("seconds", ""))' "$ROOT/$run.json")
[ -n "$seconds" ] || die "$ROOT/$run.json says nothing of how long make check took: run it again"
python3 - "$ROOT/$run.json" "$json" "$seconds" \
	"$(date -u -r "$ROOT/$run.json" +%Y-%m-%d)" "$(nproc)" <<'PY'
import json, sys
src, dst, seconds, date, cpus = sys.argv[1:]
rec = json.load(open(src))
if 'meta' not in rec:
    sys.exit(f'{src} is from an older harness: run make check again')
rec['meta'].update(seconds=int(seconds), date=date, cpus=int(cpus))
with open(dst, 'w') as f:
    json.dump(rec, f, indent=1)
    f.write('\n')
PY
# the timings of the runs of this cache (records.py time), cold and warm
"$REPO/scripts/records.py" timings
report=$(mktemp)
trap 'rm -f "$report"' EXIT
"$REPO/scripts/report.py" --merge "$json" > "$report" || true
{
	echo "# The last make check${arch:+ ARCH=$arch}"
	echo
	echo "Written by \`make check-readme${arch:+ ARCH=$arch}\` from the record of the \`make check${arch:+ ARCH=$arch}\` of"
	echo "$(date -u -r "$ROOT/$run.json" +%Y-%m-%d), which took $((seconds / 60)) min $((seconds % 60)) s on $(nproc) host CPUs"
	echo "([${json##*/}](${json##*/})).  A cell is \`ok\`, \`FAIL[n]\` or \`skip[n]\` with its"
	echo "reason in note \`[n]\`, or \`-\` where the run has no such check; the"
	echo "indented lines under a kernel are the figures its checks logged."
	echo
	sed 's/^/    /' "$report"
} > "$out"
"$REPO/scripts/readme-blocks.sh"
note "${out#"$REPO/"} and ${json#"$REPO/"} written from the make check${arch:+ ARCH=$arch} of $(date -u -r "$ROOT/$run.json" +%Y-%m-%d)"
