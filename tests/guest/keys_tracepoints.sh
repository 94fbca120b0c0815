# Tracepoints' keys (struct tracepoint's key, after its name pointer, at
# +0x8), taken by enabling the trace event in tracefs: sched_switch, and
# raw_syscalls/sys_enter on the system call path.  While enabled, the
# trace buffer must show the events.  The buffer is read with recording
# off (tracing_on 0, the event still enabled): the reads' own system calls
# would otherwise feed sys_enter faster than grep gets to the end.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
T=/sys/kernel/tracing
[ -d $T/events ] || skip_all "no trace events in $T"
plan 6

# tracepoint_check NAME EVENT: the flip and the events seen.
tracepoint_check() {
	: > $T/trace
	flip_check "tracepoint_$1" "__tracepoint_$1+0x8" \
		"echo 1 > $T/events/$2/enable && sleep 0.2 &&
		 echo 0 > $T/tracing_on &&
		 grep -c ' $1:' $T/trace > $KEYS_TMP/$1.lines;
		 echo 1 > $T/tracing_on" \
		"echo 0 > $T/events/$2/enable"
	lines=$(cat $KEYS_TMP/$1.lines 2>/dev/null)
	[ "${lines:-0}" -gt 0 ]
	result $? "tracepoint_$1_traced" "$1 lines in the trace buffer: ${lines:-none}"
}

tracepoint_check sched_switch sched/sched_switch
tracepoint_check sys_enter raw_syscalls/sys_enter
finish
