/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of the edgedma module. Each concern has
 * its own file; this header only joins them.
 */
#ifndef _EDGEDMA_H
#define _EDGEDMA_H

#include <linux/percpu.h>
#include <linux/types.h>

#ifndef EDGEDMA_VERSION
#error "EDGEDMA_VERSION is set by Kbuild from the top-level VERSION file"
#endif

struct device;
struct scatterlist;

/*
 * One call into the DMA-mapping API, as a hook saw it. Hooks fill what
 * their mechanism gives them and hand it to edgedma_track_call(); both hook
 * modes must produce the same records for the same call.
 *
 * Which fields each kind (enum edgedma_call_kind) fills:
 *   MAP_PAGE       dev dma_addr size dir attrs phys [cpu_addr]
 *   UNMAP_PAGE     dev dma_addr size dir attrs
 *   MAP_SG         dev sgl nents mapped_nents dir attrs
 *   UNMAP_SG       dev sgl nents dir attrs
 *   MAP_RESOURCE   dev dma_addr size dir attrs phys
 *   UNMAP_RESOURCE dev dma_addr size dir attrs
 *   ALLOC_COHERENT dev dma_addr size attrs cpu_addr [phys]   (dir = DMA_BIDIRECTIONAL)
 *   FREE_COHERENT  dev dma_addr size attrs cpu_addr           (dir = DMA_BIDIRECTIONAL)
 *   ALLOC_PAGES    dev dma_addr size dir phys [cpu_addr]
 *   FREE_PAGES     dev dma_addr size dir phys
 *   SYNC_SINGLE_*  dev dma_addr size dir
 *   SYNC_SG_*      dev sgl nents dir
 * A map or alloc that failed (DMA_MAPPING_ERROR, NULL, 0 entries) is not
 * reported at all. caller is the return address into the code that called
 * the DMA API (the driver), or 0 when the hook cannot tell.
 * hook.h's edgedma_call_init() sets every field: a new one goes there too.
 */
struct edgedma_call {
	u32 kind;
	u32 dir;			/* enum dma_data_direction */
	struct device *dev;
	u64 dma_addr;
	u64 size;
	u64 phys;			/* EDGEDMA_NO_PHYS when unknown */
	const void *cpu_addr;		/* NULL when unknown */
	struct scatterlist *sgl;
	int nents;			/* sg: entries the caller passed */
	int mapped_nents;		/* map_sg: entries the API returned */
	unsigned long attrs;
	unsigned long caller;
	/*
	 * Where a probe at the API function's entry interrupted it (0 for
	 * the other hooks): on arm64 the caller's return address is still in
	 * the link register there, so a stack trace has this address where
	 * the caller's frame would be, and the caller's callers after it.
	 */
	unsigned long entry_pc;
	/* A return handler's registers (NULL for the other hooks). */
	struct pt_regs *return_regs;
	/*
	 * FREE_COHERENT: interrupts were off where the driver called the API
	 * (the DMA core may vunmap there, and WARNs). The hooks read it from
	 * the caller's state, not from their own.
	 */
	bool caller_irqs_off;
};

#define EDGEDMA_NO_PHYS	(~0ULL)

/*
 * The sum of a per-CPU counter over every possible CPU: counters are bumped
 * on the hook path without atomics and only summed when someone reads them.
 */
#define edgedma_percpu_sum(var)					\
({								\
	typeof(per_cpu(var, 0)) __sum = 0;			\
	int __cpu;						\
								\
	for_each_possible_cpu(__cpu)				\
		__sum += READ_ONCE(per_cpu(var, __cpu));	\
	__sum;							\
})

/* Called by the hooks, in any context but NMI; never sleeps. */
void edgedma_track_call(const struct edgedma_call *call);

/*
 * A module parameter's value lies in [min, max]; otherwise the load is
 * refused with a message that names the parameter and the range.
 */
int edgedma_param_check(const char *name, unsigned long long value,
			unsigned long long min, unsigned long long max);

/* hook.c: attaching to the DMA-mapping API. */
u32 edgedma_hook_modes_available(void);
int edgedma_hook_start(void);		/* in the mode the hook= parameter asks */
void edgedma_hook_stop(void);
/* enum edgedma_hook_mode, 0 if none; set by hook.c only. */
extern u32 edgedma_hook_active;
/* The mode the hooks run in, 0 if none. Inline: the map path asks. */
static inline u32 edgedma_hook_mode_active(void)
{
	return READ_ONCE(edgedma_hook_active);
}
/*
 * When the last hook went in (ktime_get_ns()); U64_MAX before that and again
 * once the first goes out. A mapping made after it, while it is not U64_MAX,
 * was seen made (unless a hook counted a miss).
 */
extern u64 edgedma_hooks_armed_ns;
bool edgedma_hook_floor(void);		/* hook_floor=1: empty handlers only */
u64 edgedma_hook_missed(void);		/* calls the hooks could not see */
/* Bytes the kernel holds for the hooks (kretprobe instances). */
size_t edgedma_hook_memory(void);
/*
 * The @i-th API function the hooks left out (this kernel has it only as an
 * inline wrapper), with what that leaves unseen; NULL past the last.
 */
const char *edgedma_hook_skipped(unsigned int i, const char **unseen);
/*
 * Kprobe mode: the functions hooked with a kretprobe, and the entries
 * hooked through ftrace and with kprobes. False in another mode.
 */
bool edgedma_hook_kprobe_counts(u32 *kretprobes, u32 *ftrace_entries,
				u32 *kprobe_entries);


#endif /* _EDGEDMA_H */
