# The real series, applied with 'git am' instead of quilt, gives the very
# tree that the series variant was built from.
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
[ -f "$root/series/prepared" ] || skip_all "the series worktree is not prepared (make prepare)"
plan 1
"$REPO/scripts/check-git-am.sh" > "${TMPDIR:-/tmp}/git-am.$$" 2>&1
result $? quilt_and_git_am_agree "$(tail -1 "${TMPDIR:-/tmp}/git-am.$$")"
rm -f "${TMPDIR:-/tmp}/git-am.$$"
finish
