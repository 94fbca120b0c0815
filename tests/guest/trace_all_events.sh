# After the other checks: every tracepoint event enabled at once, then
# disabled, which flips the key of every tracepoint the kernel was built
# with, whose sites lie wherever a trace_*() call was compiled, init and
# built-in __exit text included; every site must follow its key, read
# back through /proc/kcore.  Then a kprobe on every function of the core
# kernel that holds a site and on every function of a module with sites
# (test_static_keys), armed and removed: checking each against the sites
# must neither fault nor refuse a function for a site it does not cover.
# Oopses and warnings fail the boot (report.py).
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
T=$TRACING
[ -w $T/events/enable ] || skip_all "no $T/events/enable"
plan 5
# every_site_follows on|off: every site of every key, read through
# /proc/kcore, follows its key, with every event on or off.
every_site_follows() {
	if has_sites; then
		if ! kcore-sites > $KEYS_TMP/all_$1 2> $KEYS_TMP/all_$1.err; then
			result 1 sites_follow_every_event_$1 "kcore-sites failed: $(head -3 $KEYS_TMP/all_$1.err)"
		elif ! grep -q '^  *site ' $KEYS_TMP/all_$1; then
			result 1 sites_follow_every_event_$1 "kcore-sites read no site"
		else
			sites_follow $KEYS_TMP/all_$1 > $KEYS_TMP/all_$1.bad
			result $? sites_follow_every_event_$1 "$(head -3 $KEYS_TMP/all_$1.bad)"
		fi
	else
		skip sites_follow_every_event_$1 "no sites (CONFIG_JUMP_LABEL=n)"
	fi
}

events=$(ls -d $T/events/*/*/ 2>/dev/null | wc -l)
echo 0 > $T/tracing_on
echo 1 > $T/events/enable
# shellcheck disable=SC2320 # the write's own status
result $? every_event_enabled "$events events"
every_site_follows on
echo 0 > $T/events/enable
echo 1 > $T/tracing_on
: > $T/trace
every_site_follows off

# The functions: those of the core kernel that hold a site, and the text
# symbols of test_static_keys.ko, which has sites of its own and of
# test_static_key_base.ko's keys.
insmod /modules/test_static_key_base.ko && insmod /modules/test_static_keys.ko
if has_sites; then
	kcore-sites | awk '$1 == "site" { sub(/\+.*/, "", $2); print $2 }' | sort -u > $KEYS_TMP/funcs
fi
awk '$2 ~ /^[tT]$/ && $3 !~ /^\$/ && $4 == "[test_static_keys]" { print $3 }' /proc/kallsyms >> $KEYS_TMP/funcs
tried=0 armed=0
while read -r f; do
	tried=$((tried + 1))
	echo "p:ka_$tried $f" >> $T/kprobe_events 2>/dev/null && armed=$((armed + 1))
done < $KEYS_TMP/funcs
# Each event enabled by a write of its own: enabling the whole kprobes
# system in one write arms every kprobe in one system call, and with the
# function tracer built in, each arming walks all of ftrace's records
# (__ftrace_hash_rec_update()), which kept a CPU of the debug variant's
# guest past the soft-lockup detector's 22 s.
# A write that fails is counted (enable_failed) and named, and fails the
# check: an event that never armed proves nothing of its function.
enable_failed=0
kprobe_events_enable() {
	for e in $T/events/kprobes/ka_*/enable; do
		[ -e "$e" ] || continue
		if ! echo "$1" > "$e"; then
			enable_failed=$((enable_failed + 1))
			diag "writing $1 to $e failed"
		fi
	done
}
kprobe_events_enable 1
sleep 1
kprobe_events_enable 0
sed -n 's/^p:kprobes\/\(ka_[0-9]*\) .*/-:\1/p' $T/kprobe_events > $KEYS_TMP/ka.remove
cat $KEYS_TMP/ka.remove >> $T/kprobe_events
# A function that holds a site starts with other instructions, where a
# kprobe goes; only notrace and blacklisted functions may refuse it.
[ "$tried" -gt 0 ] && [ "$armed" -gt $((tried / 2)) ] && [ "$enable_failed" = 0 ]
result $? kprobes_on_functions_with_sites "$armed of $tried functions took a kprobe, $enable_failed enable or disable writes failed"
rmmod test_static_keys && rmmod test_static_key_base
result $? unload
diag "figure: all events: $events trace events enabled and disabled; kprobes armed on $armed of $tried functions holding sites"
finish
