# ftrace and static keys in the same text.  With the function tracer on
# for every traceable function, ftrace has rewritten each function's
# entry (x86: the 5-byte NOP at -mfentry's call) through
# text_poke_queue(), in batches of thousands of entries, the path the
# series reworks; static branch sites sit in many of the same functions.
# A key must then flip with its sites right (flip_check, the kfree_skb
# trace event), the functions around its sites must show in the trace
# (kfree_skb_reason(), which drops UDP datagrams to a port nobody
# listens on), and once the tracer is off the key must flip right again.
# Only the debug variant (make check-debug) has the function tracer.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
T=/sys/kernel/tracing
grep -qw function $T/available_tracers 2> /dev/null ||
	skip_all "no function tracer (make check-debug's variant has one)"
ip link set lo up
plan 8
# Recording stays off but while the datagrams go: every call of every
# function is slow enough under emulation with only its callback to run.
echo function > $T/current_tracer && echo 0 > $T/tracing_on
result $? tracer_on
patched=$(wc -l < $T/enabled_functions)
[ "$patched" -gt 1000 ]
result $? entries_patched "$patched function entries patched (want over 1000)"
: > $T/trace
flip_check ftrace_kfree_skb __tracepoint_kfree_skb+0x8 \
	"echo 1 > $T/events/skb/kfree_skb/enable && echo 1 > $T/tracing_on &&
	 key-trigger udp-to 127.0.0.1 5 > /dev/null; echo 0 > $T/tracing_on" \
	"echo 0 > $T/events/skb/kfree_skb/enable"
traced=$(grep -c ' kfree_skb_reason <-' $T/trace)
[ "${traced:-0}" -gt 0 ]
result $? functions_traced "kfree_skb_reason() entries in the trace: ${traced:-0}"
echo nop > $T/current_tracer && echo 1 > $T/tracing_on
result $? tracer_off
flip_check ftrace_off_kfree_skb __tracepoint_kfree_skb+0x8 \
	"echo 1 > $T/events/skb/kfree_skb/enable" \
	"echo 0 > $T/events/skb/kfree_skb/enable"
: > $T/trace
diag "figure: ftrace: $patched function entries patched, a key flipped with them in place and again after"
finish
