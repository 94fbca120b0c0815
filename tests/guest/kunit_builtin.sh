# The kernel's built-in KUnit suites (the series' own among them), as they
# ran at boot.  Runs after harness_module, whose suite is unloaded by then.
. "${CHECKS_LIB:-/lib/checks.sh}"
set -- /sys/kernel/debug/kunit/*/results
[ -e "$1" ] || skip_all "this kernel has no built-in KUnit suites"
plan $#
for suite; do
	kunit_suite "$suite"
done
finish
