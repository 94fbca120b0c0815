# The kernel's own static key tests, loaded as
# tools/testing/selftests/static_keys/test_static_keys.sh loads them:
# test_static_keys checks its keys and the base module's at init and
# refuses to load if any is wrong.
. "${CHECKS_LIB:-/lib/checks.sh}"
plan 4
insmod /modules/test_static_key_base.ko
result $? load_test_static_key_base
insmod /modules/test_static_keys.ko
result $? load_test_static_keys
rmmod test_static_keys
result $? unload_test_static_keys
rmmod test_static_key_base
result $? unload_test_static_key_base
finish
