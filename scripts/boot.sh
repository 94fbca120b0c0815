#!/bin/sh
# boot.sh VARIANT [NAME [KERNEL-ARGS...]]: boot VARIANT's bzImage with its
# initramfs in QEMU, with a timeout.  The kernel log (ttyS0) goes to
# logs/NAME.serial, the guest's KTAP (ttyS1) to logs/NAME.ktap, QEMU's exit
# status (124: timed out) to logs/NAME.status.  NAME defaults to 'boot'.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: boot.sh VARIANT [NAME [KERNEL-ARGS...]]}"
name=${2:-boot}
[ $# -ge 2 ] && shift 2 || shift $#

TIMEOUT=${TIMEOUT:-600}
SMP=${SMP:-4}
kernel=$OBJ/arch/x86/boot/bzImage
initramfs=$VDIR/initramfs.cpio
[ -f "$kernel" ] || die "$kernel not built (make build VARIANT=$VARIANT)"
[ -f "$initramfs" ] || die "$initramfs not made"

accel=$("$REPO/scripts/accel.sh" "$kernel" "$initramfs")
case $accel in kvm*) cpu=host ;; *) cpu=max ;; esac

serial=$LOGS/$name.serial
ktap=$LOGS/$name.ktap
rm -f "$serial" "$ktap" "$LOGS/$name.status"
start=$(date +%s)
status=0
note "booting $VARIANT ($accel, $SMP CPUs, at most $TIMEOUT s; serial log: $serial)"
progress_status() {
	last=$(grep -a -o 'harness: check [0-9]*/[0-9]*: [^ ]*' "$serial" 2>/dev/null | tail -1)
	echo "${last:-kernel starting}"
}
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 -accel "$accel" -cpu "$cpu" \
	-smp "$SMP" -m 512M -display none -monitor none -no-reboot \
	-serial "file:$serial" -serial "file:$ktap" \
	-kernel "$kernel" -initrd "$initramfs" \
	-append "console=ttyS0 panic=-1 oops=panic $*" ${QEMU_ARGS:-} \
	> "$LOGS/$name.qemu" 2>&1 &
watch_progress $! "boot of $VARIANT" || status=$?
echo "$status $(( $(date +%s) - start )) $TIMEOUT $accel" > "$LOGS/$name.status"
note "$VARIANT: QEMU ($accel) exited with $status after $(( $(date +%s) - start ))s; serial log: $serial"
