// SPDX-License-Identifier: GPL-2.0
/*
 * Ops mode: edgedma's own struct dma_map_ops in each device's dev->dma_ops,
 * for kernels that have neither kprobes nor the dma trace events (the
 * vendor BSP kernels, 5.10 to 6.11). It needs CONFIG_DMA_OPS, which every
 * arm64 kernel with IOMMU support has before 6.12.
 *
 * Up to 6.11 every DMA-mapping call of a device goes through get_dma_ops(dev)
 * when it is set, and through dma-direct, inline, when it is NULL. So:
 *  - a device with a table (an IOMMU's, dma-iommu on arm64 and x86_64) gets
 *    a copy of it in which every member edgedma records is a wrapper: it
 *    calls the original with the same device and arguments, and records the
 *    call with its result. A NULL member stays NULL and every other member
 *    is the original's, so the core takes the same paths as without us.
 *  - a direct device (no table: every device on a board without an IOMMU)
 *    gets a table whose members forward through the public API to a shadow
 *    device: a struct device of ours that has no table and the real one's
 *    DMA fields (masks, bus limit, dma_range_map, coherence, swiotlb pool,
 *    CMA area, NUMA node, dma_parms). dma-direct then runs on it exactly as
 *    it would on the real device: bouncing, cache maintenance, offsets.
 *
 * A table goes in at BUS_NOTIFY_BIND_DRIVER, after the bus configured the
 * device's DMA and before the driver's probe maps anything, and for devices
 * already driven when the mode starts, live; it goes out at unbind, at
 * device removal and when the mode stops, and only if the device still has
 * ours (arm64 clears dev->dma_ops itself at unbind).
 *
 * A wrapper finds its device's entry by the device (the table pointer the
 * core read may already be gone from the device), under SRCU, which is what
 * stopping waits on for calls in flight. Entries outlive unbind: a call that
 * read our table just before it went out still finds what to forward to.
 *
 * What the mode cannot see (Documentation/design.rst, "Ops mode"):
 * allocations a per-device coherent pool serves (dma_alloc_attrs() takes
 * them before it looks at the table), members a device's own table leaves
 * NULL, devices on buses other than PCI, platform and AMBA, and (6.12 on)
 * IOMMU devices, which the core calls directly: the mode exists only where
 * CONFIG_DMA_OPS does, which 6.12 no longer selects.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/amba/bus.h>
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/hashtable.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "edgedma.h"
#include "hook.h"
#include "hook_caller.h"

#define EDGEDMA_OPS_NESTERS	4

struct edgedma_ops_dev {
	struct hlist_node node;		/* in edgedma_ops_devs, by dev */
	struct device *dev;
	/* What dev->dma_ops held (restored), and what get_dma_ops() gave. */
	const struct dma_map_ops *saved;
	const struct dma_map_ops *orig;	/* NULL: the device went direct */
	struct device *shadow;		/* direct only: forwarded through */
	bool installed;			/* dev->dma_ops is ours (lock held) */
	/*
	 * Tasks inside the device's own alloc_pages or free_pages, which may
	 * call back into the table (dma_common_alloc_pages() maps through
	 * get_dma_ops(dev)->map_page): their inner calls are part of the
	 * outer one, recorded once. nesting counts them, so that every other
	 * call reads one word.
	 */
	atomic_t nesting;
	struct task_struct *nesters[EDGEDMA_OPS_NESTERS];
	/*
	 * And in which context: an interrupt taken inside the outer call runs
	 * as the same current, and its calls are its own.
	 */
	unsigned long nester_contexts[EDGEDMA_OPS_NESTERS];
	struct list_head gone;		/* unlinked, to free after a grace period */
	struct dma_map_ops ops;
};

#define EDGEDMA_OPS_HASH_BITS	8

static DEFINE_HASHTABLE(edgedma_ops_devs, EDGEDMA_OPS_HASH_BITS);
/* Installing and removing tables, and the hash table's writers. */
static DEFINE_MUTEX(edgedma_ops_lock);
DEFINE_STATIC_SRCU(edgedma_ops_srcu);
static bool edgedma_ops_floor;
static bool edgedma_ops_running;

/* The device's entry: wrappers under SRCU, everyone else with the lock. */
static struct edgedma_ops_dev *edgedma_ops_find(struct device *dev)
{
	struct edgedma_ops_dev *od;

	hash_for_each_possible_rcu(edgedma_ops_devs, od, node, (unsigned long)dev,
				   srcu_read_lock_held(&edgedma_ops_srcu) ||
				   lockdep_is_held(&edgedma_ops_lock))
		if (od->dev == dev)
			return od;
	return NULL;
}

/*
 * The shadow with the real device's DMA fields as they are now: a driver
 * sets its masks after the table went in, and a bus may set dma_range_map
 * or the CMA area late. Written only when they differ, so that calls of one
 * device on many CPUs do not bounce the shadow's cache lines.
 */
