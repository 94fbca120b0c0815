#!/bin/sh
# export-series.sh DEV-WORKTREE: for developers of the series.  The series
# is written as commits on a worktree of the pristine tree (see README,
# "Working on the series"); this writes them to the tree's patches/
# (configs/tree/: patches/ for 6.1, patches/6.12/ for 6.12) with git
# format-patch and lists them in its series file, replacing what was
# there, then writes the cover letter (scripts/cover-letter.sh).
# export-series.sh --bench DEV-WORKTREE: the same for the bench patches
# (commits on their own worktree of pristine), to patches/bench/ and
# patches/bench/series.
set -eu
. "$(dirname "$0")/lib.sh"
out=$TREE_PATCHES
list=$TREE_SERIES
if [ "${1:-}" = --bench ]; then
	shift
	out=$TREE_PATCHES/bench
	list=$out/series
fi
dev=${1:?usage: export-series.sh [--bench] DEV-WORKTREE}
ROOT=$(tree_root)
base=$(cat "$ROOT/pristine/.git/static-keys-pristine")
git -C "$dev" merge-base --is-ancestor "$base" HEAD ||
	die "$dev is not based on the pristine commit $base"
[ -z "$(git -C "$dev" status --porcelain)" ] || die "$dev has uncommitted changes"

mkdir -p "$out"
rm -f "$out"/*.patch
git -C "$dev" format-patch -q --zero-commit --no-signature --notes --abbrev=7 -o "$out" "$base..HEAD"
(cd "$out" && ls ./*.patch | sed 's|^\./||') > "$list"
note "exported $(wc -l < "$list") patches to $out"
# The series' cover letter (not in the series file), for the patches just
# written, where the tree has the letter's text and the figures it quotes.
if [ "$list" = "$TREE_SERIES" ]; then
	if [ ! -s "$TREE_DOCS/cover-letter.md" ]; then
		note "no cover letter for $TREE: $TREE_DOCS/cover-letter.md is not written yet"
	elif why=$(letter_waits); then
		note "no cover letter for $TREE: $why"
	else
		"$REPO/scripts/cover-letter.sh"
	fi
fi
