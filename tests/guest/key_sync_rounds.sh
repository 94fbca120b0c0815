# The CPU synchronisation rounds of flipping a key whose sites are in
# several modules (tests/kmod/static_keys_sync*.c), counted by kprobe
# events (keys.sh: sync_probes_on).  A flip of the key while its sites are
# in its own module only gives the rounds of one batch.  With 160 sites in
# each of two more modules, loaded after it, which the core walks in the
# order opposite to their addresses, 321 sites in all (more than a page of
# text_poke_queue() entries, 256 on x86-64), a flip must take no more
# rounds, each way, and every site must follow (each one run); and
# neither must loading a module while the key is on, which writes its 160
# sites, beyond what a load that writes none takes.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
[ -w $TRACING/kprobe_events ] || skip_all "no $TRACING/kprobe_events"
has_sites || skip_all "no sites (CONFIG_JUMP_LABEL=n)"
plan 5
P=/sys/module/static_keys_sync/parameters/enabled
user=/sys/module/static_keys_sync_user

# rounds COMMAND: the rounds while COMMAND runs.
rounds() {
	echo > $TRACING/trace
	eval "$1" || diag "failed: $1"
	# shellcheck disable=SC2046 # its two counts
	set -- $(sync_counts ksr)
	echo "$1"
}

insmod /modules/static_keys_sync.ko &&
	sync_probes_on ksr
result $? load_and_probe "static_keys_sync.ko and the kprobes of harness.sync=$(sed -n 's/.*harness\.sync=\([^ ]*\).*/\1/p' /proc/cmdline)"
one_on=$(rounds "echo Y > $P")
one_off=$(rounds "echo N > $P")
[ "$one_on" -gt 0 ] && [ "$one_off" -gt 0 ]
result $? one_module_rounds "a flip with the sites in one module: $one_on rounds on, $one_off off"

insmod /modules/static_keys_sync_user_a.ko && insmod /modules/static_keys_sync_user_b.ko
several_on=$(rounds "echo Y > $P")
taken=$(cat ${user}_a/parameters/sites ${user}_b/parameters/sites 2>/dev/null | tr '\n' ' ')
several_off=$(rounds "echo N > $P")
[ "$several_on" = "$one_on" ] && [ "$several_off" = "$one_off" ] && [ "$taken" = "160 160 " ]
result $? several_modules_one_batch "sites in three modules: $several_on rounds on, $several_off off (one module: $one_on, $one_off); sites taken while on: ${taken:-none}"

# A load that writes no site (the key off) gives what loading costs here
# besides (arm64 syncs every CPU for the module's new text); writing its
# 160 sites (the key on) may add one batch to that, no more.
rmmod static_keys_sync_user_b
quiet=$(rounds "insmod /modules/static_keys_sync_user_b.ko")
rmmod static_keys_sync_user_b
echo Y > $P
load=$(rounds "insmod /modules/static_keys_sync_user_b.ko")
taken=$(cat ${user}_b/parameters/sites 2>/dev/null)
[ "$load" -le $((quiet + one_on)) ] && [ "$taken" = 160 ]
result $? module_load_one_batch "a load writing 160 sites: $load rounds, one writing none $quiet (a flip: $one_on); sites taken: ${taken:-none}"

echo N > $P
sync_probes_off ksr
diag "figure: sync rounds per flip (on/off): key in one module $one_on/$one_off, in three $several_on/$several_off; a load writing 160 sites $load (none: $quiet)"
rmmod static_keys_sync_user_b && rmmod static_keys_sync_user_a && rmmod static_keys_sync
result $? unload
finish