static void edgedma_ops_shadow_refresh(struct device *s, struct device *dev)
{
#define EDGEDMA_OPS_MIRROR(field)					\
	do {								\
		if (READ_ONCE(s->field) != READ_ONCE(dev->field))	\
			WRITE_ONCE(s->field, READ_ONCE(dev->field));	\
	} while (0)
	EDGEDMA_OPS_MIRROR(dma_mask);
	EDGEDMA_OPS_MIRROR(coherent_dma_mask);
	EDGEDMA_OPS_MIRROR(bus_dma_limit);
	EDGEDMA_OPS_MIRROR(dma_range_map);
	EDGEDMA_OPS_MIRROR(dma_parms);
#ifdef CONFIG_DMA_CMA
	EDGEDMA_OPS_MIRROR(cma_area);
#endif
#undef EDGEDMA_OPS_MIRROR
}

static struct device *edgedma_ops_shadow(const struct edgedma_ops_dev *od)
{
	edgedma_ops_shadow_refresh(od->shadow, od->dev);
	return od->shadow;
}

static void edgedma_ops_shadow_release(struct device *shadow)
{
	kfree(shadow);
}

/*
 * A device of ours that only the public DMA API ever sees: initialized (its
 * locks, its swiotlb state), never added. It has no table, so calls on it
 * take dma-direct; and no coherent pool, which dma_alloc_attrs() already
 * tried on the real device before it called our table.
 */
static struct device *edgedma_ops_shadow_new(struct device *dev)
{
	struct device *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	device_initialize(s);
	s->release = edgedma_ops_shadow_release;
	if (dev_set_name(s, "%s", dev_name(dev))) {
		put_device(s);
		return NULL;
	}
	set_dev_node(s, dev_to_node(dev));
	edgedma_shadow_copy_dma_state(s, dev);
	edgedma_ops_shadow_refresh(s, dev);
	return s;
}

static void edgedma_ops_shadow_put(struct device *s)
{
	/* The range map is the real device's: device_release() frees it. */
	s->dma_range_map = NULL;
	put_device(s);
}

/* Task, softirq, hard interrupt or NMI: the preempt count's context bits. */
static __always_inline unsigned long edgedma_ops_context(void)
{
	return preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET);
}

static noinline bool edgedma_ops_nested(struct edgedma_ops_dev *od)
{
	unsigned int i;

	/* A slot of current's is current's own writes: no ordering needed. */
	for (i = 0; i < EDGEDMA_OPS_NESTERS; i++)
		if (READ_ONCE(od->nesters[i]) == current &&
		    od->nester_contexts[i] == edgedma_ops_context())
			return true;
	return false;
}

/*
 * Whether to record a call: not with hook_floor=1 (the mechanism's own
 * cost), and not a call the device's own table makes inside an outer one.
 */
static __always_inline bool edgedma_ops_record(struct edgedma_ops_dev *od)
{
	if (READ_ONCE(edgedma_ops_floor))
		return false;
	return likely(!atomic_read(&od->nesting)) || !edgedma_ops_nested(od);
}

/*
 * The current task goes into the device's table, which may call back into
 * it: a slot to leave, or -1 when all are taken (the inner calls are then
 * recorded too, as calls of their own).
 */
static int edgedma_ops_nest_enter(struct edgedma_ops_dev *od)
{
	unsigned int i;

	for (i = 0; i < EDGEDMA_OPS_NESTERS; i++)
		if (!cmpxchg(&od->nesters[i], NULL, current)) {
			od->nester_contexts[i] = edgedma_ops_context();
			atomic_inc(&od->nesting);
			return i;
		}
	return -1;
}

static void edgedma_ops_nest_leave(struct edgedma_ops_dev *od, int slot)
{
	if (slot < 0)
		return;
	atomic_dec(&od->nesting);
	/* What an interrupt between the next cmpxchg and its write reads. */
	od->nester_contexts[slot] = ~0UL;
	WRITE_ONCE(od->nesters[slot], NULL);
}

/* ---- the wrappers ------------------------------------------------------ */

/*
 * Every wrapper runs between these: the device's entry, under SRCU (what
 * stopping waits for), or NULL when it has none (warned: only a call racing
 * with the device's removal, after its driver unbound, can get there).
 */
static __always_inline struct edgedma_ops_dev *
edgedma_ops_enter(struct device *dev, int *idx)
{
	struct edgedma_ops_dev *od;

	*idx = srcu_read_lock(&edgedma_ops_srcu);
	od = edgedma_ops_find(dev);
	if (unlikely(!od)) {
		srcu_read_unlock(&edgedma_ops_srcu, *idx);
		WARN_ONCE(1, "edgedma: a DMA call for %s through a table it no longer has\n",
			  dev_name(dev));
	}
	return od;
}

static __always_inline void edgedma_ops_leave(int idx)
{
	srcu_read_unlock(&edgedma_ops_srcu, idx);
}

