#!/bin/sh
# variant.sh VARIANT [PART]: every step for one variant, in order: worktree
# (and series), configure and build, initramfs, boot (make bench's boots
# for a bench variant).  PART 'build' stops before the boot, 'boot' does
# only the boot (scripts/check.sh runs them apart); 'all' by default.  A
# step that fails leaves logs/failed ("STEP why") for report.py, and this
# script exits 1.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: variant.sh VARIANT [all|build|boot]}"
part=${2:-all}
case $part in all | build | boot) ;; *) die "usage: variant.sh VARIANT [all|build|boot]" ;; esac
mkdir -p "$LOGS"
if [ "$part" = boot ]; then
	[ ! -f "$LOGS/failed" ] || die "$VARIANT: not booted, an earlier step failed: $(cat "$LOGS/failed")"
else
	rm -f "$LOGS/failed"
fi
rm -f "$LOGS"/boot.*

# A step's messages are shown as they come and kept in logs/STEP.err;
# progress lines keep to one updating line if this runs on a terminal
# (and is the only thing that prints: PROGRESS_LINES).
[ -t 2 ] && [ -z "${PROGRESS_LINES:-}" ] && export PROGRESS_TTY=y
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

if [ "$part" != boot ]; then
	step tree "$REPO/scripts/tree.sh"
	step prepare "$REPO/scripts/prepare.sh" "$VARIANT"
	step build "$REPO/scripts/build.sh" "$VARIANT"
	step initramfs "$REPO/scripts/initramfs.sh" "$VARIANT"
fi
if [ "$part" = build ]; then
	exit 0
elif variant_has "$VARIANT" bench; then
	step boot "$REPO/scripts/bench-boot.sh" "$VARIANT"
else
	step boot "$REPO/scripts/boot.sh" "$VARIANT"
fi
