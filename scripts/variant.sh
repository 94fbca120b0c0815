#!/bin/sh
# variant.sh VARIANT: every step for one variant, in order: worktree (and
# series), configure and build, initramfs, boot (make bench's boots for a
# bench variant).  A step that fails leaves
# logs/failed ("STEP why") for report.py, and this script exits 1.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: variant.sh VARIANT}"
mkdir -p "$LOGS"
rm -f "$LOGS/failed" "$LOGS"/boot.*

# A step's messages are shown as they come and kept in logs/STEP.err;
# progress lines keep to one updating line if this runs on a terminal.
[ -t 2 ] && export PROGRESS_TTY=y
step() {
	name=$1
	shift
	rc=$LOGS/$name.rc
	{ { status=0; "$@" 2>&1 1>&3 3>&- || status=$?; echo $status > "$rc"; } |
		tee "$LOGS/$name.err" >&2; } 3>&1
	if [ "$(cat "$rc")" != 0 ]; then
		msg=$(grep 'error:' "$LOGS/$name.err" | tail -1 | sed 's/^[^:]*: error: //')
		echo "$name ${msg:-failed, see $LOGS/$name.err}" > "$LOGS/failed"
		exit 1
	fi
}

step tree "$REPO/scripts/tree.sh"
step prepare "$REPO/scripts/prepare.sh" "$VARIANT"
step build "$REPO/scripts/build.sh" "$VARIANT"
step initramfs "$REPO/scripts/initramfs.sh" "$VARIANT"
if variant_has "$VARIANT" bench; then
	step boot "$REPO/scripts/bench-boot.sh" "$VARIANT"
else
	step boot "$REPO/scripts/boot.sh" "$VARIANT"
fi
