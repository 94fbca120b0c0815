#!/bin/sh
# cross-build.sh [ARCH...]: the series' generic core (kernel/jump_label.o)
# and each architecture's own backend (arch/*/kernel/jump_label.o), built
# with Debian's cross compiler for every architecture of configs/cross/
# (or those named), from the series worktree (make prepare), with
# tinyconfig plus CONFIG_JUMP_LABEL=y, modules and debugfs.  Writes
# Documentation/cross-build.md: per architecture, whether
# CONFIG_JUMP_LABEL stayed on and both objects built without a compiler
# warning; an architecture without its compiler, or whose Kconfig in this
# tree does not select HAVE_ARCH_JUMP_LABEL, is listed as not built.
# Named architectures replace their own rows and keep the others'.
# Exit 1 if any build failed.  arm64 is not here: make check boots it
# (configs/arch/).
set -eu
. "$(dirname "$0")/lib.sh"
cross_setup "$@"
i=0
failed=0
table=$out/results.md
rows_reset "$table" "$@"
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
		echo "| $a | $why | not built |" >> "$table"
		continue
	fi
	if ! arch_has_backend; then
		note "$a ($i of $n): arch/$KERNEL_ARCH/Kconfig does not select HAVE_ARCH_JUMP_LABEL in $TREE: not built"
		echo "| $a | $($cc -dumpversion) | no backend in $TREE (HAVE_ARCH_JUMP_LABEL not selected) |" >> "$table"
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
			echo "| $a | $($cc -dumpversion) | built |" >> "$table"
		else
			failed=1
			note "$a: $warnings compiler warnings; log: $log"
			echo "| $a | $($cc -dumpversion) | built with $warnings compiler warnings |" >> "$table"
		fi
	elif ! grep -qx CONFIG_JUMP_LABEL=y "$obj/.config" 2>/dev/null; then
		failed=1
		note "$a: CONFIG_JUMP_LABEL did not stay on; log: $log"
		echo "| $a | $($cc -dumpversion) | CONFIG_JUMP_LABEL dropped |" >> "$table"
	else
		failed=1
		grep -m5 'error' "$log" >&2 || tail -5 "$log" >&2
		note "$a: build failed; log: $log"
		echo "| $a | $($cc -dumpversion) | FAILED: $(grep -m1 'error' "$log" | cut -c1-80) |" >> "$table"
	fi
done
# Then each architecture booted where Debian has an emulator for it.
"$REPO/scripts/cross-boot.sh" "$@" || failed=1
rows_sort "$table"
rows_sort "$out/boot.md"
{
	echo "# The series on the other architectures"
	echo
	echo "Written by \`make cross-build\` ($(date -u +%Y-%m-%d)): for each architecture"
	echo "of \`configs/cross/\`, \`kernel/jump_label.o\` and the architecture's"
	echo "\`arch/*/kernel/jump_label.o\` of the whole series, tinyconfig with"
	echo "\`CONFIG_JUMP_LABEL=y\`, modules and debugfs, built with Debian's cross"
	echo "compiler.  arm64 and x86-64 are built, booted and checked by \`make check\`."
	echo
	echo "| architecture | compiler | result |"
	echo "|---|---|---|"
	cat "$table"
	echo
	echo "Then the whole series booted (\`scripts/cross-boot.sh\`): a kernel of"
	echo "tinyconfig, \`configs/cross-boot.config\` and the row's options, under QEMU's"
	echo "TCG, with one static \`/init\` (\`tests/cross/init.c\`).  The series' KUnit"
	echo "suite flips its keys at boot, a JMP-form site (\`static_branch_likely()\` on"
	echo "a false key) among them, and reads them back through the branches;"
	echo "\`/init\` flips \`$CROSS_SYSCTL\` and reads the count of its key,"
	echo "\`$CROSS_KEY\`, back from the debugfs view.  Where the kernel does not"
	echo "build, never prints or times out, the same config is built from the tree"
	echo "without the series and booted; the row says when that fails the same way."
	echo
	echo "| architecture | boot |"
	echo "|---|---|"
	cat "$out/boot.md"
} > "$TREE_DOCS/cross-build.md"
note "wrote $TREE_DOCS/cross-build.md"
exit $failed
