#!/bin/sh
# run-state.sh VARIANT...: how much of a run of these kernels is built
# already, for the time it takes: "cold" (no tree unpacked in the cache:
# everything is to do), "warm" (every kernel's image and initramfs built:
# only what changed is), or "partial".
set -eu
. "$(dirname "$0")/lib.sh"
[ -d "$(tree_root 2>/dev/null)/pristine" ] || { echo cold; exit 0; }
for v; do
	variant_bootable "$v" || { echo partial; exit 0; }
done
echo warm
