# Every patch of the series passes the tree's checkpatch.pl --strict, or its
# notes below the '---' line have a 'checkpatch:' paragraph that names what checkpatch
# reports: each type of message must be named there by the words below
# (a paragraph that says nothing of a message does not let it pass).
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
checkpatch=$root/pristine/scripts/checkpatch.pl
[ -x "$checkpatch" ] || skip_all "no pristine tree yet (make tree)"
# shellcheck disable=SC2046 # one word per patch
set -- $("$REPO/scripts/apply-series.sh" --list)
[ $# -gt 0 ] || skip_all "the series is empty"

# TYPE and a word the changelog's explanation of that message must use.
named_by() {
	case $1 in
	FILE_PATH_CHANGES) echo MAINTAINERS ;;
	MACRO_ARG_REUSE) echo argument ;;
	AVOID_BUG) echo 'BUG()' ;;
	PREFER_KERNEL_TYPES) echo u64 ;;
	CAMELCASE) echo CamelCase ;;
	LONG_LINE | LONG_LINE_STRING | LONG_LINE_COMMENT) echo columns ;;
	*) echo "$1" ;;
	esac
}

plan $#
for p; do
	# Debian's python3 (with python3-ply) for the spdxcheck.py it runs.
	out=$(cd "$root/pristine" && PATH=/usr/bin:$PATH perl "$checkpatch" --strict -q \
		--terse --show-types "$TREE_PATCHES/$p" 2>&1 |
		grep -v '^total: 0 errors, 0 warnings, 0 checks,')
	if [ -z "$out" ]; then
		result 0 "$p"
		continue
	fi
	# The paragraph is a note below the '---' line (git am drops it).
	why=$(sed -n '/^---$/,/^diff --git/p' "$TREE_PATCHES/$p" | sed 's/^    //' |
		sed -n '/^checkpatch:/,/^$/p' | tr '\n' ' ')
	unnamed=
	for type in $(echo "$out" | sed -n 's/.*: \(WARNING\|CHECK\|ERROR\):\([A-Z_0-9]*\):.*/\2/p' | sort -u); do
		case $why in
		*"$(named_by "$type")"*) ;;
		*) unnamed="$unnamed $type" ;;
		esac
	done
	echo "$out" | sed 's/^/# /' | head -20
	if [ -z "$why" ]; then
		result 1 "$p" "checkpatch --strict complains and the changelog has no checkpatch: paragraph"
	elif [ -n "$unnamed" ]; then
		result 1 "$p" "the changelog's checkpatch: paragraph does not name:$unnamed"
	else
		result 0 "$p"
	fi
done
finish
