#!/bin/sh
# bench-readme.sh BENCH-DIR: put the last 'make bench' results into the
# repository: BENCH-DIR's results.md, .csv and plots to Documentation/bench/,
# and results.md into README.md between the two "bench results" marker
# lines (the rest of the README is kept as it is).
set -eu
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: bench-readme.sh BENCH-DIR}
readme=$REPO/README.md
begin='<!-- bench results: written by make bench-readme -->'
end='<!-- end of bench results -->'
for f in results.md results.csv flip.svg pipe.svg; do
	[ -s "$dir/$f" ] || die "$dir/$f missing: run 'make bench' first"
done
grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" ||
	die "$readme lacks the marker lines '$begin' and '$end'"
! grep -q '^### Missing or wrong' "$dir/results.md" ||
	die "$dir/results.md reports missing or wrong figures; not copied"

out=$REPO/Documentation/bench
mkdir -p "$out"
cp "$dir/results.md" "$dir/results.csv" "$dir/flip.svg" "$dir/pipe.svg" "$out/"

new=$(mktemp)
trap 'rm -f "$new"' EXIT
{
	sed "/^$begin\$/q" "$readme"
	echo
	echo "Measured by \`make bench\` on $(date -u +%Y-%m-%d) ($(nproc) host CPUs, QEMU $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p'), TCG), copied here by \`make bench-readme\`; the CSV and the plots are in [Documentation/bench/](Documentation/bench/)."
	echo
	# Headings one level down: the README's section is "##".
	sed 's/^### /#### /' "$dir/results.md"
	echo '![flip cost against sites](Documentation/bench/flip.svg)'
	echo '![pipe-test per kernel](Documentation/bench/pipe.svg)'
	echo
	sed -n "/^$end\$/,\$p" "$readme"
} > "$new"
cat "$new" > "$readme"
note "README.md and $out updated from $dir"
