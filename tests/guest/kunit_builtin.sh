# The kernel's built-in KUnit suites (the series' own among them), as they
# ran at boot.  Runs after harness_module, whose suite is unloaded by then.
. "${CHECKS_LIB:-/lib/checks.sh}"
set -- /sys/kernel/debug/kunit/*/results
[ -e "$1" ] || skip_all "this kernel has no built-in KUnit suites"
# Suites that warn on purpose announce it (static_keys_kunit does).
announcers=$(kernel_log | sed -n 's/^\(.*\): expected warning begins$/\1/p' |
	grep -v static_keys_harness | sort -u)
plan $(( $# + $(echo $announcers | wc -w) ))
for suite; do
	kunit_suite "$suite"
done
for tag in $announcers; do
	expected_warnings "$tag"
done
finish
