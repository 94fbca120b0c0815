#!/bin/sh
# clean.sh VARIANT...: remove the variants' worktrees, builds and logs.  The
# pristine tree stays.
set -eu
. "$(dirname "$0")/lib.sh"
for v; do
	set_variant "$v"
	[ -d "$SRC" ] && git -C "$PRISTINE" worktree remove --force "$SRC"
	rm -rf "$VDIR"
done
[ ! -d "$PRISTINE" ] || git -C "$PRISTINE" worktree prune
