# The series' Documentation/staging/static-keys.rst: 'make htmldocs
# SPHINXDIRS=staging' on the series worktree (Sphinx, python3-sphinx)
# builds without one warning or error, the page has every section the
# document is for, and it names every function of the API the series'
# kernel/jump_label.c exports (or the macro of jump_label_ratelimit.h that
# is the interface to it).
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
src=$root/series/src
[ -f "$root/series/prepared" ] || skip_all "the series worktree is not prepared (make prepare)"
plan 4
out=$root/docs
log=$root/host/logs/htmldocs.log
rm -rf "$out"
mkdir -p "$out"
# The worktree must stay exactly as the series left it: no bytecode, and
# what htmldocs generates in the source tree whatever O= says (6.12's
# netlink_spec/*.rst, ignored by git) is removed again.
generated() { git -C "$src" ls-files -o -i --exclude-standard -- Documentation | sort; }
generated > "$out.before"
PYTHONDONTWRITEBYTECODE=1 make -C "$src" O="$out" SPHINXDIRS=staging \
	htmldocs > "$log" 2>&1
result $? htmldocs_staging_builds "log: $log"
generated | comm -13 "$out.before" - | (cd "$src" && xargs -r rm -f --)
rm -f "$out.before"

warnings=$(grep -E 'WARNING|ERROR|SEVERE|CRITICAL' "$log")
[ -z "$warnings" ]
result $? htmldocs_staging_has_no_warnings "$(echo "$warnings" | head -3); log: $log"

page=$out/Documentation/output/staging/static-keys.html
missing=
for section in Motivation "The asm goto solution" "The API" \
	"Matching a key" "The default in the low bit" Modules "Deferred keys" \
	"The debugfs view" "Architecture interface" "statically allocated" \
	_cpuslocked static_key_deferred_flush tracepoint; do
	grep -q "$section" "$page" 2>/dev/null || missing="$missing '$section'"
done
[ -z "$missing" ]
result $? static_keys_page_has_every_section "missing from $page:$missing"

# The API, from the code: each export, or the macro a user calls instead
# (static_key_slow_dec_deferred() for static_key_deferral_dec(), ...);
# static_key_deferral_work() is only the work function those macros set up.
missing=
for f in $(sed -n 's/^EXPORT_SYMBOL_GPL(\(.*\));$/\1/p' "$src/kernel/jump_label.c" | sort -u); do
	[ "$f" = static_key_deferral_work ] && continue
	names="$f $(sed -n "s/^#define \([a-z_]*\)(x)[[:space:]]*$f(.*/\1/p" \
		"$src/include/linux/jump_label_ratelimit.h")"
	found=
	for n in $names; do
		grep -q "$n" "$page" 2>/dev/null && found=y
	done
	[ -n "$found" ] || missing="$missing $f"
done
[ -z "$missing" ]
result $? static_keys_page_names_the_api "not named in $page:$missing"
finish
