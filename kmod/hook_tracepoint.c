// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint mode: probes on the kernel's dma trace events (6.12 on).
 *
 * The events' symbols are not exported: for_each_kernel_tracepoint() finds
 * them by name and tracepoint_probe_register() attaches a probe with the
 * event's TP_PROTO signature (void *data first), which the compiler checks
 * against <trace/events/dma.h>.
 *
 * The events do not say who called the API: hook_caller.h tells it, from
 * the probe's stack.
 *
 * Events left out on purpose:
 *  - dma_map_sg_err, dma_alloc_sgt_err: failed calls, which are not
 *    reported (a failed dma_map_page or dma_map_resource fires the normal
 *    event with DMA_MAPPING_ERROR, a failed allocation dma_alloc or
 *    dma_alloc_pages with a NULL address: those are dropped below);
 *  - dma_alloc_sgt, dma_free_sgt: dma_alloc_noncontiguous() and its free,
 *    which no enum edgedma_call_kind covers and kprobe mode does not hook
 *    either: the two modes must add them together.
 *
 * 6.12's dma_free_attrs() fires no event for memory it returns to a
 * per-device coherent pool (dma_release_from_dev_coherent()), while
 * dma_alloc_attrs() fires dma_alloc for memory taken from one; kprobe mode
 * sees both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/dma.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "edgedma.h"
#include "hook.h"
#include "hook_caller.h"


static void edgedma_tp_map_page(void *data, struct device *dev,
				phys_addr_t phys, dma_addr_t dma_addr,
				size_t size, enum dma_data_direction dir,
				unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (dma_addr == DMA_MAPPING_ERROR)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_MAP_PAGE, dev, dir,
			  edgedma_hook_caller());
	call.phys = phys;
	call.cpu_addr = edgedma_linear_addr(phys);
	call.dma_addr = dma_addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_tp_map_resource(void *data, struct device *dev,
				    phys_addr_t phys, dma_addr_t dma_addr,
				    size_t size, enum dma_data_direction dir,
				    unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (dma_addr == DMA_MAPPING_ERROR)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_MAP_RESOURCE, dev, dir,
			  edgedma_hook_caller());
	call.phys = phys;
	call.dma_addr = dma_addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

/* Inline: each unmap event's probe is then one function, not two. */
static __always_inline void edgedma_tp_unmap(u32 kind, struct device *dev,
					     dma_addr_t addr, size_t size,
					     enum dma_data_direction dir,
					     unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, kind, dev, dir, edgedma_hook_caller());
	call.dma_addr = addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_tp_unmap_page(void *data, struct device *dev,
				  dma_addr_t addr, size_t size,
				  enum dma_data_direction dir,
				  unsigned long attrs)
{
	edgedma_tp_unmap(EDGEDMA_CALL_UNMAP_PAGE, dev, addr, size, dir, attrs);
}

static void edgedma_tp_unmap_resource(void *data, struct device *dev,
				      dma_addr_t addr, size_t size,
				      enum dma_data_direction dir,
				      unsigned long attrs)
{
	edgedma_tp_unmap(EDGEDMA_CALL_UNMAP_RESOURCE, dev, addr, size, dir,
			 attrs);
}

/* dma_alloc: dma_alloc_attrs(); dir is always DMA_BIDIRECTIONAL. */
static void edgedma_tp_alloc(void *data, struct device *dev, void *virt_addr,
			     dma_addr_t dma_addr, size_t size,
			     enum dma_data_direction dir, gfp_t flags,
			     unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (!virt_addr)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_ALLOC_COHERENT, dev, dir,
			  edgedma_hook_caller());
	call.dma_addr = dma_addr;
	call.cpu_addr = virt_addr;
	call.phys = edgedma_linear_phys(virt_addr);
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

/* dma_free: dma_free_attrs(), which fires it for NULL too (a no-op). */
static void edgedma_tp_free(void *data, struct device *dev, void *virt_addr,
			    dma_addr_t dma_addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (!virt_addr)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_FREE_COHERENT, dev, dir,
			  edgedma_hook_caller());
	/* A probe runs in its caller's context (after the core's WARN). */
	call.caller_irqs_off = irqs_disabled();
	call.dma_addr = dma_addr;
	call.cpu_addr = virt_addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

/*
 * dma_alloc_pages, dma_free_pages: virt_addr is page_to_virt(page), a
 * linear-map address on the 64-bit kernels edgedma supports, so __pa() of
 * it is page_to_phys(page), what kprobe mode computes.
 */
static void edgedma_tp_alloc_pages(void *data, struct device *dev,
				   void *virt_addr, dma_addr_t dma_addr,
				   size_t size, enum dma_data_direction dir,
				   gfp_t flags, unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (!virt_addr)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_ALLOC_PAGES, dev, dir,
			  edgedma_hook_caller());
	call.dma_addr = dma_addr;
	call.phys = __pa(virt_addr);
	call.cpu_addr = edgedma_linear_addr(call.phys);
	call.size = size;
	edgedma_track_call(&call);
}

