#!/bin/sh
# merge-slices.sh DIR...: the results of slices run elsewhere (make check
# VARIANTS=..., make bisect PREFIXES=... CONFIGS=...; on other machines or
# in other cache directories) as if one run had made them.  DIR is a
# slice's CACHE_DIR, or a directory a CI job filled with its results:
# each check.json found under it goes into one make check record
# ($ROOT/check.json, and the table: report.py --merge), each
# bisect-proofs.txt into Documentation/bisect-proofs.txt and bisect.md
# (bisect.sh --merge), each tree's proof records (a checkout's
# Documentation/records/) into this one's (records.py merge).  A slice
# made from other patches is refused and nothing is merged.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || die "usage: merge-slices.sh DIR... (make report SLICES='DIR...')"
ROOT=$(tree_root)
checks='' ledgers='' records=''
for d; do
	[ -d "$d" ] || die "no slice directory $d"
	found=$(find "$d" -name 'check*.json' | sort | tr '\n' ' ')
	[ -n "$found" ] && checks="$checks $found"
	ledger=$(find "$d" -name bisect-proofs.txt | head -1)
	[ -n "$ledger" ] && ledgers="$ledgers $ledger"
	recs=$(find "$d" -path "*/${TREE_DOCS#"$REPO/"}/records" -type d | head -1)
	[ -n "$recs" ] && records="$records $recs"
	[ -n "$found$ledger$recs" ] || die "$d holds neither a check.json, a bisect-proofs.txt nor proof records"
done
rc=0
if [ -n "$records" ]; then
	# shellcheck disable=SC2086
	"$REPO/scripts/records.py" merge $records || rc=1
fi
if [ -n "$ledgers" ]; then
	# shellcheck disable=SC2086
	"$REPO/scripts/bisect.sh" --merge $ledgers || rc=1
fi
if [ -n "$checks" ]; then
	mkdir -p "$ROOT"
	# shellcheck disable=SC2086
	"$REPO/scripts/report.py" --merge --json "$ROOT/check.json.merged" $checks || rc=$?
	if [ -s "$ROOT/check.json.merged" ]; then
		mv "$ROOT/check.json.merged" "$ROOT/check.json"
		date +%s > "$ROOT/check.start.merged"
		note "merged record: $ROOT/check.json"
	fi
fi
exit $rc
