// SPDX-License-Identifier: GPL-2.0
/*
 * The call chain of a finding: the caller the hook saw may be a helper
 * layer (scsi_dma_map() for a SCSI driver, the USB core for a host
 * controller driver) while the code to fix is further out. Only the first
 * occurrence at a site pays for the stack trace: repeats are folded before.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include "compat.h"
#include "findings.h"

/* Frames above the caller: the hook, the probe machinery, the DMA API. */
#define EDGEDMA_CHAIN_TRACE	32

void edgedma_call_chain(struct edgedma_finding *f, unsigned long caller,
			struct device *dev)
{
	unsigned long entries[EDGEDMA_CHAIN_TRACE];
	const struct device_driver *drv = dev ? READ_ONCE(dev->driver) : NULL;
	unsigned int n = 0, i, from;

	f->driver_module[0] = '\0';
	/* A bound driver's module cannot go before it stops mapping. */
	if (drv && drv->owner)
		strscpy(f->driver_module, drv->owner->name, sizeof(f->driver_module));

	f->chain_len = 0;
	if (!caller)
		return;
	n = edgedma_stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (from = 0; from < n && entries[from] != caller; from++)
		;
	/*
	 * The unwinder did not get as far as the caller: it alone is known.
	 * So on arm64 for calls hooked at their entry (unmaps and syncs in
	 * kprobe mode): the caller's return address is still in the link
	 * register there, not in a frame the unwinder walks.
	 */
	if (from == n) {
		f->chain[0] = caller;
		f->chain_len = 1;
		return;
	}
	for (i = from; i < n && f->chain_len < EDGEDMA_CHAIN_LEN; i++)
		f->chain[f->chain_len++] = entries[i];
}