static dma_addr_t edgedma_ops_map_page(struct device *dev, struct page *page,
				       unsigned long offset, size_t size,
				       enum dma_data_direction dir,
				       unsigned long attrs)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	dma_addr_t addr;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return DMA_MAPPING_ERROR;
	if (od->orig)
		addr = od->orig->map_page(dev, page, offset, size, dir, attrs);
	else
		addr = dma_map_page_attrs(edgedma_ops_shadow(od), page, offset,
					  size, dir, attrs);
	if (addr != DMA_MAPPING_ERROR && edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_MAP_PAGE, dev, dir,
				  edgedma_table_hook_caller());
		call.phys = page_to_phys(page) + offset;
		call.cpu_addr = edgedma_linear_addr(call.phys);
		call.dma_addr = addr;
		call.size = size;
		call.attrs = attrs;
		edgedma_track_call(&call);
	}
	edgedma_ops_leave(idx);
	return addr;
}

/*
 * An end of a mapping is recorded before it is forwarded: once the address
 * is free, another CPU may map it again, and that map must not find this
 * one still in the table.
 */
static __always_inline void edgedma_ops_record_unmap(struct edgedma_ops_dev *od,
						     u32 kind, struct device *dev,
						     dma_addr_t addr, size_t size,
						     enum dma_data_direction dir,
						     unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (!edgedma_ops_record(od))
		return;
	edgedma_call_init(&call, kind, dev, dir, edgedma_table_hook_caller());
	call.dma_addr = addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_ops_unmap_page(struct device *dev, dma_addr_t addr,
				   size_t size, enum dma_data_direction dir,
				   unsigned long attrs)
{
	struct edgedma_ops_dev *od;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return;
	edgedma_ops_record_unmap(od, EDGEDMA_CALL_UNMAP_PAGE, dev, addr, size,
				 dir, attrs);
	if (od->orig)
		od->orig->unmap_page(dev, addr, size, dir, attrs);
	else
		dma_unmap_page_attrs(edgedma_ops_shadow(od), addr, size, dir,
				     attrs);
	edgedma_ops_leave(idx);
}

/*
 * Through the shadow, the API call that passes a negative error on as the
 * table member must (5.13 on; before, 0 meant failure).
 */
static int edgedma_ops_shadow_map_sg(struct device *shadow, struct scatterlist *sg,
				     int nents, enum dma_data_direction dir,
				     unsigned long attrs)
{
#ifdef EDGEDMA_HAVE_DMA_MAP_SG_ERRNO
	struct sg_table sgt = { .sgl = sg, .orig_nents = nents, .nents = 0 };
	int err = dma_map_sgtable(shadow, &sgt, dir, attrs);

	return err ? err : sgt.nents;
#else
	return dma_map_sg_attrs(shadow, sg, nents, dir, attrs);
#endif
}

static int edgedma_ops_map_sg(struct device *dev, struct scatterlist *sg,
			      int nents, enum dma_data_direction dir,
			      unsigned long attrs)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	int ents, idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return edgedma_map_sg_failed();
	if (od->orig)
		ents = od->orig->map_sg(dev, sg, nents, dir, attrs);
	else
		ents = edgedma_ops_shadow_map_sg(edgedma_ops_shadow(od), sg,
						 nents, dir, attrs);
	if (ents > 0 && edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_MAP_SG, dev, dir,
				  edgedma_table_hook_caller());
		call.sgl = sg;
		call.nents = nents;
		call.mapped_nents = ents;
		call.attrs = attrs;
		edgedma_track_call(&call);
	}
	edgedma_ops_leave(idx);
	return ents;
}

static void edgedma_ops_unmap_sg(struct device *dev, struct scatterlist *sg,
				 int nents, enum dma_data_direction dir,
				 unsigned long attrs)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return;
	if (edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_UNMAP_SG, dev, dir,
				  edgedma_table_hook_caller());
		call.sgl = sg;
		call.nents = nents;
		call.attrs = attrs;
		edgedma_track_call(&call);
	}
	if (od->orig)
		od->orig->unmap_sg(dev, sg, nents, dir, attrs);
	else
		dma_unmap_sg_attrs(edgedma_ops_shadow(od), sg, nents, dir, attrs);
	edgedma_ops_leave(idx);
}

static dma_addr_t edgedma_ops_map_resource(struct device *dev,
					   phys_addr_t phys, size_t size,
					   enum dma_data_direction dir,
					   unsigned long attrs)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	dma_addr_t addr;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return DMA_MAPPING_ERROR;
	if (od->orig)
		addr = od->orig->map_resource(dev, phys, size, dir, attrs);
	else
		addr = dma_map_resource(edgedma_ops_shadow(od), phys, size, dir,
					attrs);
	if (addr != DMA_MAPPING_ERROR && edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_MAP_RESOURCE, dev, dir,
				  edgedma_table_hook_caller());
		call.phys = phys;
		call.dma_addr = addr;
		call.size = size;
		call.attrs = attrs;
		edgedma_track_call(&call);
	}
	edgedma_ops_leave(idx);
	return addr;
}

