#!/bin/sh
# Unpack Debian's linux-source tarball once into the cache, as a git
# repository with a single commit, and check on every later run that it is
# still exactly that commit with nothing changed.  Variants never build in
# it; they get worktrees (scripts/prepare.sh).
set -eu
. "$(dirname "$0")/lib.sh"

ROOT=$(tree_root)
PRISTINE=$ROOT/pristine
STAMP=$PRISTINE/.git/static-keys-pristine

git_p() { git -C "$PRISTINE" "$@"; }

if [ -f "$STAMP" ]; then
	want=$(cat "$STAMP")
	have=$(git_p rev-parse HEAD 2>/dev/null) || have=none
	[ "$want" = "$have" ] ||
		die "pristine tree $PRISTINE is at $have, not at $want: it was changed; run 'make distclean' to unpack it again"
	dirty=$(git_p status --porcelain --untracked-files=normal | head -5)
	[ -z "$dirty" ] ||
		die "pristine tree $PRISTINE was modified (first changes: $(echo "$dirty" | tr '\n' ' ')); run 'make distclean' to unpack it again"
	exit 0
fi

[ -r "$TARBALL" ] || die "$TARBALL not found: install $SOURCE_PKG (make deps)"
mkdir -p "$ROOT" || die "cannot create $ROOT"
[ -w "$ROOT" ] || die "cache directory $ROOT is not writable"

tmp=$ROOT/.unpack.$$
trap 'rm -rf "$tmp"' EXIT
rm -rf "$ROOT"/.unpack.*
mkdir "$tmp"
note "unpacking $TARBALL into $PRISTINE"
# How far: the bytes written against what xz's index says the tarball
# holds (its headers and padding aside).
unpacked_total=$(xz --robot -l "$TARBALL" 2>/dev/null | awk '$1 == "totals" { print $5 }')
unpack_start=$(date +%s)
progress_status() {
	_done=$(du -sb "$tmp" 2>/dev/null | cut -f1)
	progress_of "$(( ${_done:-0} / 1048576 ))" "${unpacked_total:+$((unpacked_total / 1048576))}" \
		"$unpack_start" "MiB unpacked"
}
tar -C "$tmp" -xf "$TARBALL" &
watch_progress $! "unpacking $SOURCE_PKG" ||
	die "cannot unpack $TARBALL into $ROOT (disk full?)"
top=$(ls "$tmp")
[ "$(echo "$top" | wc -l)" = 1 ] || die "$TARBALL does not hold one top directory"

cd "$tmp/$top"
git init -q
git config core.autocrlf false
git config gc.auto 0
# The build output and quilt's state live inside each worktree.
printf '/.build/\n/.pc/\n' >> .git/info/exclude
note "recording the unpacked tree as one git commit"
progress_status() { echo "git add of the tree"; }
git add -A -f . &
watch_progress $! "recording $SOURCE_PKG" ||
	die "git add failed in $tmp/$top (disk full?)"
# The same commit on every machine (lib.sh, pristine_commit_env).
pristine_commit_env git commit -q -m "$SOURCE_PKG $(pkg_version): $TARBALL as unpacked" ||
	die "git commit failed in $tmp/$top"
git rev-parse HEAD > .git/static-keys-pristine
cd - >/dev/null
mv "$tmp/$top" "$PRISTINE" || die "cannot move the unpacked tree to $PRISTINE"
note "pristine tree ready: $PRISTINE at $(cat "$STAMP")"
