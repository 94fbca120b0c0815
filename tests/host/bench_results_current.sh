# The make bench results the repository holds (the tree's bench directory,
# an architecture's in its subdirectory) were measured on the series and
# bench patches as they are now: the code hash each results.md records is
# the one they have (lib.sh bench_code_hash).  A changelog edit keeps it;
# a change of code makes the figures a claim about other code.
. "${CHECKS_LIB:?}"
. "$REPO/scripts/lib.sh"
results=
for conf in "$REPO"/configs/arch/*.conf; do
	arch=$(basename "$conf" .conf)
	dir=$TREE_BENCH
	[ "$arch" = x86_64 ] || dir=$TREE_BENCH/$arch
	[ -f "$dir/results.md" ] && results="$results $arch"
done
[ -n "$results" ] || skip_all "no make bench results for $TREE yet ($TREE_BENCH)"
plan "$(echo $results | wc -w)"
for arch in $results; do
	dir=$TREE_BENCH
	make="make bench TREE=$TREE"
	if [ "$arch" != x86_64 ]; then
		dir=$TREE_BENCH/$arch
		make="$make ARCH=$arch"
	fi
	load_arch "$arch"
	now=$(bench_code_hash)
	had=$(measured_code_hash "$dir/results.md")
	if [ -z "$had" ]; then
		result 1 "bench_results_current_$arch" "${dir#$REPO/}/results.md records no code hash: made by an older harness; '$make' then 'make bench-readme${make#make bench}'"
	elif [ "$had" != "$now" ]; then
		result 1 "bench_results_current_$arch" "${dir#$REPO/}/results.md measured code ${had%"${had#????????????}"}, the series and bench patches are now ${now%"${now#????????????}"}: '$make' then 'make bench-readme${make#make bench}'"
	else
		result 0 "bench_results_current_$arch"
	fi
done
finish
