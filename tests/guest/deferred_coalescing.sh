# A deferred key taken and dropped 1,000 times within its rate limit
# (tests/kmod/static_keys_coalesce.c, 1 s): the first take writes its
# sites on, every drop is held back, and when the rate limit is up the
# key goes false by itself, without a flush: one enable and one disable,
# whatever the number of takes.  The writes are counted as CPU sync
# rounds (keys.sh: sync_probes_on), against one take and drop's.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
[ -w $TRACING/kprobe_events ] || skip_all "no $TRACING/kprobe_events"
has_sites || skip_all "no sites (CONFIG_JUMP_LABEL=n): a drop is immediate"
P=/sys/module/static_keys_coalesce/parameters
plan 6
insmod /modules/static_keys_coalesce.ko &&
	sync_probes_on dfc
result $? load_and_probe

# rounds N: the sync rounds of N takes and drops, then of the rate limit
# running out (1.5 s later); the site read right after the takes, and
# after the limit: "ON_ROUNDS OFF_ROUNDS SITE_THEN SITE_AFTER"
rounds() {
	echo > $TRACING/trace
	echo "$1" > $P/churn
	# shellcheck disable=SC2046 # its two counts
	set -- $(sync_counts dfc)
	on=$1 then=$(cat $P/site)
	echo > $TRACING/trace
	sleep 1.5
	# shellcheck disable=SC2046 # its two counts
	set -- $(sync_counts dfc)
	echo "$on $1 $then $(cat $P/site)"
}
# shellcheck disable=SC2046 # its four words
set -- $(rounds 1)
one_on=$1 one_off=$2
[ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$3" = Y ] && [ "$4" = N ]
result $? one_take_flips_on_then_off "one take and drop: $1 rounds, then $2 as the limit ran out; the site $3, then $4"
# shellcheck disable=SC2046 # its four words
set -- $(rounds 1000)
[ "$1" = "$one_on" ]
result $? thousand_takes_one_enable "1000 takes and drops within the limit: $1 rounds (one take: $one_on)"
[ "$3" = Y ]
result $? true_until_the_limit "the site right after the takes: $3"
[ "$2" = "$one_off" ] && [ "$4" = N ]
result $? one_disable_after_the_limit "as the limit ran out: $2 rounds (one take: $one_off); the site then: $4"
diag "figure: deferred key: 1000 takes and drops within its rate limit, $1 sync rounds on and $2 off (one take: $one_on, $one_off)"
sync_probes_off dfc
rmmod static_keys_coalesce
result $? unload
finish
