#!/bin/sh
# cross-build.sh [ARCH...]: the series' generic core (kernel/jump_label.o)
# and each architecture's own backend (arch/*/kernel/jump_label.o), built
# with Debian's cross compiler for every architecture of configs/cross/
# (or those named), from the series worktree (make prepare), with
# tinyconfig plus CONFIG_JUMP_LABEL=y, modules and debugfs.  Each
# architecture's build is a row of the tree's cross-build record
# (scripts/records.py, which renders cross-build.md): whether
# CONFIG_JUMP_LABEL stayed on and both objects built without a compiler
# warning; an architecture without its compiler, or whose Kconfig in this
# tree does not select HAVE_ARCH_JUMP_LABEL, is a row not built.  A run
# of named architectures writes their rows and keeps the others'.
# Exit 1 if any build failed.  arm64 is not here: make check boots it
# (configs/arch/).
# shellcheck disable=SC2154 # out, rows and n: lib.sh cross_setup's
set -eu
. "$(dirname "$0")/lib.sh"
cross_setup "$@"
i=0
failed=0
for a in $rows; do
	i=$((i + 1))
	# shellcheck disable=SC1090
	. "$REPO/configs/cross/$a.conf"
	obj=$out/$a
	log=$out/$a.log
	cc=${CROSS_COMPILE}gcc
	if ! command -v "$cc" > /dev/null 2>&1; then
		if in_archive "$PACKAGES"; then
			why="$PACKAGES not installed"
		else
			why="$PACKAGES not in this Debian ($(. /etc/os-release && echo "$PRETTY_NAME"))"
		fi
		note "$a ($i of $n): no $cc, $why: not built"
		cross_record "$a" build skip "not built: $why"
		continue
	fi
	if ! arch_has_backend; then
		note "$a ($i of $n): arch/$KERNEL_ARCH/Kconfig does not select HAVE_ARCH_JUMP_LABEL in $TREE: not built"
		cross_record "$a" build skip "not built: no backend in $TREE (HAVE_ARCH_JUMP_LABEL not selected)"
		continue
	fi
	note "$a ($i of $n): building kernel/jump_label.o and arch/$KERNEL_ARCH/kernel/jump_label.o (log: $log)"
	rm -rf "$obj"
	mkdir -p "$obj"
	printf '%s\n' CONFIG_JUMP_LABEL=y CONFIG_MODULES=y CONFIG_DEBUG_FS=y \
		CONFIG_KALLSYMS=y $CONFIG > "$obj/fragment"
	progress_status() {
		echo "$(grep -c '^  [A-Z]' "$log") build steps (log: $log)"
	}
	{
		kconfig_merge "$SRC" "$obj" "$obj/fragment" &&
			grep -qx CONFIG_JUMP_LABEL=y "$obj/.config" &&
			make -C "$SRC" O="$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
				-j"${JOBS:-$(nproc)}" kernel/jump_label.o "arch/$KERNEL_ARCH/kernel/jump_label.o"
	} > "$log" 2>&1 &
	if watch_progress $! "$a ($i of $n)"; then
		warnings=$(grep -cE '\.(c|h|S):[0-9]+:[0-9]+: warning' "$log" || true)
		if [ "$warnings" = 0 ]; then
			cross_record "$a" build ok "built with gcc $($cc -dumpversion)"
		else
			failed=1
			note "$a: $warnings compiler warnings; log: $log"
			cross_record "$a" build fail "built with $warnings compiler warnings (gcc $($cc -dumpversion))"
		fi
	elif ! grep -qx CONFIG_JUMP_LABEL=y "$obj/.config" 2>/dev/null; then
		failed=1
		note "$a: CONFIG_JUMP_LABEL did not stay on; log: $log"
		cross_record "$a" build fail "CONFIG_JUMP_LABEL dropped (gcc $($cc -dumpversion))"
	else
		failed=1
		grep -m5 'error' "$log" >&2 || tail -5 "$log" >&2
		note "$a: build failed; log: $log"
		cross_record "$a" build fail "FAILED (gcc $($cc -dumpversion)): $(grep -m1 'error' "$log" | cut -c1-80)"
	fi
done
# Then each architecture booted where Debian has an emulator for it.
"$REPO/scripts/cross-boot.sh" "$@" || failed=1
"$REPO/scripts/records.py" render
exit $failed
