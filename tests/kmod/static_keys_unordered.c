// SPDX-License-Identifier: GPL-2.0
/*
 * Sites whose entries the compiler emits out of key order: one function
 * branches on key A, then on key B, then on A again, so that however the
 * two keys are placed, A's entries are not together in the table as
 * compiled.  Only a sort when the .ko is linked can hand the module loader
 * this table in order; tests/guest's module_table_order.sh loads it under
 * static_keys_table_order.ko, which says which it got.  Init flips both
 * keys and checks that all three sites follow, whichever sort put A's
 * sites together; build.sh also writes static_keys_unsorted.ko, this
 * module with its table's entries reversed, which only the loader can
 * sort.
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
	int taken[5];

	taken[0] = unordered_sites();
	static_key_enable(&key_a);
	taken[1] = unordered_sites();
	static_key_enable(&key_b);
	taken[2] = unordered_sites();
	static_key_disable(&key_a);
	taken[3] = unordered_sites();
	static_key_disable(&key_b);
	taken[4] = unordered_sites();
	/* A's two sites, then B's too, then B's alone, then none. */
	if (taken[0] != 0 || taken[1] != 5 || taken[2] != 7 || taken[3] != 2 ||
	    taken[4] != 0) {
		pr_err("%s: sites taken %d %d %d %d %d, want 0 5 7 2 0\n",
		       KBUILD_MODNAME, taken[0], taken[1], taken[2], taken[3],
		       taken[4]);
		return -EINVAL;
	}
	return 0;
}

static void __exit unordered_exit(void)
{
}

module_init(unordered_init);
module_exit(unordered_exit);
MODULE_DESCRIPTION("Static keys: a module whose sites are compiled out of key order");
MODULE_LICENSE("GPL");
