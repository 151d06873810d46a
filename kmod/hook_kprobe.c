// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe mode: a kretprobe on each API function whose result matters (the
 * maps and allocations: what they returned decides the record, and a
 * failure gives none) and an entry hook on the others (unmaps, frees,
 * syncs). An entry hook is an ftrace callback where the kernel has dynamic
 * ftrace with registers or arguments (compat.h), else a kprobe: on arm64 a
 * kprobe is a breakpoint exception and a single step, which under
 * emulation cost more than everything edgedma does for the call.
 *
 * Arguments come from the saved registers only. A kretprobe's entry
 * handler keeps them in its instance (ri->data) for the return handler,
 * which only reads regs_return_value(): nothing here changes what the API
 * returns. The caller is the probed function's return address.
 *
 * Inline wrappers need no probe of their own: dma_map_single() and
 * dma_alloc_noncoherent() end in dma_map_page_attrs() and dma_alloc_pages(),
 * dma_unmap_sgtable() in dma_unmap_sg_attrs(), and so on.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/dma-mapping.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "edgedma.h"
#include "hook.h"

/*
 * Instances per kretprobe: enough for 64 calls in flight per CPU
 * (allocations sleep, and PREEMPT_RT preempts maps), but no more than 4096,
 * the most tracefs gives a kretprobe, since the instance pool grows with
 * the square of the CPU count on some kernels.
 */
#define EDGEDMA_KRETPROBE_PER_CPU	64
#define EDGEDMA_KRETPROBE_MAX		4096

/* What a kretprobe's entry handler keeps for its return handler. */
struct edgedma_kp_args {
	unsigned long arg[6];
};

/*
 * Spelled out, not a loop: with a constant index regs_get_kernel_argument()
 * is one load of the register's slot, with a variable one a table lookup
 * and a bounds check per argument.
 */
static int edgedma_kp_save_args(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct edgedma_kp_args *a = (struct edgedma_kp_args *)ri->data;

	BUILD_BUG_ON(ARRAY_SIZE(a->arg) != 6);
	a->arg[0] = regs_get_kernel_argument(regs, 0);
	a->arg[1] = regs_get_kernel_argument(regs, 1);
	a->arg[2] = regs_get_kernel_argument(regs, 2);
	a->arg[3] = regs_get_kernel_argument(regs, 3);
	a->arg[4] = regs_get_kernel_argument(regs, 4);
	a->arg[5] = regs_get_kernel_argument(regs, 5);
	return 0;
}

/*
 * A call seen by a return handler: the caller is where the function
 * returns to, and @regs (the state at that return) let the call chain be
 * unwound from the caller where the kernel's unwinder cannot get past the
 * kretprobe trampoline (compat.h).
 */
static void edgedma_kp_return_init(struct edgedma_call *call, u32 kind,
				   struct device *dev, u32 dir,
				   struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	edgedma_call_init(call, kind, dev, dir,
			  edgedma_kretprobe_return_address(ri));
	call->return_regs = regs;
}

/* dma_map_page_attrs(dev, page, offset, size, dir, attrs) -> dma_addr_t */
static int edgedma_kp_map_page(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	const struct edgedma_kp_args *a = (void *)ri->data;
	dma_addr_t addr = regs_return_value(regs);
	struct edgedma_call call __uninitialized;

	if (addr == DMA_MAPPING_ERROR)
		return 0;
	edgedma_kp_return_init(&call, EDGEDMA_CALL_MAP_PAGE, (void *)a->arg[0],
			       (u32)a->arg[4], ri, regs);
	call.phys = page_to_phys((struct page *)a->arg[1]) + a->arg[2];
	call.cpu_addr = edgedma_linear_addr(call.phys);
	call.dma_addr = addr;
	call.size = a->arg[3];
	call.attrs = a->arg[5];
	edgedma_track_call(&call);
	return 0;
}

/* dma_map_sg_attrs(dev, sg, nents, dir, attrs) -> entries mapped, 0 */
static int edgedma_kp_map_sg(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	const struct edgedma_kp_args *a = (void *)ri->data;
	int mapped = (int)regs_return_value(regs);
	struct edgedma_call call __uninitialized;

	if (mapped <= 0)
		return 0;
	edgedma_kp_return_init(&call, EDGEDMA_CALL_MAP_SG, (void *)a->arg[0],
			       (u32)a->arg[3], ri, regs);
	call.sgl = (struct scatterlist *)a->arg[1];
	call.nents = (int)a->arg[2];
	call.mapped_nents = mapped;
	call.attrs = a->arg[4];
	edgedma_track_call(&call);
	return 0;
}

