/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the hook files only (hook*.c):
 * the two ways of attaching, and the rules both follow when they fill a
 * record, so that one call gives one record whichever way it was seen.
 */
#ifndef _EDGEDMA_HOOK_H
#define _EDGEDMA_HOOK_H

#include <linux/errno.h>
#include <linux/io.h>
#include <linux/mm.h>

#include "compat.h"
#include "edgedma.h"

/*
 * hook_kprobe.c: kretprobes and kprobes on the exported API functions.
 * floor: the same probes with empty handlers (the mechanism's own cost).
 */
#ifdef CONFIG_KRETPROBES
int edgedma_kprobe_start(bool floor);
void edgedma_kprobe_stop(void);
u64 edgedma_kprobe_missed(void);
size_t edgedma_kprobe_memory(void);
const char *edgedma_kprobe_skipped(unsigned int i, const char **unseen);
void edgedma_kprobe_counts(u32 *kretprobes, u32 *ftrace_entries, u32 *kprobe_entries);
#else
static inline int edgedma_kprobe_start(bool floor) { return -EOPNOTSUPP; }
static inline void edgedma_kprobe_stop(void) { }
static inline u64 edgedma_kprobe_missed(void) { return 0; }
static inline size_t edgedma_kprobe_memory(void) { return 0; }
static inline const char *edgedma_kprobe_skipped(unsigned int i, const char **unseen)
{
	return NULL;
}

static inline void edgedma_kprobe_counts(u32 *kretprobes, u32 *ftrace_entries,
					 u32 *kprobe_entries)
{
	*kretprobes = *ftrace_entries = *kprobe_entries = 0;
}
#endif

/* hook_tracepoint.c: the kernel's dma trace events (6.12 on). */
#ifdef EDGEDMA_HAVE_DMA_TRACE_EVENTS
bool edgedma_tracepoint_present(void);
int edgedma_tracepoint_start(bool floor);
void edgedma_tracepoint_stop(void);
#else
static inline bool edgedma_tracepoint_present(void) { return false; }
static inline int edgedma_tracepoint_start(bool floor) { return -EOPNOTSUPP; }
static inline void edgedma_tracepoint_stop(void) { }
#endif

/* hook_ops.c: edgedma's dma_map_ops in each device (CONFIG_DMA_OPS). */
#ifdef EDGEDMA_HAVE_HOOK_OPS
int edgedma_ops_start(bool floor);
void edgedma_ops_stop(void);
#else
static inline int edgedma_ops_start(bool floor) { return -EOPNOTSUPP; }
static inline void edgedma_ops_stop(void) { }
#endif

/*
 * Every field a kind does not fill is 0, phys EDGEDMA_NO_PHYS: every field
 * of struct edgedma_call is set here (a new one must be too). The hooks
 * declare their record __uninitialized: with CONFIG_INIT_STACK_ALL_ZERO
 * (Debian's 6.1 and 6.12) the compiler would zero it at the probe's entry
 * as well, a memset call on arm64, for a record this fills anyway.
 */
static inline void edgedma_call_init(struct edgedma_call *call, u32 kind,
				     struct device *dev, u32 dir,
				     unsigned long caller)
{
	/* Field by field: a compound literal is a memset call on arm64. */
	call->kind = kind;
	call->dir = dir;
	call->dev = dev;
	call->dma_addr = 0;
	call->size = 0;
	call->phys = EDGEDMA_NO_PHYS;
	call->cpu_addr = NULL;
	call->sgl = NULL;
	call->nents = 0;
	call->mapped_nents = 0;
	call->attrs = 0;
	call->caller = caller;
	call->entry_pc = 0;
	call->return_regs = NULL;
	call->caller_irqs_off = false;
}

/*
 * cpu_addr of a buffer known by its physical address (MAP_PAGE,
 * ALLOC_PAGES): its address in the kernel's linear map when it has one (a
 * valid, not highmem pfn), else NULL. It is never the pointer the driver
 * holds: a dma_map_single() of a vmalloc address still reports the linear
 * alias of the page the kernel mapped.
 */
static inline const void *edgedma_linear_addr(phys_addr_t phys)
{
	unsigned long pfn = PHYS_PFN(phys);

	if (!pfn_valid(pfn) || PageHighMem(pfn_to_page(pfn)))
		return NULL;
	return phys_to_virt(phys);
}

/*
 * phys of a coherent allocation, known by its CPU address: only when that
 * address is in the linear map (a remapped or vmapped buffer has none).
 */
static inline u64 edgedma_linear_phys(const void *cpu_addr)
{
	if (!virt_addr_valid(cpu_addr))
		return EDGEDMA_NO_PHYS;
	return virt_to_phys((void *)cpu_addr);
}

#endif /* _EDGEDMA_HOOK_H */
