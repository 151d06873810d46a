// SPDX-License-Identifier: GPL-2.0
/*
 * Which ways of hooking the DMA-mapping API this kernel offers.
 *
 * Tracepoint mode needs the kernel's dma trace events (6.12 on) and finds
 * them at run time, since their symbols are not exported. Kprobe mode needs
 * kprobes and kretprobes built in.
 */
#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "edgedma.h"

#ifdef EDGEDMA_HAVE_DMA_TRACE_EVENTS
static void edgedma_find_dma_map_page(struct tracepoint *tp, void *found)
{
	if (!strcmp(tp->name, "dma_map_page"))
		*(bool *)found = true;
}

static bool edgedma_dma_tracepoints_present(void)
{
	bool found = false;

	for_each_kernel_tracepoint(edgedma_find_dma_map_page, &found);
	return found;
}
#else
static bool edgedma_dma_tracepoints_present(void)
{
	return false;
}
#endif

u32 edgedma_hook_modes_available(void)
{
	u32 modes = 0;

	if (edgedma_dma_tracepoints_present())
		modes |= EDGEDMA_HOOK_MODE_TRACEPOINT;
	if (IS_ENABLED(CONFIG_KPROBES) && IS_ENABLED(CONFIG_KRETPROBES))
		modes |= EDGEDMA_HOOK_MODE_KPROBE;
	return modes;
}
