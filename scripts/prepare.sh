#!/bin/sh
# prepare.sh VARIANT: give VARIANT its own worktree of the pristine tree and
# apply to it what the variant is made of (lib.sh, variant_series).
#
# A worktree is reused when it is exactly what this script left there; it is
# reset and prepared again when the series changed and nobody else touched
# it; it is refused, untouched, when it holds changes that are not ours.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: prepare.sh VARIANT}"

STATE=$VDIR/prepared
mkdir -p "$VDIR" "$LOGS"

git_s() { git -C "$SRC" "$@"; }

# What the worktree holds now: changed and new files, and their contents.
fingerprint() {
	{
		git_s diff HEAD --binary
		untracked_files "$SRC"
		untracked_files "$SRC" | (cd "$SRC" && xargs -r -d '\n' cat)
	} | sha256sum | cut -d' ' -f1
}

# What the variant should hold: its series file and every patch it names.
applied=$VDIR/series.applied
variant_series "$VARIANT" > "$applied"
wanted() {
	if [ -s "$applied" ]; then
		SERIES=$applied "$REPO/scripts/apply-series.sh" --hash
	else
		echo unmodified
	fi
}

clean_fingerprint=$(printf '' | sha256sum | cut -d' ' -f1)

if [ ! -d "$SRC" ]; then
	git -C "$PRISTINE" worktree prune
	git -C "$PRISTINE" worktree add -q --detach "$SRC" HEAD ||
		die "cannot create worktree $SRC"
	rm -f "$STATE"
fi

want=$(wanted)
now=$(fingerprint)
# The state file: how it was written (FORMAT), what was applied, and the
# fingerprint of the result.  Bump FORMAT when fingerprint() changes.
FORMAT=v2
if [ -f "$STATE" ]; then
	read -r had_format had_want had_fp < "$STATE"
	[ "$had_format" = "$FORMAT" ] ||
		die "$STATE was written by an older harness, so whether $SRC holds only the series cannot be told; nothing was changed.  If it has no work of yours, 'make clean-tree VARIANT=$VARIANT'."
else
	had_want=none
	had_fp=$clean_fingerprint
fi

if [ "$now" != "$had_fp" ]; then
	die "worktree $SRC holds changes this harness did not make:
$( (git_s status --short; untracked_files "$SRC") | sort -u | head -10)
Nothing was changed.  Keep what you need, then 'make clean-tree VARIANT=$VARIANT'."
fi
if [ "$had_want" = "$want" ]; then
	exit 0
fi

# Each patch the worktree holds, with the hash of what it changes
# (code:, lib.sh patches_code_hash), in order: a changelog edit keeps it.
done_list=$VDIR/series.done
patch_hashes() {
	while read -r p; do
		echo "$p code:$(echo "$p" | patches_code_hash)"
	done < "$1"
}

# Ours and out of date.  The patches the worktree holds that are still
# wanted, from the first on and unchanged, stay; those after them are
# popped (quilt writes the files they touched back, newer than the
# build, so make rebuilds what depends on them), and what is wanted after
# the kept ones is pushed: make bisect's next prefix, or one break after
# another (make breaks), rebuilds only what those patches touch.  With
# nothing in common: back to pristine, then apply what is wanted now.
rm -f "$STATE"
patch_hashes "$applied" > "$done_list.new"
keep=0
if [ "$now" != "$clean_fingerprint" ] && [ -s "$done_list" ] && [ -d "$SRC/.pc" ]; then
	keep=$(awk 'NR == FNR { had[FNR] = $0; next }
		!differs && had[FNR] == $0 { kept = FNR; next }
		{ differs = 1 }
		END { print kept + 0 }' "$done_list" "$done_list.new")
fi
apply='full'
if [ "$keep" -gt 0 ]; then
	apply='more'
	if [ "$keep" -lt "$(wc -l < "$done_list")" ]; then
		cut -d' ' -f1 "$done_list" > "$VDIR/series.popped"
		top=$(sed -n "${keep}p" "$VDIR/series.popped")
		echo "$VDIR/series.popped" > "$SRC/.pc/.quilt_series"
		# -f: the tree is what this script left (its fingerprint says so),
		# so quilt's backups restore it exactly, also where a patch file
		# has since been changed or renamed.
		(cd "$SRC" && QUILT_PATCHES="${PATCHES:-$TREE_PATCHES}" QUILT_SERIES="$VDIR/series.popped" QUILT_PC=.pc \
			quilt pop -f -q "$top" > "$LOGS/pop.log" 2>&1) ||
			die "could not pop the patches after $top from $SRC (log: $LOGS/pop.log); 'make clean-tree VARIANT=$VARIANT' starts it again"
		note "kept the first $keep patches of $SRC, popped $(($(wc -l < "$done_list") - keep))"
	fi
fi
rm -f "$done_list"
if [ $apply = full ] && [ "$now" != "$clean_fingerprint" ]; then
	note "series changed: resetting $SRC to pristine"
	reset_worktree "$SRC"
fi
if [ $apply = more ] && [ "$keep" -eq "$(wc -l < "$done_list.new")" ]; then
	: # what is wanted is what was kept
elif [ -s "$applied" ]; then
	mode=
	[ $apply = more ] && mode=--more
	SERIES=$applied "$REPO/scripts/apply-series.sh" $mode "$SRC" 2>"$LOGS/apply.log" || {
		cat "$LOGS/apply.log" >&2
		note "log: $LOGS/apply.log"
		exit 1
	}
	cat "$LOGS/apply.log" >&2
fi
mv "$done_list.new" "$done_list"
echo "$FORMAT $want $(fingerprint)" > "$STATE"