static void edgedma_ops_unmap_resource(struct device *dev, dma_addr_t addr,
				       size_t size, enum dma_data_direction dir,
				       unsigned long attrs)
{
	struct edgedma_ops_dev *od;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return;
	edgedma_ops_record_unmap(od, EDGEDMA_CALL_UNMAP_RESOURCE, dev, addr, size,
				 dir, attrs);
	if (od->orig)
		od->orig->unmap_resource(dev, addr, size, dir, attrs);
	else
		dma_unmap_resource(edgedma_ops_shadow(od), addr, size, dir, attrs);
	edgedma_ops_leave(idx);
}

/* The core already stripped the zone flags and tried the coherent pool. */
static void *edgedma_ops_alloc(struct device *dev, size_t size,
			       dma_addr_t *dma_handle, gfp_t gfp,
			       unsigned long attrs)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	void *cpu_addr;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return NULL;
	if (od->orig)
		cpu_addr = od->orig->alloc(dev, size, dma_handle, gfp, attrs);
	else
		cpu_addr = dma_alloc_attrs(edgedma_ops_shadow(od), size,
					   dma_handle, gfp, attrs);
	if (cpu_addr && edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_ALLOC_COHERENT, dev,
				  DMA_BIDIRECTIONAL, edgedma_table_hook_caller());
		call.dma_addr = *dma_handle;
		call.cpu_addr = cpu_addr;
		call.phys = edgedma_linear_phys(cpu_addr);
		call.size = size;
		call.attrs = attrs;
		edgedma_track_call(&call);
	}
	edgedma_ops_leave(idx);
	return cpu_addr;
}

/* The core calls it for a non-NULL cpu_addr only. */
static void edgedma_ops_free(struct device *dev, size_t size, void *cpu_addr,
			     dma_addr_t dma_handle, unsigned long attrs)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return;
	if (edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_FREE_COHERENT, dev,
				  DMA_BIDIRECTIONAL, edgedma_table_hook_caller());
		/* The driver's own context: the core called us in it. */
		call.caller_irqs_off = irqs_disabled();
		call.dma_addr = dma_handle;
		call.cpu_addr = cpu_addr;
		call.size = size;
		call.attrs = attrs;
		edgedma_track_call(&call);
	}
	if (od->orig)
		od->orig->free(dev, size, cpu_addr, dma_handle, attrs);
	else
		dma_free_attrs(edgedma_ops_shadow(od), size, cpu_addr,
			       dma_handle, attrs);
	edgedma_ops_leave(idx);
}

/*
 * The core passes the size page-aligned: the record has the aligned size,
 * where kprobe and tracepoint mode have the one the driver passed.
 */
static struct page *edgedma_ops_alloc_pages(struct device *dev, size_t size,
					    dma_addr_t *dma_handle,
					    enum dma_data_direction dir,
					    gfp_t gfp)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	struct page *page;
	int idx, slot;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return NULL;
	if (od->orig) {
		slot = edgedma_ops_nest_enter(od);
		page = od->orig->alloc_pages(dev, size, dma_handle, dir, gfp);
		edgedma_ops_nest_leave(od, slot);
	} else {
		page = dma_alloc_pages(edgedma_ops_shadow(od), size, dma_handle,
				       dir, gfp);
	}
	if (page && edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_ALLOC_PAGES, dev, dir,
				  edgedma_table_hook_caller());
		call.dma_addr = *dma_handle;
		call.phys = page_to_phys(page);
		call.cpu_addr = edgedma_linear_addr(call.phys);
		call.size = size;
		edgedma_track_call(&call);
	}
	edgedma_ops_leave(idx);
	return page;
}

static void edgedma_ops_free_pages(struct device *dev, size_t size,
				   struct page *page, dma_addr_t dma_handle,
				   enum dma_data_direction dir)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	int idx, slot;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return;
	if (edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_FREE_PAGES, dev, dir,
				  edgedma_table_hook_caller());
		call.dma_addr = dma_handle;
		call.phys = page_to_phys(page);
		call.size = size;
		edgedma_track_call(&call);
	}
	if (od->orig) {
		slot = edgedma_ops_nest_enter(od);
		od->orig->free_pages(dev, size, page, dma_handle, dir);
		edgedma_ops_nest_leave(od, slot);
	} else {
		dma_free_pages(edgedma_ops_shadow(od), size, page, dma_handle, dir);
	}
	edgedma_ops_leave(idx);
}

#ifdef EDGEDMA_HAVE_DMA_OPS_ALLOC_NONCOHERENT
/*
 * 5.10's dma_alloc_noncoherent() through a table that has the member
 * (dma-iommu): recorded as kprobe mode records it, as whole pages. A direct
 * device's table leaves it NULL, and the core then takes dma_alloc_pages().
 */
static void *edgedma_ops_alloc_noncoherent(struct device *dev, size_t size,
					   dma_addr_t *dma_handle,
					   enum dma_data_direction dir, gfp_t gfp)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	void *cpu_addr;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return NULL;
	cpu_addr = od->orig->alloc_noncoherent(dev, size, dma_handle, dir, gfp);
	if (cpu_addr && edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_ALLOC_PAGES, dev, dir,
				  edgedma_table_hook_caller());
		call.dma_addr = *dma_handle;
		call.phys = edgedma_linear_phys(cpu_addr);
		call.cpu_addr = call.phys == EDGEDMA_NO_PHYS ? NULL : cpu_addr;
		call.size = PAGE_ALIGN(size);
		edgedma_track_call(&call);
	}
	edgedma_ops_leave(idx);
	return cpu_addr;
}