/* dma_map_sgtable(dev, sgt, dir, attrs) -> 0 with sgt->nents set, -errno */
static int edgedma_kp_map_sgtable(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	const struct edgedma_kp_args *a = (void *)ri->data;
	const struct sg_table *sgt = (void *)a->arg[1];
	struct edgedma_call call __uninitialized;

	if ((int)regs_return_value(regs) != 0)
		return 0;
	edgedma_kp_return_init(&call, EDGEDMA_CALL_MAP_SG, (void *)a->arg[0],
			       (u32)a->arg[2], ri, regs);
	call.sgl = sgt->sgl;
	call.nents = sgt->orig_nents;
	call.mapped_nents = sgt->nents;
	call.attrs = a->arg[3];
	edgedma_track_call(&call);
	return 0;
}

/* dma_map_resource(dev, phys, size, dir, attrs) -> dma_addr_t */
static int edgedma_kp_map_resource(struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	const struct edgedma_kp_args *a = (void *)ri->data;
	dma_addr_t addr = regs_return_value(regs);
	struct edgedma_call call __uninitialized;

	if (addr == DMA_MAPPING_ERROR)
		return 0;
	edgedma_kp_return_init(&call, EDGEDMA_CALL_MAP_RESOURCE, (void *)a->arg[0],
			       (u32)a->arg[3], ri, regs);
	call.phys = a->arg[1];
	call.dma_addr = addr;
	call.size = a->arg[2];
	call.attrs = a->arg[4];
	edgedma_track_call(&call);
	return 0;
}

/* dma_alloc_attrs(dev, size, *dma_handle, gfp, attrs) -> cpu_addr */
static int edgedma_kp_alloc_attrs(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	const struct edgedma_kp_args *a = (void *)ri->data;
	const void *cpu_addr = (const void *)regs_return_value(regs);
	struct edgedma_call call __uninitialized;

	if (!cpu_addr)
		return 0;
	edgedma_kp_return_init(&call, EDGEDMA_CALL_ALLOC_COHERENT, (void *)a->arg[0],
			       DMA_BIDIRECTIONAL, ri, regs);
	call.dma_addr = *(dma_addr_t *)a->arg[2];
	call.cpu_addr = cpu_addr;
	call.phys = edgedma_linear_phys(cpu_addr);
	call.size = a->arg[1];
	call.attrs = a->arg[4];
	edgedma_track_call(&call);
	return 0;
}

/* dma_alloc_pages(dev, size, *dma_handle, dir, gfp) -> struct page * */
static int edgedma_kp_alloc_pages(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	const struct edgedma_kp_args *a = (void *)ri->data;
	struct page *page = (struct page *)regs_return_value(regs);
	struct edgedma_call call __uninitialized;

	if (!page)
		return 0;
	edgedma_kp_return_init(&call, EDGEDMA_CALL_ALLOC_PAGES, (void *)a->arg[0],
			       (u32)a->arg[3], ri, regs);
	call.dma_addr = *(dma_addr_t *)a->arg[2];
	call.phys = page_to_phys(page);
	call.cpu_addr = edgedma_linear_addr(call.phys);
	call.size = a->arg[1];
	edgedma_track_call(&call);
	return 0;
}

#ifdef EDGEDMA_HAVE_DMA_ALLOC_NONCOHERENT_FN
/*
 * dma_alloc_noncoherent(dev, size, dma_handle, dir, gfp) -> cpu address,
 * through the device's ops (dma-iommu); without them it called
 * dma_alloc_pages(), whose probe records it. The ops allocate whole pages.
 */
static int edgedma_kp_alloc_noncoherent(struct kretprobe_instance *ri,
					struct pt_regs *regs)
{
	const struct edgedma_kp_args *a = (void *)ri->data;
	void *cpu_addr = (void *)regs_return_value(regs);
	struct device *dev = (void *)a->arg[0];
	struct edgedma_call call __uninitialized;

