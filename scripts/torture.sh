#!/bin/sh
# torture.sh VARIANT: the torture check alone, longer than in make check:
# a boot of VARIANT's kernel that runs only tests/guest/torture.sh, with
# TORTURE_OPS flips per writer (default 2000, ten times make check's),
# within TORTURE_TIMEOUT seconds (3600), then its report.  The
# variant must be built (make run VARIANT=...).
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: torture.sh VARIANT}"
ops=${TORTURE_OPS:-2000}
case $ops in '' | *[!0-9]*) die "TORTURE_OPS=$ops: not a number" ;; esac
"$REPO/scripts/initramfs.sh" "$VARIANT"
TIMEOUT=${TORTURE_TIMEOUT:-3600} "$REPO/scripts/boot.sh" "$VARIANT" torture \
	harness.only=torture "harness.torture_ops=$ops" harness.check_timeout=3500
"$REPO/scripts/report.py" "$VARIANT=$LOGS:torture"
