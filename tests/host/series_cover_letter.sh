# The tree's cover/0000-cover-letter.patch (patches/cover/ for 6.1) is the
# letter of this series: written again from the same series and files it
# comes out the same, apart from the counts of the last make check, which
# belong to the cache it ran in.
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
[ -f "$root/pristine/.git/static-keys-pristine" ] || skip_all "no pristine tree yet (make tree)"
. "$REPO/scripts/lib.sh"
! why=$(letter_waits) || skip_all "$why, so no letter"
plan 2
letter=$TREE_PATCHES/cover/0000-cover-letter.patch
new=${TMPDIR:-/tmp}/cover-letter.$$
"$REPO/scripts/cover-letter.sh" "$new" > "$new.log" 2>&1
result $? cover_letter_written "$(tail -1 "$new.log")"
drop_counts() { sed '/^The last make check/,/^$/d' "$1"; }
if [ ! -s "$new" ]; then
	result 1 cover_letter_current "no letter written to compare with $letter"
elif [ ! -f "$letter" ]; then
	result 1 cover_letter_current "$letter missing: run 'make cover-letter'"
elif drop_counts "$new" > "$new.cmp" && drop_counts "$letter" | diff -u - "$new.cmp" > "$new.diff"; then
	result 0 cover_letter_current
else
	sed 's/^/# /' "$new.diff" | head -20
	result 1 cover_letter_current "$letter is not the letter of this series and its figures: run 'make cover-letter'"
fi
rm -f "$new" "$new.log" "$new.cmp" "$new.diff"
finish
