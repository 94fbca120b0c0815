#!/bin/sh
# boot.sh VARIANT [NAME [KERNEL-ARGS...]]: boot VARIANT's kernel image with
# its initramfs in QEMU, with a timeout, as its architecture's row of
# configs/arch/ says.  The kernel log (CONSOLE) goes to logs/NAME.serial,
# the guest's KTAP (RESULTS_DEV) to logs/NAME.ktap, QEMU's exit status
# (124: timed out) to logs/NAME.status.  NAME defaults to 'boot'.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: boot.sh VARIANT [NAME [KERNEL-ARGS...]]}"
name=${2:-boot}
[ $# -ge 2 ] && shift 2 || shift $#

TIMEOUT=${TIMEOUT:-600}
# A defconfig kernel probes its hundreds of built-in drivers under TCG
# before the checks start: three times as long.
variant_has "$VARIANT" defconfig && TIMEOUT=$((TIMEOUT * 3))
SMP=${SMP:-4}
kernel=$OBJ/$KERNEL_IMAGE
initramfs=$VDIR/initramfs.cpio
[ -f "$kernel" ] || die "$kernel not built (make build VARIANT=$VARIANT)"
[ -f "$initramfs" ] || die "$initramfs not made"

accel=$(KVM_PROBE=$KVM_PROBE QEMU=$QEMU "$REPO/scripts/accel.sh" "$kernel" "$initramfs")
case $accel in kvm*) cpu=host ;; *) cpu=$QEMU_CPU ;; esac

# The architecture's CHECK_ARGS (configs/arch/), and the variant's own
# (DEBUG_ARGS for the debug variant), except on make bench's boots.  What
# the kernel must do with a module's jump table, as the host knows it:
# the series sorts it when the .ko is linked where the architecture's
# row says so (MODULE_TABLES_SORTED), every other kernel when it loads.
check_args=
if ! variant_has "$VARIANT" bench; then
	check_args="$CHECK_ARGS"
	variant_has "$VARIANT" debug && check_args="$check_args ${DEBUG_ARGS:-}"
	# Whose static keys the kernel has: the series' or the tree's.
	keys='tree'
	variant_has_series "$VARIANT" && keys='series'
	tables='load'
	[ $keys = series ] && [ "${MODULE_TABLES_SORTED:-}" = y ] && tables='link'
	check_args="$check_args harness.module_tables_sorted_at=$tables harness.static_keys=$keys"
	# CHECKS (make run CHECKS=a,b): only those checks, of a boot of all
	if [ -n "${CHECKS:-}" ] && [ "$name" = boot ]; then
		for c in $(echo "$CHECKS" | tr , ' '); do
			[ -f "$REPO/tests/guest/$c.sh" ] ||
				die "CHECKS names $c, which is no check (one of: $(cd "$REPO/tests/guest" && ls ./*.sh | sed 's|^\./||; s|\.sh$||' | tr '\n' ' '))"
		done
		check_args="$check_args harness.only=$CHECKS"
	fi
fi

serial=$LOGS/$name.serial
ktap=$LOGS/$name.ktap
# How long the last good boot of the same name took (NAME-took, which
# outlives the logs variant.sh clears before a boot): what is left is
# told by it, or, before there was one, by the share of checks done.
last_took=$(cat "$LOGS/$name-took" 2>/dev/null || true)
rm -f "$serial" "$ktap" "$LOGS/$name.status"
start=$(date +%s)
status=0
note "booting $VARIANT ($accel, $SMP CPUs, at most $TIMEOUT s${last_took:+, the last such boot took $last_took s}; serial log: $serial)"
progress_status() {
	last=$(grep -a -o 'harness: check [0-9]*/[0-9]*: [^ ]*' "$serial" 2>/dev/null | tail -1)
	elapsed=$(( $(date +%s) - start ))
	done_n=$(echo "$last" | sed -n 's|^harness: check \([0-9]*\)/.*|\1|p')
	total_n=$(echo "$last" | sed -n 's|^harness: check [0-9]*/\([0-9]*\):.*|\1|p')
	if [ -z "$last_took" ] && [ -n "$done_n" ] && [ "$done_n" -gt 1 ]; then
		left="about $(( (total_n - done_n + 1) * elapsed / (done_n - 1) )) s left"
	else
		left=$(time_left "$last_took" "$start")
	fi
	echo "${last:-kernel starting}; $left"
}
# shellcheck disable=SC2086,SC2046 # the row's QEMU words
qemu_boot "$TIMEOUT" "$serial" "$kernel" "$initramfs" \
	"console=$CONSOLE harness.results=$RESULTS_DEV harness.sync=$(echo "$SYNC_PROBES" | tr ' ' ,) ${MM_PROBES:+harness.mm=$(echo "$MM_PROBES" | tr ' ' ,)} panic=-1 oops=panic $check_args $*" \
	"boot of $VARIANT" $QEMU $QEMU_MACHINE -accel "$accel" -cpu "$cpu" -smp "$SMP" -m 512M \
	$(echo "$RESULTS_QEMU" | sed "s|@KTAP@|$ktap|g") ${QEMU_ARGS:-} || status=$?
echo "$status $(( $(date +%s) - start )) $TIMEOUT $accel" > "$LOGS/$name.status"
[ "$status" != 0 ] || echo $(( $(date +%s) - start )) > "$LOGS/$name-took"
note "$VARIANT: QEMU ($accel) exited with $status after $(( $(date +%s) - start ))s; serial log: $serial"
