#!/bin/sh
# cross-boot.sh [ARCH...]: boot the whole series on the architectures of
# configs/cross/ that have a BOOT_QEMU (or those named): tinyconfig, the
# row's CONFIG and BOOT_CONFIG, configs/cross-boot.config (jump labels,
# the series' KUnit suite, debugfs, sysctl) and the tree's fragments
# (lib.sh tree_fragments), built with Debian's cross compiler from the
# series worktree (make prepare); then booted in
# QEMU under TCG with an initramfs of one static /init
# (tests/cross/init.c).  At boot the KUnit suite flips its keys, a
# JMP-form site (static_branch_likely() on a false key) among them, and
# reads them back through the branches; /init flips the tree's sysctl
# CROSS_SYSCTL (its row of configs/tree/) and reads the count of its key,
# CROSS_KEY, back from the debugfs view.  A boot passes when both say so
# and the log holds no oops, BUG, warning or panic.  Beside each, the same
# .config is built from the tree without the series (PRISTINE) and booted
# the same way (pristine_outcome), so that the row says what that tree
# does there, and whether the series is the cause of a failure: one that
# the tree shows too is the tree's (verdict 'expected').  Each boot is a
# row of the tree's cross-build record (lib.sh cross_record); exit 1 if
# any boot failed.
# shellcheck disable=SC2154 # out, rows and n: lib.sh cross_setup's
set -eu
. "$(dirname "$0")/lib.sh"
cross_setup "$@"
# build_image SRC OBJ LOG: OBJ's .config made olddefconfig-complete and
# the row's image built from SRC, in the background ($! for the caller).
build_image() {
	make -C "$1" O="$2" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
		CC="ccache ${CROSS_COMPILE}gcc" -j"${JOBS:-$(nproc)}" olddefconfig "${BOOT_IMAGE##*/}" \
		>> "$3" 2>&1 &
}

# boot_image OBJ SERIAL INITRAMFS WHAT: boot OBJ's image as the row's
# BOOT_QEMU says (lib.sh qemu_boot); the exit status is timeout(1)'s.
boot_image() {
	# shellcheck disable=SC2086 # the row's QEMU words
	qemu_boot "${TIMEOUT:-600}" "$2" "$1/$BOOT_IMAGE" "$3" \
		"console=$BOOT_CONSOLE panic=-1 oops=panic${BOOT_ARGS:+ $BOOT_ARGS}" "$4" \
		$BOOT_QEMU -accel tcg -m "${BOOT_MEM:-512M}"
}

# pristine_outcome A: the same .config as row A's series kernel built from
# the tree without the series (PRISTINE) and booted the same way, side by
# side: what became of it, in a few words ("build failed", "never
# printed", "timed out", "reached /init", or the first problem its log
# shows).  That tree has neither the series' KUnit suite nor its debugfs
# view: reaching /init is as far as it can show.
pristine_outcome() {
	p=$out/boot-$1-pristine
	plog=$p.log
	rm -rf "$p"
	mkdir -p "$p"
	cp "$obj/.config" "$p/.config"
	: > "$plog"
	progress_status() {
		echo "$(progress_of "$(grep -c '^  CC' "$plog")" "$(cat "$obj.objects" 2>/dev/null)" \
			"$pstart" "objects compiled") (log: $plog)"
	}
	note "$1: the same config without the series (log: $plog)"
	pstart=$(date +%s)
	build_image "$PRISTINE" "$p" "$plog"
	if ! watch_progress $! "building $1 without the series"; then
		echo "build failed (log: boot-$1-pristine.log)"
		return 0
	fi
	progress_status() { echo "kernel starting; $(time_left "$(cat "$obj.took" 2>/dev/null)" "$pstart")"; }
	pstatus=0 pstart=$(date +%s)
	boot_image "$p" "$p.serial" "$obj/initramfs.cpio" "booting $1 without the series" || pstatus=$?
	pproblem=$("$REPO/scripts/report.py" --scan "$p.serial" | head -1)
	if ! grep -a -q 'Linux version' "$p.serial"; then
		echo "never printed"
	elif grep -a -q '^harness: ' "$p.serial" && [ -z "$pproblem" ]; then
		echo "reached /init"
	elif [ "$pstatus" = 124 ]; then
		echo "timed out; last console line: $(tr -d '\r' < "$p.serial" | grep -a -v '^[[:space:]]*$' | tail -1 | cut -c1-70)"
	else
		echo "stopped: ${pproblem:-before /init}"
	fi
}

# cross_failure ARCH WHAT KIND PRISTINE: the boot row of a series kernel
# that failed (KIND: build, silent, timeout, other), beside what the tree
# without the series did with the same config (PRISTINE, from
# pristine_outcome): failing the same way makes it the tree's failure
# (verdict 'expected').
cross_failure() {
	case $3:$4 in
	"build:build failed"* | "silent:never printed" | "timeout:timed out"*)
		cross_record "$1" boot expected "$2; the tree without the series, same config: $4" ;;
	*)
		cross_record "$1" boot fail "$2; the tree without the series, same config: $4" ;;
	esac
}

