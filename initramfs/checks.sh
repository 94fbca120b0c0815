# Sourced by every check (/lib/checks.sh in the guest): KTAP subtests.
#
#   plan N                      how many subtests follow
#   result PASS NAME [WHY]      PASS is 0 (ok) or anything else (not ok,
#                               WHY after the result's '#')
#   skip NAME REASON            a skipped subtest
#   skip_all REASON             the whole check is skipped
#   finish                      exit with the check's own status

failures=0
subtests=0

plan() {
	echo "KTAP version 1"
	echo "1..$1"
}

diag() {
	echo "# $*"
}

result() {
	subtests=$((subtests + 1))
	if [ "$1" = 0 ]; then
		echo "ok $subtests $2"
	else
		failures=$((failures + 1))
		echo "not ok $subtests $2${3:+ # $(echo "$3" | tr '\n' ' ' | sed 's/ *$//')}"
	fi
}

skip() {
	subtests=$((subtests + 1))
	echo "ok $subtests $1 # SKIP $2"
}

skip_all() {
	echo "$1" > "$SKIP_FILE"
	exit 4
}

finish() {
	[ "$failures" = 0 ]
	exit $?
}

# kernel_log: the kernel's log as dmesg prints it, without the timestamps
# CONFIG_PRINTK_TIME puts before each line ("[    3.159838] "), so that a
# line is matched from its start whatever the kernel's configuration.
# log_mark: how many lines the log has now; log_since MARK: the lines
# logged after that mark.
kernel_log() {
	dmesg | sed 's/^\[ *[0-9]*\.[0-9]*\] //'
}

log_mark() {
	dmesg | wc -l
}

log_since() {
	kernel_log | tail -n +$(($1 + 1))
}

# window_counts TAG: the warnings of the kernel log, as "window N" for
# each stretch between "TAG: expected warning begins" and "TAG: expected
# warning ends" (N: the warnings in it), then "outside N" for the rest of
# the log.  window_warnings TAG: the counts of the stretches alone.
window_counts() {
	kernel_log | awk -v begin="$1: expected warning begins" -v end="$1: expected warning ends" '
		index($0, begin) { inside = 1; n = 0; next }
		index($0, end) { if (inside) print "window " n; inside = 0; next }
		/WARNING: CPU/ { if (inside) n++; else outside++ }
		END { print "outside " outside + 0 }'
}

window_warnings() {
	window_counts "$1" | sed -n 's/^window //p'
}

# expected_warnings TAG: a subtest, TAG_expected_warnings, ok when every
# announced stretch of TAG holds exactly one warning.
expected_warnings() {
	counts=$(window_warnings "$1")
	if [ -z "$counts" ]; then
		result 1 "$1_expected_warnings" "no '$1: expected warning begins' in the log"
	elif echo "$counts" | grep -qvx 1; then
		result 1 "$1_expected_warnings" "warnings per announced stretch: $(echo $counts) (want 1 each)"
	else
		result 0 "$1_expected_warnings"
	fi
}

# kunit_suite RESULTS: a KUnit suite's debugfs results file (a KTAP
# document of one test, the suite) as the next subtest.
kunit_suite() {
	subtests=$((subtests + 1))
	sed -e '1,2d' -e "s/^ok 1 /ok $subtests /" -e "s/^not ok 1 /not ok $subtests /" "$1"
	grep -q '^ok 1 ' "$1" || failures=$((failures + 1))
}
