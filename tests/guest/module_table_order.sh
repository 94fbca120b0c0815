# The order a module's jump table reaches jump label in.
# tests/kmod/static_keys_table_order.ko logs, for each module that comes
# up after it, whether the table is in (key, site) order before jump label
# looks at it; static_keys_unordered.ko's sites are compiled out of that
# order.  Where the tree sorts a module's table when the .ko is linked
# (expect_sorted: the series on x86-64), that table must arrive in order,
# so that jump label only checks it; elsewhere it must arrive out of
# order, which shows that the module is a test of the sort.
. "${CHECKS_LIB:-/lib/checks.sh}"
[ -f /modules/static_keys_table_order.ko ] ||
	skip_all "no static_keys_table_order.ko: modules carry no jump entries"
plan 4
insmod /modules/static_keys_table_order.ko
result $? load_watcher
expect=$(cat /sys/module/static_keys_table_order/parameters/expect_sorted 2>/dev/null)
insmod /modules/static_keys_unordered.ko
result $? load_unordered
line=$(dmesg | grep 'static_keys_table_order: static_keys_unordered: ' | tail -1)
line=${line#*static_keys_table_order: }
diag "sorted when linked: ${expect:-?}; ${line:-no line}"
case $expect:$line in
Y:*", in order" | N:*"out of order") result 0 table_order_as_linked ;;
*) result 1 table_order_as_linked "expect_sorted=${expect:-?}, but ${line:-no line from the watcher}" ;;
esac
rmmod static_keys_unordered && rmmod static_keys_table_order
result $? unload
finish
