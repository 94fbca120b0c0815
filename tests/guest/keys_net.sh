# Networking's keys, each through its own interface: netstamp_needed_key
# (SO_TIMESTAMP on a socket; both ways through deferred work), rps_needed
# (rps_cpus of lo's receive queue), xps_needed (xps_cpus of a transmit
# queue of tests/kmod/static_keys_mq_dev.ko's device), nf_hooks_needed[NFPROTO_IPV4][NF_INET_LOCAL_OUT] (a netfilter
# hook registered by tests/kmod/static_keys_nf_hook.ko) and
# memcg_sockets_enabled_key (a memory cgroup under cgroup v2); and the
# series' conversion net_busy_poll_on (the sysctl net.core.busy_poll).
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
plan 19
ip link set lo up

flip_check net_timestamp netstamp_needed_key+0x0 \
	'start_trigger $KEYS_TMP/timestamp.out timestamp' \
	stop_trigger
# Stamped when it arrived (the key on), not when it was read 100 ms later
# (what recvmsg() does for a datagram that has no stamp).
age=$(sed -n 's/^stamp_age_at_read_us=//p' $KEYS_TMP/timestamp.out)
after=$(sed -n 's/^stamp_after_send_us=//p' $KEYS_TMP/timestamp.out)
grep -qx timestamped=1 $KEYS_TMP/timestamp.out && [ "${age:-0}" -ge 50000 ] &&
	[ "${after:--1}" -ge 0 ]
result $? net_timestamp_stamped_on_arrival "$(tr '\n' ' ' < $KEYS_TMP/timestamp.out)(the stamp must be at or after the send and at least 50 ms before the read 100 ms later)"

# Packets sent from CPU 0 and steered to CPUs 1-3: each steered batch
# is an IPI that softnet_stat counts (its tenth column, received_rps).
rps_ipis() {
	n=0
	while read -r _ _ _ _ _ _ _ _ _ received_rps _; do
		n=$((n + 0x$received_rps))
	done < /proc/net/softnet_stat
	echo $n
}
Q=/sys/class/net/lo/queues
flip_check rps "rps_needed+0x0" \
	"echo e > $Q/rx-0/rps_cpus && ipis=\$(rps_ipis) &&
	 taskset 1 key-trigger udp 50 > $KEYS_TMP/rps.out &&
	 echo \$((\$(rps_ipis) - ipis)) > $KEYS_TMP/rps.ipis" \
	"echo 0 > $Q/rx-0/rps_cpus"
ipis=$(cat $KEYS_TMP/rps.ipis 2>/dev/null)
grep -qx received=50 $KEYS_TMP/rps.out && [ "${ipis:-0}" -gt 0 ]
result $? rps_steered "$(cat $KEYS_TMP/rps.out 2>/dev/null), RPS IPIs: ${ipis:-none}"

# XPS needs a multiqueue device: skmq0 (tests/kmod/static_keys_mq_dev.ko)
# has four transmit queues; CPU 0 mapped to queue 2 must send there.
D=/sys/class/net/skmq0/queues
M=/sys/module/static_keys_mq_dev/parameters/tx_packets
if insmod /modules/static_keys_mq_dev.ko && ip addr add 10.99.0.1/24 dev skmq0 &&
   ip link set skmq0 up; then
	flip_check xps "xps_needed+0x0" \
		"echo 1 > $D/tx-2/xps_cpus && before=\$(cat $M) &&
		 taskset 1 key-trigger udp-to 10.99.0.2 20 > /dev/null &&
		 echo \"\$before \$(cat $M)\" > $KEYS_TMP/xps.out" \
		"echo 0 > $D/tx-2/xps_cpus"
	rmmod static_keys_mq_dev
	grep -qx '0,0,0,0 0,0,20,0' $KEYS_TMP/xps.out
	result $? xps_steered "per-queue packets before and after 20 from CPU 0: $(cat $KEYS_TMP/xps.out 2>/dev/null)"
