#!/bin/sh
# bisect.sh: build and boot every prefix of the series, in order, first
# with CONFIG_JUMP_LABEL (variant bisect-series), then without it
# (bisect-series-off), and stop at the first that fails (its checks
# included).  Those are worktrees of their own: make check's kernels are
# left as they are, and each prefix pushes one more patch onto the last.
#
# A prefix is proven when its build, boot and report passed; the code
# hash of its patches (apply-series.sh --code-hash: their diffs, not
# their changelogs) is then kept in its logs, and a later run skips every
# prefix already proven with the same code, so an interrupted run resumes
# where it stopped and a changelog edit costs nothing.  BISECT_FRESH=y
# forgets every earlier proof; BISECT_VARIANTS picks the variants.
#
# The cache does not outlive a machine, and every prefix in both
# configurations takes longer than one sitting on 2 CPUs, so each proof is
# also written to Documentation/bisect-proofs.txt (one line: variant,
# prefix, code hash, the harness commit that ran it, date, seconds and
# check counts), committed with the harness: a run on another machine
# skips what that file proves for the same code, and the summary shows
# such rows with the date they were proven.  BISECT_FRESH=y ignores it too.
# Each prefix's logs are kept in $ROOT/bisect/<n>-<patch>/<variant>/, and
# after each prefix the summary of all of them is written to
# Documentation/bisect.md (scripts/bisect-summary.py), to be committed
# with the series.  The cover letter quotes that summary, so it is written
# again (scripts/cover-letter.sh) whenever the run ends, interrupted or not.
#
# A prefix is booted with the quick profile of checks by default
# (BISECT_PROFILE=quick: BISECT_QUICK_CHECKS below, the series' KUnit
# suites, the sites and keys read back, modules with keys loaded and
# unloaded), so that a whole tree's bisect fits in hours; make check
# proves the head with every check.  BISECT_PROFILE=full boots each prefix
# with every check.  A prefix the ledger proves with the full profile is
# proven for the quick one too, not the other way round; the ledger's last
# column says which.
#
# bisect.sh --summary: only write the summary and the cover letter again,
# from the logs and the ledger, for the series as it is now (after a
# changelog edit, or a patch inserted).
#
# A slice, for several machines (make bisect PREFIXES=3-7 CONFIGS=series):
# BISECT_PREFIXES=A-B runs only prefixes A to B, BISECT_VARIANTS only the
# variants named.  bisect.sh --merge LEDGER...: the proofs of other
# machines' ledgers (their Documentation/bisect-proofs.txt) added to this
# one (those of other code than this series' prefix passed over), refusing
# a ledger that proves none of the series as it is now; then the summary
# and the letter.
set -eu
. "$(dirname "$0")/lib.sh"
# A merge of ledgers needs no tree (a CI job that only merges has none
# installed): its scratch files go to a directory of its own.
if [ "${1:-}" = --merge ] && ! ROOT=$(tree_root 2>/dev/null); then
	ROOT=$(mktemp -d)
	trap 'rm -rf "$ROOT"' EXIT
else
	ROOT=$(tree_root)
fi
out=$ROOT/bisect
[ -z "${BISECT_FRESH:-}" ] || rm -rf "$out"
mkdir -p "$out"
patches=$(series_patches "$TREE_SERIES")
[ -n "$patches" ] || die "the series is empty: nothing to bisect"
total=$(echo "$patches" | wc -l)
summary=$TREE_DOCS/bisect.md
proofs=$TREE_DOCS/bisect-proofs.txt
[ -f "$proofs" ] || printf '%s\n' \
	'# make bisect: prefixes proven (built, booted, no check failed), written by scripts/bisect.sh.' \
	'# variant prefix code-hash harness date build-s boot-s passed failed skipped profile' > "$proofs"
harness=$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)
BISECT_QUICK_CHECKS=boot_log,kunit_builtin,harness_module,jump_table_kcore,kernel_static_key_modules
profile=${BISECT_PROFILE:-quick}
case $profile in
quick) profile_checks=$BISECT_QUICK_CHECKS ;;
full) profile_checks= ;;
*) die "BISECT_PROFILE=$profile: not a profile (quick, full)" ;;
esac

# The code hash of every prefix, one "N HASH" line each, for this script
# and the summary.  A file of this run's own (.$$, and series-VARIANT
# below): two runs may share $out, one per configuration.
prefix_code_hashes > "$out/hashes.$$"
mv "$out/hashes.$$" "$out/hashes"

write_summary() {
	"$REPO/scripts/bisect-summary.py" "$out" "$TREE_SERIES" "$proofs" > "$summary.new" &&
		mv "$summary.new" "$summary"
}

# The summary and the letter that quotes it, kept in step.
finish() {
	trap - EXIT
	write_summary
	if why=$(letter_waits); then
		note "summary: $summary; no cover letter: $why"
		return
	fi
	note "summary: $summary; writing the cover letter again (it quotes the summary)"
	"$REPO/scripts/cover-letter.sh" >&2 || note "cover letter not written again: run 'make cover-letter'"
}
if [ "${1:-}" = --summary ]; then
	finish
	exit 0