	if (!cpu_addr || !edgedma_noncoherent_through_ops(dev, true))
		return 0;
	edgedma_kp_return_init(&call, EDGEDMA_CALL_ALLOC_PAGES, dev,
			       (u32)a->arg[3], ri, regs);
	call.dma_addr = *(dma_addr_t *)a->arg[2];
	call.phys = edgedma_linear_phys(cpu_addr);
	call.cpu_addr = call.phys == EDGEDMA_NO_PHYS ? NULL : cpu_addr;
	call.size = PAGE_ALIGN(a->arg[1]);
	edgedma_track_call(&call);
	return 0;
}
#endif

/*
 * An entry hook's view of the call, whether a kprobe or ftrace brought it:
 * the first five arguments, where the caller resumes, the hooked address
 * (the call chain's stand-in for a caller without a frame yet) and the
 * caller's interrupt state. Filled and read inline: what a hook does not
 * read is never loaded.
 */
struct edgedma_entry {
	unsigned long arg[5];
	unsigned long caller;
	unsigned long pc;
	bool irqs_off;
};

static __always_inline void edgedma_entry_init(struct edgedma_call *call,
					       u32 kind,
					       const struct edgedma_entry *e,
					       u32 dir)
{
	edgedma_call_init(call, kind, (void *)e->arg[0], dir, e->caller);
	call->entry_pc = e->pc;
}

/* dma_unmap_page_attrs(dev, addr, size, dir, attrs) */
static __always_inline void edgedma_on_unmap_page(const struct edgedma_entry *e)
{
	struct edgedma_call call __uninitialized;

	edgedma_entry_init(&call, EDGEDMA_CALL_UNMAP_PAGE, e, (u32)e->arg[3]);
	call.dma_addr = e->arg[1];
	call.size = e->arg[2];
	call.attrs = e->arg[4];
	edgedma_track_call(&call);
}

/* dma_unmap_sg_attrs(dev, sg, nents, dir, attrs) */
static __always_inline void edgedma_on_unmap_sg(const struct edgedma_entry *e)
{
	struct edgedma_call call __uninitialized;

	edgedma_entry_init(&call, EDGEDMA_CALL_UNMAP_SG, e, (u32)e->arg[3]);
	call.sgl = (struct scatterlist *)e->arg[1];
	call.nents = (int)e->arg[2];
	call.attrs = e->arg[4];
	edgedma_track_call(&call);
}

/* dma_unmap_resource(dev, addr, size, dir, attrs) */
static __always_inline void edgedma_on_unmap_resource(const struct edgedma_entry *e)
{
	struct edgedma_call call __uninitialized;

	edgedma_entry_init(&call, EDGEDMA_CALL_UNMAP_RESOURCE, e, (u32)e->arg[3]);
	call.dma_addr = e->arg[1];
	call.size = e->arg[2];
	call.attrs = e->arg[4];
	edgedma_track_call(&call);
}

/* dma_free_attrs(dev, size, cpu_addr, dma_handle, attrs); NULL is a no-op */
static __always_inline void edgedma_on_free_attrs(const struct edgedma_entry *e)
{
	const void *cpu_addr = (const void *)e->arg[2];
	struct edgedma_call call __uninitialized;

	if (!cpu_addr)
		return;
	edgedma_entry_init(&call, EDGEDMA_CALL_FREE_COHERENT, e, DMA_BIDIRECTIONAL);
	/* At its entry: before dma_free_attrs() WARNs about it. */
	call.caller_irqs_off = e->irqs_off;
	call.size = e->arg[1];
	call.cpu_addr = cpu_addr;
	call.dma_addr = e->arg[3];
	call.attrs = e->arg[4];
	edgedma_track_call(&call);
}

/* dma_free_pages(dev, size, page, dma_handle, dir) */
static __always_inline void edgedma_on_free_pages(const struct edgedma_entry *e)
{
	struct edgedma_call call __uninitialized;

	edgedma_entry_init(&call, EDGEDMA_CALL_FREE_PAGES, e, (u32)e->arg[4]);
	call.size = e->arg[1];
	call.phys = page_to_phys((struct page *)e->arg[2]);
	call.dma_addr = e->arg[3];
	edgedma_track_call(&call);
}

