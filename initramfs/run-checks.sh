#!/bin/sh
# run-checks.sh RESULTS TIMEOUT CHECK...: run each check, write KTAP to
# RESULTS.  Used by the guest's /init and by the host's scripts/host-test.sh.
#
# A check is a shell (or Python) script.  What it prints is its subtests, as
# KTAP, written to RESULTS as it prints them (after "# Subtest: NAME"); its
# exit status is its own result: 0 ok, 4 skipped (reason written to
# $SKIP_FILE), anything else not ok.
results=$1
check_timeout=$2
shift 2
scratch=${TMPDIR:-/tmp}/checks.$$
mkdir -p "$scratch"
{
	echo "KTAP version 1"
	echo "1..$#"
} > "$results"

i=0
for check; do
	i=$((i + 1))
	name=${check##*/}
	name=${name%.*}
	export SKIP_FILE="$scratch/$name.skip"
	rm -f "$SKIP_FILE"
	[ -w /dev/kmsg ] && echo "harness: check $i/$#: $name" > /dev/kmsg
	# On the host (scripts/host-test.sh), where each check is said.
	[ -n "${CHECKS_PROGRESS:-}" ] && echo "host-test: check $i/$#: $name" >&2
	case $check in
	*.py) run='python3' ;;
	*) run='sh' ;;
	esac
	# The check's subtests go to RESULTS as they come, after the line
	# that names the check, so that those a check reported before the
	# kernel died are kept (ktap.py names an unfinished block after it).
	echo "    # Subtest: $name" >> "$results"
	{
		timeout "$check_timeout" $run "$check" 2>&1
		echo $? > "$scratch/$name.rc"
	} | sed 's/^/    /' >> "$results"
	rc=$(cat "$scratch/$name.rc")
	case $rc in
	0) echo "ok $i $name" ;;
	4) echo "ok $i $name # SKIP $(cat "$SKIP_FILE" 2>/dev/null)" ;;
	124 | 143) echo "not ok $i $name # timed out after ${check_timeout}s" ;;
	*) echo "not ok $i $name" ;;
	esac >> "$results"
done
rm -rf "$scratch"
