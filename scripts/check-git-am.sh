#!/bin/sh
# check-git-am.sh: apply the series with 'git am' to a fresh worktree of the
# pristine tree and check that the result is the very tree quilt made in
# the series variant's worktree.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant series
SERIES=${SERIES:-$TREE_SERIES}
PATCHES=${PATCHES:-$TREE_PATCHES}

[ -f "$VDIR/prepared" ] || die "the series worktree is not prepared (make prepare)"
am=$ROOT/git-am
git -C "$PRISTINE" worktree remove --force "$am" 2>/dev/null || rm -rf "$am"
git -C "$PRISTINE" worktree prune
git -C "$PRISTINE" worktree add -q --detach "$am" HEAD
trap 'git -C "$PRISTINE" worktree remove --force "$am"' EXIT

# The checks' own patches first, as the series variant has them.
checks=
[ -f "$PATCHES/check/series" ] && checks=$(series_patches "$PATCHES/check/series" | sed 's|^|check/|')
for p in $checks $(series_patches "$SERIES"); do
	git -C "$am" -c user.name=harness -c user.email=harness@localhost \
		am -q "$PATCHES/$p" >&2 || die "git am: $p does not apply"
done

# The quilt-patched worktree as a tree object, through a scratch index so
# that its own index stays as it is.
index=$(mktemp)
trap 'rm -f "$index"; git -C "$PRISTINE" worktree remove --force "$am"' EXIT
GIT_INDEX_FILE=$index git -C "$SRC" read-tree HEAD
# -f: the Debian tree's .gitignore ignores new top-level paths.
GIT_INDEX_FILE=$index git -C "$SRC" add -A -f -- . ':(exclude).build' ':(exclude).pc'
quilt_tree=$(GIT_INDEX_FILE=$index git -C "$SRC" write-tree)
am_tree=$(git -C "$am" rev-parse 'HEAD^{tree}')
[ "$quilt_tree" = "$am_tree" ] ||
	die "quilt and git am give different trees: $(git -C "$am" diff --stat "$am_tree" "$quilt_tree" | tail -1)"
echo "quilt and git am give the same tree $am_tree"
