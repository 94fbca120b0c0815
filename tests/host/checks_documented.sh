# Documentation/checks.md has a row for every check the guest runs
# (tests/guest/*.sh) and every one of the harness's own tests
# (tests/host/), so that what a check asserts can be read without its
# code.
. "${CHECKS_LIB:?}"
doc=$REPO/Documentation/checks.md
plan 2
missing=
for f in "$REPO"/tests/guest/*.sh; do
	n=$(basename "$f" .sh)
	grep -q "^| \`$n\` |" "$doc" || missing="$missing $n"
done
result "$([ -z "$missing" ]; echo $?)" every_guest_check_documented "no row in Documentation/checks.md for:$missing"
missing=
for f in "$REPO"/tests/host/*.sh "$REPO"/tests/host/*.py; do
	n=$(basename "$f"); n=${n%.*}
	grep -q "^| host: \`$n\` |" "$doc" || missing="$missing $n"
done
result "$([ -z "$missing" ]; echo $?)" every_host_test_documented "no row in Documentation/checks.md for:$missing"
finish
