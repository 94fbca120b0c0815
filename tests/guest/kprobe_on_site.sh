# Kprobes and static branch sites.  A kprobe asked for, through tracefs'
# kprobe_events, at every site of the sched_switch tracepoint's key must
# be refused: the kernel rewrites those bytes.  One on the instruction
# just after a site is allowed, and with it armed the key must still flip
# with every site right (flip_check reads the bytes back); so it must
# once the probes are gone.  A kprobe that starts in the 4 bytes before a
# site must not be optimized into a JMP that covers the site.  A kprobe on
# a module's function must be accepted: checking it against the core
# kernel's sites must not read those in init memory, which is freed (and,
# with PTI, unmapped).
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
T=/sys/kernel/tracing
key=__tracepoint_sched_switch+0x8
[ -w $T/kprobe_events ] || skip_all "no $T/kprobe_events"
has_sites || skip_all "no sites (CONFIG_JUMP_LABEL=n)"
plan 9
kcore-sites $key > $KEYS_TMP/kprobe.sites 2>&1
sites=$(awk '$1 == "site" && $4 != "freed" { print $2 }' $KEYS_TMP/kprobe.sites)
tried=0 refused=0
for site in $sites; do
	tried=$((tried + 1))
	if echo "p:kp_site_$tried $site" >> $T/kprobe_events 2>/dev/null; then
		diag "a kprobe on the site $site was accepted"
		echo "-:kp_site_$tried" >> $T/kprobe_events
	else
		refused=$((refused + 1))
	fi
done
[ "$tried" -gt 0 ] && [ "$refused" = "$tried" ]
result $? kprobes_on_sites_refused "$refused of $tried kprobes on sites of $key refused"

# A function of a module (a text symbol of test_static_key_base): the
# lowest-addressed, not the last of its text.  6.12's kallsyms sizes a
# module's last function to the end of its page, and x86's can_optimize()
# decodes every instruction of that size, reading the padding up to the
# unmapped page after the module's text: a fault that is 6.12's, not the
# static keys', and hits or not as the padding falls.
if insmod /modules/test_static_key_base.ko 2>/dev/null; then
	# (not an arm64 mapping symbol, "$x")
	func=$(awk '$2 ~ /^[tT]$/ && $3 !~ /^\$/ && $4 == "[test_static_key_base]" { print $1, $3 }' /proc/kallsyms |
		sort | awk '{ print $2; exit }')
	if [ -n "$func" ] && echo "p:kp_module $func" >> $T/kprobe_events 2>/dev/null; then
		echo "-:kp_module" >> $T/kprobe_events
		result 0 kprobe_on_module_function_accepted "p:kp_module $func"
	else
		result 1 kprobe_on_module_function_accepted "a kprobe on ${func:-a function of test_static_key_base} was refused"
	fi
	rmmod test_static_key_base
else
	result 1 kprobe_on_module_function_accepted "insmod test_static_key_base.ko failed"
fi

# The instruction after the first site: symbol+offset plus the site's size.
# shellcheck disable=SC2046 # one word per site
set -- $(awk '$1 == "site" && $4 != "freed" {
		sub(/\+/, " ", $2); print $2, $4; exit }' $KEYS_TMP/kprobe.sites)
next=
if [ $# = 3 ]; then
	case $3 in nop2 | jmp8) size=2 ;; nop | b) size=4 ;; *) size=5 ;; esac
	next=$(printf '%s+0x%x' "$1" $(($2 + size)))
fi
# An enabled event records task names through a probe on sched_switch,
# which would hold the key on: not while this check flips it.
record_cmd=$(cat $T/options/record-cmd 2>/dev/null)
echo 0 > $T/options/record-cmd 2>/dev/null
next_probe=no
if [ -n "$next" ] && echo "p:kp_next $next" >> $T/kprobe_events 2>/dev/null &&
	echo 1 > $T/events/kprobes/kp_next/enable; then
	next_probe=yes
	result 0 kprobe_after_site_accepted
else
	# Refusing the instruction after a site reserves more than the site:
	# exactly the bug a text-reservation check can have.
	result 1 kprobe_after_site_accepted "the kernel refused a kprobe at ${next:-the instruction after the site} too"
