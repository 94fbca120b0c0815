#!/bin/sh
# bench-readme.sh BENCH-DIR [ARCH]: put the last 'make bench' results into
# the repository: BENCH-DIR's results.md, .csv and plots (one per
# optimisation level: flip-O2.svg, pipe-Os.svg, ...) to the tree's bench
# directory (configs/tree/: Documentation/bench/ for 6.1,
# Documentation/bench/6.12/ for 6.12), and its headline figures into
# README.md (scripts/readme-blocks.sh).  With ARCH (make bench
# ARCH=arm64): its ARCH/ subdirectory.
set -eu
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: bench-readme.sh BENCH-DIR [ARCH]}
arch=${2:-}
load_arch "${arch:-x86_64}"
docs=${TREE_BENCH#$REPO/}${arch:+/$arch}
plots=$(sed -n 's/^!\[[^]]*\](\([^)]*\))$/\1/p' "$dir/results.md" 2>/dev/null || true)
[ -n "$plots" ] || die "$dir/results.md names no plots (or is missing): run 'make bench' first"
for f in results.md results.csv $plots; do
	[ -s "$dir/$f" ] || die "$dir/$f missing: run 'make bench' first"
done
! grep -q '^## Missing or wrong' "$dir/results.md" ||
	die "$dir/results.md reports missing or wrong figures; not copied"
measured=$(measured_code_hash "$dir/results.md")
[ "$measured" = "$(bench_code_hash)" ] ||
	die "$dir/results.md measured ${measured:-code of no recorded hash}, not the series and bench patches as they are now: run 'make bench' again; not copied"

out=$REPO/$docs
mkdir -p "$out"
rm -f "$out"/*.svg
# shellcheck disable=SC2086
# shellcheck disable=SC2046 # one word per plot
cp "$dir/results.md" "$dir/results.csv" $(printf "$dir/%s " $plots) "$out/"

"$REPO/scripts/readme-blocks.sh"
note "$out updated from $dir"
