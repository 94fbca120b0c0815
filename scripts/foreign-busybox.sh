#!/bin/sh
# foreign-busybox.sh PACKAGE:ARCH: print the path of that architecture's
# static busybox, from Debian's package (busybox-static:arm64), downloaded
# with apt-get download and unpacked under $CACHE_DIR once.  Nothing is
# installed on the host: the package would replace the host's own busybox.
set -eu
. "$(dirname "$0")/lib.sh"
pkg=${1:?usage: foreign-busybox.sh PACKAGE:ARCH}
arch=${pkg#*:}
dir=$CACHE_DIR/busybox-$arch
if [ -x "$dir/bin/busybox" ]; then
	echo "$dir/bin/busybox"
	exit 0
fi
dpkg --print-foreign-architectures | grep -qx "$arch" ||
	die "dpkg does not know architecture $arch: as root, dpkg --add-architecture $arch && apt-get update (make deps ARCH=$arch does it)"
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
log=$dir.tmp/apt.log
note "fetching $pkg (log: $log)"
(cd "$dir.tmp" && apt-get download "$pkg") > "$log" 2>&1 ||
	die "apt-get download $pkg failed; log: $log"
dpkg-deb -x "$dir.tmp"/*.deb "$dir.tmp/root" ||
	die "cannot unpack $(ls "$dir.tmp"/*.deb)"
[ -x "$dir.tmp/root/bin/busybox" ] || die "$pkg has no /bin/busybox"
rm -rf "$dir"
mkdir -p "$dir/bin"
mv "$dir.tmp/root/bin/busybox" "$dir/bin/busybox"
rm -rf "$dir.tmp"
echo "$dir/bin/busybox"
