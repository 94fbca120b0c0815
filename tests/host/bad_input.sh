# The harness under bad input that needs no kernel: a missing package
# when not root; a missing package with the package index unreachable; a
# cache directory that cannot be written; one with no room left (a file
# size limit, ulimit -f, stands in for a full disk: no mount needed).  Each must fail with a message
# that names the cause.  (The tree and series cases are tree_and_series,
# the guest cases guest_faults.)  The unprivileged runs are as 'nobody',
# from a copy of scripts/ and configs/ (the tree rows) that it can read.
. "${CHECKS_LIB:?}"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp -r "$REPO/scripts" "$t/scripts"
cp -r "$REPO/configs" "$t/configs"
chmod -R a+rX "$t"
missing=static-keys-no-such-package
plan 5

# expect NAME PATTERN COMMAND...: fails, and its stderr says PATTERN
expect() {
	name=$1 pattern=$2
	shift 2
	if "$@" > "$t/out" 2>&1; then
		result 1 "$name" "succeeded: $(tail -1 "$t/out")"
	elif ! grep -q -- "$pattern" "$t/out"; then
		result 1 "$name" "no '$pattern' in: $(tail -2 "$t/out" | tr '\n' ' ')"
	else
		diag "$name: $(grep -- "$pattern" "$t/out" | head -1)"
		result 0 "$name"
	fi
}

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/nonexistent REPO="$t" "$@"
}

expect missing_package_not_root "missing packages: $missing; run as root" \
	as_nobody env DEPS_PACKAGES=$missing "$t/scripts/deps.sh"

# apt with its own, empty state and one source nobody answers.
mkdir -p "$t/apt/lists/partial" "$t/apt/cache/archives/partial"
echo "deb http://127.0.0.1:9/debian bookworm main" > "$t/apt/sources.list"
cat > "$t/apt/apt.conf" <<APT
Dir::Etc::sourcelist "$t/apt/sources.list";
Dir::Etc::sourceparts "/nonexistent";
Dir::State::lists "$t/apt/lists";
Dir::Cache "$t/apt/cache";
Acquire::Retries "0";
APT
if [ "$(id -u)" = 0 ]; then
	expect missing_package_index_unreachable "failed for: $missing (the package index could not be fetched" \
		env APT_CONFIG="$t/apt/apt.conf" TMPDIR="$t" DEPS_PACKAGES=$missing "$t/scripts/deps.sh"
else
	skip missing_package_index_unreachable "not root: deps.sh does not reach apt-get"
fi

mkdir -p "$t/ro"
chmod 555 "$t/ro"
expect cache_not_writable "cache directory .* is not writable\|cannot create" \
	as_nobody env CACHE_DIR="$t/ro/cache" SOURCE_VERSION=test TARBALL=/dev/null "$t/scripts/tree.sh"
# A source package whose one file is bigger than the room left.
mkdir -p "$t/pkg/linux-big"
head -c 65536 /dev/zero > "$t/pkg/linux-big/big"
tar -C "$t/pkg" -cJf "$t/linux-big.tar.xz" linux-big
expect cache_full "cannot unpack .* (disk full?)" \
	sh -c 'ulimit -f 16 && exec "$@"' sh env CACHE_DIR="$t/full" SOURCE_VERSION=test \
		TARBALL="$t/linux-big.tar.xz" "$t/scripts/tree.sh"
[ ! -e "$t/full/test/pristine" ]
result $? cache_full_leaves_no_tree "a pristine tree was left in $t/full/test"
# shellcheck disable=SC2154 # checks.sh counts subtests
diag "figure: bad input: $subtests host-side cases tried (and tree_and_series, guest_faults)"
finish
