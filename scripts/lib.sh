# Sourced by every harness script: where things live, and how to fail.
#
# Layout (all outside the repository):
#   $CACHE_DIR/<pkg-version>/pristine      the unpacked linux-source tarball,
#                                         a git repository with one commit
#   $CACHE_DIR/<pkg-version>/<variant>/src    git worktree of pristine
#   $CACHE_DIR/<pkg-version>/<variant>/src/.build   make O= output
#   $CACHE_DIR/<pkg-version>/<variant>/logs  build and boot logs

REPO=${REPO:-$(cd "$(dirname "$0")/.." && pwd)}
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/static-keys}

# The tree is a row of configs/tree/ (make TREE=6.12).  By default, the
# one Debian's linux-source package depends on here (6.12 on Debian 13),
# else 6.1 (Debian 12).
tree_default() {
	_dep=$(apt-cache show linux-source 2>/dev/null |
		sed -n 's/^Depends:.*linux-source-\([0-9][0-9.]*\).*/\1/p' | head -1)
	if [ -n "$_dep" ] && [ -f "$REPO/configs/tree/$_dep.conf" ]; then
		echo "$_dep"
	else
		echo 6.1
	fi
}
TREE=${TREE:-$(tree_default)}
if [ ! -f "$REPO/configs/tree/$TREE.conf" ]; then
	printf '%s: error: no tree %s (one of: %s)\n' "${0##*/}" "$TREE" \
		"$(cd "$REPO/configs/tree" && ls ./*.conf | sed 's|^\./||; s|\.conf$||' | tr '\n' ' ')" >&2
	exit 1
fi
. "$REPO/configs/tree/$TREE.conf"
# The tree's series file, the directory of its patches (and of the
# harness's check/, bench/, breaks/ and cover/ for it), of its results,
# and of make bench's.
TREE_SERIES=$REPO/$TREE_SERIES
TREE_PATCHES=$REPO/$TREE_PATCHES
TREE_DOCS=$REPO/$TREE_DOCS
TREE_BENCH=$REPO/$TREE_BENCH
export TREE TREE_SERIES TREE_PATCHES TREE_DOCS TREE_BENCH
# series: the series applied; distro: the tree as packaged; off: the tree
# with CONFIG_JUMP_LABEL=n; series-off: the series with CONFIG_JUMP_LABEL=n.
# Each is an x86-64 kernel; ARCH-VARIANT (arm64-series, ...) is the same
# for another architecture of configs/arch/.  HARNESS_ARCH=arm64 (make
# ARCH=arm64) makes the four arm64 ones the variants; otherwise they are
# x86-64's four and arm64's series.
case ${HARNESS_ARCH:-} in
"") VARIANTS="series distro off series-off arm64-series" ;;
x86_64) VARIANTS="series distro off series-off" ;;
*) VARIANTS="$HARNESS_ARCH-series $HARNESS_ARCH-distro $HARNESS_ARCH-off $HARNESS_ARCH-series-off" ;;
esac
# A slice of make check (make check VARIANTS=series,distro): those kernels
# only; 'host' (the harness's own tests) is not a kernel.
if [ -n "${CHECK_VARIANTS:-}" ]; then
	VARIANTS=$(echo $CHECK_VARIANTS | tr ' ' '\n' | grep -vx host | tr '\n' ' ')
fi
# make bench's kernels: series, distro and off with the bench patches on
# top (the getppid demo branch, jump_label_init() timed; the list is the
# architecture's BENCH_SERIES in patches/bench/), each built twice: at -O2
# as distributions build (bench-o2-*, configs/o2.config) and at
# tinyconfig's -Os (bench-*); x86-64's unless HARNESS_ARCH names another
# architecture.
BENCH_VARIANTS="bench-o2-series bench-o2-distro bench-o2-off bench-series bench-distro bench-off"
case ${HARNESS_ARCH:-x86_64} in
x86_64) ;;
*) BENCH_VARIANTS=$(for v in $BENCH_VARIANTS; do printf '%s ' "$HARNESS_ARCH-$v"; done) ;;
esac