fi
if [ "${1:-}" = --merge ]; then
	shift
	[ $# -gt 0 ] || die "usage: bisect.sh --merge LEDGER..."
	python3 - "$out/hashes" "$proofs" "$@" <<'PY' || exit 1
import sys
hashes, proofs, ledgers = sys.argv[1], sys.argv[2], sys.argv[3:]
want = dict(line.split() for line in open(hashes))
head, rows = [], {}
for line in open(proofs):
    if line.startswith('#'):
        head.append(line)
    elif line.strip():
        w = line.split()
        rows[(w[0], int(w[1]))] = line
def current(w):
    return want.get(w[1]) == w[2]


# A ledger keeps the proofs of earlier code too (one line per variant and
# prefix, the newest): those prove nothing now and are passed over.  A
# ledger with no proof of the series as it is now was made from other
# patches, and is refused.
for ledger in ledgers:
    fresh, stale = 0, []
    for line in open(ledger):
        if line.startswith('#') or not line.strip():
            continue
        w = line.split()
        if not current(w):
            stale.append(w)
            continue
        fresh += 1
        key = (w[0], int(w[1]))
        if key not in rows or not current(rows[key].split()):
            rows[key] = line
    if not fresh and stale:
        w = stale[0]
        sys.exit(f'bisect.sh: error: {ledger} proves no prefix of the series as '
                 f'it is now (prefix {w[1]} ({w[0]}) of other code: {w[2][:12]}, '
                 f'not {want.get(w[1], "no such prefix")[:12]}): nothing merged')
with open(proofs, 'w') as f:
    f.writelines(head + [rows[k] for k in sorted(rows)])
print(f'bisect.sh: {len(rows)} proofs in {proofs}', file=sys.stderr)
PY
	finish
	exit 0
fi
trap finish EXIT
trap 'exit 130' INT TERM

# proven_earlier VARIANT N HASH: the date the ledger proves it on, if it
# does with this run's profile or the full one (a line without a profile
# is of the full one).
proven_earlier() {
	[ -z "${BISECT_FRESH:-}" ] || return 1
	awk -v v="$1" -v n="$2" -v h="$3" -v want="$profile" '
		$1 == v && $2 == n && $3 == h {
			had = NF > 10 ? $11 : "full"
			if (had == "full" || had == want) { print $5; found = 1 }
		}
		END { exit !found }' "$proofs"
}

# record_proof VARIANT N HASH LOGS: its line in the ledger, replacing an
# older one for the same variant and prefix.
record_proof() {
	line=$("$REPO/scripts/bisect-summary.py" --proof "$4" "$1" "$2" "$3" "$harness" "$(date -u +%F)")
	{
		grep '^#' "$proofs"
		{ grep -v '^#' "$proofs" | awk -v v="$1" -v n="$2" '!($1 == v && $2 == n)'; echo "$line"; } |
			sort -k1,1 -k2,2n
	} > "$proofs.new" && mv "$proofs.new" "$proofs"
}

for v in ${BISECT_VARIANTS:-bisect-series bisect-series-off}; do
	variant_has_series "$v" || die "$v: not a variant with the series"
	n=0
	: > "$out/series-$v"
	for p in $patches; do
		n=$((n + 1))
		echo "$p" >> "$out/series-$v"
		if [ -n "${BISECT_PREFIXES:-}" ] &&
			{ [ "$n" -lt "${BISECT_PREFIXES%-*}" ] || [ "$n" -gt "${BISECT_PREFIXES#*-}" ]; }; then
			continue
		fi
		hash=$(sed -n "s/^$n //p" "$out/hashes")
		logs=$out/$(printf %02d "$n")-${p%.patch}/$v
		if [ "$(cat "$logs/proven" 2>/dev/null)" = "$hash" ] &&
			{ [ "$profile" = quick ] || [ "$(cat "$logs/profile" 2>/dev/null || echo full)" = full ]; }; then
			note "prefix $n/$total ($v): proven by an earlier run with the same code ($(cat "$logs/harness" 2>/dev/null || echo '?'))"
			continue
		fi
		if when=$(proven_earlier "$v" "$n" "$hash"); then
			note "prefix $n/$total ($v): proven on $when with the same code (Documentation/bisect-proofs.txt)"
			continue
		fi
		note "prefix $n/$total ($v, $profile checks): $p"
		mkdir -p "${logs%/*}"
		# Only this prefix's logs: an interrupted run leaves no others.
		set_variant "$v"
		rm -rf "$LOGS"
		ok=1
		CHECKS=$profile_checks SERIES=$out/series-$v SERIES_PREFIX=$n \
			"$REPO/scripts/variant.sh" "$v" || ok=0
		rm -rf "$logs"
		cp -r "$LOGS" "$logs"
		echo "$harness" > "$logs/harness"
		echo "$hash" > "$logs/code-hash"
		echo "$profile" > "$logs/profile"
		CHECKS=$profile_checks SERIES_PREFIX_FILE=$out/series-$v \
			"$REPO/scripts/report.py" "$v=$logs" > "$logs/report" 2>&1 || ok=0
		if [ $ok = 1 ]; then
			echo "$hash" > "$logs/proven"
			record_proof "$v" "$n" "$hash" "$logs"
		fi
		write_summary
		if [ $ok = 1 ]; then
			tail -1 "$logs/report" | sed "s|^|$p ($v): |" >&2
			continue
		fi
		grep -E 'FAIL|^\[' "$logs/report" >&2 || true
		die "prefix $n/$total fails ($v), first at patch $p; logs: $logs; summary: $summary"
	done
done
finish
if [ -n "${BISECT_PREFIXES:-}" ]; then
	range="prefixes $BISECT_PREFIXES of $total"
else
	range="every prefix of $total"
fi
note "$range: built, booted, every check passed (${BISECT_VARIANTS:-bisect-series bisect-series-off})"
