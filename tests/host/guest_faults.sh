# The runner and the report against guests that go wrong: one that panics,
# one that hangs, one that exits without results, one that prints broken
# KTAP.  Each must fail the run with its own message, its log kept.  They
# boot the distro kernel with one of the initramfs's /fault inits.
. "${CHECKS_LIB:?}"
. "$REPO/scripts/lib.sh"
root=$("$REPO/scripts/cache-root.sh")
logs=$root/distro/logs
variant_bootable distro || skip_all "the distro kernel is not built (make run VARIANT=distro)"

fault() { # NAME MESSAGE: boot with /fault/NAME.sh; the report must fail saying MESSAGE
	TIMEOUT=${3:-120} "$REPO/scripts/boot.sh" distro "fault-$1" rdinit=/fault/$1.sh 2>/dev/null
	if "$REPO/scripts/report.py" "distro=$logs:fault-$1" > "$logs/fault-$1.report"; then
		result 1 "$1" "the report passed it"
	elif ! grep -q -- "$2" "$logs/fault-$1.report"; then
		result 1 "$1" "the report does not say '$2': $(grep -m1 FAIL "$logs/fault-$1.report")"
	elif [ ! -s "$logs/fault-$1.serial" ]; then
		result 1 "$1" "no serial log kept"
	else
		result 0 "$1"
	fi
}

plan 4
fault panic 'panic: Attempted to kill init'
fault hang 'timeout: no exit within 20s' 20
fault silent 'no results at all'
fault broken-ktap "not KTAP: 'this is not KTAP'"
finish
