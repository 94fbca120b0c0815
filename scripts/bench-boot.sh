#!/bin/sh
# bench-boot.sh VARIANT: make bench's boots of a bench variant (lib.sh,
# BENCH_VARIANTS), in place of the checks' boot.  BENCH_BOOTS boots (3)
# with one vCPU under -icount shift=0,sleep=off, where the guest clock and
# TSC advance with executed instructions, so that figures repeat from
# boot to boot; then one boot with four vCPUs that counts a flip's sync
# rounds and what they run on each CPU (the architecture's SYNC_PROBES, which boot.sh passes as harness.sync);
# then four profile boots like the time boots, each running one thing
# under the insn-count QEMU plugin (tests/qemu-plugin/insn-count.c), which
# counts every executed instruction by address: pipe-test of
# BENCH_ROUNDS and of twice as many round trips, the flip module's load,
# and the same program doing nothing, whose differences
# scripts/insn-account.py gives per function.  Each must end with the
# guest's "bench done", or this names the log that did not.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: bench-boot.sh VARIANT}"
variant_has "$VARIANT" bench || die "$VARIANT is not a bench variant ($BENCH_VARIANTS)"

# boot NAME SMP ACCEL QEMU-ARGS KERNEL-ARGS...
boot() {
	name=$1 smp=$2 accel=$3 qemu=$4
	shift 4
	SMP=$smp ACCEL=$accel QEMU_ARGS=$qemu \
		"$REPO/scripts/boot.sh" "$VARIANT" "$name" "$@"
	grep -q '^bench done' "$LOGS/$name.ktap" 2>/dev/null ||
		die "$VARIANT: bench boot $name did not finish (QEMU status: $(cat "$LOGS/$name.status")); serial log: $LOGS/$name.serial"
	! grep -q '^error' "$LOGS/$name.ktap" ||
		die "$VARIANT: bench boot $name: $(grep '^error' "$LOGS/$name.ktap" | head -1); serial log: $LOGS/$name.serial"
}

rm -f "$LOGS"/bench-* "$LOGS"/profile-*
plugin=$VDIR/insn-count.so
cc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$plugin" "$REPO/tests/qemu-plugin/insn-count.c" ||
	die "cannot build the QEMU plugin $plugin from tests/qemu-plugin/insn-count.c"
i=1
while [ "$i" -le "${BENCH_BOOTS:-3}" ]; do
	# icount is TCG's; single-threaded, as for every boot (README).
	boot "bench-time-$i" 1 tcg,thread=single "-icount shift=0,sleep=off" \
		harness.bench=time "harness.bench_repeat=${BENCH_REPEAT:-5}" \
		"harness.bench_rounds=${BENCH_ROUNDS:-20000}"
	i=$((i + 1))
done
boot bench-sync 4 "${ACCEL:-}" "" harness.bench=sync
rounds=${BENCH_ROUNDS:-20000}
# NAME:WHAT:ROUNDS
for run in pipe:pipe:$rounds pipe-twice:pipe:$((rounds * 2)) load:load:0 idle:idle:0; do
	name=profile-${run%%:*} what=${run#*:}
	boot "$name" 1 tcg,thread=single \
		"-icount shift=0,sleep=off -plugin $plugin,out=$LOGS/$name.insns" \
		harness.bench=profile "harness.bench_profile=${what%:*}" \
		"harness.bench_rounds=${what#*:}"
	[ -s "$LOGS/$name.insns" ] && ! grep -q '^# table full' "$LOGS/$name.insns" ||
		die "$VARIANT: profile boot $name left no complete instruction counts ($LOGS/$name.insns); QEMU's messages: $LOGS/$name.qemu"
done
