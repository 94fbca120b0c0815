#!/bin/sh
# export-series.sh DEV-WORKTREE: for developers of the series.  The series
# is written as commits on a worktree of the pristine tree (see README,
# "Working on the series"); this writes them to patches/ with
# git format-patch and lists them in ./series, replacing what was there.
set -eu
. "$(dirname "$0")/lib.sh"
dev=${1:?usage: export-series.sh DEV-WORKTREE}
ROOT=$(tree_root)
base=$(cat "$ROOT/pristine/.git/static-keys-pristine")
git -C "$dev" merge-base --is-ancestor "$base" HEAD ||
	die "$dev is not based on the pristine commit $base"
[ -z "$(git -C "$dev" status --porcelain)" ] || die "$dev has uncommitted changes"

rm -f "$REPO"/patches/*.patch
git -C "$dev" format-patch -q --zero-commit --no-signature \
	-o "$REPO/patches" "$base..HEAD"
(cd "$REPO/patches" && ls ./*.patch | sed 's|^\./||') > "$REPO/series"
note "exported $(wc -l < "$REPO/series") patches"
