# tests/kmod/static_keys_harness.ko: its KUnit suite runs as it loads; its
# results come from KUnit's debugfs file.  Then the kernel log between the
# module's markers must hold exactly one warning: the underflow it caused.
. "${CHECKS_LIB:-/lib/checks.sh}"
results=/sys/kernel/debug/kunit/static_keys_harness/results
plan 4
insmod /modules/static_keys_harness.ko
result $? load
if [ -r $results ]; then
	kunit_suite $results
else
	result 1 static_keys_harness "no $results"
fi
if grep -q 'underflow_warns_once # SKIP' $results; then
	skip static_keys_harness_expected_warnings "the suite skipped its underflow case"
else
	expected_warnings static_keys_harness
	kernel_log | grep -q 'jump label: negative count' &&
		diag "underflow reported as 'jump label: negative count'"
fi
rmmod static_keys_harness
result $? unload
finish
