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
# what bench-report.py measured (measured.json): its plots, whether a
# figure was missing or wrong, the code hash
[ -s "$dir/measured.json" ] || die "$dir/measured.json missing: run 'make bench' first"
plots=$(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["plots"]))' "$dir/measured.json")
errors=$(python3 -c 'import json, sys; print("; ".join(json.load(open(sys.argv[1]))["errors"]))' "$dir/measured.json")
[ -n "$plots" ] || die "$dir/measured.json names no plots: run 'make bench' first"
for f in results.md results.csv measured.json $plots; do
	[ -s "$dir/$f" ] || die "$dir/$f missing: run 'make bench' first"
done
[ -z "$errors" ] || die "$dir: missing or wrong figures ($errors); not copied"
measured=$(measured_code_hash "$dir")
[ "$measured" = "$(bench_code_hash)" ] ||
	die "$dir/results.md measured ${measured:-code of no recorded hash}, not the series and bench patches as they are now: run 'make bench' again; not copied"

out=$REPO/$docs
mkdir -p "$out"
rm -f "$out"/*.svg
# shellcheck disable=SC2086
# shellcheck disable=SC2046 # one word per plot
cp "$dir/results.md" "$dir/results.csv" "$dir/measured.json" $(printf "$dir/%s " $plots) "$out/"

"$REPO/scripts/readme-blocks.sh"
note "$out updated from $dir"
