#!/bin/sh
# check-readme.sh: the report of the last 'make check' (its logs in the
# cache) into the repository: the whole table to
# Documentation/check-results.md, the per-variant figures and the closing
# count into README.md between the two "check results" marker lines.
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(tree_root)
readme=$REPO/README.md
out=$REPO/Documentation/check-results.md
begin='<!-- check results: written by make check-readme -->'
end='<!-- end of check results -->'
[ -s "$ROOT/check.seconds" ] && [ -s "$ROOT/check.json" ] ||
	die "no finished make check in $ROOT: run 'make check' first"
grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" ||
	die "$readme lacks the marker lines '$begin' and '$end'"
args=
for v in $VARIANTS; do
	args="$args $v=$ROOT/$v/logs"
done
report=$(mktemp)
trap 'rm -f "$report" "$report.readme"' EXIT
# shellcheck disable=SC2086
"$REPO/scripts/report.py" $args "host=$ROOT/host/logs:host" > "$report" || true
seconds=$(cat "$ROOT/check.seconds")
when=$(date -u -r "$ROOT/check.json" +%Y-%m-%d)
took="$((seconds / 60)) min $((seconds % 60)) s"
{
	echo "# The last make check"
	echo
	echo "Written by \`make check-readme\` from the logs of the \`make check\` of"
	echo "$when, which took $took on $(nproc) host CPUs.  A cell is \`ok\`,"
	echo "\`FAIL[n]\` or \`skip[n]\` with its reason in note \`[n]\`, or \`-\` where"
	echo "the run has no such check; the indented lines under a variant are the"
	echo "figures its checks logged."
	echo
	sed 's/^/    /' "$report"
} > "$out"
{
	sed "/^$begin\$/q" "$readme"
	echo
	echo "The last \`make check\` ($when, $took on $(nproc) host CPUs; the whole"
	echo "table is [Documentation/check-results.md](Documentation/check-results.md)):"
	echo
	sed -n '/^[a-z-]*: build\|^host: /,$p' "$report" | sed 's/^/    /'
	echo
	sed -n "/^$end\$/,\$p" "$readme"
} > "$report.readme"
cat "$report.readme" > "$readme"
note "README.md and $out written from the make check of $when"
