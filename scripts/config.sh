#!/bin/sh
# config.sh VARIANT: tinyconfig, then the fragments of configs/ merged with
# the tree's merge_config.sh; fails naming every fragment option that the
# merged .config does not carry (merge_config drops options whose
# dependencies are unmet, and says so only in passing).
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: config.sh VARIANT}"

fragments="$REPO/configs/static-keys.config"
[ "$VARIANT" = off ] && fragments="$fragments $REPO/configs/jump-label-off.config"

log=$LOGS/config.log
mkdir -p "$OBJ" "$LOGS"
{
	make -C "$SRC" O="$OBJ" tinyconfig &&
	(cd "$SRC" && ARCH=x86 scripts/kconfig/merge_config.sh -O "$OBJ" \
		"$OBJ/.config" $fragments)
} > "$log" 2>&1 || {
	tail -20 "$log" >&2
	die "configuring $VARIANT failed; log: $log"
}

# Every option the fragments set, as the last fragment sets it, must be in
# the final .config with that value.
missing=$(cat $fragments | sed -n \
		-e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' |
	awk '{ want[$1] = $2; order[n++] = $1 }
	     END { for (i = 0; i < n; i++) if (!seen[order[i]]++) print order[i], want[order[i]] }' |
	while read -r opt val; do
		have=$(sed -n -e "s/^$opt=//p" -e "s/^# $opt is not set$/n/p" "$OBJ/.config")
		[ "${have:-n}" = "$val" ] || printf ' %s (wanted %s, got %s)' "$opt" "$val" "${have:-n}"
	done)
[ -z "$missing" ] || die "config options dropped for $VARIANT (unmet dependencies?):$missing; log: $log"
