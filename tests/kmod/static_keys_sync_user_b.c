// SPDX-License-Identifier: GPL-2.0
/* static_keys_sync_user_a.c under another module name. */
#include "static_keys_sync_user_a.c"
