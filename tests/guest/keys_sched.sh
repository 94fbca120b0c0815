# The scheduler's keys: sched_feat_keys[], through
# /sys/kernel/debug/sched/features, one feature true by default and one
# false, each turned the other way and back; __cfs_bandwidth_used, taken
# by a CPU quota (cgroup v2 cpu.max) and checked by the group being
# throttled.  (paravirt_steal_enabled is not checked: no hypervisor under
# QEMU's TCG offers steal time, so nothing here could take the key.)
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
F=/sys/kernel/debug/sched/features
[ -w $F ] || skip_all "no $F (CONFIG_SCHED_DEBUG=n)"
plan 17

# The file lists the features in the order of sched_feat_keys[], a NO_
# in front of those that are false.  Pick the first true and the first
# false feature that have sites (any, where there is no jump table).
i=0
true_feature='' false_feature=''
has_sites && kcore-sites > $KEYS_TMP/all
for f in $(cat $F); do
	key=sched_feat_keys+0x$(printf %x $((i * 16)))
	i=$((i + 1))
	if has_sites && ! grep -q "^key $key " $KEYS_TMP/all; then
		continue
	fi
	case $f in
	NO_*) [ -n "$false_feature" ] || { false_feature=${f#NO_}; false_key=$key; } ;;
	*) [ -n "$true_feature" ] || { true_feature=$f; true_key=$key; } ;;
	esac
done
diag "features: $true_feature ($true_key) true, $false_feature ($false_key) false"

flip_check sched_feat_true "$true_key" \
	"echo NO_$true_feature > $F; grep -qw NO_$true_feature $F && echo off > $KEYS_TMP/feat_true" \
	"echo $true_feature > $F"
grep -qw "$true_feature" $F && [ "$(cat $KEYS_TMP/feat_true 2>/dev/null)" = off ]
result $? sched_feat_true_toggled "$F: $(cat $F | tr ' ' '\n' | grep -w "$true_feature")"

flip_check sched_feat_false "$false_key" \
	"echo $false_feature > $F; grep -qw $false_feature $F && echo on > $KEYS_TMP/feat_false" \
	"echo NO_$false_feature > $F"
grep -qw "NO_$false_feature" $F && [ "$(cat $KEYS_TMP/feat_false 2>/dev/null)" = on ]
result $? sched_feat_false_toggled "$F: $(cat $F | tr ' ' '\n' | grep -w "NO_$false_feature")"

# A group with 10 ms of CPU every 100 ms, and a busy loop in it for 1 s
# (in a subshell that is not exec()ed into its last command, so that the
# shell's "Terminated" goes to /dev/null, not into the KTAP).
if cgroup2_controller cpu; then
	G=$CGROUP2/static_keys_bw
	mkdir -p $G
	flip_check cfs_bandwidth __cfs_bandwidth_used+0x0 \
		"echo '10000 100000' > $G/cpu.max &&
		 (sh -c 'echo \$\$ > $G/cgroup.procs; exec timeout 1 sh -c \"while :; do :; done\"'; true) > /dev/null 2>&1;
		 cat $G/cpu.stat > $KEYS_TMP/cpu.stat" \
		"echo max > $G/cpu.max"
	# The busy loop's process may still be exiting: the group can be
	# removed once it is empty.
	try=0
	while ! rmdir $G 2> /dev/null && [ $try -lt 50 ]; do
		sleep 0.1
		try=$((try + 1))
	done
	[ -d $G ] && diag "$G still busy after 5 s"
	throttled=$(sed -n 's/^nr_throttled //p' $KEYS_TMP/cpu.stat)
	[ "${throttled:-0}" -gt 0 ]
	result $? cfs_bandwidth_throttled "nr_throttled ${throttled:-none} in 1 s with cpu.max 10000 100000"
else
	skip cfs_bandwidth_on "no cpu controller in cgroup v2"
	skip cfs_bandwidth_off "no cpu controller in cgroup v2"
	skip cfs_bandwidth_throttled "no cpu controller in cgroup v2"
fi

# The series' conversion: sched_child_runs_first, a key that follows the
# sysctl kernel.sched_child_runs_first and that every fork tests.  Who
# runs first after fork() is checked on every kernel: of 20 forks on one
# CPU, the child must run first in at least 15 with the sysctl at 1, and
# in at most 5 with it at 0.  Not all 20: the scheduler tick, or a kworker
# woken between the fork and the parent's write, can let the parent run
# first (17 of 20 measured on a JL=n kernel); a key that does not follow
# the sysctl gives the same count both times.
S=/proc/sys/kernel/sched_child_runs_first
if [ -e $S ]; then
	flip_setting sched_child_runs_first sched_child_runs_first+0x0 $S 1 0 \
		child_first key-trigger fork-order 20
	diag "child first in ${on:-none} of 20 forks at 1, ${off:-none} of 20 at 0"
	[ "${on:-0}" -ge 15 ]
	result $? child_runs_first_at_1 "child first in ${on:-none} of 20 forks with $S at 1"
	[ "${off:-20}" -le 5 ]
	result $? parent_runs_first_at_0 "child first in ${off:-none} of 20 forks with $S at 0"
else
	# The EEVDF scheduler (6.6) has no such setting.
	for c in sched_child_runs_first_on sched_child_runs_first_off \
		child_runs_first_at_1 parent_runs_first_at_0; do
		skip $c "no $S in this kernel"
	done
fi
# The 6.12 series' conversion: sched_autogroup_on, a key, true by
# default, that follows the sysctl kernel.sched_autogroup_enabled and
# that every fork and change of group tests.  Autogroup itself is checked
# on every kernel that has it: one busy task in a session of its own,
# four in another, on one CPU; with the sysctl at 1 each session is a
# group and the lone task gets about half the CPU, at 0 about a fifth.
A=/proc/sys/kernel/sched_autogroup_enabled
if [ -e $A ]; then
	flip_setting sched_autogroup sched_autogroup_on+0x0 $A 0 1 \
		alone_share_pct key-trigger session-share 1000
	diag "lone task's share: ${on:-none}% with $A at 0, ${off:-none}% at 1"
	[ "${on:-100}" -le 30 ]
	result $? autogroup_off_shares_by_task "lone task's share ${on:-none}% with $A at 0"
	[ "${off:-0}" -ge 35 ]
	result $? autogroup_on_shares_by_session "lone task's share ${off:-none}% with $A at 1"
else
	for c in sched_autogroup_on sched_autogroup_off \
		autogroup_off_shares_by_task autogroup_on_shares_by_session; do
		skip $c "no $A in this kernel (CONFIG_SCHED_AUTOGROUP)"
	done
fi
finish
