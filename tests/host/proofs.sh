# The tree's proofs (scripts/records.py): a subtest for each, ok when its
# record proves the series' code as it is now and nothing failed.  A proof
# whose record shows a failure on this code fails; one that is stale (made
# on other code) or missing is a skip that says which make command proves
# it again (tests/expected-skips: other work may go in while a re-proof
# runs).  Documentation/proofs.md shows the same.
. "${CHECKS_LIB:?}"
python3 "$REPO/scripts/records.py" ktap
