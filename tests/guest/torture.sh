# tests/kmod/static_keys_torture.ko: its KUnit suite runs as it loads
# (torture with one reader kthread per CPU and two writers, mismatched
# branch forms, idempotent enable/disable, read-only text); results from
# KUnit's debugfs file, figures as "figure:" lines of its log.  The suite
# must leave no warning in the kernel log, and the module must unload.
. "${CHECKS_LIB:-/lib/checks.sh}"
results=/sys/kernel/debug/kunit/static_keys_torture/results
plan 4
before=$(dmesg | grep -c 'WARNING: CPU')
# harness.torture_ops=, _passes=, _seconds= on the command line: make
# torture's longer run; the module's defaults otherwise.
args=
for p in ops passes seconds; do
	v=$(sed -n "s/.*harness\.torture_$p=\([0-9]*\).*/\1/p" /proc/cmdline)
	args="$args${v:+ torture_$p=$v}"
done
insmod /modules/static_keys_torture.ko $args
result $? load
if [ -r $results ]; then
	kunit_suite $results
else
	result 1 static_keys_torture "no $results"
fi
after=$(dmesg | grep -c 'WARNING: CPU')
[ "$after" = "$before" ]
result $? no_warnings "$((after - before)) warnings in the kernel log during the suite"
rmmod static_keys_torture
result $? unload
finish
