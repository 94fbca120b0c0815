#!/bin/sh
# apply-series.sh WORKTREE: apply every patch of ./series to WORKTREE with
# quilt, without fuzz.  Refuses a worktree that is already patched or
# modified; a patch that does not apply is named with the file that failed,
# and the worktree is put back to its pristine state.
# apply-series.sh --hash: print a hash of the series and all its patches.
# apply-series.sh --code-hash: the same of what the patches change (from
# each one's first 'diff --git' on), so that a changelog edit keeps it.
# apply-series.sh --list: print the patch names, in order.
set -eu
. "$(dirname "$0")/lib.sh"

SERIES=${SERIES:-$TREE_SERIES}
PATCHES=${PATCHES:-$TREE_PATCHES}

patch_names() {
	series_patches "$SERIES"
}

[ -f "$SERIES" ] || die "series file $SERIES not found"
for p in $(patch_names); do
	[ -f "$PATCHES/$p" ] || die "$SERIES names $p, but $PATCHES/$p does not exist"
done

if [ "${1:-}" = --list ]; then
	patch_names
	exit 0
fi
if [ "${1:-}" = --hash ]; then
	{
		cat "$SERIES"
		for p in $(patch_names); do cat "$PATCHES/$p"; done
	} | sha256sum | cut -d' ' -f1
	exit 0
fi
if [ "${1:-}" = --code-hash ]; then
	patch_names | PATCHES=$PATCHES patches_code_hash
	exit 0
fi

# --more WORKTREE: the worktree holds the first patches of the series,
# applied by this script (prepare.sh checked them); push the rest.
more=
if [ "${1:-}" = --more ]; then
	more=y
	shift
fi
wt=${1:?usage: apply-series.sh [--more] WORKTREE | --hash | --code-hash | --list}
[ -d "$wt" ] || die "$wt is not a directory"
cd "$wt"
if [ -n "$more" ]; then
	[ -d .pc ] || die "$wt has no quilt patches applied: nothing to continue"
	# quilt keeps the series file it first applied in .pc, and goes by it.
	echo "$SERIES" > .pc/.quilt_series
	echo "$PATCHES" > .pc/.quilt_patches
else
	[ ! -e .pc ] || die "$wt already has quilt patches applied (.pc exists): refusing to apply the series again"
	dirty=$( (git status --porcelain; untracked_files .) | head -5)
	[ -z "$dirty" ] || die "$wt is modified, refusing to apply the series onto it:
$dirty"
fi

if [ -z "$(patch_names)" ]; then
	note "series is empty: $wt stays as the pristine tree"
	exit 0
fi

export QUILT_PATCHES="$PATCHES" QUILT_SERIES="$SERIES" QUILT_PC=.pc
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if quilt push -a --fuzz=0 >"$out" 2>&1; then
	if [ -n "$more" ]; then
		note "applied $(grep -c '^Applying patch' "$out") more patches to $wt ($(patch_names | wc -l) in all)"
	else
		note "applied $(patch_names | wc -l) patches to $wt"
	fi
	exit 0
fi
cat "$out" >&2
failed=$(sed -n 's/^Applying patch //p' "$out" | tail -1)
files=$(sed -n -e 's/.*rejects in file //p' \
	-e 's/^can.t find file to patch.*/(a file the patch names is missing)/p' \
	-e 's/^The next patch would create the file \(.*\),$/\1 (exists already)/p' \
	-e 's/^File \(.*\) is read-only.*/\1 (read-only)/p' "$out" | sort -u | tr '\n' ' ')
if [ -n "$failed" ] && patch -p1 --dry-run -s -F2 < "$failed" >/dev/null 2>&1; then
	files="$files(it applies only with fuzz, and fuzz is refused)"
fi
# No half-applied tree: back to pristine.
quilt pop -a -f -q >/dev/null 2>&1 || true
reset_worktree .
die "patch ${failed#"$PATCHES"/} does not apply: ${files:-see the quilt output above}; $wt was reset to pristine"
