#!/bin/sh
# bisect.sh: build and boot every prefix of the series, in order, in the
# series variant's worktree, and stop at the first that fails (its checks
# included).  Each prefix's logs are kept in $ROOT/bisect/<n>-<patch>/.
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(tree_root)
out=$ROOT/bisect
rm -rf "$out"
mkdir -p "$out"
patches=$(series_patches "$REPO/series")
[ -n "$patches" ] || die "the series is empty: nothing to bisect"
total=$(echo "$patches" | wc -l)

n=0
: > "$out/series"
for p in $patches; do
	n=$((n + 1))
	echo "$p" >> "$out/series"
	note "prefix $n/$total: $p"
	logs=$out/$(printf %02d "$n")-${p%.patch}
	ok=1
	SERIES=$out/series SERIES_PREFIX=$n "$REPO/scripts/variant.sh" series || ok=0
	cp -r "$ROOT/series/logs" "$logs"
	if [ $ok = 1 ] && "$REPO/scripts/report.py" "series=$logs" > "$logs/report" 2>&1; then
		tail -1 "$logs/report" | sed "s|^|$p: |" >&2
		continue
	fi
	cat "$logs/report" 2>/dev/null | grep -E 'FAIL|^\[' >&2 || true
	die "prefix $n/$total fails, first at patch $p; logs: $logs"
done
note "all $total prefixes build, boot and pass their checks"
