# The harness's own code through the linters Debian packages, so that a
# mistake is caught before a boot: every shell file (scripts/, tests/,
# initramfs/, .ci/run; those without a shebang as POSIX sh, as busybox
# and dash run them) clean of shellcheck's warnings, and every Python
# file clean of pyflakes3's.  SC1090 and SC1091 (a file sourced by a path
# made at run time) are left out: every check sources its library so.
# And every file of scripts/ with a #! line is executable in git, since
# the Makefile and the workflow run them as commands (a clone keeps the
# mode git has).
. "${CHECKS_LIB:?}"
command -v shellcheck > /dev/null && command -v pyflakes3 > /dev/null ||
	skip_all "no shellcheck or pyflakes3 (make deps installs them)"
plan 3
cd "$REPO" || exit 1
not_executable=$(git ls-files -s -- scripts | while read -r mode _ _ path; do
	[ "$mode" = 100755 ] || ! head -c 2 "$path" | grep -q '^#!' || printf ' %s' "$path"
done)
[ -z "$not_executable" ]
result $? scripts_executable "with a #! line but not executable in git:$not_executable"
out=$({
	git ls-files -- 'scripts/*.sh' 'tests/*.sh' 'initramfs/*.sh' initramfs/init |
		xargs shellcheck -s sh -S warning -e SC1090,SC1091 -f gcc
	shellcheck -S warning -f gcc .ci/run
} 2>&1)
[ -z "$out" ]
result $? shellcheck_clean "$(echo "$out" | grep -c .) warnings, first: $(echo "$out" | head -2)"
out=$(git ls-files -- '*.py' | xargs pyflakes3 2>&1)
[ -z "$out" ]
result $? pyflakes_clean "$(echo "$out" | grep -c .) reports, first: $(echo "$out" | head -2)"
finish
