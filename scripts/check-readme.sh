#!/bin/sh
# check-readme.sh: the report of the last 'make check' (its logs in the
# cache) into the repository: the whole table to
# Documentation/check-results.md, the per-variant figures and the closing
# count into README.md between the two "check results" marker lines.
# With HARNESS_ARCH (make check-readme ARCH=arm64): the last 'make check
# ARCH=arm64', its variants without the host row (the harness's own tests
# are the default run's), to Documentation/check-results-arm64.md and the
# README's "arm64 check results" markers.
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(tree_root)
arch=${HARNESS_ARCH:-}
run=check${arch:+-$arch}
readme=$REPO/README.md
out=$REPO/Documentation/check-results${arch:+-$arch}.md
begin="<!-- ${arch:+$arch }check results: written by make check-readme${arch:+ ARCH=$arch} -->"
end="<!-- end of ${arch:+$arch }check results -->"
[ -s "$ROOT/$run.seconds" ] && [ -s "$ROOT/$run.json" ] ||
	die "no finished make check${arch:+ ARCH=$arch} in $ROOT: run it first"
grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" ||
	die "$readme lacks the marker lines '$begin' and '$end'"
args=
for v in $VARIANTS; do
	args="$args $v=$ROOT/$v/logs"
done
[ -n "$arch" ] || args="$args host=$ROOT/host/logs:host"
report=$(mktemp)
trap 'rm -f "$report" "$report.readme"' EXIT
# shellcheck disable=SC2086
"$REPO/scripts/report.py" $args > "$report" || true
seconds=$(cat "$ROOT/$run.seconds")
when=$(date -u -r "$ROOT/$run.json" +%Y-%m-%d)
took="$((seconds / 60)) min $((seconds % 60)) s"
{
	echo "# The last make check${arch:+ ARCH=$arch}"
	echo
	echo "Written by \`make check-readme${arch:+ ARCH=$arch}\` from the logs of the \`make check${arch:+ ARCH=$arch}\` of"
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
	echo "The last \`make check${arch:+ ARCH=$arch}\` ($when, $took on $(nproc) host CPUs; the whole"
	echo "table is [${out#"$REPO/"}](${out#"$REPO/"})):"
	echo
	sed -n '/^[a-z0-9-]*: build\|^host: /,$p' "$report" | sed 's/^/    /'
	echo
	sed -n "/^$end\$/,\$p" "$readme"
} > "$report.readme"
cat "$report.readme" > "$readme"
note "README.md and $out written from the make check of $when"
