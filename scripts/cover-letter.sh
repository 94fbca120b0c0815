#!/bin/sh
# cover-letter.sh [OUT]: write the series' cover letter, in git
# format-patch --cover-letter form, to OUT (default
# patches/cover/0000-cover-letter.patch).  The series is applied with git am to a
# scratch worktree of the pristine tree, git format-patch writes the letter
# with its shortlog and diffstat, and its subject and blurb are filled from
# Documentation/cover-letter.md, followed by generated sections: the
# headline figures of the last make bench (scripts/headline.py), the last
# make check's counts (Documentation/check-results.json), every proof's
# status from its record (scripts/records.py), make bisect's proof line
# (Documentation/bisect.md) and the base commit.  The letter is not in ./series
# (quilt refuses a patch without a diff) and not among patches/*.patch,
# so that neither quilt nor 'git am patches/*.patch' meets it.
set -eu
. "$(dirname "$0")/lib.sh"

# wrap72: standard input folded at 72 columns, without the blank that
# fold -s leaves at the end of a broken line.
wrap72() {
	fold -s -w 72 | sed 's/ *$//'
}

ROOT=$(tree_root)
PRISTINE=$ROOT/pristine
out=${1:-$TREE_PATCHES/cover/0000-cover-letter.patch}
text=$TREE_DOCS/cover-letter.md
results=$TREE_BENCH/results.md
bisect=$TREE_DOCS/bisect.md
for f in "$text" "$results"; do
	[ -s "$f" ] || die "$f missing (results.md: make bench, then make bench-readme)"
done
[ -f "$PRISTINE/.git/static-keys-pristine" ] || die "no pristine tree in $ROOT (make tree)"

work=$(mktemp -d)
am=$ROOT/cover-letter.$$
trap 'git -C "$PRISTINE" worktree remove --force "$am" 2>/dev/null; rm -rf "$work"' EXIT
git -C "$PRISTINE" worktree add -q --detach "$am" HEAD
base=$(git -C "$am" rev-parse HEAD)
for p in $(series_patches "$TREE_SERIES"); do
	git -C "$am" -c user.name=harness -c user.email=harness@localhost \
		am -q "$TREE_PATCHES/$p" >&2 || die "git am: $p does not apply"
done
# The letter is from the series' author.
git -C "$am" -c user.name="$(git -C "$am" log -1 --format=%an)" \
	-c user.email="$(git -C "$am" log -1 --format=%ae)" \
	format-patch -q --cover-letter --zero-commit --no-signature \
	-o "$work/letter" "$base..HEAD"

# The blurb: the written text without its comments, then what was
# measured, from the records in the repository (what a recipient gets
# is the letter: it names no file of this repository).
record=$TREE_DOCS/check-results.json
[ -s "$record" ] || record=$ROOT/check.json
{
	sed -e '1d' -e '/^<!--/,/^-->/d' "$text" | sed -e '/./,$!d'
	echo
	echo "Headline figures, from one run of the bench at -O2 (QEMU TCG, one"
	echo "vCPU under -icount, so guest ns count instructions; sync rounds,"
	echo "text_poke() mm switches and TLB flushes with four vCPUs, an enable"
	echo "and a disable together; /distro and /off: the series' figure over"
	echo "the tree's without the series and over the tree's without"
	echo "CONFIG_JUMP_LABEL).  Each kernel measured carries two patches that"
	echo "are not part of the series, a disabled static branch in getppid()"
	echo "and a read of the cycle counter around jump_label_init(), and the"
	echo "flips and the load are those of a test module with keys of 1, 10,"
	echo "100, 1,000 and 10,000 sites (11,111 in all):"
	echo
	"$REPO/scripts/headline.py" --text
	echo
	if [ -s "$record" ]; then
		echo "Checks (QEMU TCG; arm64-* on arm64, the rest x86_64; the distro is the"
		echo "tree without the series, off the tree without CONFIG_JUMP_LABEL):"
		echo
		python3 - "$record" <<-'EOF'
		import json, sys
		rec = json.load(open(sys.argv[1]))
		runs = rec.get('runs', rec)
		for name, rows in runs.items():
		    if name == 'host':  # the tests' own tests: nothing of the series
		        continue
		    n = {s: sum(1 for r in rows if r[1] == s) for s in ('ok', 'fail', 'skip')}
		    print(f"  {name:<16} {n['ok']:4} passed, {n['fail']} failed, {n['skip']} skipped")
		EOF
		echo
	fi
	# Every proof of the tree, from its record (scripts/records.py), with
	# its date and whether it holds for this code.
	echo "Proofs, each on the series' code as it is here or not:"
	echo
	"$REPO/scripts/records.py" letter | fold -s -w 70 | sed 's/ *$//; 2,$s/^\([^-]\)/  \1/'
	echo
	if [ -s "$bisect" ]; then
		sed -n 's/^Proven/Proven/p' "$bisect" | wrap72
		echo
	fi
	echo "base-commit: $(pristine_commit "$PRISTINE")"
	echo "(Debian's $SOURCE_PKG $(pkg_version), $TARBALL as one commit)"
} > "$work/blurb"

subject=$(sed -n 1p "$text")
date=$(git -C "$am" log -1 --format=%aD HEAD)
python3 - "$work/letter/0000-cover-letter.patch" "$work/blurb" "$subject" "$date" > "$work/out" <<'EOF'
import sys
letter, blurb, subject, date = sys.argv[1:]
text = open(letter).read()
for placeholder in ('*** SUBJECT HERE ***', '*** BLURB HERE ***'):
    if placeholder not in text:
        sys.exit(f'no {placeholder} in the letter git format-patch wrote')
text = text.replace('*** SUBJECT HERE ***', subject)
text = text.replace('*** BLURB HERE ***', open(blurb).read().rstrip('\n'))
# The letter's date is the last patch's, so that a letter written again
# for the same series and figures is the same file.
lines = [f'Date: {date}' if l.startswith('Date: ') else l
         for l in text.split('\n')]
print('\n'.join(lines), end='')
EOF
mkdir -p "$(dirname "$out")"
mv "$work/out" "$out"
note "wrote $out"
