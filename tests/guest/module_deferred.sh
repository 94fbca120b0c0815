# tests/kmod/static_keys_deferred.ko: a deferred key whose last decrement
# is pending (2 s rate limit) when the module is unloaded.  While loaded
# the key must stay true; the unload's static_key_deferred_flush() must
# drop the reference at once; and once the rate limit is up, nothing may
# run in the freed module: no oops or warning in the log after the
# unload (the boot's own log check fails the run on one too).
. "${CHECKS_LIB:-/lib/checks.sh}"
site=/sys/module/static_keys_deferred/parameters/site
plan 5
insmod /modules/static_keys_deferred.ko
result $? load
case $(cat $site 2>/dev/null) in
Y) result 0 true_while_decrement_pending ;;
N) skip true_while_decrement_pending "this kernel drops a deferred key's last reference at once (no rate limit)" ;;
*) result 1 true_while_decrement_pending "no $site" ;;
esac
before=$(log_mark)
rmmod static_keys_deferred
result $? unload_with_work_pending
line=$(log_since $before | grep 'static_keys_deferred: after the flush at unload' | tail -1)
case $line in
*"count 0, site false") result 0 flush_drops_the_reference ;;
*) result 1 flush_drops_the_reference "${line:-no line from the exit of the module}" ;;
esac
# The rate limit runs out in freed memory if the work was left queued.
sleep 3
after=$(log_since $before | grep -E 'BUG:|Oops|general protection|WARNING: CPU' | head -1)
[ -z "$after" ]
result $? nothing_runs_after_unload "$after"
finish
