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
# and the log holds no oops, BUG, warning or panic.  Writes
# $ROOT/cross/boot.md (cross-build.sh puts it in
# Documentation/cross-build.md); exit 1 if any boot failed.
set -eu
. "$(dirname "$0")/lib.sh"
cross_setup "$@"
i=0
failed=0
table=$out/boot.md
rows_reset "$table" "$@"
for a in $rows; do
	i=$((i + 1))
	BOOT_QEMU= BOOT_CONFIG= CONFIG= BOOT_PACKAGES= BOOT_MEM=
	# shellcheck disable=SC1090
	. "$REPO/configs/cross/$a.conf"
	if [ -z "$BOOT_QEMU" ]; then
		why=$(sed -n 's/^# not booted: //p' "$REPO/configs/cross/$a.conf")
		echo "| $a | not booted: ${why:-no QEMU row} |" >> "$table"
		continue
	fi
	if ! arch_has_backend; then
		echo "| $a | not booted: no backend in $TREE |" >> "$table"
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
		echo "| $a | not booted:$missing not installed |" >> "$table"
		failed=1
		continue
	fi
	mkdir -p "$obj"
	printf '%s\n' $CONFIG $BOOT_CONFIG > "$obj/arch.config"
	note "$a ($i of $n): building the series kernel (log: $log)"
	progress_status() {
		echo "$(grep -c '^  CC' "$log") objects compiled (log: $log)"
	}
	{
		kconfig_merge "$SRC" "$obj" "$REPO/configs/cross-boot.config" $(tree_fragments "$a") "$obj/arch.config" &&
			grep -qx CONFIG_JUMP_LABEL=y "$obj/.config" &&
			grep -qx CONFIG_STATIC_KEYS_KUNIT_TEST=y "$obj/.config" &&
			make -C "$SRC" O="$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
				CC="ccache ${CROSS_COMPILE}gcc" -j"${JOBS:-$(nproc)}" "${BOOT_IMAGE##*/}"
	} > "$log" 2>&1 &
	if ! watch_progress $! "building $a ($i of $n)"; then
		note "$a: the build failed; log: $log"
		echo "| $a | build failed (log: boot-$a.log) |" >> "$table"
		failed=1
		continue
	fi
	# The initramfs: /init and /dev/console, nothing else.
	root=$obj/initramfs
	rm -rf "$root"
	mkdir -p "$root/dev" "$root/proc" "$root/sys"
	if ! "${CROSS_COMPILE}gcc" -static -O2 -Wall -DCROSS_SYSCTL="\"$CROSS_SYSCTL\"" \
		-DCROSS_KEY="\"$CROSS_KEY\"" -o "$root/init" "$REPO/tests/cross/init.c" >> "$log" 2>&1; then
		note "$a: cannot link the static /init; log: $log"
		echo "| $a | no static /init (log: boot-$a.log) |" >> "$table"
		failed=1
		continue
	fi
	mknod -m 600 "$root/dev/console" c 5 1
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$obj/initramfs.cpio"
	note "$a: booting (serial log: $serial)"
	progress_status() {
		grep -a -o 'harness: .*\|# static_keys[^:]*: pass:[0-9]*' "$serial" 2>/dev/null | tail -1 || echo "kernel starting"
	}
	# shellcheck disable=SC2086
	timeout -k 5 "${TIMEOUT:-600}" $BOOT_QEMU -accel tcg -m "${BOOT_MEM:-512M}" -display none \
		-monitor none -no-reboot -serial "file:$serial" \
		-kernel "$obj/$BOOT_IMAGE" -initrd "$obj/initramfs.cpio" \
		-append "console=$BOOT_CONSOLE panic=-1 oops=panic" > "$obj/qemu.log" 2>&1 &
	status=0
	watch_progress $! "booting $a ($i of $n)" || status=$?
	suites=$(grep -a -c '^ *ok [0-9]* static_keys' "$serial" || true)
	bad_suites=$(grep -a -c '^ *not ok [0-9]* static_keys' "$serial" || true)
	# Warnings inside an announced window (the KUnit suite's negative
	# count) are expected; anything else of the kind fails the boot.
	problem=$(awk '/: expected warning begins/ { w = 1 } /: expected warning ends/ { w = 0 }
		/Oops|BUG:|kernel BUG|Kernel panic|harness: FAIL/ || (/WARNING:/ && !w) { print; exit }' "$serial")
	last=$(tr -d '\r' < "$serial" | grep -a -v '^[[:space:]]*$' | tail -1 | cut -c1-70)
	if ! grep -a -q 'Linux version' "$serial"; then
		result="the kernel never printed$([ "$status" != 124 ] || echo " in ${TIMEOUT:-600} s")${last:+; last console line: $last}"
	elif [ "$status" = 124 ]; then
		result="timed out after ${TIMEOUT:-600} s; last console line: $last"
	elif [ -n "$problem" ]; then
		result="$problem"
	elif [ "$suites" = 0 ] || [ "$bad_suites" != 0 ]; then
		result="KUnit static_keys suites: $suites ok, $bad_suites not ok"
	elif ! grep -a -q '^harness: ok' "$serial"; then
		result="/init never said ok"
	else
		echo "| $a | booted: $suites KUnit static_keys suites ok; $(grep -a -o "$CROSS_KEY count.*" "$serial" | head -1) |" >> "$table"
		note "$a: ok"
		continue
	fi
	failed=1
	note "$a: $result; serial log: $serial"
	echo "| $a | boot failed: $result |" >> "$table"
done
exit $failed