fi
# Optprobes: a little after an enabled kprobe is armed, the kernel swaps
# its int3 for a 5-byte JMP to a detour buffer that runs the instructions
# the JMP covers.  A probe that starts in the 4 bytes before a site would
# cover that site, and the next flip would write into the JMP: such a
# probe must stay an int3 (jump_label_text_reserved() over the whole
# range, not only its first byte).  A kprobe is accepted only on an
# instruction boundary, so site-1 .. site-4 of the kernel's sites are
# tried, in the jump table's order, and the first 128 accepted armed:
# enough to catch a reservation that looks at the first byte only (the
# commit that added this case saw it let a good share of them be
# optimized), where arming every one would slow the boot for no more.
# Probes on the second instruction of a few functions show that this
# kernel does optimize probes, so that the count of optimized probes
# before sites could be other than 0.
optprobes=no
[ -f /proc/sys/debug/kprobes-optimization ] && optprobes=yes
# Probes are matched with the list of optimized ones by address, not by
# name: a symbol may have aliases, and kallsyms need not name the probe
# as it was asked for.  ADDRS: "symbol+0xoffset" a line, to addresses.
# (The offset goes on the low 32 bits, printed 16 bits at a time: shells'
# and busybox awk's arithmetic do not hold a kernel address, and no
# function crosses a 4 GiB boundary.)
to_addresses() {
	awk 'function hex(s,  i, n) { n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n }
	     NR == FNR { if (!($3 in a)) a[$3] = $1; next }
	     { split($0, p, "+"); if (p[1] in a)
		{ v = hex(substr(a[p[1]], 9, 8)) + hex(p[2])
		  printf "%s%04x%04x\n", substr(a[p[1]], 1, 8), int(v / 65536), v % 65536 } }' /proc/kallsyms -
}
if [ $optprobes = yes ]; then
	kcore-sites | awk '$1 == "site" && $4 != "freed" { print $2 }' > $KEYS_TMP/all.sites
	before=0
	: > $KEYS_TMP/before.addrs
	while read -r site; do
		sym=${site%+*} off=$((${site#*+}))
		back=1
		[ $before -lt 128 ] || break
		while [ $back -le 4 ] && [ $back -le $off ] && [ $before -lt 128 ]; do
			addr=$(printf '%s+0x%x' "$sym" $((off - back)))
			if echo "p:kp_before_$before $addr" >> $T/kprobe_events 2>/dev/null; then
				echo "$addr" >> $KEYS_TMP/before.addrs
				before=$((before + 1))
			fi
			back=$((back + 1))
		done
	done < $KEYS_TMP/all.sites
	# The second instruction of each: the first may be ftrace's.
	entries=0
	: > $KEYS_TMP/entry.addrs
	for fn in vfs_read vfs_write ksys_read do_sys_openat2 kfree_skb_reason; do
		off=1
		while [ $off -le 15 ]; do
			addr=$(printf '%s+0x%x' $fn $off)
			if echo "p:kp_entry_$entries $addr" >> $T/kprobe_events 2>/dev/null; then
				echo "$addr" >> $KEYS_TMP/entry.addrs
				entries=$((entries + 1))
				break
			fi
			off=$((off + 1))
		done
	done
	for probe in $T/events/kprobes/kp_before_* $T/events/kprobes/kp_entry_*; do
		[ -d "$probe" ] && echo 1 > "$probe/enable"
	done
	# The optimizer runs 5 jiffies after the last arming, then waits for
	# every CPU to leave the probed instructions: give it a few seconds.
	tries=0
	while [ $tries -lt 10 ]; do
		sleep 1
		grep -q 'OPTIMIZED' /sys/kernel/debug/kprobes/list && break
		tries=$((tries + 1))
	done
	# Lines: address, type, symbol+offset, flags.
	awk '/\[OPTIMIZED\]/ { print $1 }' /sys/kernel/debug/kprobes/list > $KEYS_TMP/optimized
	to_addresses < $KEYS_TMP/entry.addrs > $KEYS_TMP/entry.hex
	to_addresses < $KEYS_TMP/before.addrs > $KEYS_TMP/before.hex
	entries_optimized=$(grep -cFxf $KEYS_TMP/entry.hex $KEYS_TMP/optimized)
	[ "$entries_optimized" -gt 0 ]
	result $? optprobes_optimize_function_entries \
		"$entries_optimized of $entries kprobes near function entries optimized"
	grep -Fxf $KEYS_TMP/before.hex $KEYS_TMP/optimized > $KEYS_TMP/before.optimized
	while read -r addr; do
		diag "the kprobe at $addr, 1-4 bytes before a site, was optimized: its JMP covers the site"
	done < $KEYS_TMP/before.optimized
	spanning=$(wc -l < $KEYS_TMP/before.optimized)
	[ $before -gt 0 ] && [ $spanning = 0 ]
	result $? optprobes_spanning_sites_not_optimized \
		"$spanning of $before kprobes 1-4 bytes before a site optimized"
else
	skip optprobes_optimize_function_entries "no optprobes (CONFIG_OPTPROBES=n)"
	skip optprobes_spanning_sites_not_optimized "no optprobes (CONFIG_OPTPROBES=n)"
fi
flip_check kprobe_armed_key $key \
	"echo 1 > $T/events/sched/sched_switch/enable" \
	"echo 0 > $T/events/sched/sched_switch/enable"
for probe in $T/events/kprobes/*; do
	[ -f "$probe/enable" ] && echo 0 > "$probe/enable"
done
sed -n 's/^p:kprobes\/\(kp_[a-z_0-9]*\) .*/-:\1/p' $T/kprobe_events > $KEYS_TMP/kprobe.remove
cat $KEYS_TMP/kprobe.remove >> $T/kprobe_events
flip_check kprobe_removed_key $key \
	"echo 1 > $T/events/sched/sched_switch/enable" \
	"echo 0 > $T/events/sched/sched_switch/enable"
[ -n "$record_cmd" ] && echo "$record_cmd" > $T/options/record-cmd
optprobe_figure="no optprobes"
[ $optprobes = yes ] &&
	optprobe_figure="$spanning of $before kprobes 1-4 bytes before a site optimized, $entries_optimized of $entries near function entries"
diag "figure: kprobes: $refused of $tried kprobes on static branch sites refused, one next to a site armed: $next_probe; optprobes: $optprobe_figure"
finish