static void edgedma_tp_free_pages(void *data, struct device *dev,
				  void *virt_addr, dma_addr_t dma_addr,
				  size_t size, enum dma_data_direction dir,
				  unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, EDGEDMA_CALL_FREE_PAGES, dev, dir,
			  edgedma_hook_caller());
	call.dma_addr = dma_addr;
	call.phys = __pa(virt_addr);
	call.size = size;
	edgedma_track_call(&call);
}

/* dma_map_sg: fired only when entries were mapped (ents > 0). */
static void edgedma_tp_map_sg(void *data, struct device *dev,
			      struct scatterlist *sgl, int nents, int ents,
			      enum dma_data_direction dir, unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, EDGEDMA_CALL_MAP_SG, dev, dir,
			  edgedma_hook_caller());
	call.sgl = sgl;
	call.nents = nents;
	call.mapped_nents = ents;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_tp_unmap_sg(void *data, struct device *dev,
				struct scatterlist *sgl, int nents,
				enum dma_data_direction dir,
				unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, EDGEDMA_CALL_UNMAP_SG, dev, dir,
			  edgedma_hook_caller());
	call.sgl = sgl;
	call.nents = nents;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_tp_sync_single(u32 kind, struct device *dev,
				   dma_addr_t dma_addr, size_t size,
				   enum dma_data_direction dir)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, kind, dev, dir, edgedma_hook_caller());
	call.dma_addr = dma_addr;
	call.size = size;
	edgedma_track_call(&call);
}

static void edgedma_tp_sync_single_for_cpu(void *data, struct device *dev,
					   dma_addr_t dma_addr, size_t size,
					   enum dma_data_direction dir)
{
	edgedma_tp_sync_single(EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU, dev, dma_addr,
			       size, dir);
}

static void edgedma_tp_sync_single_for_device(void *data, struct device *dev,
					      dma_addr_t dma_addr, size_t size,
					      enum dma_data_direction dir)
{
	edgedma_tp_sync_single(EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE, dev,
			       dma_addr, size, dir);
}

static void edgedma_tp_sync_sg(u32 kind, struct device *dev,
			       struct scatterlist *sgl, int nents,
			       enum dma_data_direction dir)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, kind, dev, dir, edgedma_hook_caller());
	call.sgl = sgl;
	call.nents = nents;
	edgedma_track_call(&call);
}

static void edgedma_tp_sync_sg_for_cpu(void *data, struct device *dev,
				       struct scatterlist *sgl, int nents,
				       enum dma_data_direction dir)
{
	edgedma_tp_sync_sg(EDGEDMA_CALL_SYNC_SG_FOR_CPU, dev, sgl, nents, dir);
}

static void edgedma_tp_sync_sg_for_device(void *data, struct device *dev,
					  struct scatterlist *sgl, int nents,
					  enum dma_data_direction dir)
{
	edgedma_tp_sync_sg(EDGEDMA_CALL_SYNC_SG_FOR_DEVICE, dev, sgl, nents,
			   dir);
}

/* hook_floor: one empty probe per event class. */
static void edgedma_tp_floor_map(void *data, struct device *dev,
				 phys_addr_t phys, dma_addr_t dma_addr,
				 size_t size, enum dma_data_direction dir,
				 unsigned long attrs)
{
}

static void edgedma_tp_floor_unmap(void *data, struct device *dev,
				   dma_addr_t addr, size_t size,
				   enum dma_data_direction dir,
				   unsigned long attrs)
{
}

static void edgedma_tp_floor_alloc(void *data, struct device *dev,
				   void *virt_addr, dma_addr_t dma_addr,
				   size_t size, enum dma_data_direction dir,
				   gfp_t flags, unsigned long attrs)
{
}

static void edgedma_tp_floor_free(void *data, struct device *dev,
				  void *virt_addr, dma_addr_t dma_addr,
				  size_t size, enum dma_data_direction dir,
				  unsigned long attrs)
{
}

static void edgedma_tp_floor_map_sg(void *data, struct device *dev,
				    struct scatterlist *sgl, int nents,
				    int ents, enum dma_data_direction dir,
				    unsigned long attrs)
{
}

static void edgedma_tp_floor_unmap_sg(void *data, struct device *dev,
				      struct scatterlist *sgl, int nents,
				      enum dma_data_direction dir,
				      unsigned long attrs)
{
}

static void edgedma_tp_floor_sync_single(void *data, struct device *dev,
					 dma_addr_t dma_addr, size_t size,
					 enum dma_data_direction dir)
{
}

static void edgedma_tp_floor_sync_sg(void *data, struct device *dev,
				     struct scatterlist *sgl, int nents,
				     enum dma_data_direction dir)
{
}

/*
 * The events attached to: event, its probe, its floor probe (by event
 * class). An X-macro, so that the table and the prototype checks below
 * cannot drift apart.
 */