# What each variant is made of, one word per trait: series (the series
# applied), jump-labels (CONFIG_JUMP_LABEL=y), bench (the bench patches),
# o2 (configs/o2.config: -O2 instead of -Os), debug (configs/debug.config:
# lockdep, UBSAN, lockup detectors; make check-debug).
variant_traits() {
	case $1 in
	series) echo series jump-labels ;;
	distro) echo jump-labels ;;
	off) echo ;;
	series-off) echo series ;;
	debug) echo series jump-labels debug ;;
	bench-series) echo series jump-labels bench ;;
	bench-distro) echo jump-labels bench ;;
	bench-off) echo bench ;;
	bench-o2-series | bench-o2-distro | bench-o2-off)
		echo "$(variant_traits "bench-${1#bench-o2-}") o2" ;;
	# The configuration people build: the architecture's defconfig, not
	# tinyconfig, under the same fragments (make check-all).
	defconfig-series | defconfig-distro)
		echo "$(variant_traits "${1#defconfig-}") defconfig" ;;
	# make bisect's own worktrees, so that proving prefixes leaves the
	# check's kernels as they are.
	bisect-series | bisect-series-off) variant_traits "${1#bisect-}" ;;
	# make breaks' worktree: the series with one deliberate break on top.
	breaks) variant_traits series ;;
	*-*) [ -f "$REPO/configs/arch/${1%%-*}.conf" ] || return 1
		variant_traits "${1#*-}" ;;
	*) return 1 ;;
	esac
}

untracked_files() {
	git -C "$1" ls-files --others -- . ':(exclude).build' ':(exclude).pc'
}

# Back to the pristine commit: tracked files restored, untracked removed,
# the build output kept.
reset_worktree() {
	rm -rf "$1/.pc"
	git -C "$1" checkout -q -f HEAD
	git -C "$1" clean -q -f -d -x -e /.build
}

# series_patches FILE: the patch names a quilt series file lists, in order.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]].*//' "$1" | grep -v '^$' || true
}

# patches_code_hash: a hash of what the patches named on stdin (relative
# to PATCHES, the tree's patches/ by default) change, in that order: each
# one's text from its first 'diff --git' on, so that a changelog edit
# keeps it.  What make bisect's proofs, make bench's results and the
# worktrees' records (prepare.sh) are keyed by.
patches_code_hash() {
	while read -r _p; do
		_f=${PATCHES:-$TREE_PATCHES}/$_p
		# a plain diff (a break of make breaks) from its first '--- '
		if grep -q '^diff --git ' "$_f"; then
			sed -n '/^diff --git /,$p' "$_f"
		else
			sed -n '/^--- /,$p' "$_f"
		fi
	done | sha256sum | cut -d' ' -f1
}

# code_hash VARIANT [PATCH]: the code hash of what VARIANT's kernel
# applies (variant_series), and of PATCH on top (a break of make
# breaks): what a record of a proof on that kernel is pinned to
# (scripts/records.py).
code_hash() {
	{
		variant_series "$1"
		[ -z "${2:-}" ] || echo "$2"
	} | PATCHES=$TREE_PATCHES patches_code_hash
}

# prefix_code_hashes: "N HASH" for every prefix of the tree's series, the
# code hash of its first N patches: what make bisect's proofs are keyed by.
prefix_code_hashes() {
	_all=$(series_patches "$TREE_SERIES")
	_total=$(echo "$_all" | grep -c .)
	_n=0
	while [ "$_n" -lt "$_total" ]; do
		_n=$((_n + 1))
		echo "$_n $(echo "$_all" | head -n "$_n" | PATCHES=$TREE_PATCHES patches_code_hash)"
	done
}

# bench_code_hash: the code hash of what make bench measures, the series
# and the bench patches of the architecture loaded (load_arch).  make
# bench writes it into its results; a host test holds them to it.
bench_code_hash() {
	{
		series_patches "$TREE_SERIES"
		series_patches "$TREE_PATCHES/bench/$BENCH_SERIES" | sed 's|^|bench/|'
	} | PATCHES=$TREE_PATCHES patches_code_hash
}

# letter_waits: why the tree's cover letter cannot be written yet, on
# standard output, and true; false once it can.  The letter quotes the
# tree's make bench, so none before its first.
letter_waits() {
	[ ! -s "$TREE_BENCH/results.md" ] || return 1
	echo "no make bench results for $TREE yet ($TREE_BENCH/results.md)"
}

