#!/bin/sh
# import-series.sh DEV-WORKTREE: for developers of the series, the way
# back from patches/ to commits: a new worktree of the pristine tree at
# DEV-WORKTREE (a clone sharing its objects) with the series applied by
# git am, and each patch's notes (the text between its '---' line and its
# diffstat, which git am drops) attached again as git notes, so that
# export-series.sh writes the same patches.  The clone keeps the notes
# through rebases (notes.rewriteRef), and commits made in it take the
# series' author (the last patch's), not the machine's identity.
set -eu
. "$(dirname "$0")/lib.sh"
dev=${1:?usage: import-series.sh DEV-WORKTREE}
[ ! -e "$dev" ] || die "$dev exists"
PRISTINE=$(tree_root)/pristine
[ -d "$PRISTINE/.git" ] || die "no pristine tree at $PRISTINE (make tree)"
git clone -q --shared "$PRISTINE" "$dev"
for p in $(series_patches "$TREE_SERIES"); do
	git -C "$dev" am -q "$TREE_PATCHES/$p" || die "git am of $p failed in $dev"
	notes=$(sed -n '/^---$/,/^ [^ ].* | /p' "$TREE_PATCHES/$p" |
		sed -n '/^Notes:$/,$p' | sed '1d;$d' | sed 's/^    //')
	[ -z "$notes" ] || printf '%s\n' "$notes" | git -C "$dev" notes add -f -F - HEAD
done
git -C "$dev" config notes.rewriteRef refs/notes/commits
git -C "$dev" config user.name "$(git -C "$dev" log -1 --format=%an)"
git -C "$dev" config user.email "$(git -C "$dev" log -1 --format=%ae)"
note "$dev: $(series_patches "$TREE_SERIES" | wc -l) patches, notes attached, author $(git -C "$dev" log -1 --format='%an <%ae>')"
