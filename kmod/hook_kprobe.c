// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe mode: a kretprobe on each API function whose result matters (the
 * maps and allocations: what they returned decides the record, and a
 * failure gives none) and a kprobe on the entry of the others (unmaps,
 * frees, syncs).
 *
 * Arguments come from regs_get_kernel_argument() only. A kretprobe's entry
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
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
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

#define edgedma_kp_arg(regs, n)	regs_get_kernel_argument(regs, n)

static void edgedma_kp_init(struct edgedma_call *call, u32 kind,
			    struct pt_regs *regs, u32 dir)
{
	edgedma_call_init(call, kind, (void *)edgedma_kp_arg(regs, 0), dir,
			  edgedma_kprobe_entry_return_address(regs));
	call->entry_pc = instruction_pointer(regs);
}

/* dma_unmap_page_attrs(dev, addr, size, dir, attrs) */
static int edgedma_kp_unmap_page(struct kprobe *p, struct pt_regs *regs)
{
	struct edgedma_call call __uninitialized;

	edgedma_kp_init(&call, EDGEDMA_CALL_UNMAP_PAGE, regs,
			(u32)edgedma_kp_arg(regs, 3));
	call.dma_addr = edgedma_kp_arg(regs, 1);
	call.size = edgedma_kp_arg(regs, 2);
	call.attrs = edgedma_kp_arg(regs, 4);
	edgedma_track_call(&call);
	return 0;
}

/* dma_unmap_sg_attrs(dev, sg, nents, dir, attrs) */
static int edgedma_kp_unmap_sg(struct kprobe *p, struct pt_regs *regs)
{
	struct edgedma_call call __uninitialized;

	edgedma_kp_init(&call, EDGEDMA_CALL_UNMAP_SG, regs,
			(u32)edgedma_kp_arg(regs, 3));
	call.sgl = (struct scatterlist *)edgedma_kp_arg(regs, 1);
	call.nents = (int)edgedma_kp_arg(regs, 2);
	call.attrs = edgedma_kp_arg(regs, 4);
	edgedma_track_call(&call);
	return 0;
}

/* dma_unmap_resource(dev, addr, size, dir, attrs) */
static int edgedma_kp_unmap_resource(struct kprobe *p, struct pt_regs *regs)
{
	struct edgedma_call call __uninitialized;

	edgedma_kp_init(&call, EDGEDMA_CALL_UNMAP_RESOURCE, regs,
			(u32)edgedma_kp_arg(regs, 3));
	call.dma_addr = edgedma_kp_arg(regs, 1);
	call.size = edgedma_kp_arg(regs, 2);
	call.attrs = edgedma_kp_arg(regs, 4);
	edgedma_track_call(&call);
	return 0;
}

/* dma_free_attrs(dev, size, cpu_addr, dma_handle, attrs); NULL is a no-op */
static int edgedma_kp_free_attrs(struct kprobe *p, struct pt_regs *regs)
{
	const void *cpu_addr = (const void *)edgedma_kp_arg(regs, 2);
	struct edgedma_call call __uninitialized;

	if (!cpu_addr)
		return 0;
	edgedma_kp_init(&call, EDGEDMA_CALL_FREE_COHERENT, regs,
			DMA_BIDIRECTIONAL);
	/* At its entry: before dma_free_attrs() WARNs about it. */
	call.caller_irqs_off = edgedma_regs_irqs_off(regs);
	call.size = edgedma_kp_arg(regs, 1);
	call.cpu_addr = cpu_addr;
	call.dma_addr = edgedma_kp_arg(regs, 3);
	call.attrs = edgedma_kp_arg(regs, 4);
	edgedma_track_call(&call);
	return 0;
}

/* dma_free_pages(dev, size, page, dma_handle, dir) */
static int edgedma_kp_free_pages(struct kprobe *p, struct pt_regs *regs)
{
	struct edgedma_call call __uninitialized;

	edgedma_kp_init(&call, EDGEDMA_CALL_FREE_PAGES, regs,
			(u32)edgedma_kp_arg(regs, 4));
	call.size = edgedma_kp_arg(regs, 1);
	call.phys = page_to_phys((struct page *)edgedma_kp_arg(regs, 2));
	call.dma_addr = edgedma_kp_arg(regs, 3);
	edgedma_track_call(&call);
	return 0;
}

#ifdef EDGEDMA_HAVE_DMA_ALLOC_NONCOHERENT_FN
/* dma_free_noncoherent(dev, size, cpu_addr, dma_handle, dir), as its alloc */
static int edgedma_kp_free_noncoherent(struct kprobe *p, struct pt_regs *regs)
{
	struct device *dev = (void *)edgedma_kp_arg(regs, 0);
	struct edgedma_call call __uninitialized;

	if (!edgedma_noncoherent_through_ops(dev, false))
		return 0;
	edgedma_kp_init(&call, EDGEDMA_CALL_FREE_PAGES, regs,
			(u32)edgedma_kp_arg(regs, 4));
	call.size = PAGE_ALIGN(edgedma_kp_arg(regs, 1));
	call.phys = edgedma_linear_phys((void *)edgedma_kp_arg(regs, 2));
	call.dma_addr = edgedma_kp_arg(regs, 3);
	edgedma_track_call(&call);
	return 0;
}
#endif

