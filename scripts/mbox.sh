#!/bin/sh
# mbox.sh [OUT]: the tree's series as one mbox, the cover letter first
# (TREE_PATCHES/cover/0000-cover-letter.patch) and then each patch of the
# series file in order, for git am or b4 (b4 am -o - ./FILE.mbox), to OUT
# (default $ROOT/static-keys-TREE.mbox).  Each patch is already an mbox
# message of git format-patch; this joins them.
set -eu
. "$(dirname "$0")/lib.sh"
out=${1:-$(tree_root)/static-keys-$TREE.mbox}
letter=$TREE_PATCHES/cover/0000-cover-letter.patch
[ -s "$letter" ] || die "no cover letter $letter (make cover-letter)"
mkdir -p "$(dirname "$out")"
{
	cat "$letter"
	for p in $(series_patches "$TREE_SERIES"); do
		[ -f "$TREE_PATCHES/$p" ] || die "$TREE_SERIES names $p, which is not there"
		echo
		cat "$TREE_PATCHES/$p"
	done
} > "$out.new"
mv "$out.new" "$out"
note "wrote $out: the cover letter and $(series_patches "$TREE_SERIES" | wc -l) patches (git am $out)"