static void edgedma_ops_free_noncoherent(struct device *dev, size_t size,
					 void *cpu_addr, dma_addr_t dma_handle,
					 enum dma_data_direction dir)
{
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return;
	if (edgedma_ops_record(od)) {
		edgedma_call_init(&call, EDGEDMA_CALL_FREE_PAGES, dev, dir,
				  edgedma_table_hook_caller());
		call.dma_addr = dma_handle;
		call.phys = edgedma_linear_phys(cpu_addr);
		call.size = PAGE_ALIGN(size);
		edgedma_track_call(&call);
	}
	od->orig->free_noncoherent(dev, size, cpu_addr, dma_handle, dir);
	edgedma_ops_leave(idx);
}
#endif

/*
 * The syncs, recorded before they are forwarded, where kprobe mode sees
 * them (at the API function's entry): the checks read the buffer as the
 * CPU saw it before the cache maintenance. A member the device's own table
 * leaves NULL forwards nothing (edgedma_ops_mirror()).
 */
static __always_inline void edgedma_ops_sync(u32 kind, struct device *dev,
					     dma_addr_t addr, size_t size,
					     struct scatterlist *sg, int nents,
					     enum dma_data_direction dir)
{
	const struct dma_map_ops *orig;
	struct edgedma_call call __uninitialized;
	struct edgedma_ops_dev *od;
	struct device *shadow;
	int idx;

	od = edgedma_ops_enter(dev, &idx);
	if (!od)
		return;
	if (edgedma_ops_record(od)) {
		edgedma_call_init(&call, kind, dev, dir, edgedma_table_hook_caller());
		call.dma_addr = addr;
		call.size = size;
		call.sgl = sg;
		call.nents = nents;
		edgedma_track_call(&call);
	}
	orig = od->orig;
	shadow = orig ? NULL : edgedma_ops_shadow(od);
	switch (kind) {
	case EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU:
		if (shadow)
			dma_sync_single_for_cpu(shadow, addr, size, dir);
		else if (orig->sync_single_for_cpu)
			orig->sync_single_for_cpu(dev, addr, size, dir);
		break;
	case EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE:
		if (shadow)
			dma_sync_single_for_device(shadow, addr, size, dir);
		else if (orig->sync_single_for_device)
			orig->sync_single_for_device(dev, addr, size, dir);
		break;
	case EDGEDMA_CALL_SYNC_SG_FOR_CPU:
		if (shadow)
			dma_sync_sg_for_cpu(shadow, sg, nents, dir);
		else if (orig->sync_sg_for_cpu)
			orig->sync_sg_for_cpu(dev, sg, nents, dir);
		break;
	case EDGEDMA_CALL_SYNC_SG_FOR_DEVICE:
		if (shadow)
			dma_sync_sg_for_device(shadow, sg, nents, dir);
		else if (orig->sync_sg_for_device)
			orig->sync_sg_for_device(dev, sg, nents, dir);
		break;
	}
	edgedma_ops_leave(idx);
}

static void edgedma_ops_sync_single_for_cpu(struct device *dev, dma_addr_t addr,
					    size_t size,
					    enum dma_data_direction dir)
{
	edgedma_ops_sync(EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU, dev, addr, size,
			 NULL, 0, dir);
}

static void edgedma_ops_sync_single_for_device(struct device *dev,
					       dma_addr_t addr, size_t size,
					       enum dma_data_direction dir)
{
	edgedma_ops_sync(EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE, dev, addr, size,
			 NULL, 0, dir);
}

static void edgedma_ops_sync_sg_for_cpu(struct device *dev,
					struct scatterlist *sg, int nents,
					enum dma_data_direction dir)
{
	edgedma_ops_sync(EDGEDMA_CALL_SYNC_SG_FOR_CPU, dev, 0, 0, sg, nents,
			 dir);
}

static void edgedma_ops_sync_sg_for_device(struct device *dev,
					   struct scatterlist *sg, int nents,
					   enum dma_data_direction dir)
{
	edgedma_ops_sync(EDGEDMA_CALL_SYNC_SG_FOR_DEVICE, dev, 0, 0, sg, nents,
			 dir);
}

/*
 * Members a direct device's table needs only so that the core's answers do
 * not change: with a table set, the core asks it instead of dma-direct.
 * The shadow of @dev, with the SRCU read side held; NULL if it has none.
 */
static struct device *edgedma_ops_direct_shadow(struct device *dev, int *idx)
{
	struct edgedma_ops_dev *od = edgedma_ops_enter(dev, idx);

	if (!od)
		return NULL;
	if (unlikely(od->orig)) {
		/* Ours gives these members to direct devices only. */
		edgedma_ops_leave(*idx);
		WARN_ONCE(1, "edgedma: a direct-only DMA op for %s, which has a table\n",
			  dev_name(dev));
		return NULL;
	}
	return edgedma_ops_shadow(od);
}

