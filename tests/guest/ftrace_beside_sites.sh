# ftrace and static keys in the same text.  With the function tracer on
# for every traceable function, ftrace has rewritten each function's
# entry (x86: the 5-byte NOP at -mfentry's call) through
# text_poke_queue(), in batches of thousands of entries, the path the
# series reworks; static branch sites sit in many of the same functions.
# Each entry is read back through /proc/kcore, a CALL with the tracer on
# and a NOP once it is off.
# A key must then flip with its sites right (flip_check, the kfree_skb
# trace event), the functions around its sites must show in the trace
# (kfree_skb_reason(), which drops UDP datagrams to a port nobody
# listens on; since 6.11 an inline wrapper of sk_skb_reason_drop()), and
# once the tracer is off the key must flip right again.
# Only the debug variant (make check-debug) has the function tracer.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
T=/sys/kernel/tracing
grep -qw function $T/available_tracers 2> /dev/null ||
	skip_all "no function tracer (make check-debug's variant has one)"
ip link set lo up
plan 9
# Recording stays off but while the datagrams go: every call of every
# function is slow enough under emulation with only its callback to run.
echo function > $T/current_tracer && echo 0 > $T/tracing_on
# shellcheck disable=SC2320 # the write's own status
result $? tracer_on
# What ftrace says it patched, read back from the text: every enabled
# function's entry must be a CALL now, and a NOP again once the tracer is
# off (names several symbols share, or of modules, are not read).
entries_read() {
	kcore-sites --entries < $KEYS_TMP/ftrace.enabled > $KEYS_TMP/ftrace.entries
	read_as=$(awk -v want="$1" '$3 == want' $KEYS_TMP/ftrace.entries | wc -l)
	awk -v want="$1" '$3 != want && $3 != "ambiguous" && $3 != "missing"' \
		$KEYS_TMP/ftrace.entries > $KEYS_TMP/ftrace.other
	read_other=$(wc -l < $KEYS_TMP/ftrace.other)
	head -5 $KEYS_TMP/ftrace.other | while read -r line; do
		diag "$line (want $1)"
	done
}
awk '{ print $1 }' $T/enabled_functions > $KEYS_TMP/ftrace.enabled
patched=$(wc -l < $KEYS_TMP/ftrace.enabled)
entries_read call
[ "$patched" -gt 1000 ] && [ "$read_as" -gt 1000 ] && [ "$read_other" = 0 ]
result $? entries_patched "$patched function entries enabled, $read_as read as a CALL, $read_other as something else (want over 1000, and 0)"
calls=$read_as
: > $T/trace
flip_check ftrace_kfree_skb __tracepoint_kfree_skb+0x8 \
	"echo 1 > $T/events/skb/kfree_skb/enable && echo 1 > $T/tracing_on &&
	 key-trigger udp-to 127.0.0.1 5 > /dev/null; echo 0 > $T/tracing_on" \
	"echo 0 > $T/events/skb/kfree_skb/enable"
traced=$(grep -cE ' (kfree_skb_reason|sk_skb_reason_drop) <-' $T/trace)
[ "${traced:-0}" -gt 0 ]
result $? functions_traced "kfree_skb_reason() or sk_skb_reason_drop() entries in the trace: ${traced:-0}"
echo nop > $T/current_tracer && echo 1 > $T/tracing_on
# shellcheck disable=SC2320 # the write's own status
result $? tracer_off
entries_read nop5
[ "$read_as" = "$calls" ] && [ "$read_other" = 0 ]
result $? entries_restored "$read_as of the $calls entries read as a NOP again, $read_other as something else"
flip_check ftrace_off_kfree_skb __tracepoint_kfree_skb+0x8 \
	"echo 1 > $T/events/skb/kfree_skb/enable" \
	"echo 0 > $T/events/skb/kfree_skb/enable"
: > $T/trace
diag "figure: ftrace: $patched function entries enabled, $calls read back as CALLs, then ${read_as:-?} as NOPs, a key flipped with them in place and again after"
finish
