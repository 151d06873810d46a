/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A DMA controller's error path as a snapshot trigger: the user names a
 * kernel function (a driver's error interrupt handler, pl330_irq_handler,
 * dw_axi_dma_interrupt, ...) and the device it serves; each entry into it
 * snapshots that device, in the handler's own context, before the handler
 * acknowledges anything.
 */
#ifndef _EDGEDMA_TRIGGER_CONTROLLER_ERROR_H
#define _EDGEDMA_TRIGGER_CONTROLLER_ERROR_H

#include <linux/types.h>

struct device;
struct netlink_ext_ack;

#define EDGEDMA_ERROR_HOOKS_MAX		8
#define EDGEDMA_ERROR_SYMBOL_LEN	128

/*
 * Snapshot @dev whenever @symbol is entered. -EEXIST when that pair is
 * set already, -ENOSPC when every hook is in use, the kprobe's error when
 * the function cannot be probed (not found, inlined away, blacklisted).
 * Process context.
 */
int edgedma_error_hook_add(const char *symbol, struct device *dev,
			   struct netlink_ext_ack *extack);
/* Remove the hooks on @symbol (of @dev only, unless NULL); -ENOENT if none. */
int edgedma_error_hook_del(const char *symbol, const char *dev_name);

struct edgedma_error_hook_info {
	char symbol[EDGEDMA_ERROR_SYMBOL_LEN];
	char device[64];
	u64 hits;
};

/* The hook in slot *@slot or after; advances *@slot past it. */
bool edgedma_error_hook_next(unsigned long *slot, struct edgedma_error_hook_info *out);

/* @dev is being deleted: its hooks go. Process context. */
void edgedma_error_hooks_device_gone(struct device *dev);
/* At unload: every hook removed. */
void edgedma_error_hooks_exit(void);

#endif /* _EDGEDMA_TRIGGER_CONTROLLER_ERROR_H */