static int edgedma_ops_mmap(struct device *dev, struct vm_area_struct *vma,
			    void *cpu_addr, dma_addr_t dma_addr, size_t size,
			    unsigned long attrs)
{
	struct device *s;
	int idx, ret;

	s = edgedma_ops_direct_shadow(dev, &idx);
	if (!s)
		return -ENXIO;
	ret = dma_mmap_attrs(s, vma, cpu_addr, dma_addr, size, attrs);
	edgedma_ops_leave(idx);
	return ret;
}

static int edgedma_ops_get_sgtable(struct device *dev, struct sg_table *sgt,
				   void *cpu_addr, dma_addr_t dma_addr,
				   size_t size, unsigned long attrs)
{
	struct device *s;
	int idx, ret;

	s = edgedma_ops_direct_shadow(dev, &idx);
	if (!s)
		return -ENXIO;
	ret = dma_get_sgtable_attrs(s, sgt, cpu_addr, dma_addr, size, attrs);
	edgedma_ops_leave(idx);
	return ret;
}

/*
 * dma_set_mask() and dma_set_coherent_mask() ask this before they set the
 * real device's mask. The shadow's coherent mask is ours to set (it is
 * copied from the real device before every call that reads it), so setting
 * it answers what dma-direct supports without touching the real masks.
 */
static int edgedma_ops_dma_supported(struct device *dev, u64 mask)
{
	struct device *s;
	int idx, ret;

	s = edgedma_ops_direct_shadow(dev, &idx);
	if (!s)
		return 0;
	ret = !dma_set_coherent_mask(s, mask);
	edgedma_ops_leave(idx);
	return ret;
}

static u64 edgedma_ops_get_required_mask(struct device *dev)
{
	struct device *s;
	int idx;
	u64 mask;

	s = edgedma_ops_direct_shadow(dev, &idx);
	if (!s)
		return DMA_BIT_MASK(32);
	mask = dma_get_required_mask(s);
	edgedma_ops_leave(idx);
	return mask;
}

static size_t edgedma_ops_max_mapping_size(struct device *dev)
{
	struct device *s;
	size_t size;
	int idx;

	s = edgedma_ops_direct_shadow(dev, &idx);
	if (!s)
		return SIZE_MAX;
	size = dma_max_mapping_size(s);
	edgedma_ops_leave(idx);
	return size;
}

/* ---- the tables -------------------------------------------------------- */

/* A copy of @orig with every member edgedma records wrapped (NULL stays). */
static void edgedma_ops_mirror(struct dma_map_ops *ops,
			       const struct dma_map_ops *orig)
{
	*ops = *orig;
#define EDGEDMA_OPS_WRAP(member)				\
	do {							\
		if (orig->member)				\
			ops->member = edgedma_ops_##member;	\
	} while (0)
	EDGEDMA_OPS_WRAP(alloc);
	EDGEDMA_OPS_WRAP(free);
	EDGEDMA_OPS_WRAP(alloc_pages);
	EDGEDMA_OPS_WRAP(free_pages);
#ifdef EDGEDMA_HAVE_DMA_OPS_ALLOC_NONCOHERENT
	EDGEDMA_OPS_WRAP(alloc_noncoherent);
	EDGEDMA_OPS_WRAP(free_noncoherent);
#endif
	EDGEDMA_OPS_WRAP(map_page);
	EDGEDMA_OPS_WRAP(unmap_page);
	EDGEDMA_OPS_WRAP(map_sg);
	EDGEDMA_OPS_WRAP(unmap_sg);
	EDGEDMA_OPS_WRAP(map_resource);
	EDGEDMA_OPS_WRAP(unmap_resource);
#undef EDGEDMA_OPS_WRAP
	/*
	 * The syncs are wrapped even where the table has none (x86_64's
	 * intel-iommu before 5.11: a coherent device needs no maintenance):
	 * a sync of an unmapped or foreign address is a driver bug all the
	 * same. The core then calls the wrapper, which records the call and
	 * forwards nothing; the one answer that changes is dma_need_sync(),
	 * yes where it was no (the syncs a driver then makes do nothing).
	 */
	ops->sync_single_for_cpu = edgedma_ops_sync_single_for_cpu;
	ops->sync_single_for_device = edgedma_ops_sync_single_for_device;
	ops->sync_sg_for_cpu = edgedma_ops_sync_sg_for_cpu;
	ops->sync_sg_for_device = edgedma_ops_sync_sg_for_device;
}

/*
 * A direct device's table: every member the core would otherwise answer
 * from dma-direct. Left NULL on purpose: get_merge_boundary (0 either way),
 * opt_mapping_size (the core then takes dma_max_mapping_size(), as for a
 * direct device), alloc_noncontiguous (the core then allocates one chunk
 * through alloc_pages, as for a direct device) and cache_sync.
 */