else
	result 1 xps_on "cannot set up skmq0"
	skip xps_off "no skmq0"
	skip xps_steered "no skmq0"
fi

# NF_INET_NUMHOOKS (5) hooks per family: [2][3] is element 13, +0xd0.
P=/sys/module/static_keys_nf_hook/parameters/packets
flip_check nf_hook nf_hooks_needed+0xd0 \
	"insmod /modules/static_keys_nf_hook.ko &&
	 key-trigger udp 10 > $KEYS_TMP/nf.out && cat $P > $KEYS_TMP/nf.packets" \
	"rmmod static_keys_nf_hook"
packets=$(cat $KEYS_TMP/nf.packets 2>/dev/null)
[ "${packets:-0}" -ge 10 ]
result $? nf_hook_reached "packets at the hook: ${packets:-none} for 10 datagrams"

# A memory group takes the key and gives it back when it goes.  Then what
# the key is for: a task of another group holds 256 KiB sent to itself
# over TCP and not read, which the key makes the group pay for: "sock" in
# its memory.stat (flushed every 2 s or so: read for up to 5 s).  That
# group may outlive its task for a while (what its task allocated keeps
# it), so its key is not checked on the way out.
memcg_sock_bytes() {
	sed -n 's/^sock //p' $1/memory.stat
}
memcg_sock_charged() {
	mkdir $1 && start_trigger $KEYS_TMP/tcp.out tcp-hold 262144 $1 || return 1
	try=0
	while [ "$(memcg_sock_bytes $1)" = 0 ] && [ $try -lt 50 ]; do
		sleep 0.1
		try=$((try + 1))
	done
	sock=$(memcg_sock_bytes $1)
	stop_trigger
	try=0
	while ! rmdir $1 2> /dev/null && [ $try -lt 50 ]; do
		sleep 0.1
		try=$((try + 1))
	done
}
if cgroup2_controller memory; then
	G=$CGROUP2/static_keys_mem
	flip_check memcg_sockets memcg_sockets_enabled_key+0x0 "mkdir $G" "rmdir $G"
	memcg_sock_charged ${G}_tcp
	[ "${sock:-0}" -gt 0 ]
	result $? memcg_sockets_accounted "sock ${sock:-none} bytes in memory.stat while a task of the group held $(sed -n 's/^sent=//p' $KEYS_TMP/tcp.out) bytes sent over TCP and not read"
else
	skip memcg_sockets_on "no memory controller in cgroup v2"
	skip memcg_sockets_off "no memory controller in cgroup v2"
	skip memcg_sockets_accounted "no memory controller in cgroup v2"
fi
# The series' conversion: net_busy_poll_on follows net.core.busy_poll,
# which poll() and select() test on every call.  Busy polling is checked
# on every kernel: a poll() of 200 ms on an idle socket with SO_BUSY_POLL,
# by a real-time task so that nothing cuts the busy loop short, spins for
# the sysctl's 100000 us and then sleeps, and with the sysctl at 0 sleeps
# at once.  CPU time is sampled by the tick, so the bounds keep a margin:
# at least 75 ms on the CPU for the spin (one spin was charged 99,706 us),
# at most 50 ms for the sleep (under TCG a sleeping poll() was once
# charged 22,669 us, usually some 300).
B=/proc/sys/net/core/busy_poll
flip_setting busy_poll net_busy_poll_on+0x0 $B 100000 0 poll_cpu_us \
	key-trigger busy-poll 100000
diag "poll() of 200 ms on CPU: ${on:-none} us at 100000, ${off:-none} us at 0"
[ "${on:-0}" -ge 75000 ]
result $? busy_poll_spins "poll() of 200 ms on CPU for ${on:-none} us with $B at 100000"
[ "${off:-200000}" -le 50000 ]
result $? idle_poll_sleeps "poll() of 200 ms on CPU for ${off:-none} us with $B at 0"
finish
