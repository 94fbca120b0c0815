# The series' Documentation/staging/static-keys.rst: 'make htmldocs
# SPHINXDIRS=staging' on the series worktree (Sphinx, python3-sphinx)
# builds without one warning or error, and the page has every section the
# document is for, its results included.
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
src=$root/series/src
[ -f "$root/series/prepared" ] || skip_all "the series worktree is not prepared (make prepare)"
plan 3
out=$root/docs
log=$root/host/logs/htmldocs.log
rm -rf "$out"
mkdir -p "$out"
# No bytecode: the worktree must stay exactly as the series left it.
PYTHONDONTWRITEBYTECODE=1 make -C "$src" O="$out" SPHINXDIRS=staging \
	htmldocs > "$log" 2>&1
result $? htmldocs_staging_builds "log: $log"

warnings=$(grep -E 'WARNING|ERROR|SEVERE|CRITICAL' "$log")
[ -z "$warnings" ]
result $? htmldocs_staging_has_no_warnings "$(echo "$warnings" | head -3); log: $log"

page=$out/Documentation/output/staging/static-keys.html
missing=
for section in Motivation "The asm goto solution" "The API" \
	"Matching a key" "The default in the low bit" Modules "Deferred keys" \
	"The debugfs view" "Architecture interface" Results "flip cost"; do
	grep -q "$section" "$page" 2>/dev/null || missing="$missing '$section'"
done
[ -z "$missing" ]
result $? static_keys_page_has_every_section "missing from $page:$missing"
finish
