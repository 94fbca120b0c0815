# make bench's guest program (tests/bench/bench.c) runs on every kernel
# of make check too, so that a kernel or harness change that breaks one of
# its loops shows here, as a failure, rather than as a missing figure of
# the next make bench.  Each loop must report a time above zero.
. "${CHECKS_LIB:-/lib/checks.sh}"
plan 4
for mode in pipe pipe-self yield getppid; do
	out=$(bench "$mode" 2000 2>&1)
	name=$(echo "$mode" | tr - _)_ns
	echo "$out" | grep -Eq "^${name}=[1-9][0-9]*$"
	result $? "${name}_reported" "bench $mode 2000 said: $out"
done
finish
