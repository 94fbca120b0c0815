# Every patch of the series passes the tree's checkpatch.pl --strict, or its
# changelog has a 'checkpatch:' paragraph saying why not.
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
checkpatch=$root/pristine/scripts/checkpatch.pl
[ -x "$checkpatch" ] || skip_all "no pristine tree yet (make tree)"
set -- $("$REPO/scripts/apply-series.sh" --list)
[ $# -gt 0 ] || skip_all "the series is empty"
plan $#
for p; do
	# Debian's python3 (with python3-ply) for the spdxcheck.py it runs.
	out=$(cd "$root/pristine" && PATH=/usr/bin:$PATH perl "$checkpatch" --strict -q "$REPO/patches/$p" 2>&1)
	if [ -z "$out" ]; then
		result 0 "$p"
	elif sed '/^---$/q' "$REPO/patches/$p" | grep -q '^checkpatch:'; then
		echo "$out" | sed 's/^/# /' | head -20
		result 0 "$p"
	else
		echo "$out" | sed 's/^/# /' | head -40
		result 1 "$p" "checkpatch --strict complains and the changelog does not say why"
	fi
done
finish