# measured_code_hash DIR: the code hash a make bench's results in DIR
# were measured on (its measured.json, which scripts/bench-report.py
# writes), or nothing.
measured_code_hash() {
	sed -n 's/.*"code_hash": *"\([0-9a-f]*\)".*/\1/p' "$1/measured.json" 2>/dev/null
}

# watch_progress PID WHAT: wait for PID, and while it runs say that WHAT is
# still going, with the seconds elapsed and what the caller's
# progress_status function prints: on a terminal one line updated every
# 5 s, elsewhere (CI, or PROGRESS_LINES set: two steps printing at once)
# a line every 30 s (PROGRESS_INTERVAL overrides).
# Returns PID's exit status.
watch_progress() {
	_pid=$1
	_what=$2
	_start=$(date +%s)
	_tty=${PROGRESS_TTY:-}
	[ -t 2 ] && [ -z "${PROGRESS_LINES:-}" ] && _tty=y
	_every=${PROGRESS_INTERVAL:-$([ -n "$_tty" ] && echo 5 || echo 30)}
	while kill -0 "$_pid" 2>/dev/null; do
		_i=0
		while [ "$_i" -lt "$_every" ] && kill -0 "$_pid" 2>/dev/null; do
			sleep 1
			_i=$((_i + 1))
		done
		kill -0 "$_pid" 2>/dev/null || break
		_line="$_what: $(($(date +%s) - _start)) s, $(progress_status)"
		if [ -n "$_tty" ]; then
			printf '\r%s\033[K' "$_line" >&2
		else
			printf '%s: %s\n' "${0##*/}" "$_line" >&2
		fi
	done
	[ -z "$_tty" ] || printf '\r\033[K' >&2
	_rc=0
	wait "$_pid" || _rc=$?
	return "$_rc"
}

# progress_of N TOTAL START WHAT: how far a step that counts is, for a
# progress_status function: "N of about TOTAL WHAT, about M min left" (the
# pace since START, seconds since the epoch, carried on to TOTAL), or "N
# WHAT" when no TOTAL is known.
progress_of() {
	_n=$1 _total=$2 _start=$3 _what=$4
	if [ -z "$_total" ]; then
		echo "$_n $_what"
	elif [ "$_n" -lt 20 ] || [ "$_n" -ge "$_total" ]; then
		echo "$_n of about $_total $_what"
	else
		echo "$_n of about $_total $_what, about $(( ((_total - _n) * ($(date +%s) - _start) / _n + 59) / 60 )) min left"
	fi
}

# time_left TOOK START: how long is left of a step that took TOOK seconds
# the last time (nothing known when TOOK is empty), started at START.
time_left() {
	_el=$(( $(date +%s) - $2 ))
	if [ -z "$1" ]; then
		echo "time left not known yet"
	elif [ "$1" -gt "$_el" ]; then
		echo "about $(( $1 - _el )) s left"
	else
		echo "longer than the last such run ($1 s)"
	fi
}

# qemu_boot TIMEOUT SERIAL KERNEL INITRAMFS APPEND WHAT QEMU [WORD...]: the
# one way the harness starts a guest: QEMU (the emulator's binary) with
# WORDS (machine, CPU, accelerator, memory, devices: the caller's row's),
# no display, no monitor, no reboot, its console in SERIAL (the first
# serial port, before any WORDS name), KERNEL and INITRAMFS booted with
# APPEND, killed after TIMEOUT seconds; waited for with progress (WHAT,
# and the caller's progress_status).  QEMU's own messages go to SERIAL's
# name with .qemu for .serial.  The status is timeout(1)'s.
qemu_boot() {
	_timeout=$1 _serial=$2 _kernel=$3 _initrd=$4 _append=$5 _what=$6 _qemu=$7
	shift 7
	timeout -k 5 "$_timeout" "$_qemu" -display none -monitor none -no-reboot \
		-serial "file:$_serial" "$@" -kernel "$_kernel" -initrd "$_initrd" \
		-append "$_append" > "${_serial%.serial}.qemu" 2>&1 &
	watch_progress $! "$_what"
}

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# The package version names the cache, so that an updated package never
# mixes with trees unpacked from an older one.
pkg_version() {
	# SOURCE_VERSION: the harness's own tests name a cache of a made-up tree
	if [ -n "${SOURCE_VERSION:-}" ]; then
		echo "$SOURCE_VERSION"
		return
	fi
	dpkg-query -W -f='${Version}' "$SOURCE_PKG" 2>/dev/null ||
		die "package $SOURCE_PKG is not installed (run 'make deps')"
}

