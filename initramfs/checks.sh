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
		echo "not ok $subtests $2${3:+ # $(echo "$3" | tr '\n' ' ')}"
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

# The kernel log from the line that contains $1 on.
log_since() {
	dmesg | sed -n "/$1/,\$p"
}

# kunit_suite RESULTS: a KUnit suite's debugfs results file (a KTAP
# document of one test, the suite) as the next subtest.
kunit_suite() {
	subtests=$((subtests + 1))
	sed -e '1,2d' -e "s/^ok 1 /ok $subtests /" -e "s/^not ok 1 /not ok $subtests /" "$1"
	grep -q '^ok 1 ' "$1" || failures=$((failures + 1))
}
