#!/bin/sh
# check.sh: make check's kernels, two lanes at once.  One lane builds the
# variants in order (tree, series, build, initramfs: variant.sh VARIANT
# build), at a lower priority; the other boots each as soon as it is
# built (variant.sh VARIANT boot), and runs the harness's own tests once
# the series and distro kernels they use are booted.  A TCG boot keeps one
# host CPU busy, so the next build gets the other instead of waiting for
# the boot to end; being niced, it takes nothing the guest's checks need.
# Lines, not one updating line, as both lanes print (PROGRESS_LINES).
# Each kernel's row of the tree's proof records (scripts/records.py) is
# written as soon as its boot ends (or, before the host tests, once they
# end), and the host tests' when they end: a make check stopped half-way
# keeps the rows it finished.
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(tree_root)
built=$ROOT/check-built
rm -rf "$built"
mkdir -p "$built"
export PROGRESS_LINES=y

# The host tests boot the distro kernel and read the series' tree and
# build: a slice with 'host' but without those kernels builds them too
# (not booted), so that it passes on its own.
extra=''
case " ${CHECK_VARIANTS:-host} " in
*" host "*)
	for v in series distro; do
		case " $VARIANTS " in *" $v "*) ;; *) extra="$extra $v" ;; esac
	done ;;
esac

# record_row RUN LOGS[:BOOT]: RUN's report as its row of the records
# (not for a run of some checks: CHECKS, which proves no row).  The host
# tests judge the records as this run found them (series_cover_letter:
# the letter quotes each proof's rows and dates), so a kernel that ends
# before they have run keeps its report here, pending, and its row is
# written as soon as they end, or when this script is stopped.
pending='' host_done=''
record_row() {
	[ -z "${CHECKS:-}" ] || return 0
	"$REPO/scripts/report.py" --json "$built/$1.json" "$1=$2" > /dev/null 2>&1 || true
	if [ -z "$host_done" ] && [ "$1" != host ]; then
		pending="$pending $1"
	else
		write_row "$1"
	fi
}
write_row() {
	[ ! -s "$built/$1.json" ] ||
		"$REPO/scripts/records.py" add-check "$built/$1.json" ||
		note "$1: its row of the records was not written"
}
flush_rows() {
	host_done=y
	for _run in $pending; do
		write_row "$_run"
	done
	pending=''
}
trap 'flush_rows; exit 130' INT TERM HUP

# The builder: one word per variant in $built when its build part ends.
(
	for v in $VARIANTS $extra; do
		if nice -n 10 "$REPO/scripts/variant.sh" "$v" build; then
			echo ok > "$built/$v"
		else
			echo failed > "$built/$v"
		fi
	done
) &
builder=$!

# The host tests boot the distro kernel and read the series tree: after
# distro's boot, or when every build is done if the slice builds them
# only for the host tests; in a slice (make check VARIANTS=...) only if
# it names 'host'.
host_after=$(echo "$VARIANTS" | tr ' ' '\n' | grep -x distro || echo end)
case " ${CHECK_VARIANTS:-host} " in
*" host "*) ;;
*) host_after=none host_done=y ;;
esac
# host_tests: the harness's own tests, then their row and the rows that
# waited for them.
host_tests() {
	"$REPO/scripts/host-test.sh" || true
	flush_rows
	record_row host "$ROOT/host/logs:host"
}
for v in $VARIANTS; do
	while [ ! -f "$built/$v" ] && kill -0 "$builder" 2>/dev/null; do
		sleep 2
	done
	if [ "$(cat "$built/$v" 2>/dev/null)" = ok ]; then
		"$REPO/scripts/variant.sh" "$v" boot || true
	else
		note "$v: not booted, its build part failed (logs: $ROOT/$v/logs)"
	fi
	record_row "$v" "$ROOT/$v/logs"
	[ "$v" != "$host_after" ] || host_tests
done
wait "$builder" || true
[ "$host_after" != end ] || host_tests
flush_rows
