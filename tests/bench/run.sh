#!/bin/sh
# make bench's guest side, run by /init instead of the checks when the
# kernel command line has harness.bench=MODE.  Prints one result a line
# to $1 (ttyS1), then "bench done"; host side: scripts/bench-report.py.
#
#   time  (one vCPU, -icount shift=0: guest ns count instructions)
#         jump_label_init()'s cycles from the boot log (x86: TSC; arm64:
#         the generic timer's counter), the flip
#         module's load time, flips of 1..10,000 sites, pipe-test,
#         getppid, pipe-self and yield loops, each repeated
#   sync  (four vCPUs) synchronisation rounds while a key of N sites is
#         enabled and disabled: calls of the first function of
#         harness.sync=ROUND,CPU (kprobe events; x86: the calls of
#         on_each_cpu_cond_mask for do_sync_core, text_poke_sync's),
#         and the runs of the second on all CPUs they cause (x86:
#         do_sync_core; arm64: kick_all_cpus_sync, do_nothing).  Interrupt
#         counts would not do: an idle CPU that polls is woken without an
#         IPI.
#   profile  (one vCPU, -icount, under the insn-count QEMU plugin) one
#         thing only, harness.bench_profile=WHAT of: pipe (pipe-test,
#         harness.bench_rounds round trips), load (the flip module's
#         load), idle (the bench program run doing nothing: what load
#         costs besides finit_module()); the host takes the difference
#         of two such boots (scripts/insn-account.py).
out=${1:?usage: run.sh RESULTS-TTY}
arg() {
	sed -n "s/.*harness\.$1=\([^ ]*\).*/\1/p" /proc/cmdline
}
mode=$(arg bench)
repeat=$(arg bench_repeat)
repeat=${repeat:-5}
rounds=$(arg bench_rounds)
rounds=${rounds:-20000}
flip=/sys/kernel/debug/static_keys_flip
module=/modules/static_keys_flip.ko

say() {
	echo "$*" > "$out"
}

tracing=/sys/kernel/tracing

say "bench mode=$mode cpus=$(grep -c ^processor /proc/cpuinfo) repeat=$repeat rounds=$rounds"
case $mode in
time)
	dmesg | sed -n 's/.*bench: jump_label_init() took \([0-9]*\) [a-zA-Z]* cycles.*/jump_label_init_cycles=\1/p' |
		head -1 > "$out"
	load=$(bench load $module) || say "error loading $module"
	say "$load"
	i=0
	while [ $i -lt "$repeat" ]; do
		for n in 1 10 100 1000 10000; do
			echo $n > $flip && say "flip $(cat $flip)"
		done
		say "$(bench pipe "$rounds")"
		say "$(bench getppid $((rounds * 10)))"
		say "$(bench pipe-self "$rounds")"
		say "$(bench yield "$rounds")"
		i=$((i + 1))
	done
	;;
profile)
	case $(arg bench_profile) in
	pipe) say "$(bench pipe "$rounds")" ;;
	load) say "$(bench load $module)" ;;
	idle) say "$(bench getppid 0)" ;;
	*) say "error: unknown harness.bench_profile '$(arg bench_profile)'" ;;
	esac
	;;
sync)
	insmod $module || say "error loading $module"
	. /lib/keys.sh
	sync_probes_on bench_sync || {
		say "error: cannot set the kprobes of harness.sync=$(arg sync)"
		say "bench done"
		exit 0
	}
	mm=
	if [ -n "$(arg mm)" ]; then
		mm_probes_on bench ||
			say "error: cannot set the kprobes of harness.mm=$(arg mm)"
		mm=y
	fi
	# The distro's flip of 10,000 sites records some 30,000 events on
	# one CPU, more than the default buffer holds: room for them, and
	# a flip whose events did not all fit is an error, not a count.
	echo 16384 > $tracing/buffer_size_kb
	sleep 1
	for n in 1 10 100 1000 10000; do
		# Events recorded, not kprobe_profile's hits: the filter
		# drops the calls for other functions from the trace only.
		echo > $tracing/trace
		lost=$(trace_overruns)
		echo $n > $flip
		# shellcheck disable=SC2046 # their counts
		set -- $(sync_counts bench_sync) $(mm_counts bench)
		lost=$(( $(trace_overruns) - lost ))
		if [ "$lost" -gt 0 ]; then
			say "error: the trace lost $lost events during the flip of $n sites: its counts are short"
			continue
		fi
		say "flip_sync sites=$n rounds=$1 cpu_syncs=$2${mm:+ mm_switches=$3 tlb_flushes=$4} $(cat $flip)"
	done
	;;
*)
	say "error: unknown harness.bench mode '$mode'"
	;;
esac
say "bench done"