static void edgedma_ops_direct(struct dma_map_ops *ops)
{
	*ops = (struct dma_map_ops){
		.alloc = edgedma_ops_alloc,
		.free = edgedma_ops_free,
		.alloc_pages = edgedma_ops_alloc_pages,
		.free_pages = edgedma_ops_free_pages,
		.mmap = edgedma_ops_mmap,
		.get_sgtable = edgedma_ops_get_sgtable,
		.map_page = edgedma_ops_map_page,
		.unmap_page = edgedma_ops_unmap_page,
		.map_sg = edgedma_ops_map_sg,
		.unmap_sg = edgedma_ops_unmap_sg,
		.map_resource = edgedma_ops_map_resource,
		.unmap_resource = edgedma_ops_unmap_resource,
		.sync_single_for_cpu = edgedma_ops_sync_single_for_cpu,
		.sync_single_for_device = edgedma_ops_sync_single_for_device,
		.sync_sg_for_cpu = edgedma_ops_sync_sg_for_cpu,
		.sync_sg_for_device = edgedma_ops_sync_sg_for_device,
		.dma_supported = edgedma_ops_dma_supported,
		.get_required_mask = edgedma_ops_get_required_mask,
		.max_mapping_size = edgedma_ops_max_mapping_size,
	};
	/* dma-direct supports PCI peer-to-peer DMA: say so as it would. */
	edgedma_dma_ops_set_p2pdma(ops);
}

/* ---- installing -------------------------------------------------------- */

/*
 * After this, no call that read one of our tables from a device before it
 * went out is still on its way into a wrapper: such a call does not sleep
 * there, and on a preemptible kernel RCU Tasks waits for its task to leave.
 */
static void edgedma_ops_grace(void)
{
	synchronize_rcu();
#ifdef CONFIG_TASKS_RCU
	synchronize_rcu_tasks();
#endif
}

static void edgedma_ops_entry_free(struct edgedma_ops_dev *od)
{
	if (od->shadow)
		edgedma_ops_shadow_put(od->shadow);
	put_device(od->dev);
	kfree(od);
}

/*
 * Lock held; the entry's table is in no device. After this no call is in it:
 * the grace periods cover the calls that read the table and had not entered
 * a wrapper yet, SRCU the ones that found the entry.
 */
static void edgedma_ops_forget(struct edgedma_ops_dev *od)
{
	edgedma_ops_grace();
	hash_del_rcu(&od->node);
	synchronize_srcu(&edgedma_ops_srcu);
	edgedma_ops_entry_free(od);
}

/* Lock held. The device's table, ours from now on. */
static void edgedma_ops_install(struct device *dev)
{
	const struct dma_map_ops *saved = dev->dma_ops;
	const struct dma_map_ops *orig = get_dma_ops(dev);
	struct edgedma_ops_dev *od = edgedma_ops_find(dev);

	lockdep_assert_held(&edgedma_ops_lock);
	if (!dev->dma_mask)
		return;		/* not a DMA-capable device */
	/*
	 * DMA-API debug tracks cache lines across devices: a direct device's
	 * call, forwarded to its shadow, would be one mapping seen twice, and
	 * it WARNs about the overlap. Such a kernel has the debugging edgedma
	 * would give anyway; its direct devices keep their own path.
	 */
	if (!orig && IS_ENABLED(CONFIG_DMA_API_DEBUG)) {
		dev_info_once(dev, "edgedma: CONFIG_DMA_API_DEBUG is built in: direct devices keep their own DMA path in ops mode\n");
		return;
	}
	if (od && od->installed)
		return;
	if (od && od->orig != orig) {
		/*
		 * Bound again, and the bus gave it another table: the entry
		 * goes once no call of the last binding can be in it.
		 */
		edgedma_ops_forget(od);
		od = NULL;
	}
	if (od) {
		/* Bound again: the bus may have set the device up anew. */
		if (od->shadow)
			edgedma_shadow_copy_dma_state(od->shadow, dev);
	} else {
		od = kzalloc(sizeof(*od), GFP_KERNEL);
		if (!od)
			goto nomem;
		od->dev = dev;
		od->orig = orig;
		if (orig) {
			edgedma_ops_mirror(&od->ops, orig);
		} else {
			od->shadow = edgedma_ops_shadow_new(dev);
			if (!od->shadow) {
				kfree(od);
				goto nomem;
			}
			edgedma_ops_direct(&od->ops);
		}
		get_device(dev);
		hash_add_rcu(edgedma_ops_devs, &od->node, (unsigned long)dev);
	}
	od->saved = saved;
	od->installed = true;
	/* Published after the entry: a call through it finds the entry. */
	smp_store_release(&dev->dma_ops, &od->ops);
	return;
nomem:
	dev_warn(dev, "no memory for edgedma's DMA ops: its DMA calls go unseen\n");
}

/* Lock held. The device's own table back, if it still has ours. */
static void edgedma_ops_uninstall(struct edgedma_ops_dev *od)
{
	lockdep_assert_held(&edgedma_ops_lock);
	if (!od->installed)
		return;
	od->installed = false;
	/* Unless the bus set another table meanwhile (arm64 at unbind). */
	cmpxchg(&od->dev->dma_ops, &od->ops, od->saved);
}