/*
 * Attached in this order, and the order matters: a mapping made once its
 * map event is watched but undone before its unmap event is, would stay in
 * the table for good (a leak at unbind). Ends of mappings are watched first;
 * a mapping made before its map event is watched is unknown, which is what
 * the device's incomplete view (devices.h) is for.
 */
#define EDGEDMA_TP_EVENTS(X)						\
	X(dma_unmap_page, unmap_page, unmap)				\
	X(dma_unmap_resource, unmap_resource, unmap)			\
	X(dma_free, free, free)						\
	X(dma_free_pages, free_pages, free)				\
	X(dma_unmap_sg, unmap_sg, unmap_sg)				\
	X(dma_sync_single_for_cpu, sync_single_for_cpu, sync_single)	\
	X(dma_sync_single_for_device, sync_single_for_device, sync_single) \
	X(dma_sync_sg_for_cpu, sync_sg_for_cpu, sync_sg)		\
	X(dma_sync_sg_for_device, sync_sg_for_device, sync_sg)		\
	X(dma_map_page, map_page, map)					\
	X(dma_map_resource, map_resource, map)				\
	X(dma_alloc, alloc, alloc)					\
	X(dma_alloc_pages, alloc_pages, alloc)				\
	X(dma_map_sg, map_sg, map_sg)

/*
 * The compiler checks every probe against its event's TP_PROTO: one
 * never-called function per event passes both probes to the check the
 * event's declaration provides.
 */
#define EDGEDMA_TP_CHECK(event, probe, floor)				\
static void __maybe_unused edgedma_tp_check_##event(void)		\
{									\
	check_trace_callback_type_##event(edgedma_tp_##probe);		\
	check_trace_callback_type_##event(edgedma_tp_floor_##floor);	\
}

EDGEDMA_TP_EVENTS(EDGEDMA_TP_CHECK)

struct edgedma_tp_def {
	const char *event;
	void *probe;
	void *floor;
};

#define EDGEDMA_TP_DEF(event, probe, floor)				\
	{ #event, edgedma_tp_##probe, edgedma_tp_floor_##floor },

static const struct edgedma_tp_def edgedma_tp_defs[] = {
	EDGEDMA_TP_EVENTS(EDGEDMA_TP_DEF)
};

#define EDGEDMA_NR_TP	ARRAY_SIZE(edgedma_tp_defs)

/* What start attached, for stop. */
static struct tracepoint *edgedma_tp_points[EDGEDMA_NR_TP];
static void *edgedma_tp_probes[EDGEDMA_NR_TP];

static void edgedma_tp_match(struct tracepoint *tp, void *priv)
{
	struct tracepoint **found = priv;
	unsigned int i;

	for (i = 0; i < EDGEDMA_NR_TP; i++)
		if (!strcmp(tp->name, edgedma_tp_defs[i].event))
			found[i] = tp;
}

/* Fill found[] with the events, by name; NULL or the first one missing. */
static const char *edgedma_tp_lookup(struct tracepoint **found)
{
	unsigned int i;

	memset(found, 0, sizeof(*found) * EDGEDMA_NR_TP);
	for_each_kernel_tracepoint(edgedma_tp_match, found);
	for (i = 0; i < EDGEDMA_NR_TP; i++)
		if (!found[i])
			return edgedma_tp_defs[i].event;
	return NULL;
}

bool edgedma_tracepoint_present(void)
{
	struct tracepoint *found[EDGEDMA_NR_TP];

	return !edgedma_tp_lookup(found);
}

int edgedma_tracepoint_start(bool floor)
{
	const char *missing;
	unsigned int i;
	int err;

	missing = edgedma_tp_lookup(edgedma_tp_points);
	if (missing) {
		pr_err("this kernel has no %s trace event\n", missing);
		return -EOPNOTSUPP;
	}
	err = edgedma_hook_caller_init();
	if (err)
		return err;

	for (i = 0; i < EDGEDMA_NR_TP; i++) {
		edgedma_tp_probes[i] = floor ? edgedma_tp_defs[i].floor :
					       edgedma_tp_defs[i].probe;
		err = tracepoint_probe_register(edgedma_tp_points[i],
						edgedma_tp_probes[i], NULL);
		if (err) {
			pr_err("cannot attach to the %s trace event: %d\n",
			       edgedma_tp_defs[i].event, err);
			goto err_unregister;
		}
	}
	return 0;

err_unregister:
	while (i--)
		tracepoint_probe_unregister(edgedma_tp_points[i],
					    edgedma_tp_probes[i], NULL);
	tracepoint_synchronize_unregister();
	return err;
}

/* After this no probe of ours runs anywhere. */
void edgedma_tracepoint_stop(void)
{
	unsigned int i;

	for (i = 0; i < EDGEDMA_NR_TP; i++)
		tracepoint_probe_unregister(edgedma_tp_points[i],
					    edgedma_tp_probes[i], NULL);
	tracepoint_synchronize_unregister();
}
