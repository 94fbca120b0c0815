# The tree and series steps on a miniature source package: what they do
# with a good series, and how they refuse a dirty tree, a patched tree, a
# patch that does not apply, one that needs fuzz, and a missing patch.
. "${CHECKS_LIB:?}"
scripts=$REPO/scripts
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CACHE_DIR=$t/cache TARBALL=$t/linux-mini.tar.xz SOURCE_VERSION=test
export SERIES=$t/series PATCHES=$t/patches

# The package: one file of ten lines, and Debian's .gitignore, which
# ignores every new top-level path.
mkdir -p "$t/pkg/linux-mini/kernel" "$PATCHES"
seq 1 10 > "$t/pkg/linux-mini/kernel/a.c"
seq 1 3 > "$t/pkg/linux-mini/kernel/b.c"
printf '/*\n!/debian/\n' > "$t/pkg/linux-mini/.gitignore"
tar -C "$t/pkg" -cJf "$TARBALL" linux-mini
# Patches, made the way the real ones are: git format-patch.
git init -q "$t/pkg/linux-mini"
git -C "$t/pkg/linux-mini" add -A -f
git -C "$t/pkg/linux-mini" -c user.name=t -c user.email=t@t commit -qm base
sed -i 's/^5$/five/' "$t/pkg/linux-mini/kernel/a.c"
echo new > "$t/pkg/linux-mini/kernel/new.c"
git -C "$t/pkg/linux-mini" add -f kernel/new.c
git -C "$t/pkg/linux-mini" -c user.name=t -c user.email=t@t commit -qam "good: five"
git -C "$t/pkg/linux-mini" format-patch -q -1 --stdout > "$PATCHES/good.patch"
sed 's/^-5$/-50/' "$PATCHES/good.patch" > "$PATCHES/bad.patch"
sed 's/^ 2$/ two/' "$PATCHES/good.patch" > "$PATCHES/fuzz.patch"
# Two patches that go on top of good.patch, one instead of the other.
sed -i 's/^2$/two/' "$t/pkg/linux-mini/kernel/b.c"
echo second > "$t/pkg/linux-mini/kernel/second.c"
git -C "$t/pkg/linux-mini" add -f kernel/second.c
git -C "$t/pkg/linux-mini" -c user.name=t -c user.email=t@t commit -qam "second: two"
git -C "$t/pkg/linux-mini" format-patch -q -1 --stdout > "$PATCHES/second.patch"
git -C "$t/pkg/linux-mini" reset -q --hard HEAD~1
sed -i 's/^8$/eight/' "$t/pkg/linux-mini/kernel/a.c"
git -C "$t/pkg/linux-mini" -c user.name=t -c user.email=t@t commit -qam "third: eight"
git -C "$t/pkg/linux-mini" format-patch -q -1 --stdout > "$PATCHES/third.patch"

src=$CACHE_DIR/test/series/src
expect_fail() { # NAME PATTERN COMMAND...: fails, and says PATTERN
	name=$1 pattern=$2
	shift 2
	if "$@" > "$t/out" 2>&1; then
		result 1 "$name" "succeeded, want a refusal"
	elif ! grep -q -- "$pattern" "$t/out"; then
		result 1 "$name" "message lacks '$pattern': $(tail -1 "$t/out")"
	else
		result 0 "$name"
	fi
}

clean() {
	[ -z "$(git -C "$src" status --porcelain)" ] && [ ! -e "$src/.pc" ] &&
		[ ! -e "$src/kernel/new.c" ]
}

plan 15
"$scripts/tree.sh" 2>"$t/out" && "$scripts/tree.sh" 2>>"$t/out"
result $? pristine_unpacked_once "$(tail -1 "$t/out")"

echo good.patch > "$SERIES"
"$scripts/prepare.sh" series 2>"$t/out" && grep -qx five "$src/kernel/a.c" &&
	[ -f "$src/kernel/new.c" ]
result $? series_applies "$(tail -1 "$t/out")"

"$scripts/check-git-am.sh" > "$t/out" 2>&1
result $? git_am_gives_the_same_tree "$(tail -1 "$t/out")"

"$scripts/prepare.sh" series 2>"$t/out" && [ ! -s "$t/out" ]
result $? prepared_tree_reused "$(cat "$t/out")"

# A patch on top, then another instead of it: the first stays applied,
# the second is popped (the file it created is gone, the one it changed
# is back and newer than the build would be, so that make rebuilds it)
# and the third pushed.
printf 'good.patch\nsecond.patch\n' > "$SERIES"
"$scripts/prepare.sh" series 2>"$t/out" && grep -qx two "$src/kernel/b.c" &&
	touch "$t/mark" && sleep 1 &&
	printf 'good.patch\nthird.patch\n' > "$SERIES" &&
	"$scripts/prepare.sh" series 2>"$t/out" && grep -q 'kept the first 1 patches' "$t/out" &&
	[ "$(sed -n '5p;8p' "$src/kernel/a.c" | tr '\n' ' ')" = "five eight " ] &&
	[ "$(tr '\n' ' ' < "$src/kernel/b.c")" = "1 2 3 " ] &&
	[ ! -e "$src/kernel/second.c" ] && [ -n "$(find "$src/kernel/b.c" -newer "$t/mark")" ]
result $? tail_popped_and_pushed "$(tail -2 "$t/out"; ls -l --time-style=+%T "$src/kernel/b.c" "$t/mark")"
echo good.patch > "$SERIES"
"$scripts/prepare.sh" series 2>"$t/out" && grep -qx 8 "$src/kernel/a.c" && grep -qx five "$src/kernel/a.c" &&
	[ -f "$src/kernel/new.c" ] && [ ! -e "$src/.pc/third.patch" ]
result $? tail_popped "$(tail -1 "$t/out")"

: > "$SERIES"
"$scripts/prepare.sh" series 2>"$t/out" && clean
result $? series_change_resets_tree "$(git -C "$src" status --short; tail -1 "$t/out")"
echo good.patch > "$SERIES"
"$scripts/prepare.sh" series 2>"$t/out"

expect_fail patched_tree_refused 'already has quilt patches applied' \
	"$scripts/apply-series.sh" "$src"

echo 'local edit' >> "$src/kernel/a.c"
printf 'good.patch\nbad.patch\n' > "$SERIES"
expect_fail dirty_tree_refused 'holds changes this harness did not make' \
	"$scripts/prepare.sh" series
grep -q 'local edit' "$src/kernel/a.c"
result $? dirty_tree_kept "the local edit is gone"

"$scripts/clean.sh" series
expect_fail bad_patch_named 'patch bad.patch does not apply: kernel/a.c' \
	"$scripts/prepare.sh" series
clean
result $? bad_patch_leaves_pristine_tree "$(git -C "$src" status --short)"

echo fuzz.patch > "$SERIES"
expect_fail fuzz_refused 'applies only with fuzz' \
	"$scripts/prepare.sh" series

echo missing.patch > "$SERIES"
expect_fail missing_patch_named 'names missing.patch, but' \
	"$scripts/prepare.sh" series

echo 'changed' >> "$CACHE_DIR/test/pristine/kernel/a.c"
expect_fail modified_pristine_refused 'was modified' "$scripts/tree.sh"
finish