#ifdef EDGEDMA_HAVE_DMA_ALLOC_NONCOHERENT_FN
/* dma_free_noncoherent(dev, size, cpu_addr, dma_handle, dir), as its alloc */
static __always_inline void edgedma_on_free_noncoherent(const struct edgedma_entry *e)
{
	struct edgedma_call call __uninitialized;

	if (!edgedma_noncoherent_through_ops((struct device *)e->arg[0], false))
		return;
	edgedma_entry_init(&call, EDGEDMA_CALL_FREE_PAGES, e, (u32)e->arg[4]);
	call.size = PAGE_ALIGN(e->arg[1]);
	call.phys = edgedma_linear_phys((void *)e->arg[2]);
	call.dma_addr = e->arg[3];
	edgedma_track_call(&call);
}
#endif

/* dma_sync_single_for_{cpu,device}(dev, addr, size, dir) */
static __always_inline void edgedma_on_sync_single(const struct edgedma_entry *e,
						   u32 kind)
{
	struct edgedma_call call __uninitialized;

	edgedma_entry_init(&call, kind, e, (u32)e->arg[3]);
	call.dma_addr = e->arg[1];
	call.size = e->arg[2];
	edgedma_track_call(&call);
}

/* dma_sync_sg_for_{cpu,device}(dev, sg, nelems, dir) */
static __always_inline void edgedma_on_sync_sg(const struct edgedma_entry *e,
					       u32 kind)
{
	struct edgedma_call call __uninitialized;

	edgedma_entry_init(&call, kind, e, (u32)e->arg[3]);
	call.sgl = (struct scatterlist *)e->arg[1];
	call.nents = (int)e->arg[2];
	edgedma_track_call(&call);
}

static __always_inline void edgedma_on_sync_single_for_cpu(const struct edgedma_entry *e)
{
	edgedma_on_sync_single(e, EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU);
}

static __always_inline void edgedma_on_sync_single_for_device(const struct edgedma_entry *e)
{
	edgedma_on_sync_single(e, EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE);
}

static __always_inline void edgedma_on_sync_sg_for_cpu(const struct edgedma_entry *e)
{
	edgedma_on_sync_sg(e, EDGEDMA_CALL_SYNC_SG_FOR_CPU);
}

static __always_inline void edgedma_on_sync_sg_for_device(const struct edgedma_entry *e)
{
	edgedma_on_sync_sg(e, EDGEDMA_CALL_SYNC_SG_FOR_DEVICE);
}

/* A kprobe at the function's first instruction. */
static __always_inline void edgedma_entry_from_regs(struct edgedma_entry *e,
						    struct pt_regs *regs)
{
	e->arg[0] = regs_get_kernel_argument(regs, 0);
	e->arg[1] = regs_get_kernel_argument(regs, 1);
	e->arg[2] = regs_get_kernel_argument(regs, 2);
	e->arg[3] = regs_get_kernel_argument(regs, 3);
	e->arg[4] = regs_get_kernel_argument(regs, 4);
	e->caller = edgedma_kprobe_entry_return_address(regs);
	e->pc = instruction_pointer(regs);
	e->irqs_off = edgedma_regs_irqs_off(regs);
}

#define EDGEDMA_KPROBE_ENTRY(fn)						\
static int edgedma_kp_##fn(struct kprobe *p, struct pt_regs *regs)		\
{										\
	struct edgedma_entry e;							\
										\
	edgedma_entry_from_regs(&e, regs);					\
	edgedma_on_##fn(&e);							\
	return 0;								\
}

/*
 * The entry hooks, each as (function, handler): a kprobe handler each, and
 * one ftrace callback for all (below).
 */
#ifdef EDGEDMA_HAVE_DMA_ALLOC_NONCOHERENT_FN
#define EDGEDMA_NONCOHERENT_ENTRIES(X)	X("dma_free_noncoherent", free_noncoherent)
#else
#define EDGEDMA_NONCOHERENT_ENTRIES(X)
#endif
#ifdef EDGEDMA_HAVE_DMA_SYNC_HOOKS
#define EDGEDMA_SYNC_ENTRIES(X)							\
	X(__stringify(edgedma_dma_sync_single_for_cpu), sync_single_for_cpu)	\
	X(__stringify(edgedma_dma_sync_single_for_device), sync_single_for_device) \
	X(__stringify(edgedma_dma_sync_sg_for_cpu), sync_sg_for_cpu)		\
	X(__stringify(edgedma_dma_sync_sg_for_device), sync_sg_for_device)
