#!/bin/sh
# torture.sh VARIANT: the torture check alone, longer than in make check:
# a boot of VARIANT's kernel that runs only tests/guest/torture.sh, with
# TORTURE_OPS flips per writer at least (default 2000) and TORTURE_PASSES
# branch passes of the readers at least (default 10^9), each ten times
# make check's, in each torture case, within TORTURE_TIMEOUT seconds
# (3600; writers stop after 1500 s of a case, passes made or not), then
# its report.  The variant must be built (make run VARIANT=...).
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: torture.sh VARIANT}"
ops=${TORTURE_OPS:-2000}
passes=${TORTURE_PASSES:-1000000000}
for n in "$ops" "$passes"; do
	case $n in '' | *[!0-9]*) die "TORTURE_OPS=$ops, TORTURE_PASSES=$passes: not a number" ;; esac
done
"$REPO/scripts/initramfs.sh" "$VARIANT"
TIMEOUT=${TORTURE_TIMEOUT:-3600} "$REPO/scripts/boot.sh" "$VARIANT" torture \
	harness.only=torture "harness.torture_ops=$ops" "harness.torture_passes=$passes" \
	harness.torture_seconds=1500 harness.check_timeout=3500
"$REPO/scripts/report.py" "$VARIANT=$LOGS:torture"
