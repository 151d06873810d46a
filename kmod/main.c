// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma: find unsafe DMA on the kernel you already run.
 *
 * Module entry and exit. Each concern lives in its own file; this one only
 * brings them up in order and takes them down in reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/utsname.h>

#include "compat.h"
#include "edgedma.h"

static int __init edgedma_init(void)
{
	int err;

	err = edgedma_netlink_init();
	if (err)
		goto err_out;

	pr_info("version %s loaded on %s, hook modes available 0x%x\n",
		EDGEDMA_VERSION, init_utsname()->release,
		edgedma_hook_modes_available());
	return 0;

err_out:
	pr_err("failed to load: %d\n", err);
	return err;
}

static void __exit edgedma_exit(void)
{
	edgedma_netlink_exit();
	pr_info("unloaded\n");
}

module_init(edgedma_init);
module_exit(edgedma_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("edgedma: DMA-mapping checker and fault-time snapshots");
MODULE_VERSION(EDGEDMA_VERSION);
MODULE_ALIAS_GENL_FAMILY("edgedma");
