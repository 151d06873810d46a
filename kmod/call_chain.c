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
#include "edgedma.h"
#include "findings.h"

/* Frames above the caller: the hook, the probe machinery, the DMA API. */
#define EDGEDMA_CHAIN_TRACE	32

/*
 * Whether a stack trace has @addr where the frame of @call's caller would
 * be. At a probe on an API function's entry on arm64 the caller holds no
 * frame yet (its return address is in the link register): the unwinder
 * goes from the probed instruction straight to the caller's caller. In a
 * return handler before 5.14 the kretprobe trampoline stands there.
 */
static bool edgedma_stands_for_caller(unsigned long addr,
				      const struct edgedma_call *call)
{
	return (call->entry_pc && addr == call->entry_pc) ||
	       (call->return_regs && edgedma_in_kretprobe_trampoline(addr));
}

/* The chain: the frames of @entries from the caller outwards. */
static void edgedma_chain_from(struct edgedma_finding *f,
			       const unsigned long *entries, unsigned int n,
			       const struct edgedma_call *call)
{
	unsigned int from, i;

	for (from = 0; from < n && entries[from] != call->caller; from++)
		;
	if (from == n) {
		/* The caller has no frame of its own: it goes first, then
		 * whatever follows the probe that stands in its place. */
		f->chain[f->chain_len++] = call->caller;
		for (from = 0; from < n &&
		     !edgedma_stands_for_caller(entries[from], call); from++)
			;
		from = from < n ? from + 1 : n;
	}
	for (i = from; i < n && f->chain_len < EDGEDMA_CHAIN_LEN; i++)
		f->chain[f->chain_len++] = entries[i];
	/* The trace ended at the trampoline (x86_64 until 5.14). */
	if (f->chain_len == 1 && call->return_regs)
		f->chain_len = edgedma_unwind_from_return(call->return_regs,
							  call->caller, f->chain,
							  EDGEDMA_CHAIN_LEN) ?: 1;
}

void edgedma_call_chain(struct edgedma_finding *f,
			const struct edgedma_call *call)
{
	unsigned long entries[EDGEDMA_CHAIN_TRACE];
	const struct device_driver *drv =
		call->dev ? READ_ONCE(call->dev->driver) : NULL;
	unsigned int n;

	f->driver_module[0] = '\0';
	/* A bound driver's module cannot go before it stops mapping. */
	if (drv && drv->owner)
		strscpy(f->driver_module, drv->owner->name, sizeof(f->driver_module));

	f->chain_len = 0;
	if (!call->caller)
		return;
	n = edgedma_stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	edgedma_chain_from(f, entries, n, call);
}
