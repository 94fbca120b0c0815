#!/bin/sh
# build.sh VARIANT: configure, then build the kernel image (bzImage, Image)
# and modules with make O=, for the variant's architecture,
# then the harness's test module (tests/kmod) against that build.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: build.sh VARIANT}"
JOBS=${JOBS:-$(nproc)}

cc=${CROSS_COMPILE}gcc
command -v "$cc" > /dev/null 2>&1 ||
	die "$cc not found: the $VARIANT_ARCH cross compiler (make deps ARCH=$VARIANT_ARCH)"
if command -v ccache >/dev/null 2>&1; then
	cc="ccache $cc"
fi
# build-seconds is the mark of a finished build (report.py): gone until
# this one has finished.
mkdir -p "$LOGS"
rm -f "$LOGS/build-seconds"
kmake() {
	make ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" CC="$cc" "$@"
}

"$REPO/scripts/config.sh" "$VARIANT"

log=$LOGS/build.log
start=$(date +%s)
# The number of objects the last complete build compiled, for "N of M":
# this variant's, else another variant's of its architecture on the same
# base configuration, else the architecture's row (BUILD_OBJECTS, or
# BUILD_OBJECTS_DEFCONFIG: a full build's, measured).
base=$(variant_base "$VARIANT")
objects=$LOGS/build-objects
total=$(cat "$objects" 2>/dev/null || true)
if [ -z "$total" ]; then
	for d in "$ROOT"/*/logs/build-objects; do
		v=${d%/logs/build-objects}
		v=${v##*/}
		[ -f "$d" ] && variant_traits "$v" > /dev/null 2>&1 &&
			[ "$(variant_arch "$v")" = "$VARIANT_ARCH" ] &&
			[ "$(variant_base "$v")" = "$base" ] && cat "$d"
	done | sort -n | tail -1 > "$LOGS/build-objects.guess"
	total=$(cat "$LOGS/build-objects.guess")
fi
what="objects compiled"
if [ -z "$total" ]; then
	case $base in
	defconfig) total=${BUILD_OBJECTS_DEFCONFIG:-} ;;
	*) total=${BUILD_OBJECTS:-} ;;
	esac
fi
# No count for this architecture's defconfig (none measured yet): the
# largest of another architecture's row, said to be that.
if [ -z "$total" ] && [ "$base" = defconfig ]; then
	total=$(grep -h '^BUILD_OBJECTS_DEFCONFIG=' "$REPO"/configs/arch/*.conf |
		sed 's/.*=//' | sort -n | tail -1)
	[ -z "$total" ] || what="objects compiled (the total is another architecture's defconfig count: $VARIANT_ARCH's not measured yet)"
fi
note "building $VARIANT in $OBJ (log: $log)"
progress_status() {
	echo "$(progress_of "$(grep -c '^  CC' "$log")" "$total" "$start" "$what") (log: $log)"
}
kmake -C "$SRC" O="$OBJ" -j"$JOBS" "${KERNEL_IMAGE##*/}" modules > "$log" 2>&1 &
if ! watch_progress $! "building $VARIANT"; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "kernel build of $VARIANT failed; log: $log"
fi

# The module's sources are copied so that kbuild writes nothing into the
# repository.
kmod=$VDIR/kmod
rm -rf "$kmod"
cp -r "$REPO/tests/kmod" "$kmod"
bench=
variant_has "$VARIANT" bench && bench=y
if ! kmake -C "$OBJ" M="$kmod" HARNESS_BENCH=$bench modules >> "$log" 2>&1; then
	tail -20 "$log" >&2
	die "test module build against $VARIANT failed; log: $log"
fi
# static_keys_unordered.ko with its jump table reversed, which only the
# module loader can sort (module_table_order).
if [ -f "$kmod/static_keys_unordered.ko" ]; then
	"$REPO/scripts/unsort-table.py" "$kmod/static_keys_unordered.ko" \
		"$kmod/static_keys_unsorted.ko" ||
		die "cannot write $kmod/static_keys_unsorted.ko"
fi
"$REPO/scripts/sites.py" "$OBJ/vmlinux" > "$LOGS/sites" ||
	die "could not count the static branch sites of $OBJ/vmlinux"
echo $(( $(date +%s) - start )) > "$LOGS/build-seconds"
# A build that had little to do says nothing about the next full one.
n=$(grep -c '^  CC' "$log" || true)
[ "$n" -lt 500 ] || echo "$n" > "$objects"
note "built $VARIANT in $(cat "$LOGS/build-seconds") s"
