# Static keys across CPU hotplug (tests/kmod/static_keys_hotplug.c): with
# a writer flipping one key every millisecond, and a second key flipped
# by the module's CPU hotplug callbacks as CPU 1 goes and comes back,
# each CPU but the boot CPU is taken offline and brought back, three
# rounds.  After every offline and every online, every site of both keys
# must take its key's branch on every online CPU (the module runs them
# there), and the hotplug key must say whether CPU 1 is online.
# The detectors (lockdep in check-debug, might_sleep everywhere) watch
# the locks: the hotplug lock, the jump label mutex, text_mutex.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
CPUS=/sys/devices/system/cpu
[ -w $CPUS/cpu1/online ] || skip_all "no CPU hotplug here ($CPUS/cpu1/online)"
P=/sys/module/static_keys_hotplug/parameters/verify
plan 5
insmod /modules/static_keys_hotplug.ko
result $? load
ops=0 failed_ops='' bad='' wrong_key='' checks=0 hung=''
# within SECONDS COMMAND...: COMMAND in the background, its status if it
# ends within SECONDS, 124 if it does not (a hotplug that deadlocks
# leaves its writer stuck in the kernel, where no signal reaches it: the
# check reports that instead of waiting with it; nor does it hold the
# check's output open, which would keep the results waiting for it)
within() {
	w_limit=$1
	shift
	"$@" < /dev/null > /dev/null 2>&1 &
	w_pid=$!
	w_t=0
	while kill -0 $w_pid 2>/dev/null; do
		[ $w_t -lt $((w_limit * 10)) ] || return 124
		sleep 0.1
		w_t=$((w_t + 1))
	done
	wait $w_pid
}
# verify WHAT: the module's verdict after WHAT, kept when it is wrong
verify() {
	within 60 sh -c "cat $P > $KEYS_TMP/verify" || { hung="${hung:-reading the verdict after $1}"; return; }
	v=$(cat $KEYS_TMP/verify)
	checks=$((checks + 1))
	case $v in *" mismatches=0 "*) ;; *) bad="${bad:-$1: $v}" ;; esac
	case $v in
	*cpu1_key=Y\ cpu1_online=Y* | *cpu1_key=N\ cpu1_online=N*) ;;
	*) wrong_key="${wrong_key:-$1: $v}" ;;
	esac
}
verify "after loading"
for round in 1 2 3; do
	for f in $CPUS/cpu[1-9]*/online; do
		cpu=${f%/online}
		cpu=${cpu##*/}
		for state in 0 1; do
			ops=$((ops + 1))
			within 60 sh -c "echo $state > $f"
			case $? in
			0) ;;
			124) hung="${hung:-$cpu online=$state did not return in 60 s}" ;;
			*) failed_ops="$failed_ops $cpu=$state" ;;
			esac
			[ -z "$hung" ] || break 3
			verify "round $round, $cpu online=$state"
			# the writer gets some flips in between
			sleep 0.2
		done
	done
done
[ "$ops" -gt 0 ] && [ -z "$failed_ops" ] && [ -z "$hung" ]
result $? cpus_offline_and_back "$ops writes to cpuN/online; failed:${failed_ops:- none}${hung:+; hung: $hung}"
[ -z "$hung" ] || { diag "a hotplug or a verdict hung: the module cannot be unloaded"; exit 1; }
[ -z "$bad" ]
result $? sites_follow_on_every_cpu "$bad"
[ -z "$wrong_key" ]
result $? key_flipped_by_hotplug_callbacks "$wrong_key"
flips=$(cat $P | sed -n 's/.* flips=\([0-9]*\).*/\1/p')
diag "figure: cpu hotplug: $ops offlines and onlines, $checks checks of every site on every CPU, ${flips:-?} flips by the writer meanwhile"
rmmod static_keys_hotplug
result $? unload
finish
