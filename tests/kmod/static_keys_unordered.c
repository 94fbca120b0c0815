// SPDX-License-Identifier: GPL-2.0
/*
 * Sites whose entries the compiler emits out of key order: one function
 * branches on key A, then on key B, then on A again, so that however the
 * two keys are placed, A's entries are not together in the table as
 * compiled.  Only a sort when the .ko is linked can hand the module loader
 * this table in order; tests/guest's module_table_order.sh loads it under
 * static_keys_table_order.ko, which says which it got.
 */
#include <linux/jump_label.h>
#include <linux/module.h>

static struct static_key key_a = STATIC_KEY_INIT_FALSE;
static struct static_key key_b = STATIC_KEY_INIT_FALSE;

static noinline int unordered_sites(void)
{
	int taken = 0;

	if (static_key_false(&key_a))
		taken |= 1;
	if (static_key_false(&key_b))
		taken |= 2;
	if (static_key_false(&key_a))
		taken |= 4;
	return taken;
}

static int __init unordered_init(void)
{
	/* Both keys are false: no branch may be taken. */
	return unordered_sites() ? -EINVAL : 0;
}

static void __exit unordered_exit(void)
{
}

module_init(unordered_init);
module_exit(unordered_exit);
MODULE_DESCRIPTION("Static keys: a module whose sites are compiled out of key order");
MODULE_LICENSE("GPL");