i=0
failed=0
for a in $rows; do
	i=$((i + 1))
	BOOT_QEMU='' BOOT_CONFIG='' CONFIG='' BOOT_PACKAGES='' BOOT_MEM='' BOOT_ARGS=''
	# shellcheck disable=SC1090
	. "$REPO/configs/cross/$a.conf"
	if [ -z "$BOOT_QEMU" ]; then
		why=$(sed -n 's/^# not booted: //p' "$REPO/configs/cross/$a.conf")
		cross_record "$a" boot skip "not booted: ${why:-no QEMU row}"
		continue
	fi
	if ! arch_has_backend; then
		cross_record "$a" boot skip "not booted: no backend in $TREE"
		continue
	fi
	obj=$out/boot-$a
	log=$out/boot-$a.log
	serial=$out/boot-$a.serial
	qemu=${BOOT_QEMU%% *}
	missing=
	for c in "${CROSS_COMPILE}gcc" "$qemu"; do
		command -v "$c" > /dev/null 2>&1 || missing="$missing $c"
	done
	if [ -n "$missing" ]; then
		note "$a ($i of $n): no$missing (apt-get install $PACKAGES $BOOT_PACKAGES): not booted"
		cross_record "$a" boot fail "not booted:$missing not installed"
		failed=1
		continue
	fi
	mkdir -p "$obj"
	printf '%s\n' $CONFIG $BOOT_CONFIG > "$obj/arch.config"
	note "$a ($i of $n): building the series kernel (log: $log)"
	# how far a build is: against the objects the last build of this row
	# compiled (boot-ARCH.objects)
	start=$(date +%s)
	progress_status() {
		echo "$(progress_of "$(grep -c '^  CC' "$log")" "$(cat "$obj.objects" 2>/dev/null)" \
			"$start" "objects compiled") (log: $log)"
	}
	{
		# shellcheck disable=SC2046 # one word per fragment
		kconfig_merge "$SRC" "$obj" "$REPO/configs/cross-boot.config" $(tree_fragments "$a") "$obj/arch.config" &&
			grep -qx CONFIG_JUMP_LABEL=y "$obj/.config" &&
			grep -qx CONFIG_STATIC_KEYS_KUNIT_TEST=y "$obj/.config"
	} > "$log" 2>&1 || {
		note "$a: no config with jump labels and the KUnit suite; log: $log"
		cross_record "$a" boot fail "no config with CONFIG_JUMP_LABEL and the KUnit suite (log: boot-$a.log)"
		failed=1
		continue
	}
	build_image "$SRC" "$obj" "$log"
	if ! watch_progress $! "building $a ($i of $n)"; then
		note "$a: the build failed; log: $log"
		cross_failure "$a" "build failed (log: boot-$a.log)" build "$(pristine_outcome "$a")"
		failed=1
		continue
	fi
	objects=$(grep -c '^  CC' "$log" || true)
	[ "$objects" -lt 200 ] || echo "$objects" > "$obj.objects"
	# The initramfs: /init and /dev/console, nothing else.
	root=$obj/initramfs
	rm -rf "$root"
	mkdir -p "$root/dev" "$root/proc" "$root/sys"
	if ! "${CROSS_COMPILE}gcc" -static -O2 -Wall -DCROSS_SYSCTL="\"$CROSS_SYSCTL\"" \
		-DCROSS_KEY="\"$CROSS_KEY\"" -o "$root/init" "$REPO/tests/cross/init.c" >> "$log" 2>&1; then
		note "$a: cannot link the static /init; log: $log"
		cross_record "$a" boot fail "no static /init (log: boot-$a.log)"
		failed=1
		continue
	fi
	mknod -m 600 "$root/dev/console" c 5 1
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$obj/initramfs.cpio"
	note "$a: booting (serial log: $serial)"
	progress_status() {
		_said=$(grep -a -o 'harness: .*\|# static_keys[^:]*: pass:[0-9]*' "$serial" 2>/dev/null | tail -1)
		echo "${_said:-kernel starting}; $(time_left "$(cat "$obj.took" 2>/dev/null)" "$start")"
	}
	status=0 start=$(date +%s)
	boot_image "$obj" "$serial" "$obj/initramfs.cpio" "booting $a ($i of $n)" || status=$?
	[ "$status" != 0 ] || echo $(( $(date +%s) - start )) > "$obj.took"
	suites=$(grep -a -c '^ *ok [0-9]* static_keys' "$serial" || true)
	bad_suites=$(grep -a -c '^ *not ok [0-9]* static_keys' "$serial" || true)
	# The kernel log read as make check reads it (report.py: a warning
	# inside an announced window, the KUnit suite's negative count, is
	# expected; a panic, oops, stall or detector report fails), and
	# /init's own verdict.
	problem=$("$REPO/scripts/report.py" --scan "$serial" | head -1)
	[ -n "$problem" ] || problem=$(grep -a -m1 '^harness: FAIL' "$serial" || true)
	last=$(tr -d '\r' < "$serial" | grep -a -v '^[[:space:]]*$' | tail -1 | cut -c1-70)
	kind=other
	if ! grep -a -q 'Linux version' "$serial"; then
		result="the kernel never printed$([ "$status" != 124 ] || echo " in ${TIMEOUT:-600} s")${last:+; last console line: $last}"
		kind=silent
	elif [ "$status" = 124 ]; then
		result="timed out after ${TIMEOUT:-600} s; last console line: $last"
		kind=timeout
	elif [ -n "$problem" ]; then
		result="$problem"
	elif [ "$suites" = 0 ] || [ "$bad_suites" != 0 ]; then
		result="KUnit static_keys suites: $suites ok, $bad_suites not ok"
	elif ! grep -a -q '^harness: ok' "$serial"; then
		result="/init never said ok"
	else
		said=$(grep -a -o "$CROSS_KEY count.*" "$serial" | head -1)
		cross_record "$a" boot ok "booted: $suites KUnit static_keys suites ok; $said; the tree without the series, same config: $(pristine_outcome "$a")"
		note "$a: ok"
		continue
	fi
	failed=1
	note "$a: $result; serial log: $serial"
	cross_failure "$a" "boot failed: $result" "$kind" "$(pristine_outcome "$a")"
done
exit $failed