static int edgedma_ops_bus_event(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	struct device *dev = data;
	struct edgedma_ops_dev *od;

	mutex_lock(&edgedma_ops_lock);
	if (!edgedma_ops_running)
		goto out;
	switch (action) {
	case BUS_NOTIFY_BIND_DRIVER:
		edgedma_ops_install(dev);
		break;
	case BUS_NOTIFY_UNBOUND_DRIVER:
	case BUS_NOTIFY_DRIVER_NOT_BOUND:
		od = edgedma_ops_find(dev);
		if (od)
			edgedma_ops_uninstall(od);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		od = edgedma_ops_find(dev);
		if (od) {
			edgedma_ops_uninstall(od);
			edgedma_ops_forget(od);
		}
		break;
	}
out:
	mutex_unlock(&edgedma_ops_lock);
	return NOTIFY_DONE;
}

struct edgedma_ops_bus {
	const char *name;
	edgedma_bus_type *bus;
	struct notifier_block nb;
	bool registered;
};

static struct edgedma_ops_bus edgedma_ops_buses[] = {
#ifdef CONFIG_PCI
	{ .name = "pci", .bus = &pci_bus_type },
#endif
	{ .name = "platform", .bus = &platform_bus_type },
#ifdef CONFIG_ARM_AMBA
	{ .name = "amba", .bus = &amba_bustype },
#endif
};

/* A device driven already: its table goes in live. */
static int edgedma_ops_adopt(struct device *dev, void *unused)
{
	device_lock(dev);
	if (dev->driver) {
		mutex_lock(&edgedma_ops_lock);
		edgedma_ops_install(dev);
		mutex_unlock(&edgedma_ops_lock);
	}
	device_unlock(dev);
	return 0;
}

static void edgedma_ops_release_all(void)
{
	struct edgedma_ops_dev *od, *next;
	struct hlist_node *tmp;
	unsigned int bkt;
	LIST_HEAD(gone);

	mutex_lock(&edgedma_ops_lock);
	edgedma_ops_running = false;
	hash_for_each(edgedma_ops_devs, bkt, od, node)
		edgedma_ops_uninstall(od);
	mutex_unlock(&edgedma_ops_lock);

	edgedma_ops_grace();

	/* One SRCU grace period for them all: unload waits once. */
	mutex_lock(&edgedma_ops_lock);
	hash_for_each_safe(edgedma_ops_devs, bkt, tmp, od, node) {
		hash_del_rcu(&od->node);
		list_add(&od->gone, &gone);
	}
	mutex_unlock(&edgedma_ops_lock);
	synchronize_srcu(&edgedma_ops_srcu);
	list_for_each_entry_safe(od, next, &gone, gone)
		edgedma_ops_entry_free(od);
}

int edgedma_ops_start(bool floor)
{
	unsigned int i, bkt, installed = 0, direct = 0;
	struct edgedma_ops_dev *od;
	char buses[32];
	size_t len = 0;
	int err;

	err = edgedma_hook_caller_init();
	if (err)
		return err;
	edgedma_ops_floor = floor;
	mutex_lock(&edgedma_ops_lock);
	edgedma_ops_running = true;
	mutex_unlock(&edgedma_ops_lock);

	/* Notifiers first: a device bound while we adopt is not missed. */
	for (i = 0; i < ARRAY_SIZE(edgedma_ops_buses); i++) {
		struct edgedma_ops_bus *b = &edgedma_ops_buses[i];

		b->nb.notifier_call = edgedma_ops_bus_event;
		err = bus_register_notifier(b->bus, &b->nb);
		if (err) {
			pr_err("cannot watch the %s bus for drivers binding: %d\n",
			       b->name, err);
			goto err_stop;
		}
		b->registered = true;
	}
	for (i = 0; i < ARRAY_SIZE(edgedma_ops_buses); i++)
		bus_for_each_dev(edgedma_ops_buses[i].bus, NULL, NULL,
				 edgedma_ops_adopt);
	for (i = 0; i < ARRAY_SIZE(edgedma_ops_buses); i++)
		len += scnprintf(buses + len, sizeof(buses) - len, "%s%s",
				 i ? ", " : "", edgedma_ops_buses[i].name);
	mutex_lock(&edgedma_ops_lock);
	hash_for_each(edgedma_ops_devs, bkt, od, node) {
		installed += od->installed;
		direct += od->installed && !od->orig;
	}
	mutex_unlock(&edgedma_ops_lock);
	pr_info("ops mode: edgedma's DMA ops in %u driven devices (%u of them direct); devices on the %s buses get them as their drivers bind\n",
		installed, direct, buses);
	return 0;

err_stop:
	edgedma_ops_stop();
	return err;
}

/* After this no device has our table and no call is in one. */
void edgedma_ops_stop(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(edgedma_ops_buses); i++) {
		struct edgedma_ops_bus *b = &edgedma_ops_buses[i];

		if (b->registered)
			bus_unregister_notifier(b->bus, &b->nb);
		b->registered = false;
	}
	edgedma_ops_release_all();
}