tree_root() {
	echo "$CACHE_DIR/$(pkg_version)"
}

check_variant() {
	variant_traits "$1" > /dev/null ||
		die "unknown variant '$1' (one of: $VARIANTS $BENCH_VARIANTS)"
}

# variant_base VARIANT: the configuration its fragments are merged onto,
# tinyconfig or defconfig (config.sh).
variant_base() {
	if variant_has "$1" defconfig; then
		echo defconfig
	else
		echo tinyconfig
	fi
}

# variant_has VARIANT TRAIT
variant_has() {
	case " $(variant_traits "$1") " in *" $2 "*) ;; *) return 1 ;; esac
}

variant_has_series() {
	variant_has "$1" series
}

variant_has_jump_labels() {
	variant_has "$1" jump-labels
}

# variant_series VARIANT: the quilt series VARIANT applies (names relative
# to the tree's patches/), printed to stdout: the checks' patches, then
# the series and the bench patches as the variant has them.  SERIES
# replaces the tree's series file (make bisect's prefixes).  After set_variant VARIANT
# (the bench patches are its architecture's BENCH_SERIES).
variant_series() {
	# The checks' own kernel patches (patches/check/, not for upstream:
	# test fixtures such as a site in built-in __exit text) come first,
	# on every kernel that is checked, so that make bisect's prefixes
	# still grow one patch at a time.
	if ! variant_has "$1" bench && [ -f "${PATCHES:-$TREE_PATCHES}/check/series" ]; then
		series_patches "${PATCHES:-$TREE_PATCHES}/check/series" | sed 's|^|check/|'
	fi
	if variant_has_series "$1"; then
		series_patches "${SERIES:-$TREE_SERIES}"
	fi
	if variant_has "$1" bench; then
		series_patches "$TREE_PATCHES/bench/$BENCH_SERIES" | sed 's|^|bench/|'
	fi
}

# variant_arch VARIANT: the architecture (a file of configs/arch/).
variant_arch() {
	if [ -f "$REPO/configs/arch/${1%%-*}.conf" ]; then
		echo "${1%%-*}"
	else
		echo x86_64
	fi
}

# kconfig_merge SRC OBJ FRAGMENT...: tinyconfig (KCONFIG_BASE: another
# base, defconfig) in the build directory OBJ of the tree SRC, then the
# fragments merged into it with the tree's merge_config.sh, for the row's
# KERNEL_ARCH and CROSS_COMPILE.  A defconfig base loses its modules
# first (mod2noconfig: arm64's defconfig has hundreds, which no check
# loads), so that the kernel built is the image and the modules the
# fragments ask for.
kconfig_merge() {
	_src=$1 _obj=$2
	shift 2
	_base=${KCONFIG_BASE:-tinyconfig}
	make -C "$_src" O="$_obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" "$_base" &&
		{ [ "$_base" = tinyconfig ] ||
			make -C "$_src" O="$_obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" mod2noconfig; } &&
		(cd "$_src" && ARCH=$KERNEL_ARCH CROSS_COMPILE=$CROSS_COMPILE \
			scripts/kconfig/merge_config.sh -O "$_obj" "$_obj/.config" "$@")
}

