# make help lists every target of the Makefile (its .PHONY list) and
# every variable a '##' line documents, and README.md's table of targets
# is that same text (make check-readme writes it), so that neither can
# fall behind the Makefile.
. "${CHECKS_LIB:?}"
plan 2
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
finish
