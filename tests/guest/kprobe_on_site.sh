# Kprobes and static branch sites.  A kprobe asked for, through tracefs'
# kprobe_events, at every site of the sched_switch tracepoint's key must
# be refused: the kernel rewrites those bytes.  One on the instruction
# just after a site is allowed, and with it armed the key must still flip
# with every site right (flip_check reads the bytes back); so it must
# once the probes are gone.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
T=/sys/kernel/tracing
key=__tracepoint_sched_switch+0x8
[ -w $T/kprobe_events ] || skip_all "no $T/kprobe_events"
has_sites || skip_all "no sites (CONFIG_JUMP_LABEL=n)"
plan 6
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

# The instruction after the first site: symbol+offset plus the site's size.
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
flip_check kprobe_armed_key $key \
	"echo 1 > $T/events/sched/sched_switch/enable" \
	"echo 0 > $T/events/sched/sched_switch/enable"
if [ $next_probe = yes ]; then
	echo 0 > $T/events/kprobes/kp_next/enable
	echo "-:kp_next" >> $T/kprobe_events
fi
flip_check kprobe_removed_key $key \
	"echo 1 > $T/events/sched/sched_switch/enable" \
	"echo 0 > $T/events/sched/sched_switch/enable"
[ -n "$record_cmd" ] && echo "$record_cmd" > $T/options/record-cmd
diag "figure: kprobes: $refused of $tried kprobes on static branch sites refused, one next to a site armed: $next_probe"
finish
