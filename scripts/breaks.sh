#!/bin/sh
# breaks.sh [NAME...]: the checks shown to catch what they are there for.
# Each deliberate break of patches/breaks/ (NAME.patch; all by default)
# goes on top of the series in a worktree of its own (variant 'breaks'),
# whose kernel is built again (after the first, only what the break
# touches: prepare.sh pops the last break and pushes the next) and booted
# with only the checks its 'Caught-by:' line names (first the series
# alone, the control, must pass all of them).  A break is caught when
# one of those checks fails, or, for a break meant to crash the kernel,
# when it dies where its 'Crash-site:' line says (scripts/break-verdict.py);
# one that is not caught fails this script.  Logs: $ROOT/breaks/logs/NAME/.
# Each verdict is a row of the tree's breaks record (scripts/records.py),
# pinned to the code its kernel applied; breaks.md is rendered from it.
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(tree_root)
dir=$TREE_PATCHES/breaks
[ -d "$dir" ] || die "no deliberate breaks for $TREE ($dir does not exist)"
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # one word per break
	set -- $(cd "$dir" && ls ./*.patch | sed 's|^\./||; s|\.patch$||')
fi
total=$# i=0 missed=
# The control: the series without a break, booted with every check the
# breaks name, must pass them, or a failure under a break shows nothing.
all_checks=
for name; do
	[ -f "$dir/$name.patch" ] || die "no break $dir/$name.patch"
	for c in $(sed -n 's/^Caught-by: *//p' "$dir/$name.patch" | tr ',' ' '); do
		case ",$all_checks," in *",$c,"*) ;; *) all_checks=${all_checks:+$all_checks,}$c ;; esac
	done
done
# boot_breaks NAME CHECKS [PATCH]: the series (and PATCH on top) built in
# the breaks worktree and booted as NAME with only CHECKS; its report in
# $LOGS_DIR/report.txt and .json.  Exit status: the report's.
boot_breaks() {
	export LOGS_DIR="$ROOT/breaks/logs/$1"
	rm -rf "$LOGS_DIR"
	mkdir -p "$LOGS_DIR"
	_series=$ROOT/breaks/series.$1
	{ series_patches "$TREE_SERIES"; [ -z "${3:-}" ] || echo "$3"; } > "$_series"
	SERIES=$_series "$REPO/scripts/variant.sh" breaks build ||
		die "$1: the kernel was not built (log: $LOGS_DIR/build.err)"
	"$REPO/scripts/boot.sh" breaks "$1" "harness.only=$2" || true
	"$REPO/scripts/report.py" --json "$LOGS_DIR/report.json" "series=$LOGS_DIR:$1" \
		> "$LOGS_DIR/report.txt"
}

# record NAME VERDICT DETAIL: the row of NAME in the tree's breaks record
# (scripts/records.py), pinned to the code its kernel applied.
record() {
	"$REPO/scripts/records.py" set breaks "$1" "$2" --detail "$3" ||
		die "cannot write the breaks record"
}

note "control: the series without a break, checks $all_checks (logs: $ROOT/breaks/logs/control)"
if ! boot_breaks control "$all_checks"; then
	record control fail "$(grep -m1 FAIL "$LOGS_DIR/report.txt" || tail -1 "$LOGS_DIR/report.txt")"
	"$REPO/scripts/records.py" render
	die "control: the series fails the checks without a break, so no break can be shown (report: $LOGS_DIR/report.txt)"
fi
record control ok "$(tail -1 "$LOGS_DIR/report.txt") with checks $all_checks"
for name; do
	i=$((i + 1))
	patch=$dir/$name.patch
	[ -f "$patch" ] || die "no break $patch"
	checks=$(sed -n 's/^Caught-by: *//p' "$patch" | tr -d ' ')
	[ -n "$checks" ] || die "$patch has no 'Caught-by:' line"
	crash_site=$(sed -n 's/^Crash-site: *//p' "$patch")
	note "break $i of $total: $name, caught by $checks${crash_site:+ or a crash in $crash_site}? (logs: $ROOT/breaks/logs/$name)"
	boot_breaks "$name" "$checks" "breaks/$name.patch" || true
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
"$REPO/scripts/records.py" render
[ -z "$missed" ] || die "breaks not caught:$missed"
note "all $total breaks caught"
