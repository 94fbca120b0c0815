# Module churn: static_keys_churn.ko (sites on a core-kernel key, on a
# key of test_static_key_base.ko, and on its own key, which its init
# flips and checks) is loaded and unloaded CYCLES times while a shell loop
# flips the core key (the skb/kfree_skb trace event on and off), at least
# once a cycle.  Every load and unload must succeed (the module's init
# flips its own key and test_static_key_base's, and refuses to load unless
# its sites follow); after the flipping stops, a last load
# with the core key on must see it on and the base module's key on, then
# see the core key go off, and the core key's sites must follow it.  Oopses and warnings fail the boot (report.py).
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
T=/sys/kernel/tracing
event=$T/events/skb/kfree_skb/enable
cycles=${CHURN_CYCLES:-30}
[ -w $event ] || skip_all "no $event"
plan 6
insmod /modules/test_static_key_base.ko
result $? load_base_module

stop=$KEYS_TMP/churn.stop
rm -f $stop
(
	flips=0
	while [ ! -e $stop ]; do
		echo 1 > $event && echo 0 > $event && flips=$((flips + 1))
	done
	echo $flips > $KEYS_TMP/churn.flips
) &
flipper=$!
loaded=0 failed=
i=0
while [ $i -lt "$cycles" ]; do
	i=$((i + 1))
	if insmod /modules/static_keys_churn.ko && rmmod static_keys_churn; then
		loaded=$((loaded + 1))
	else
		failed="cycle $i"
		break
	fi
done
touch $stop
wait $flipper
flips=$(cat $KEYS_TMP/churn.flips 2>/dev/null)
[ "$loaded" = "$cycles" ] && [ "${flips:-0}" -ge "$cycles" ]
result $? churn_cycles "$loaded of $cycles load/unload cycles${failed:+, failed at $failed}, while the core key flipped ${flips:-0} times (want at least one flip a cycle)"

# A last load while the core key is on: the module's site on it must be
# written to the true branch as the module comes up (its compiled-in
# state is the false one), and follow the key when it goes off.
echo 1 > $event
insmod /modules/static_keys_churn.ko
result $? load_after_churn
p=/sys/module/static_keys_churn/parameters
on=$(cat $p/core_site 2>/dev/null)/$(cat $p/base_site 2>/dev/null)
echo 0 > $event
off=$(cat $p/core_site 2>/dev/null)
[ "$on" = Y/Y ] && [ "$off" = N ]
result $? sites_read_their_keys "core_site/base_site read $on with the core key on (want Y/Y); core_site read $off with it off (want N)"
rmmod static_keys_churn
rmmod test_static_key_base
result $? unload_base_module
if has_sites; then
	settle __tracepoint_kfree_skb+0x8 $KEYS_TMP/churn.key consistent -
	result $? core_key_sites_follow "$(sites_follow $KEYS_TMP/churn.key)"
else
	skip core_key_sites_follow "no sites (CONFIG_JUMP_LABEL=n)"
fi
diag "figure: module churn: $loaded load/unload cycles while the core key flipped ${flips:-0} times"
finish
