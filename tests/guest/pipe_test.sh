# The pipe-test program (tests/guest/pipe-test.c, the benchmark of make
# bench) completes its round trips and reports a time.
. "${CHECKS_LIB:-/lib/checks.sh}"
plan 1
out=$(pipe-test 2000)
echo "$out" | grep -Eq '^2000 round trips in [1-9][0-9]* ns$'
result $? round_trips "pipe-test said: $out"
finish
