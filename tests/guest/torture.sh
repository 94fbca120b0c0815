# tests/kmod/static_keys_torture.ko: its KUnit suite runs as it loads
# (torture with one reader kthread per CPU and two writers, mismatched
# branch forms, idempotent enable/disable, read-only text); results from
# KUnit's debugfs file, figures as "figure:" lines of its log.  The suite
# must leave no warning in the kernel log, and the module must unload.
# Its concurrent enable/disable case runs in an announced window, whose
# warnings are counted apart: there must be none (the distro shows one:
# tests/expected-failures).
. "${CHECKS_LIB:-/lib/checks.sh}"
results=/sys/kernel/debug/kunit/static_keys_torture/results
plan 5
# warnings: those of the kernel log outside the window, and inside.
warnings() {
	window_counts static_keys_torture_concurrent |
		awk '$1 == "outside" { o = $2 } $1 == "window" { w += $2 } END { print o + 0, w + 0 }'
}
# shellcheck disable=SC2046 # its two counts
set -- $(warnings)
before=$1
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
# shellcheck disable=SC2046 # its two counts
set -- $(warnings)
[ "$1" = "$before" ]
result $? no_warnings "$(($1 - before)) warnings in the kernel log during the suite, outside the concurrent case"
[ "$2" = 0 ]
result $? concurrent_enable_disable_quiet "$2 warnings while two threads enabled and disabled one key"
rmmod static_keys_torture
result $? unload
finish
