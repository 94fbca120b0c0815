# The order a module's jump table reaches jump label in, against what the
# host says this kernel must do (boot.sh: harness.module_tables_sorted_at
# is "link" for the series on x86-64, "load" for every other kernel).
# tests/kmod/static_keys_table_order.ko logs, for each module that comes
# up after it, whether its table is in (key, site) order before jump
# label looks at it.  static_keys_unordered.ko's sites are compiled out of
# that order: sorted at link, it must arrive in order; sorted at load, out
# of order.  static_keys_unsorted.ko is the same module with its table
# reversed after the link (scripts/unsort-table.py): it must arrive out of
# order everywhere.  Each flips its two keys at init and checks that all
# three sites follow, so a table the loader failed to sort fails its load.
. "${CHECKS_LIB:-/lib/checks.sh}"
[ -f /modules/static_keys_table_order.ko ] ||
	skip_all "no static_keys_table_order.ko: modules carry no jump entries"
plan 6
want=$(sed -n 's/.*harness\.module_tables_sorted_at=\([a-z]*\).*/\1/p' /proc/cmdline)
insmod /modules/static_keys_table_order.ko
result $? load_watcher

# order MARK MODULE: the watcher's line for MODULE, logged after MARK
# (log_mark before its load): one line, or nothing when the watcher said
# nothing of this load or said it twice.
order() {
	line=$(log_since "$1" | grep "static_keys_table_order: $2: ")
	[ "$(echo "$line" | grep -c .)" = 1 ] || line=
	echo "${line#*static_keys_table_order: }"
}

mark=$(log_mark)
insmod /modules/static_keys_unordered.ko
result $? load_unordered_sites_follow
line=$(order $mark static_keys_unordered)
diag "sorted at ${want:-?}: ${line:-no line}"
case $want:$line in
link:*", in order" | load:*"out of order") result 0 table_order_as_linked ;;
*) result 1 table_order_as_linked "sorted at ${want:-?} wanted, but ${line:-not one line from the watcher for this load}" ;;
esac
rmmod static_keys_unordered
mark=$(log_mark)
insmod /modules/static_keys_unsorted.ko
result $? load_unsorted_sites_follow
line=$(order $mark static_keys_unordered)
case $line in
*"out of order") result 0 unsorted_table_sorted_at_load ;;
*) result 1 unsorted_table_sorted_at_load "${line:-not one line from the watcher for this load}" ;;
esac
rmmod static_keys_unordered && rmmod static_keys_table_order
result $? unload
finish