/* dma_sync_single_for_{cpu,device}(dev, addr, size, dir) */
static void edgedma_kp_sync_single(struct pt_regs *regs, u32 kind)
{
	struct edgedma_call call __uninitialized;

	edgedma_kp_init(&call, kind, regs, (u32)edgedma_kp_arg(regs, 3));
	call.dma_addr = edgedma_kp_arg(regs, 1);
	call.size = edgedma_kp_arg(regs, 2);
	edgedma_track_call(&call);
}

/* dma_sync_sg_for_{cpu,device}(dev, sg, nelems, dir) */
static void edgedma_kp_sync_sg(struct pt_regs *regs, u32 kind)
{
	struct edgedma_call call __uninitialized;

	edgedma_kp_init(&call, kind, regs, (u32)edgedma_kp_arg(regs, 3));
	call.sgl = (struct scatterlist *)edgedma_kp_arg(regs, 1);
	call.nents = (int)edgedma_kp_arg(regs, 2);
	edgedma_track_call(&call);
}

static int edgedma_kp_sync_single_for_cpu(struct kprobe *p,
					  struct pt_regs *regs)
{
	edgedma_kp_sync_single(regs, EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU);
	return 0;
}

static int edgedma_kp_sync_single_for_device(struct kprobe *p,
					     struct pt_regs *regs)
{
	edgedma_kp_sync_single(regs, EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE);
	return 0;
}

static int edgedma_kp_sync_sg_for_cpu(struct kprobe *p, struct pt_regs *regs)
{
	edgedma_kp_sync_sg(regs, EDGEDMA_CALL_SYNC_SG_FOR_CPU);
	return 0;
}

static int edgedma_kp_sync_sg_for_device(struct kprobe *p,
					 struct pt_regs *regs)
{
	edgedma_kp_sync_sg(regs, EDGEDMA_CALL_SYNC_SG_FOR_DEVICE);
	return 0;
}

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

struct edgedma_kretprobe_def {
	const char *symbol;
	kretprobe_handler_t handler;
	/*
	 * A function older kernels have only as an inline wrapper: what its
	 * absence leaves unseen. The load goes on without its probe.
	 */
	const char *unseen_when_missing;
};

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

static const struct edgedma_kprobe_def edgedma_kprobe_defs[] = {
	{ "dma_unmap_page_attrs", edgedma_kp_unmap_page },
	{ "dma_unmap_sg_attrs", edgedma_kp_unmap_sg },
	{ "dma_unmap_resource", edgedma_kp_unmap_resource },
	{ "dma_free_attrs", edgedma_kp_free_attrs },
	{ "dma_free_pages", edgedma_kp_free_pages },
#ifdef EDGEDMA_HAVE_DMA_ALLOC_NONCOHERENT_FN
	{ "dma_free_noncoherent", edgedma_kp_free_noncoherent },
#endif
#ifdef EDGEDMA_HAVE_DMA_SYNC_HOOKS
	{ __stringify(edgedma_dma_sync_single_for_cpu),
	  edgedma_kp_sync_single_for_cpu },
	{ __stringify(edgedma_dma_sync_single_for_device),
	  edgedma_kp_sync_single_for_device },
	{ __stringify(edgedma_dma_sync_sg_for_cpu),
	  edgedma_kp_sync_sg_for_cpu },
	{ __stringify(edgedma_dma_sync_sg_for_device),
	  edgedma_kp_sync_sg_for_device },
#endif
};

#define EDGEDMA_NR_KRETPROBES	ARRAY_SIZE(edgedma_kretprobe_defs)
#define EDGEDMA_NR_KPROBES	ARRAY_SIZE(edgedma_kprobe_defs)

static struct kretprobe edgedma_kretprobes[EDGEDMA_NR_KRETPROBES];
static struct kprobe edgedma_kprobes[EDGEDMA_NR_KPROBES];
/* The probes registered, and only those: the unregister calls take them. */
static struct kretprobe *edgedma_kretprobe_ptrs[EDGEDMA_NR_KRETPROBES];
static struct kprobe *edgedma_kprobe_ptrs[EDGEDMA_NR_KPROBES];
static unsigned int edgedma_nr_kretprobes, edgedma_nr_kprobes;
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

static void edgedma_kprobe_unregister(void)
{
	if (edgedma_nr_kretprobes)
		unregister_kretprobes(edgedma_kretprobe_ptrs, edgedma_nr_kretprobes);
	if (edgedma_nr_kprobes)
		unregister_kprobes(edgedma_kprobe_ptrs, edgedma_nr_kprobes);
	rcu_barrier();
	edgedma_nr_kretprobes = 0;
	edgedma_nr_kprobes = 0;
}

int edgedma_kprobe_start(bool floor)
{
	unsigned int i;
	int err;

	edgedma_kprobe_prepare(floor);

	/*
	 * The ends of mappings (kprobes) before their starts (kretprobes): a
	 * mapping seen made but not seen undone would stay in the table for
	 * good; one made before its map was watched is merely unknown.
	 */
	for (i = 0; i < EDGEDMA_NR_KPROBES; i++) {
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

u64 edgedma_kprobe_missed(void)
{
	u64 busy, nested;

	edgedma_kprobe_count_missed(&busy, &nested);
	return busy + nested;
}
