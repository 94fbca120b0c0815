# Tracepoints' keys (struct tracepoint's key, after its name pointer, at
# +0x8), taken by enabling the trace event in tracefs: sched_switch, and
# raw_syscalls/sys_enter on the system call path.  While enabled, the
# trace buffer must show the events.  The buffer is read with recording
# off (tracing_on 0, the event still enabled): the reads' own system calls
# would otherwise feed sys_enter faster than grep gets to the end.
#
# sched_switch's key has a site in built-in __exit text
# (patches/check/: static_keys_exit_site()), which x86 and arm64 free with
# init memory: its flips must leave that site alone.
#
# initcall_start's key has one site in init text, freed after boot, and
# one in do_one_initcall(), which runs a module's init: loading a module
# while the event is on must trace it, and the flips must have written
# the live site and left the freed one alone (text_poke() of freed init
# text faults, and an oops fails the boot's log check).
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
T=/sys/kernel/tracing
[ -d $T/events ] || skip_all "no trace events in $T"
plan 11

# tracepoint_check NAME EVENT [WHILE_ON]: the flip and the events seen;
# WHILE_ON makes the events (default: sleep 0.2).
tracepoint_check() {
	: > $T/trace
	flip_check "tracepoint_$1" "__tracepoint_$1+0x8" \
		"echo 1 > $T/events/$2/enable && ${3:-sleep 0.2} &&
		 echo 0 > $T/tracing_on &&
		 grep -c ' $1:' $T/trace > $KEYS_TMP/$1.lines;
		 echo 1 > $T/tracing_on" \
		"echo 0 > $T/events/$2/enable"
	lines=$(cat $KEYS_TMP/$1.lines 2>/dev/null)
	[ "${lines:-0}" -gt 0 ]
	result $? "tracepoint_$1_traced" "$1 lines in the trace buffer: ${lines:-none}"
}

if has_sites; then
	exit_site=$(kcore-sites __tracepoint_sched_switch+0x8 2>/dev/null |
		awk '$1 == "site" && $2 ~ /^static_keys_exit_site\+/ {print $4}')
	[ "$exit_site" = freed ]
	result $? tracepoint_sched_switch_has_exit_site "sched_switch's site in static_keys_exit_site(): ${exit_site:-none}"
else
	skip tracepoint_sched_switch_has_exit_site "no sites (CONFIG_JUMP_LABEL=n)"
fi
tracepoint_check sched_switch sched/sched_switch
tracepoint_check sys_enter raw_syscalls/sys_enter
if has_sites; then
	freed=$(kcore-sites __tracepoint_initcall_start+0x8 2>/dev/null |
		awk '$1 == "site" && $4 == "freed"' | wc -l)
	[ "$freed" -gt 0 ]
	result $? tracepoint_initcall_start_has_init_site "sites of initcall_start's key in freed init text: $freed"
else
	skip tracepoint_initcall_start_has_init_site "no sites (CONFIG_JUMP_LABEL=n)"
fi
tracepoint_check initcall_start initcall/initcall_start \
	"insmod /modules/test_static_key_base.ko && rmmod test_static_key_base"
finish
