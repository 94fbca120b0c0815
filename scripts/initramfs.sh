#!/bin/sh
# initramfs.sh VARIANT: the guest's initramfs: busybox-static, /init, the
# checks of tests/guest and its C programs (built static, in /bin), the
# fault inits of initramfs/fault, and the modules
# the checks load (the kernel's static key tests and tests/kmod), packed
# with the tree's own usr/gen_init_cpio so that no root is needed.
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: initramfs.sh VARIANT}"

# The host's busybox-static where the guest is the host's architecture;
# otherwise the architecture's package, fetched and unpacked once.
case $BUSYBOX_PACKAGE in
*:*) BUSYBOX=${BUSYBOX:-$("$REPO/scripts/foreign-busybox.sh" "$BUSYBOX_PACKAGE")} ||
	die "no busybox for $VARIANT_ARCH" ;;
*) BUSYBOX=${BUSYBOX:-/bin/busybox} ;;
esac
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found: install $BUSYBOX_PACKAGE (make deps)"
file "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' ||
	die "$BUSYBOX is not statically linked: install $BUSYBOX_PACKAGE"

out=$VDIR/initramfs.cpio
gen=$VDIR/gen_init_cpio
list=$VDIR/initramfs.list
[ -x "$gen" ] || cc -O2 -o "$gen" "$SRC/usr/gen_init_cpio.c" ||
	die "cannot build $SRC/usr/gen_init_cpio.c"

# Guest programs in C (tests/guest/*.c), linked statically on the host
# (with the cross compiler for another architecture).
bins=$VDIR/guest-bin
rm -rf "$bins"
mkdir -p "$bins"
for c in "$REPO"/tests/guest/*.c "$REPO"/tests/bench/*.c; do
	[ -e "$c" ] || continue
	prog=$bins/$(basename "$c" .c)
	$GUEST_CC -static -O2 -Wall -Werror -o "$prog" "$c" ||
		die "cannot build guest program $c with $GUEST_CC"
done

modules="$OBJ/lib/test_static_key_base.ko $OBJ/lib/test_static_keys.ko"
modules="$modules $(ls "$VDIR"/kmod/*.ko)"
bench=
variant_has "$VARIANT" bench && bench="$REPO/tests/bench/run.sh"

{
	for d in /bin /dev /proc /sys /tmp /lib /checks /modules /fault /bench; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $BUSYBOX 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $REPO/initramfs/init 0755 0 0"
	echo "file /lib/checks.sh $REPO/initramfs/checks.sh 0644 0 0"
	echo "file /lib/run-checks.sh $REPO/initramfs/run-checks.sh 0644 0 0"
	echo "file /lib/keys.sh $REPO/initramfs/keys.sh 0644 0 0"
	# the host's count of the vmlinux's sites (build.sh), for kcore-sites
	[ -f "$LOGS/sites" ] && echo "file /lib/sites $LOGS/sites 0644 0 0"
	for f in "$REPO"/initramfs/fault/*.sh; do
		echo "file /fault/${f##*/} $f 0755 0 0"
	done
	for f in "$REPO"/tests/guest/*.sh; do
		echo "file /checks/${f##*/} $f 0644 0 0"
	done
	for f in $bench; do
		echo "file /bench/${f##*/} $f 0755 0 0"
	done
	for f in "$bins"/*; do
		[ -e "$f" ] && echo "file /bin/${f##*/} $f 0755 0 0"
	done
	for f in $modules; do
		[ -f "$f" ] || die "module $f was not built"
		echo "file /modules/${f##*/} $f 0644 0 0"
	done
} > "$list"
"$gen" "$list" > "$out" || die "gen_init_cpio failed on $list"
