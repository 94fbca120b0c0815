#!/bin/sh
# config.sh VARIANT: tinyconfig and configs/tiny.config (for a defconfig
# variant: the architecture's defconfig without its modules, lib.sh
# kconfig_merge), then the fragments of configs/ (the common one, then the variant's architecture's configs/arch/ARCH.config and the
# tree's configs/tree/TREE.config and TREE-ARCH.config if it has them, then
# what its traits add: jump-label-off, series, debug, o2) merged with
# the tree's merge_config.sh; fails naming every fragment option that the
# merged .config does not carry (merge_config drops options whose
# dependencies are unmet, and says so only in passing).
set -eu
. "$(dirname "$0")/lib.sh"
set_variant "${1:?usage: config.sh VARIANT}"

fragments="$REPO/configs/static-keys.config $REPO/configs/arch/$VARIANT_ARCH.config $(tree_fragments "$VARIANT_ARCH")"
KCONFIG_BASE=$(variant_base "$VARIANT")
[ "$KCONFIG_BASE" = defconfig ] || fragments="$REPO/configs/tiny.config $fragments"
variant_has_jump_labels "$VARIANT" ||
	fragments="$fragments $REPO/configs/jump-label-off.config"
variant_has_series "$VARIANT" &&
	fragments="$fragments $REPO/configs/series.config"
variant_has "$VARIANT" debug &&
	fragments="$fragments $REPO/configs/debug.config"
variant_has "$VARIANT" o2 &&
	fragments="$fragments $REPO/configs/o2.config"
# EXTRA_CONFIG: one more fragment, last, for trying an option out.
[ -n "${EXTRA_CONFIG:-}" ] && fragments="$fragments $EXTRA_CONFIG"

log=$LOGS/config.log
mkdir -p "$OBJ" "$LOGS"
# shellcheck disable=SC2086
kconfig_merge "$SRC" "$OBJ" $fragments > "$log" 2>&1 || {
	tail -20 "$log" >&2
	die "configuring $VARIANT failed; log: $log"
}

# Kconfig symbols a tree defines, one a line.
kconfig_symbols() {
	find "$1" \( -name .pc -o -name .build -o -name .git \) -prune -o \
		-name 'Kconfig*' -exec sed -n \
		's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/CONFIG_\2/p' {} + |
		sort -u
}

# Every option the fragments set, as the last fragment sets it, must be in
# the final .config with that value.  Exceptions, noted and not failed: an
# option the series took out of the tree's Kconfig (CONFIG_JUMP_LABEL while
# the series rebuilds it), and one of configs/series.config that the
# series, at this prefix, has not added yet (SERIES_PREFIX set by make
# bisect; the whole series must define them).  Any other option the tree
# does not define is a mistake in the fragment.
cat $fragments | sed -n \
		-e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' |
	awk '{ want[$1] = $2; order[n++] = $1 }
	     END { for (i = 0; i < n; i++) if (!seen[order[i]]++) print order[i], want[order[i]] }' |
	while read -r opt val; do
		have=$(sed -n -e "s/^$opt=//p" -e "s/^# $opt is not set$/n/p" "$OBJ/.config")
		[ "${have:-n}" = "$val" ] || echo "$opt $val ${have:-n}"
	done > "$LOGS/config-dropped"

dropped=
if [ -s "$LOGS/config-dropped" ]; then
	kconfig_symbols "$SRC" > "$LOGS/kconfig-here"
	kconfig_symbols "$PRISTINE" > "$LOGS/kconfig-pristine"
	while read -r opt val have; do
		if grep -q "^$opt=" "$REPO/configs/series.config" &&
			variant_has_series "$VARIANT" && ! grep -qx "$opt" "$LOGS/kconfig-here"; then
			# Only a prefix of the series may lack it (make bisect).
			[ -n "${SERIES_PREFIX:-}" ] ||
				dropped="$dropped $opt (the series does not define it)"
			note "$opt: not in this tree's Kconfig (the series has not added it yet)"
		elif ! grep -qx "$opt" "$LOGS/kconfig-pristine"; then
			case " $TREE_RENAMED " in
			*" ${opt#CONFIG_} "*)
				note "$opt: named otherwise in $TREE (configs/tree/$TREE-$VARIANT_ARCH.config)" ;;
			*) dropped="$dropped $opt (no such option)" ;;
			esac
		elif ! grep -qx "$opt" "$LOGS/kconfig-here"; then
			note "$opt: not in this tree's Kconfig (the series removed it)"
		else
			dropped="$dropped $opt (wanted $val, got $have)"
		fi
	done < "$LOGS/config-dropped"
fi
[ -z "$dropped" ] || die "config options dropped for $VARIANT (unmet dependencies?):$dropped; log: $log"
