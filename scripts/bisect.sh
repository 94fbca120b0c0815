#!/bin/sh
# bisect.sh: build and boot every prefix of the series, in order, first
# with CONFIG_JUMP_LABEL (the series variant's worktree), then without it
# (series-off's), and stop at the first that fails (its checks included).
# BISECT_VARIANTS picks the variants; BISECT_FROM=N starts at prefix N
# (after a run that proved the ones before it).  Each prefix's logs are
# kept in $ROOT/bisect/<n>-<patch>/<variant>/, and after each prefix the
# summary of all of them is written to Documentation/bisect.md
# (scripts/bisect-summary.py), to be committed with the series.
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(tree_root)
out=$ROOT/bisect
from=${BISECT_FROM:-1}
[ "$from" -ge 1 ] 2>/dev/null || die "BISECT_FROM=$from: not a prefix number"
# A run from prefix 1 starts afresh; a later start keeps earlier logs.
[ "$from" = 1 ] && rm -rf "$out"
mkdir -p "$out"
patches=$(series_patches "$REPO/series")
[ -n "$patches" ] || die "the series is empty: nothing to bisect"
total=$(echo "$patches" | wc -l)
summary=$REPO/Documentation/bisect.md
write_summary() {
	"$REPO/scripts/bisect-summary.py" "$out" "$REPO/series" > "$summary.new" &&
		mv "$summary.new" "$summary"
}

for v in ${BISECT_VARIANTS:-series series-off}; do
	variant_has_series "$v" || die "$v: not a variant with the series"
	n=0
	: > "$out/series"
	for p in $patches; do
		n=$((n + 1))
		echo "$p" >> "$out/series"
		[ "$n" -ge "$from" ] || continue
		note "prefix $n/$total ($v): $p"
		logs=$out/$(printf %02d "$n")-${p%.patch}/$v
		mkdir -p "${logs%/*}"
		ok=1
		SERIES=$out/series SERIES_PREFIX=$n "$REPO/scripts/variant.sh" "$v" || ok=0
		rm -rf "$logs"
		cp -r "$ROOT/$v/logs" "$logs"
		"$REPO/scripts/report.py" "$v=$logs" > "$logs/report" 2>&1 || ok=0
		write_summary
		if [ $ok = 1 ]; then
			tail -1 "$logs/report" | sed "s|^|$p ($v): |" >&2
			continue
		fi
		grep -E 'FAIL|^\[' "$logs/report" >&2 || true
		die "prefix $n/$total fails ($v), first at patch $p; logs: $logs; summary: $summary"
	done
done
note "summary: $summary"
note "prefixes $from to $total build, boot and pass their checks (${BISECT_VARIANTS:-series series-off})"
