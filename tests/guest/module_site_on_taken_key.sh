# A module loaded while a core-kernel key it branches on is already
# enabled: tests/kmod/static_keys_holder.ko enables the key (a probe on the
# sched_update_nr_running_tp tracepoint), then static_keys_late.ko, whose
# site was compiled for the key's initial value, must read true at init
# (it refuses to load otherwise), and false once the holder is gone.
. "${CHECKS_LIB:-/lib/checks.sh}"
site=/sys/module/static_keys_late/parameters/site
plan 5
insmod /modules/static_keys_holder.ko
result $? load_holder
insmod /modules/static_keys_late.ko
result $? late_site_reads_taken_key
[ "$(cat $site 2>/dev/null)" = Y ]
result $? late_site_true_while_held
rmmod static_keys_holder
[ "$(cat $site 2>/dev/null)" = N ]
result $? late_site_false_once_released
rmmod static_keys_late
result $? unload_late
finish
