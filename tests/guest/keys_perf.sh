# perf's keys, taken through perf_event_open(): a software event counting
# context switches (PERF_COUNT_SW_CONTEXT_SWITCHES, 3) takes
# perf_swevent_enabled[3]; any event on a task takes perf_sched_events,
# which turns on the context-switch hooks, and drops it from delayed work.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
plan 9

# perf_sched_events first: it must start from 0, and every event on a
# task takes it (the swevent check's too), dropping it only from delayed
# work.  struct static_key is 16 bytes: element 3 is at +0x30.
flip_check perf_sched_events perf_sched_events+0x0 \
	'start_trigger $KEYS_TMP/sched.out perf-sw 3' \
	stop_trigger
counted=$(sed -n 's/^counted=//p' $KEYS_TMP/sched.out)
[ "${counted:-0}" -gt 0 ]
result $? perf_sched_events_counted "context switches counted: ${counted:-none}"

flip_check perf_swevent perf_swevent_enabled+0x30 \
	'start_trigger $KEYS_TMP/swevent.out perf-sw 3' \
	stop_trigger
counted=$(sed -n 's/^counted=//p' $KEYS_TMP/swevent.out)
[ "${counted:-0}" -gt 0 ]
result $? perf_swevent_counted "context switches counted: ${counted:-none}"

# The series' conversion: perf_mmap_events, a deferred key in place of
# the counter nr_mmap_events, taken by an event that asks for
# PERF_RECORD_MMAP; every mmap() tests it.  The records are checked on
# every kernel.
flip_check perf_mmap_events perf_mmap_events+0x0 \
	'start_trigger $KEYS_TMP/mmap.out perf-mmap 3' \
	stop_trigger
records=$(sed -n 's/^mmap_records=//p' $KEYS_TMP/mmap.out)
diag "PERF_RECORD_MMAP records for 3 mmaps: ${records:-none}"
[ "${records:-0}" -ge 3 ]
result $? perf_mmap_records "PERF_RECORD_MMAP records for 3 mmaps: ${records:-none}"
finish