#else
#define EDGEDMA_SYNC_ENTRIES(X)
#endif
/* The unmaps first: the ftrace callback looks for its function in order. */
#define EDGEDMA_ENTRIES(X)							\
	X("dma_unmap_page_attrs", unmap_page)					\
	X("dma_unmap_sg_attrs", unmap_sg)					\
	X("dma_unmap_resource", unmap_resource)					\
	X("dma_free_attrs", free_attrs)						\
	X("dma_free_pages", free_pages)						\
	EDGEDMA_NONCOHERENT_ENTRIES(X)						\
	EDGEDMA_SYNC_ENTRIES(X)

#define EDGEDMA_ENTRY_INDEX(symbol, fn)	EDGEDMA_ENTRY_##fn,
enum { EDGEDMA_ENTRIES(EDGEDMA_ENTRY_INDEX) EDGEDMA_NR_ENTRIES };

#define EDGEDMA_KPROBE_ENTRY_FN(symbol, fn)	EDGEDMA_KPROBE_ENTRY(fn)
EDGEDMA_ENTRIES(EDGEDMA_KPROBE_ENTRY_FN)

#ifdef EDGEDMA_HAVE_FTRACE_ENTRY_HOOKS
/*
 * Where each entry's function starts, for the functions hooked through
 * ftrace (0 for the others): the callback is told the function's ftrace
 * site, which lies in its first instructions (compat.c).
 */
static unsigned long edgedma_entry_start[EDGEDMA_NR_ENTRIES];
#define EDGEDMA_FTRACE_SITE_SPAN	16

/*
 * An ftrace callback at the function's ftrace site: @ip is that site,
 * @parent_ip where the caller resumes, and the callback runs in the
 * caller's context (its interrupt state is the caller's).
 */
static __always_inline void edgedma_entry_from_ftrace(struct edgedma_entry *e,
						      unsigned long ip,
						      unsigned long parent_ip,
						      edgedma_ftrace_regs_t *fregs)
{
	e->arg[0] = edgedma_ftrace_arg(fregs, 0);
	e->arg[1] = edgedma_ftrace_arg(fregs, 1);
	e->arg[2] = edgedma_ftrace_arg(fregs, 2);
	e->arg[3] = edgedma_ftrace_arg(fregs, 3);
	e->arg[4] = edgedma_ftrace_arg(fregs, 4);
	e->caller = parent_ip;
	e->pc = ip;
	e->irqs_off = irqs_disabled();
}