# cross_setup [ARCH...]: for make cross-build's scripts, the series
# variant's paths, out ($ROOT/cross), and rows and n: the architectures
# named, or every one of configs/cross/, and how many.
cross_setup() {
	set_variant series
	[ -f "$SRC/kernel/jump_label.c" ] || die "no series tree in $SRC: run make prepare"
	out=$ROOT/cross
	mkdir -p "$out"
	rows=
	# shellcheck disable=SC2048 # the names given, or every row's
	for _a in ${*:-$(cd "$REPO/configs/cross" && ls ./*.conf | sed 's|^\./||; s|\.conf$||')}; do
		[ -f "$REPO/configs/cross/$_a.conf" ] || die "no configs/cross/$_a.conf"
		rows="$rows $_a"
	done
	# shellcheck disable=SC2034,SC2086 # the callers'; one word per row
	n=$(echo $rows | wc -w)
}

# cross_record ARCH STEP VERDICT TEXT: the row "ARCH STEP" (STEP: build or
# boot) of the tree's cross-build record (scripts/records.py), VERDICT
# ok, fail, skip (not tried, TEXT says why) or expected (fails as the
# tree without the series does).
cross_record() {
	"$REPO/scripts/records.py" set cross-build "$1 $2" "$3" --detail "$4" ||
		die "cannot write the cross-build record"
}

# tree_fragments ARCH: the tree's own config fragments that exist, in
# merge order: configs/tree/TREE.config (its options), then
# TREE-ARCH.config (its names for options the common fragments name as
# 6.1 does).
tree_fragments() {
	for _f in "$REPO/configs/tree/$TREE.config" "$REPO/configs/tree/$TREE-$1.config"; do
		[ ! -f "$_f" ] || echo "$_f"
	done
}

# in_archive PACKAGE: the package index knows PACKAGE (a cross compiler
# may be newer than this Debian: gcc-loongarch64-linux-gnu came with 13).
in_archive() {
	apt-cache show "$1" > /dev/null 2>&1
}

# arch_has_backend: whether the tree's Kconfig of the row's KERNEL_ARCH
# selects HAVE_ARCH_JUMP_LABEL (6.12's parisc has the backend's file but
# does not select it).
arch_has_backend() {
	grep -Eq '^[[:space:]]*select HAVE_ARCH_JUMP_LABEL([[:space:]]|$)' "$SRC/arch/$KERNEL_ARCH/Kconfig"
}

# load_arch ARCH: the variables of ARCH's row, configs/arch/ARCH.conf.
load_arch() {
	[ -f "$REPO/configs/arch/$1.conf" ] ||
		die "no architecture '$1' (one of: $(cd "$REPO/configs/arch" && ls ./*.conf | sed 's|^\./||; s|\.conf$||' | tr '\n' ' '))"
	. "$REPO/configs/arch/$1.conf"
}

# Per-variant paths, and the variables of its architecture's row
# (configs/arch/ARCH.conf); call set_variant first.
# shellcheck disable=SC2034 # the callers' variables
set_variant() {
	check_variant "$1"
	VARIANT=$1
	VARIANT_ARCH=$(variant_arch "$1")
	load_arch "$VARIANT_ARCH"
	ROOT=$(tree_root)
	PRISTINE=$ROOT/pristine
	VDIR=$ROOT/$VARIANT
	SRC=$VDIR/src
	OBJ=${BUILD_DIR:-$SRC/.build}
	LOGS=${LOGS_DIR:-$VDIR/logs}
}

# variant_bootable VARIANT: whether what boot.sh boots of VARIANT, its
# kernel image and initramfs, is built (a subshell: sets nothing).
variant_bootable() (
	set_variant "$1"
	[ -f "$OBJ/$KERNEL_IMAGE" ] && [ -f "$VDIR/initramfs.cpio" ]
)

# The pristine tree's commit as every machine makes it: the tarball's tree
# with a fixed author, committer and message, dated by the tarball (dpkg
# keeps its time), so that its id names the same base everywhere.
# pristine_commit_env CMD...: CMD with that identity.
pristine_commit_env() {
	_when="@$(stat -c %Y "$TARBALL") +0000"
	GIT_AUTHOR_NAME=static-keys-harness GIT_AUTHOR_EMAIL=harness@localhost \
		GIT_COMMITTER_NAME=static-keys-harness GIT_COMMITTER_EMAIL=harness@localhost \
		GIT_AUTHOR_DATE=$_when GIT_COMMITTER_DATE=$_when "$@"
}

# pristine_commit PRISTINE: that commit's id, computed, not written (an
# older cache's own commit has the same tree and another id; this one is
# what tree.sh makes now).
pristine_commit() {
	_who="static-keys-harness <harness@localhost> $(stat -c %Y "$TARBALL") +0000"
	printf 'tree %s\nauthor %s\ncommitter %s\n\n%s\n' \
		"$(git -C "$1" rev-parse 'HEAD^{tree}')" "$_who" "$_who" \
		"$SOURCE_PKG $(pkg_version): $TARBALL as unpacked" |
		git hash-object -t commit --stdin
}
