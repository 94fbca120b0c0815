#!/bin/sh
# breaks.sh [NAME...]: the checks shown to catch what they are there for.
# Each deliberate break of patches/breaks/ (NAME.patch; all by default)
# goes on top of the series in a worktree of its own (variant 'breaks',
# or ARCH-breaks for a break whose 'Arch:' line names another
# architecture), whose kernel is built again (after the first, only what
# the break touches: prepare.sh pops the last break and pushes the next)
# and booted with only the guest checks its 'Caught-by:' line names
# (first, for each architecture, the series alone, the control, must pass
# all of them).  A 'Caught-by:' name that is no guest check is a row the
# host adds to the report (sites.*: the linked vmlinux's).  A break is
# caught when one of the named checks fails, or, for a break meant to
# crash the kernel, when it dies where its 'Crash-site:' line says
# (scripts/break-verdict.py); one that is not caught fails this script.
# Logs: $ROOT/breaks/logs/NAME/.  Each verdict is a row of the tree's
# breaks record (scripts/records.py), pinned to the code its kernel
# applied, written as the break ends; breaks.md is rendered from it.  A
# control whose row is current and passed with the same checks is not
# booted again (the record proves it for this code); NAME 'control' (or control-ARCH)
# alone boots that control, with every check of that architecture's
# breaks (make check-all proves the rows one at a time).
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(tree_root)
dir=$TREE_PATCHES/breaks
[ -d "$dir" ] || die "no deliberate breaks for $TREE ($dir does not exist)"
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # one word per break
	set -- $(cd "$dir" && ls ./*.patch | sed 's|^\./||; s|\.patch$||')
fi
# is_control NAME: whether NAME is an architecture's control, not a break
is_control() {
	case $1 in control | control-*) return 0 ;; esac
	return 1
}
total=0
for name; do
	is_control "$name" && continue
	[ -f "$dir/$name.patch" ] || die "no break $dir/$name.patch (nor a control: control, control-ARCH)"
	total=$((total + 1))
done
i=0 missed=''

# field NAME FIELD: a header line of break NAME ("Caught-by", "Arch", ...)
field() {
	sed -n "s/^$2: *//p" "$dir/$1.patch" | head -1
}

# break_arch NAME: the architecture the break (or control) is for
# (x86_64 by default)
break_arch() {
	case $1 in
	control) echo x86_64 ;;
	control-*) echo "${1#control-}" ;;
	*)
		_a=$(field "$1" Arch)
		echo "${_a:-x86_64}"
		;;
	esac
}

# guest_checks CHECKS: those of the comma-separated CHECKS that the guest
# runs (tests/guest/NAME.sh), comma-separated; boot_log if none is.
guest_checks() {
	_out=''
	for _c in $(echo "$1" | tr ',' ' '); do
		[ -f "$REPO/tests/guest/$_c.sh" ] || continue
		case ",$_out," in *",$_c,"*) ;; *) _out=${_out:+$_out,}$_c ;; esac
	done
	echo "${_out:-boot_log}"
}

# boot_breaks ARCH NAME CHECKS [PATCH]: the series (and PATCH on top) built
# in ARCH's breaks worktree and booted as NAME with only the guest checks
# of CHECKS; its report in $LOGS_DIR/report.txt and .json.  Exit status:
# the report's.
boot_breaks() {
	_variant=breaks _run=series
	[ "$1" = x86_64 ] || _variant=$1-breaks _run=$1-series
	export LOGS_DIR="$ROOT/breaks/logs/$2"
	rm -rf "$LOGS_DIR"
	mkdir -p "$LOGS_DIR"
	_series=$ROOT/breaks/series.$2
	{ series_patches "$TREE_SERIES"; [ -z "${4:-}" ] || echo "$4"; } > "$_series"
	# vmlinux linked again every time: a break of a host tool that runs at
	# the link (scripts/sorttable) leaves no object changed when it is
	# pushed or popped, and kbuild would keep the vmlinux of the last one
	rm -f "$ROOT/$_variant/src/.build/vmlinux"
	SERIES=$_series "$REPO/scripts/variant.sh" "$_variant" build ||
		die "$2: the kernel was not built (log: $LOGS_DIR/build.err)"
	"$REPO/scripts/boot.sh" "$_variant" "$2" "harness.only=$(guest_checks "$3")" \
		harness.check_timeout=240 || true
	"$REPO/scripts/report.py" --json "$LOGS_DIR/report.json" "$_run=$LOGS_DIR:$2" \
		> "$LOGS_DIR/report.txt"
}

# record NAME VERDICT DETAIL: the row of NAME in the tree's breaks record
# (scripts/records.py), pinned to the code its kernel applied.
record() {
	"$REPO/scripts/records.py" set breaks "$1" "$2" --detail "$3" ||
		die "cannot write the breaks record"
}

archs=$(for name; do break_arch "$name"; done | sort -u)
for arch in $archs; do
	# The control: the series without a break, booted with every check
	# this architecture's breaks name, must pass them, or a failure under
	# a break shows nothing.
	control=control
	[ "$arch" = x86_64 ] || control=control-$arch
	# every check of this architecture's breaks, whichever are named
	all_checks=''
	for path in "$dir"/*.patch; do
		name=$(basename "$path" .patch)
		[ "$(break_arch "$name")" = "$arch" ] || continue
		all_checks=${all_checks:+$all_checks,}$(field "$name" Caught-by | tr -d ' ')
	done
	if "$REPO/scripts/records.py" proven breaks "$control" "with checks $all_checks"; then
		note "$control: proven on this code with these checks by its record, not booted again"
	else
		note "$control: the series without a break ($arch), checks $all_checks (logs: $ROOT/breaks/logs/$control)"
		if ! boot_breaks "$arch" "$control" "$all_checks"; then
			record "$control" fail "$(grep -m1 FAIL "$LOGS_DIR/report.txt" || tail -1 "$LOGS_DIR/report.txt")"
			"$REPO/scripts/records.py" render
			die "$control: the series fails the checks without a break, so no break can be shown (report: $LOGS_DIR/report.txt)"
		fi
		record "$control" ok "$(tail -1 "$LOGS_DIR/report.txt") with checks $all_checks"
	fi

	for name; do
		is_control "$name" && continue
		[ "$(break_arch "$name")" = "$arch" ] || continue
		i=$((i + 1))
		checks=$(field "$name" Caught-by | tr -d ' ')
		[ -n "$checks" ] || die "$dir/$name.patch has no 'Caught-by:' line"
		crash_site=$(field "$name" Crash-site)
		note "break $i of $total: $name ($arch), caught by $checks${crash_site:+ or a crash in $crash_site}? (logs: $ROOT/breaks/logs/$name)"
		boot_breaks "$arch" "$name" "$checks" "breaks/$name.patch" || true
		if verdict=$("$REPO/scripts/break-verdict.py" "$LOGS_DIR/report.json" "$checks" \
			"$LOGS_DIR/$name.serial" "$crash_site"); then
			note "break $name: caught: $verdict"
			record "$name" ok "caught: $verdict"
		else
			note "break $name: NOT caught: $verdict (report: $LOGS_DIR/report.txt)"
			record "$name" fail "not caught: $verdict"
			missed="$missed $name"
		fi
	done
done
"$REPO/scripts/records.py" render
[ -z "$missed" ] || die "breaks not caught:$missed"
if [ "$total" = 0 ]; then
	note "no break named: the control alone"
else
	note "all $total breaks caught"
fi