#define EDGEDMA_FTRACE_ENTRY_CASE(symbol, fn)					\
	if (ip - edgedma_entry_start[EDGEDMA_ENTRY_##fn] < EDGEDMA_FTRACE_SITE_SPAN) { \
		edgedma_on_##fn(&e);						\
		return;								\
	}

/*
 * One ftrace_ops for every entry hooked through ftrace: registering and
 * unregistering ops patches text (stop_machine on arm64) and waits for an
 * RCU-tasks grace period per ops, which for one ops per function took
 * seconds per load and unload under emulation.
 */
static void notrace edgedma_ft_entry(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *op,
				     edgedma_ftrace_regs_t *fregs)
{
	struct edgedma_entry e;

	edgedma_entry_from_ftrace(&e, ip, parent_ip, fregs);
	EDGEDMA_ENTRIES(EDGEDMA_FTRACE_ENTRY_CASE)
}
#endif

/* hook_floor: the same probes, doing nothing. */
static int edgedma_kp_floor_ret(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	return 0;
}

static int edgedma_kp_floor_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

#ifdef EDGEDMA_HAVE_FTRACE_ENTRY_HOOKS
static void notrace edgedma_ft_floor(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *op,
				     edgedma_ftrace_regs_t *fregs)
{
}
#endif

struct edgedma_kretprobe_def {
	const char *symbol;
	kretprobe_handler_t handler;
	/*
	 * A function older kernels have only as an inline wrapper: what its
	 * absence leaves unseen. The load goes on without its probe.
	 */
	const char *unseen_when_missing;
};

/* An entry hook: through ftrace where the kernel allows, else a kprobe. */
struct edgedma_kprobe_def {
	const char *symbol;
	kprobe_pre_handler_t handler;
};

static const struct edgedma_kretprobe_def edgedma_kretprobe_defs[] = {
	{ "dma_map_page_attrs", edgedma_kp_map_page },
	{ "dma_map_sg_attrs", edgedma_kp_map_sg },
	/* 5.16 made it a function; before, it called dma_map_sg_attrs(). */
	{ "dma_map_sgtable", edgedma_kp_map_sgtable,
	  "nothing unseen: an inline wrapper on this kernel, whose calls are seen in dma_map_sg_attrs()" },
	{ "dma_map_resource", edgedma_kp_map_resource },
	{ "dma_alloc_attrs", edgedma_kp_alloc_attrs },
	{ "dma_alloc_pages", edgedma_kp_alloc_pages },
#ifdef EDGEDMA_HAVE_DMA_ALLOC_NONCOHERENT_FN
	{ "dma_alloc_noncoherent", edgedma_kp_alloc_noncoherent },
#endif
};

#define EDGEDMA_ENTRY_DEF(symbol, fn)	[EDGEDMA_ENTRY_##fn] = { symbol, edgedma_kp_##fn },
static const struct edgedma_kprobe_def edgedma_kprobe_defs[] = {
	EDGEDMA_ENTRIES(EDGEDMA_ENTRY_DEF)
};

#define EDGEDMA_NR_KRETPROBES	ARRAY_SIZE(edgedma_kretprobe_defs)
#define EDGEDMA_NR_KPROBES	EDGEDMA_NR_ENTRIES

static struct kretprobe edgedma_kretprobes[EDGEDMA_NR_KRETPROBES];
static struct kprobe edgedma_kprobes[EDGEDMA_NR_KPROBES];
/* The probes registered, and only those: the unregister calls take them. */
static struct kretprobe *edgedma_kretprobe_ptrs[EDGEDMA_NR_KRETPROBES];
static struct kprobe *edgedma_kprobe_ptrs[EDGEDMA_NR_KPROBES];
static unsigned int edgedma_nr_kretprobes, edgedma_nr_kprobes;
#ifdef EDGEDMA_HAVE_FTRACE_ENTRY_HOOKS
/* The one ops of the entries hooked through ftrace, while registered. */
static struct ftrace_ops edgedma_entry_ops;
static bool edgedma_entry_ops_registered;

static bool edgedma_ftrace_entries = true;
module_param_named(ftrace_entries, edgedma_ftrace_entries, bool, 0444);
MODULE_PARM_DESC(ftrace_entries, "kprobe mode: hook the entries of unmaps, frees and syncs through ftrace where the kernel allows (default), not with kprobes");
#endif
/* The kretprobe definitions left out on this kernel, by index. */
static const struct edgedma_kretprobe_def *edgedma_kretprobes_skipped[EDGEDMA_NR_KRETPROBES];
static unsigned int edgedma_nr_skipped;

/*
 * Each start fills the probes afresh from their definitions: a probe
 * registered again must not keep the addr and flags its last registration
 * left (on 6.12 that crashed in objpool_fini from an RCU callback).
 */
static void edgedma_kprobe_prepare(bool floor)
{
	int maxactive = min_t(unsigned int,
			      EDGEDMA_KRETPROBE_PER_CPU * num_possible_cpus(),
			      EDGEDMA_KRETPROBE_MAX);
	unsigned int i;

	for (i = 0; i < EDGEDMA_NR_KRETPROBES; i++) {
		edgedma_kretprobes[i] = (struct kretprobe) {
			.kp.symbol_name = edgedma_kretprobe_defs[i].symbol,
			.entry_handler = floor ? edgedma_kp_floor_ret :
						 edgedma_kp_save_args,
			.handler = floor ? edgedma_kp_floor_ret :
					   edgedma_kretprobe_defs[i].handler,
			.data_size = sizeof(struct edgedma_kp_args),
			.maxactive = maxactive,
		};
	}
	for (i = 0; i < EDGEDMA_NR_KPROBES; i++) {
		edgedma_kprobes[i] = (struct kprobe) {
			.symbol_name = edgedma_kprobe_defs[i].symbol,
			.pre_handler = floor ? edgedma_kp_floor_pre :
					       edgedma_kprobe_defs[i].handler,
		};
	}
	edgedma_nr_kretprobes = 0;
	edgedma_nr_kprobes = 0;
	edgedma_nr_skipped = 0;
}

#ifdef EDGEDMA_HAVE_FTRACE_ENTRY_HOOKS
/*
 * The entries through ftrace, in one ops filtered to each function's
 * ftrace site; *@by_ftrace[i] says which got there (a function without a
 * site, notrace or ftrace off, takes a kprobe instead). The ops is filled
 * afresh, as the probes are, each time.
 */
static void edgedma_entries_ftrace_register(bool floor, bool *by_ftrace)
{
	struct ftrace_ops *ops = &edgedma_entry_ops;
	unsigned int i, n = 0;
	int err;

	*ops = (struct ftrace_ops) {
		.func = floor ? edgedma_ft_floor : edgedma_ft_entry,
		.flags = EDGEDMA_FTRACE_OPS_FLAGS,
	};
	for (i = 0; i < EDGEDMA_NR_ENTRIES; i++) {
		const char *symbol = edgedma_kprobe_defs[i].symbol;

		edgedma_entry_start[i] = 0;
		err = edgedma_ftrace_filter_function(ops, symbol, &edgedma_entry_start[i]);
		if (err) {
			edgedma_entry_start[i] = 0;
			pr_info("no ftrace site in %s (%d): a kprobe instead\n", symbol, err);
			continue;
		}
		by_ftrace[i] = true;
		n++;
	}
	err = n ? register_ftrace_function(ops) : 0;
	if (err) {
		pr_info("ftrace refused the entry hooks (%d): kprobes instead\n", err);
		memset(by_ftrace, 0, EDGEDMA_NR_ENTRIES * sizeof(*by_ftrace));
		memset(edgedma_entry_start, 0, sizeof(edgedma_entry_start));
	}
	if (err || !n) {
		edgedma_ftrace_filter_clear(ops);
		return;
	}
	edgedma_entry_ops_registered = true;
}

/* After it returns no callback of ours runs, and none will. */
static void edgedma_entries_ftrace_unregister(void)
{
	if (!edgedma_entry_ops_registered)
		return;
	unregister_ftrace_function(&edgedma_entry_ops);
	edgedma_ftrace_filter_clear(&edgedma_entry_ops);
	edgedma_entry_ops_registered = false;
}
#else
static void edgedma_entries_ftrace_register(bool floor, bool *by_ftrace) { }
static void edgedma_entries_ftrace_unregister(void) { }
#endif

static void edgedma_kprobe_unregister(void)
{
	if (edgedma_nr_kretprobes)
		unregister_kretprobes(edgedma_kretprobe_ptrs, edgedma_nr_kretprobes);
	if (edgedma_nr_kprobes)
		unregister_kprobes(edgedma_kprobe_ptrs, edgedma_nr_kprobes);
	edgedma_entries_ftrace_unregister();
	rcu_barrier();
	edgedma_nr_kretprobes = 0;
	edgedma_nr_kprobes = 0;
}

/* Whether entries go through ftrace: built with it and not turned off. */
static bool edgedma_entries_by_ftrace_wanted(void)
{
#ifdef EDGEDMA_HAVE_FTRACE_ENTRY_HOOKS
	return edgedma_ftrace_entries;
#else
	return false;
#endif
}

int edgedma_kprobe_start(bool floor)
{
	bool by_ftrace[EDGEDMA_NR_ENTRIES] = {};
	unsigned int i;
	int err;

	edgedma_kprobe_prepare(floor);

	/*
	 * The ends of mappings (entries) before their starts (kretprobes): a
	 * mapping seen made but not seen undone would stay in the table for
	 * good; one made before its map was watched is merely unknown.
	 */
	if (edgedma_entries_by_ftrace_wanted())
		edgedma_entries_ftrace_register(floor, by_ftrace);
	for (i = 0; i < EDGEDMA_NR_ENTRIES; i++) {
		if (by_ftrace[i])
			continue;
		err = register_kprobe(&edgedma_kprobes[i]);
		if (err) {
			pr_err("kprobe on %s: %d\n", edgedma_kprobe_defs[i].symbol, err);
			goto err_unregister;
		}
		edgedma_kprobe_ptrs[edgedma_nr_kprobes++] = &edgedma_kprobes[i];
	}
	for (i = 0; i < EDGEDMA_NR_KRETPROBES; i++) {
		const struct edgedma_kretprobe_def *def = &edgedma_kretprobe_defs[i];

		err = register_kretprobe(&edgedma_kretprobes[i]);
		if (err == -ENOENT && def->unseen_when_missing) {
			pr_info("no function %s to probe: %s\n",
				def->symbol, def->unseen_when_missing);
			edgedma_kretprobes_skipped[edgedma_nr_skipped++] = def;
			continue;
		}
		if (err) {
			pr_err("kretprobe on %s: %d\n", def->symbol, err);
			goto err_unregister;
		}
		edgedma_kretprobe_ptrs[edgedma_nr_kretprobes++] = &edgedma_kretprobes[i];
	}
	pr_info("kprobe mode: %u kretprobes, %u function entries through ftrace, %u with kprobes\n",
		edgedma_nr_kretprobes,
		(unsigned int)EDGEDMA_NR_KPROBES - edgedma_nr_kprobes,
		edgedma_nr_kprobes);
	return 0;

err_unregister:
	edgedma_kprobe_unregister();
	return err;
}

const char *edgedma_kprobe_skipped(unsigned int i, const char **unseen)
{
	if (i >= READ_ONCE(edgedma_nr_skipped))
		return NULL;
	*unseen = edgedma_kretprobes_skipped[i]->unseen_when_missing;
	return edgedma_kretprobes_skipped[i]->symbol;
}

/*
 * Misses of two kinds: a kretprobe that found every instance busy
 * (maxactive calls in flight), and a probe hit while another probe's
 * handler ran on the same CPU (a DMA call from an interrupt taken then),
 * which kprobes skip.
 */
static void edgedma_kprobe_count_missed(u64 *busy, u64 *nested)
{
	unsigned int i;

	*busy = 0;
	*nested = 0;
	for (i = 0; i < EDGEDMA_NR_KRETPROBES; i++) {
		*busy += READ_ONCE(edgedma_kretprobes[i].nmissed);
		*nested += READ_ONCE(edgedma_kretprobes[i].kp.nmissed);
	}
	for (i = 0; i < EDGEDMA_NR_KPROBES; i++)
		*nested += READ_ONCE(edgedma_kprobes[i].nmissed);
}

/*
 * After unregistering, no handler of ours runs (both calls wait for RCU),
 * and a probed function still running returns through the kernel's
 * trampoline without calling us. rcu_barrier() waits for the callbacks
 * that free the kretprobe instances, before the module or a new start can
 * reuse the structures.
 */
void edgedma_kprobe_stop(void)
{
	u64 busy, nested;
	unsigned int i;

	edgedma_kprobe_unregister();

	edgedma_kprobe_count_missed(&busy, &nested);
	if (!busy && !nested)
		return;
	pr_info("kprobe mode missed %llu calls: %llu with all kretprobe instances busy, %llu nested in another probe\n",
		busy + nested, busy, nested);
	/* Which functions: what a user needs to judge the findings. */
	for (i = 0; i < EDGEDMA_NR_KRETPROBES; i++)
		if (edgedma_kretprobes[i].nmissed || edgedma_kretprobes[i].kp.nmissed)
			pr_info("  %s: %d busy, %lu nested\n", edgedma_kretprobe_defs[i].symbol,
				edgedma_kretprobes[i].nmissed,
				edgedma_kretprobes[i].kp.nmissed);
	for (i = 0; i < EDGEDMA_NR_KPROBES; i++)
		if (edgedma_kprobes[i].nmissed)
			pr_info("  %s: %lu nested\n", edgedma_kprobe_defs[i].symbol,
				edgedma_kprobes[i].nmissed);
}

/*
 * The kretprobe instances the kprobe core allocates for us when they are
 * registered: maxactive of them per kretprobe, each with our data.
 */
size_t edgedma_kprobe_memory(void)
{
	size_t bytes = 0;
	unsigned int i;

	for (i = 0; i < edgedma_nr_kretprobes; i++)
		bytes += (size_t)edgedma_kretprobe_ptrs[i]->maxactive *
			 (sizeof(struct kretprobe_instance) +
			  edgedma_kretprobe_ptrs[i]->data_size);
	return bytes;
}

/* What the last start attached, for GET_INFO; stable while hooked. */
void edgedma_kprobe_counts(u32 *kretprobes, u32 *ftrace_entries, u32 *kprobe_entries)
{
	*kretprobes = READ_ONCE(edgedma_nr_kretprobes);
	*kprobe_entries = READ_ONCE(edgedma_nr_kprobes);
	*ftrace_entries = EDGEDMA_NR_KPROBES - *kprobe_entries;
}

u64 edgedma_kprobe_missed(void)
{
	u64 busy, nested;

	edgedma_kprobe_count_missed(&busy, &nested);
	return busy + nested;
}
