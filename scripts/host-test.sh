#!/bin/sh
# host-test.sh: the harness's own tests (tests/host), run as the guest runs
# its checks; KTAP to $ROOT/host/logs/host.ktap.
set -eu
. "$(dirname "$0")/lib.sh"
logs=$(tree_root)/host/logs
mkdir -p "$logs"
export REPO CHECKS_LIB="$REPO/initramfs/checks.sh" CHECKS_PROGRESS=y
# A result file of an earlier run must not stand in for this one's.
rm -f "$logs/host.ktap"
note "the harness's own tests, one line each as it starts (results: $logs/host.ktap)"
sh "$REPO/initramfs/run-checks.sh" "$logs/host.ktap" "${HOST_TEST_TIMEOUT:-900}" \
	"$REPO"/tests/host/*.sh "$REPO"/tests/host/*.py
note "results: $logs/host.ktap"
