# config.sh names the options of a fragment that did not take effect: one
# whose dependencies are unmet (IPV6_SIT: the fragment has no IPv6), one
# that no Kconfig defines.  Run on the distro tree in a scratch build
# directory, with its own logs: the distro variant's stay as its build left them.
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
[ -d "$root/distro/src" ] || skip_all "the distro worktree is not prepared (make prepare VARIANT=distro)"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
printf 'CONFIG_IPV6_SIT=y\nCONFIG_NO_SUCH_OPTION=y\n' > "$t/extra.config"

plan 3
BUILD_DIR=$t/o LOGS_DIR=$t/logs EXTRA_CONFIG=$t/extra.config "$REPO/scripts/config.sh" distro > "$t/out" 2>&1
result $(( $? == 0 )) refused "config.sh accepted the fragment"
grep -q 'CONFIG_IPV6_SIT (wanted y, got n)' "$t/out"
result $? unmet_dependency_named "$(tail -1 "$t/out")"
grep -q 'CONFIG_NO_SUCH_OPTION (no such option)' "$t/out"
result $? unknown_option_named "$(tail -1 "$t/out")"
finish
