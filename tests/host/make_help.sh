# make help lists every target of the Makefile (its .PHONY list) and
# every variable a '##' line documents, and README.md's table of targets
# is that same text (make check-readme writes it), so that neither can
# fall behind the Makefile; and every environment variable the scripts
# read with a default is a knob make help names, a field of a row of
# configs/ (configs/arch, cross, tree), or one the harness sets itself
# for its own scripts (INTERNAL below), so that no knob goes undocumented.
. "${CHECKS_LIB:?}"
plan 3
help=$(make -s -C "$REPO" help)
missing=
for t in $(sed -n '/^\.PHONY:/,/[^\\]$/p' "$REPO/Makefile" | sed 's/^\.PHONY://; s/\\//'); do
	echo "$help" | grep -qw -- "$t" || missing="$missing $t"
done
[ -z "$missing" ]
result $? every_target_in_help "targets make help does not name:$missing"
readme=$(sed -n '/^<!-- make help: written by/,/^<!-- end of make help -->/p' "$REPO/README.md" |
	sed -e '1d' -e '$d' -e '/^$/d' -e 's/^    //')
[ "$readme" = "$(echo "$help" | sed '/^$/d')" ]
result $? readme_table_is_make_help "README.md's table of targets differs from make help (make check-readme writes it)"
# set by the Makefile from a knob make help names, by one script for
# another, by the harness's own tests (SOURCE_VERSION: a made-up tree's
# cache), or standard: never a user's
INTERNAL="HARNESS_ARCH CHECK_VARIANTS BISECT_PREFIXES BISECT_VARIANTS DEPS_CROSS
DEPS_PACKAGES SERIES PATCHES SERIES_PREFIX SERIES_PREFIX_FILE BUILD_DIR LOGS_DIR
KCONFIG_BASE CHECK_SECONDS CHECKS_PROGRESS PROGRESS_TTY HAS_SITES
SP_OPTIMIZATION SOURCE_VERSION REPO TMPDIR XDG_CACHE_HOME"
fields=$(cat "$REPO"/configs/*/*.conf | sed -n 's/^\([A-Z_][A-Z0-9_]*\)=.*/\1/p' | sort -u)
read_knobs=$( { cat "$REPO"/scripts/*.sh "$REPO"/initramfs/* "$REPO/Makefile" 2>/dev/null |
	grep -oE '\$\{[A-Z_][A-Z0-9_]*:-' | sed 's/^..//; s/:-$//'
	cat "$REPO"/scripts/*.py | grep -oE "environ(\.get\(|\[)'[A-Z_][A-Z0-9_]*'" |
		sed "s/.*'\(.*\)'/\1/"; } | sort -u)
undocumented=
for k in $read_knobs; do
	echo "$help" | grep -qw -- "$k" && continue
	echo "$fields $INTERNAL" | grep -qw -- "$k" && continue
	undocumented="$undocumented $k"
done
[ -z "$undocumented" ]
result $? every_knob_in_help "variables the scripts read that make help does not name:$undocumented"
finish
