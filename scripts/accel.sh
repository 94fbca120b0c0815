#!/bin/sh
# accel.sh KERNEL INITRAMFS: print the QEMU accelerator to use for the
# architecture's QEMU (the caller's QEMU, its row's).  ACCEL, when
# set, wins.  Otherwise KVM only if /dev/kvm is usable and a short probe
# boot really reaches init (a nested PVM host has /dev/kvm, yet a stock
# guest hangs there); else single-threaded TCG (multi-threaded TCG in QEMU
# 7.2 breaks cross-modifying code: see README).  The answer is cached per
# host kernel and QEMU version.
set -eu
. "$(dirname "$0")/lib.sh"
kernel=${1:?usage: accel.sh KERNEL INITRAMFS}
initramfs=${2:?usage: accel.sh KERNEL INITRAMFS}
tcg=tcg,thread=single

if [ -n "${ACCEL:-}" ]; then
	echo "$ACCEL"
	exit 0
fi
# KVM_PROBE: the architecture's row (configs/arch/) says KVM can run it.
if [ -z "${KVM_PROBE:-}" ] || [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
	echo $tcg
	exit 0
fi

qemu=${QEMU:?no QEMU of the architecture given}
cache=$CACHE_DIR/accel-$(uname -r)-$qemu-$($qemu --version | sed -n '1s/[^0-9.]//gp')
if [ -f "$cache" ]; then
	cat "$cache"
	exit 0
fi
log=$(mktemp)
timeout -k 2 "${PROBE_TIMEOUT:-15}" "$qemu" -accel kvm -cpu host \
	-m 256M -display none -monitor none -no-reboot -serial "file:$log" \
	-kernel "$kernel" -initrd "$initramfs" \
	-append "console=ttyS0 rdinit=/fault/probe.sh panic=-1" >/dev/null 2>&1 || true
if grep -q 'harness: probe reached init' "$log"; then
	answer=kvm
else
	answer=$tcg
	note "KVM probe did not reach init within ${PROBE_TIMEOUT:-15}s: using TCG"
fi
rm -f "$log"
mkdir -p "$CACHE_DIR"
echo "$answer" > "$cache"
echo "$answer"
