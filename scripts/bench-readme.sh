#!/bin/sh
# bench-readme.sh BENCH-DIR [ARCH]: put the last 'make bench' results into
# the repository: BENCH-DIR's results.md, .csv and plots to
# Documentation/bench/ (a plot per optimisation level: flip-O2.svg,
# pipe-Os.svg, ...), and results.md into README.md between the two
# "bench results" marker lines (the rest of the README is kept as it is).
# With ARCH (make bench ARCH=arm64): Documentation/bench/ARCH/ and the
# README's "ARCH bench results" markers.
set -eu
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: bench-readme.sh BENCH-DIR [ARCH]}
arch=${2:-}
load_arch "${arch:-x86_64}"
readme=$REPO/README.md
begin="<!-- ${arch:+$arch }bench results: written by make bench-readme${arch:+ ARCH=$arch} -->"
end="<!-- end of ${arch:+$arch }bench results -->"
docs=Documentation/bench${arch:+/$arch}
plots=$(sed -n 's/^!\[[^]]*\](\([^)]*\))$/\1/p' "$dir/results.md" 2>/dev/null || true)
[ -n "$plots" ] || die "$dir/results.md names no plots (or is missing): run 'make bench' first"
for f in results.md results.csv $plots; do
	[ -s "$dir/$f" ] || die "$dir/$f missing: run 'make bench' first"
done
grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" ||
	die "$readme lacks the marker lines '$begin' and '$end'"
! grep -q '^## Missing or wrong' "$dir/results.md" ||
	die "$dir/results.md reports missing or wrong figures; not copied"

out=$REPO/$docs
mkdir -p "$out"
rm -f "$out"/*.svg
# shellcheck disable=SC2086
cp "$dir/results.md" "$dir/results.csv" $(printf "$dir/%s " $plots) "$out/"

new=$(mktemp)
trap 'rm -f "$new"' EXIT
{
	sed "/^$begin\$/q" "$readme"
	echo
	echo "Measured by \`make bench${arch:+ ARCH=$arch}\` on $(date -u +%Y-%m-%d) ($(nproc) host CPUs, QEMU $($QEMU --version | sed -n '1s/.*version \([^ ]*\).*/\1/p'), TCG), copied here by \`make bench-readme${arch:+ ARCH=$arch}\`; the CSV and the plots are in [$docs/]($docs/)."
	echo
	# Headings one level down (the README's section is "##"), and the
	# plots where the README finds them.
	sed -e 's/^\(##*\) /#\1 /' -e "s|^\(!\[[^]]*\](\)|\1$docs/|" "$dir/results.md"
	sed -n "/^$end\$/,\$p" "$readme"
} > "$new"
cat "$new" > "$readme"
note "README.md and $out updated from $dir"
