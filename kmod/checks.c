// SPDX-License-Identifier: GPL-2.0
/*
 * What each DMA-mapping call is checked for, and the sentence each finding
 * gives the driver author.
 *
 * Runs in the hooks' context: any context but NMI, with preemption off.
 * Nothing here sleeps or allocates; a finding is built on the stack and
 * copied into the log, its sentence as arguments (findings.h): the text and
 * the names of the code it mentions are made later, in process context.
 */
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/jump_label.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/percpu.h>
#include <linux/sched/task_stack.h>
#include <linux/scatterlist.h>
#include <linux/sched/clock.h>
#include <linux/swiotlb.h>
#include <linux/vmalloc.h>
#include <uapi/linux/edgedma.h>

#include "cacheline_neighbours.h"
#include "device_owned_writes.h"
#include "device_cache.h"
#include "compat.h"
#include "checks.h"
#include "finding_costs.h"
#include "devices.h"
#include "edgedma.h"
#include "finding_sites.h"
#include "findings.h"
#include "irqsoff.h"
#include "map_events.h"
#include "maptrack.h"
#include "policy.h"
#include "snapshot_capture.h"
#include "sync_visible.h"
#include "trigger_crash.h"
#include "vmalloc_pages.h"

static DEFINE_PER_CPU(u64, edgedma_calls);
/* Unmaps and syncs of mappings made before edgedma watched the device. */
static DEFINE_PER_CPU(u64, edgedma_unseen);
/* IOMMU translations not made because they could sleep here (PREEMPT_RT). */
static DEFINE_PER_CPU(u64, edgedma_translations_skipped);

static bool measure_irqsoff;
module_param(measure_irqsoff, bool, 0444);
MODULE_PARM_DESC(measure_irqsoff,
		 "Time each hook's interrupts-off section: the longest goes to GET_STATS, all of them to debugfs edgedma/irqsoff (default off)");
static DEFINE_STATIC_KEY_FALSE(edgedma_irqsoff_timed);

/*
 * Whether an address edgedma does not know can be called unknown: only on a
 * device whose every mapping was made under its eyes (devices.h).
 */
static bool edgedma_view_complete(const struct edgedma_devrec *rec)
{
	if (READ_ONCE(rec->complete) && READ_ONCE(edgedma_hooks_armed_ns) != U64_MAX)
		return true;
	__this_cpu_inc(edgedma_unseen);
	return false;
}

/*
 * Whether an unmap of @addr the history holds proves that nothing is mapped
 * there now, for a call that found no mapping at @addr. A map of @addr after
 * that unmap went unseen if it came while the hooks were going in (on a
 * device already driven at load) or going out (the map hooks go first): a
 * call about it is then no double unmap, no sync after unmap.
 */
static bool edgedma_history_proves_unmapped(const struct edgedma_devrec *rec,
					    const struct edgedma_unmapped *u)
{
	u64 armed = READ_ONCE(edgedma_hooks_armed_ns);

	if (armed != U64_MAX && u->unmap_time_ns >= armed)
		return true;
	return edgedma_view_complete(rec);
}

static const char *const edgedma_dir_names[] = {
	[DMA_BIDIRECTIONAL] = "bidirectional",
	[DMA_TO_DEVICE] = "to-device",
	[DMA_FROM_DEVICE] = "from-device",
	[DMA_NONE] = "none",
};

static const char *edgedma_dir_name(u32 dir)
{
	return dir < ARRAY_SIZE(edgedma_dir_names) ? edgedma_dir_names[dir] : "?";
}

/*
 * The last translation of a DMA address the checks of one call asked for:
 * the memory, bounce, segment and neighbour checks of a map all ask about
 * the same address, and an IOMMU walk is the dearest step of the hook.
 */
struct edgedma_xlat {
	u64 dma_addr;
	u64 phys;
	bool valid;
	bool domain_known;	/* domain below is the device's */
	struct iommu_domain *domain;	/* a DMA-API (paging) domain, or NULL */
};

/* What a check knows about the call it is judging. */
struct edgedma_ctx {
	const struct edgedma_call *call;
	struct edgedma_devrec *rec;
	const struct edgedma_policy *policy;	/* valid for this call */
	struct edgedma_xlat *xlat;
};

static bool edgedma_check_on(const struct edgedma_ctx *ctx, u32 kind)
{
	return ctx->policy->checks & BIT(kind - 1);
}

/*
 * The policy asks for a snapshot at findings of this kind: taken here, in
 * the hook, so that it holds the device as the finding saw it. A new site
 * only (a repeat costs nothing), within the device's rate limit; the
 * table's locks are only tried (this CPU may hold one).
 */
static void edgedma_found_snapshot(const struct edgedma_ctx *ctx,
				   const struct edgedma_finding *f)
{
	struct edgedma_snapshot_request t = {
		.kind = EDGEDMA_SNAPSHOT_TRIGGER_FINDING,
		.has_addr = f->dma_addr != 0,
		.addr = f->dma_addr,
		.finding_seq = f->seq,
		.finding_kind = f->kind,
		.atomic = true,
	};
	u64 seq;

	edgedma_snapshot_take(ctx->call->dev, &t, &seq);
}

static __printf(7, 0) void
edgedma_vfound(const struct edgedma_ctx *ctx, u32 kind, u64 dma_addr, u64 phys,
	       u64 size, unsigned long map_caller, const char *fmt, va_list args)
{
	const struct edgedma_call *c = ctx->call;
	struct edgedma_finding f;
	u32 site;
	u64 t;

	if (!edgedma_check_on(ctx, kind))
		return;
	edgedma_devrec_count_irqs_off(ctx->rec, EDGEDMA_DEV_FINDINGS, 1);
	/*
	 * A repeat is counted at its site and costs nothing more: not even
	 * clearing the finding's kilobyte and more.
	 */
	t = edgedma_cost_start();
	if (!edgedma_site_occurs(ctx->rec, kind, c->caller, &site)) {
		edgedma_cost_add(EDGEDMA_COST_SITE_REPEAT, t);
		return;
	}
	t = edgedma_cost_add(EDGEDMA_COST_SITE_FIRST, t);
	memset(&f, 0, sizeof(f));
	f.kind = kind;
	f.call = c->kind;
	f.dir = c->dir;
	f.dma_addr = dma_addr;
	f.size = size;
	f.phys = phys;
	f.caller = c->caller;
	f.map_caller = map_caller;
	f.site = site;
	edgedma_devrec_names(ctx->rec, f.device, f.driver);
	t = edgedma_cost_add(EDGEDMA_COST_FACTS, t);
	edgedma_call_chain(&f, c);
	t = edgedma_cost_add(EDGEDMA_COST_CHAIN, t);
	edgedma_finding_sentence(&f, fmt, args);
	t = edgedma_cost_add(EDGEDMA_COST_SENTENCE_ARGS, t);
	edgedma_finding_report(&f);
	edgedma_cost_add(EDGEDMA_COST_LOG, t);
	if (ctx->policy->snapshot_findings & BIT(kind - 1))
		edgedma_found_snapshot(ctx, &f);
}

/* A finding about the call, with the call's CPU physical address. */
static __printf(6, 7) void
edgedma_found(const struct edgedma_ctx *ctx, u32 kind, u64 dma_addr, u64 size,
	      unsigned long map_caller, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	edgedma_vfound(ctx, kind, dma_addr, ctx->call->phys, size, map_caller, fmt, args);
	va_end(args);
}

/*
 * A finding about one buffer of the call (a scatterlist entry has its
 * own): the addresses its sentence names. @dma_addr is 0 where the entry's
 * DMA address is unknown (an IOMMU merged the list).
 */
static __printf(6, 7) void
edgedma_found_buffer(const struct edgedma_ctx *ctx, u32 kind, u64 dma_addr,
		     u64 phys, u64 size, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	edgedma_vfound(ctx, kind, dma_addr, phys, size, 0, fmt, args);
	va_end(args);
}

/* A finding about one buffer of a mapping made by @map_caller. */
static __printf(7, 8) void
edgedma_vfound_buffer_caller(const struct edgedma_ctx *ctx, u32 kind, u64 dma_addr,
			     u64 phys, u64 size, unsigned long map_caller,
			     const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	edgedma_vfound(ctx, kind, dma_addr, phys, size, map_caller, fmt, args);
	va_end(args);
}

static __always_inline u64 edgedma_device_phys(const struct edgedma_ctx *ctx, u64 dma_addr);
static __always_inline bool edgedma_may_bounce(const struct edgedma_ctx *ctx);

/*
 * Does the device work on a copy of the buffer at @phys, which it reaches
 * at @dma_addr (0: unknown)? Map calls only: a bounced buffer is never
 * touched by the device or by cache maintenance.
 */
static __always_inline bool edgedma_is_bounced(const struct edgedma_ctx *ctx, u64 dma_addr,
					       u64 phys)
{
	const struct edgedma_call *c = ctx->call;
	u64 dev_phys;

	if ((c->kind != EDGEDMA_CALL_MAP_PAGE && c->kind != EDGEDMA_CALL_MAP_SG) ||
	    !dma_addr || !edgedma_may_bounce(ctx))
		return false;
	dev_phys = edgedma_device_phys(ctx, dma_addr);
	return dev_phys != EDGEDMA_NO_PHYS && dev_phys != phys;
}

/* ---- checks on the memory behind a buffer ------------------------------ */

/*
 * The cache line size when [@phys, +@size) starts or ends inside a line and
 * the device is not coherent, else 0. Coherent devices are told first: most
 * are, and cache_line_size() is a call on arm64.
 */
static u32 edgedma_partial_line(const struct edgedma_ctx *ctx, u64 phys, u64 size)
{
	u32 line;

	if (ctx->policy->coherent)
		return 0;
	line = cache_line_size();
	if (line <= 1 || !((phys & (line - 1)) || ((phys + size) & (line - 1))))
		return 0;
	return line;
}

static __always_inline bool edgedma_phys_in_task_stack(u64 phys, u64 size)
{
	struct task_struct *task = current;
	void *stack = task_stack_page(task);
	unsigned long i;

#ifdef CONFIG_VMAP_STACK
	struct vm_struct *area = task_stack_vm_area(task);

	if (area) {
		/*
		 * In page frames: one conversion per stack page, not two, and
		 * one unsigned compare for "first <= pfn <= last".
		 */
		unsigned long first = PHYS_PFN(phys);
		unsigned long span = PHYS_PFN(phys + (size ?: 1) - 1) - first;

		for (i = 0; i < area->nr_pages; i++)
			if (page_to_pfn(area->pages[i]) - first <= span)
				return true;
		return false;
	}
#endif
	if (!stack || !virt_addr_valid(stack))
		return false;
	i = virt_to_phys(stack);
	return phys < i + THREAD_SIZE && phys + size > i;
}

/*
 * The buffer at @phys, which the device reaches at @dma_addr (0: unknown).
 * @linear: the hook found @phys in the kernel's linear map (a MAP_PAGE's or
 * ALLOC_PAGES' cpu_addr is that alias, never the driver's pointer, see
 * edgedma_linear_addr()): its page frame is valid, so not asked again.
 */
static __always_inline void edgedma_check_memory(const struct edgedma_ctx *ctx, u64 dma_addr,
						 u64 phys, u64 size, bool linear)
{
	unsigned long lookup;
	u32 line;

	if (phys == EDGEDMA_NO_PHYS)
		return;

	/* Each check's work only where the policy runs it: what it saves. */
	if (edgedma_check_on(ctx, EDGEDMA_FINDING_STACK_BUFFER) &&
	    edgedma_phys_in_task_stack(phys, size))
		edgedma_found_buffer(ctx, EDGEDMA_FINDING_STACK_BUFFER, dma_addr, phys, size,
			      "buffer at phys %#llx is on the stack of %s[%d]; stack memory may be moved, freed or vmapped: DMA only to kmalloc'd or page-allocated memory",
			      phys, current->comm, task_pid_nr(current));
	else if (!edgedma_check_on(ctx, EDGEDMA_FINDING_VMALLOC_BUFFER))
		;
	else if (!linear && !pfn_valid(PHYS_PFN(phys)))
		edgedma_found_buffer(ctx, EDGEDMA_FINDING_VMALLOC_BUFFER, dma_addr, phys, size,
			      "page at phys %#llx is not RAM the kernel manages: was it made with virt_to_page() of a vmalloc or stack address?",
			      phys);
	else if ((lookup = edgedma_vmalloc_page_seen(pfn_to_page(PHYS_PFN(phys)))))
		edgedma_found_buffer(ctx, EDGEDMA_FINDING_VMALLOC_BUFFER, dma_addr, phys, size,
			      "buffer at phys %#llx is vmalloc memory (vmalloc_to_page() in %pS); the DMA API keeps only the linear map coherent: flush/invalidate_kernel_vmap_range() needed",
			      phys, (void *)lookup);

	if (edgedma_check_on(ctx, EDGEDMA_FINDING_RODATA_BUFFER) &&
	    edgedma_phys_in_kernel_rodata(phys, size))
		edgedma_found_buffer(ctx, EDGEDMA_FINDING_RODATA_BUFFER, dma_addr, phys, size,
			      "buffer at phys %#llx is kernel text or read-only data; a device must never write there, and it is not a DMA buffer",
			      phys);

	/*
	 * Only a device write can lose the neighbour's data: its lines are
	 * invalidated around the transfer. To the device the kernel only
	 * cleans (writes back) lines, which the neighbour survives; the kernel
	 * reasons the same way when it decides which kmalloc buffers to bounce.
	 * A bounced buffer is never touched by the device or by cache
	 * maintenance: the kernel copies it (6.12 bounces small kmalloc
	 * buffers of non-coherent devices on purpose). Only bounced is said.
	 */
	line = edgedma_partial_line(ctx, phys, size);
	if (line && ctx->call->dir != DMA_TO_DEVICE &&
	    edgedma_check_on(ctx, EDGEDMA_FINDING_CACHELINE_SHARED) &&
	    !edgedma_is_bounced(ctx, dma_addr, phys))
		edgedma_found_buffer(ctx, EDGEDMA_FINDING_CACHELINE_SHARED, dma_addr, phys, size,
			      "%s device, %s buffer at phys %#llx +%llu %s a %u-byte cache line shared with other data: the invalidate for the DMA can discard CPU writes to it",
			      ctx->policy->coherent_overridden ? "treated as non-coherent" : "non-coherent",
			      edgedma_dir_name(ctx->call->dir), phys, size,
			      (phys & (line - 1)) ? "starts in" : "ends in", line);
}

/* ---- checks on what the device is given -------------------------------- */

/* The call's device's paging IOMMU domain, or NULL; looked up once per call. */
static __always_inline struct iommu_domain *edgedma_call_domain(const struct edgedma_ctx *ctx)
{
	struct edgedma_xlat *x = ctx->xlat;

	if (!x->domain_known) {
		struct iommu_domain *domain = iommu_get_domain_for_dev(ctx->call->dev);

		x->domain = domain && (domain->type & __IOMMU_DOMAIN_PAGING) ? domain : NULL;
		x->domain_known = true;
	}
	return x->domain;
}

/* The physical address the call's device reaches at @dma_addr, or NO_PHYS. */
static __always_inline u64 edgedma_translate(const struct edgedma_ctx *ctx, u64 dma_addr)
{
	struct iommu_domain *domain = edgedma_call_domain(ctx);

	if (domain) {
		/* Interrupts are off: an IOMMU driver's sleeping lock must not be taken. */
		if (!edgedma_iommu_translate_in_hook(domain)) {
			__this_cpu_inc(edgedma_translations_skipped);
			return EDGEDMA_NO_PHYS;
		}
		return iommu_iova_to_phys(domain, dma_addr) ?: EDGEDMA_NO_PHYS;
	}
	return edgedma_direct_dma_to_phys(ctx->call->dev, dma_addr);
}

/*
 * Can the call's DMA address be live only once for its device? Behind an
 * IOMMU's DMA-API domain an IOVA is handed out once until it is freed, and
 * in kprobe and ops mode the hooks see an unmap before the kernel frees
 * the address. The trace events come after the unmap: another CPU may map
 * the address again before the first one's event, so never in that mode.
 */
static __always_inline bool edgedma_addr_unique(const struct edgedma_ctx *ctx)
{
	return edgedma_hook_mode_active() != EDGEDMA_HOOK_MODE_TRACEPOINT &&
	       edgedma_call_domain(ctx);
}

/*
 * Can the kernel have bounced this call's buffers? Only through swiotlb,
 * so never where it has no pool for the device. Behind an IOMMU's DMA-API
 * domain it bounces only for an untrusted device (an external port) or,
 * since 6.5, small buffers of a non-coherent one (iommu-dma's
 * dev_use_swiotlb()): the page-table walk that would tell is skipped for
 * the rest, the common case. The direct path's translation is arithmetic,
 * and swiotlb may bounce there for any device (its mask, swiotlb=force).
 */
static __always_inline bool edgedma_may_bounce(const struct edgedma_ctx *ctx)
{
	struct device *dev = ctx->call->dev;

	if (!edgedma_swiotlb_active(dev))
		return false;
	if (!edgedma_call_domain(ctx))
		return true;
	return !dev_is_dma_coherent(dev) ||
	       (dev_is_pci(dev) && to_pci_dev(dev)->untrusted);
}

/* edgedma_translate() of the call's device, once per address and call. */
static __always_inline u64 edgedma_device_phys(const struct edgedma_ctx *ctx, u64 dma_addr)
{
	struct edgedma_xlat *x = ctx->xlat;

	if (!x->valid || x->dma_addr != dma_addr) {
		x->phys = edgedma_translate(ctx, dma_addr);
		x->dma_addr = dma_addr;
		x->valid = true;
	}
	return x->phys;
}

/*
 * The mask the kernel placed a buffer made by a @kind call under: coherent
 * allocations, and dma_alloc_pages() on the direct path (dma-direct's page
 * allocator), under the coherent mask; streaming mappings, and pages
 * behind an IOMMU (dma_common_alloc_pages() maps them), under the DMA mask.
 */
static __always_inline u64 edgedma_mask_for(const struct edgedma_ctx *ctx, u32 kind,
					    bool *coherent)
{
	struct device *dev = ctx->call->dev;

	*coherent = kind == EDGEDMA_CALL_ALLOC_COHERENT ||
		    (kind == EDGEDMA_CALL_ALLOC_PAGES && !edgedma_call_domain(ctx));
	if (*coherent)
		return dev->coherent_dma_mask;
	return dev->dma_mask ? *dev->dma_mask : 0;
}

static __always_inline void edgedma_check_segment(const struct edgedma_ctx *ctx, u64 dma_addr,
				  u64 size, u64 cpu_phys, bool sg)
{
	struct device *dev = ctx->call->dev;
	const struct edgedma_policy *p = ctx->policy;
	bool coherent_alloc;
	u64 mask = edgedma_mask_for(ctx, ctx->call->kind, &coherent_alloc);
	u64 boundary;
	u64 dev_phys;

	if (p->addr_align > 1 && (dma_addr & (p->addr_align - 1)))
		edgedma_found(ctx, EDGEDMA_FINDING_ADDR_MISALIGNED, dma_addr, size, 0,
			      "DMA address %#llx is not aligned to the %u bytes this device's policy requires",
			      dma_addr, p->addr_align);
	if (p->len_align > 1 && (size & (p->len_align - 1)))
		edgedma_found(ctx, EDGEDMA_FINDING_LEN_MISALIGNED, dma_addr, size, 0,
			      "length %llu is not a multiple of the %u bytes this device's policy requires",
			      size, p->len_align);
	if (mask && size && dma_addr + size - 1 > mask &&
	    edgedma_check_on(ctx, EDGEDMA_FINDING_MASK_EXCEEDED))
		edgedma_found(ctx, EDGEDMA_FINDING_MASK_EXCEEDED, dma_addr, size, 0,
			      "DMA range [%#llx, +%llu) ends above the device's %s mask %#llx; the device cannot reach it",
			      dma_addr, size, coherent_alloc ? "coherent DMA" : "DMA", mask);
	/* Segment limits are the scatterlist's: a single mapping has none. */
	if (sg && size && edgedma_check_on(ctx, EDGEDMA_FINDING_SEG_BOUNDARY)) {
		boundary = dma_get_seg_boundary(dev);
		if ((dma_addr & ~boundary) != ((dma_addr + size - 1) & ~boundary))
			edgedma_found(ctx, EDGEDMA_FINDING_SEG_BOUNDARY, dma_addr, size, 0,
				      "segment [%#llx, +%llu) crosses the device's segment boundary (mask %#llx)",
				      dma_addr, size, boundary);
	}
	if (sg && edgedma_check_on(ctx, EDGEDMA_FINDING_SEG_TOO_LONG) &&
	    size > dma_get_max_seg_size(dev))
		edgedma_found(ctx, EDGEDMA_FINDING_SEG_TOO_LONG, dma_addr, size, 0,
			      "segment of %llu bytes is longer than the device's maximum segment size %u",
			      size, dma_get_max_seg_size(dev));

	if (cpu_phys == EDGEDMA_NO_PHYS || !edgedma_check_on(ctx, EDGEDMA_FINDING_BOUNCED) ||
	    !edgedma_may_bounce(ctx))
		return;
	dev_phys = edgedma_device_phys(ctx, dma_addr);
	/* The segment's own phys: a scatterlist call has none of its own. */
	if (dev_phys != EDGEDMA_NO_PHYS && dev_phys != cpu_phys)
		edgedma_found_buffer(ctx, EDGEDMA_FINDING_BOUNCED, dma_addr,
				     cpu_phys, size,
				     "buffer at phys %#llx is bounced: the device works on a copy at phys %#llx (swiotlb), which costs a copy per transfer%s",
				     cpu_phys, dev_phys,
				     mask && cpu_phys + size - 1 > mask ?
				     "; the buffer lies above the device's DMA mask" : "");
}

/* ---- writes next to a buffer the device owns -------------------------------- */

/*
 * Whether the partial lines of a buffer the device is given are watched:
 * a non-coherent device that may write it (its lines are invalidated), a
 * streaming mapping, not bounced (the device works on a copy then).
 */
static __always_inline bool edgedma_neighbours_watched(const struct edgedma_ctx *ctx, u32 dir,
				       u64 dma_addr, u64 phys, u64 size)
{
	u32 kind = ctx->call->kind;

	return dir != DMA_TO_DEVICE && phys != EDGEDMA_NO_PHYS &&
	       edgedma_partial_line(ctx, phys, size) &&
	       edgedma_check_on(ctx, EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN) &&
	       (kind == EDGEDMA_CALL_MAP_PAGE || kind == EDGEDMA_CALL_MAP_SG ||
		kind == EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE ||
		kind == EDGEDMA_CALL_SYNC_SG_FOR_DEVICE) &&
	       !edgedma_is_bounced(ctx, dma_addr, phys);
}

static noinline void edgedma_neighbours_compare(const struct edgedma_ctx *ctx,
						const struct edgedma_mapping *m)
{
	u64 now_sum, changed;
	u32 lines;

	now_sum = edgedma_neighbours_sum(m->phys, m->size, cache_line_size(), &lines);
	if (lines != m->neighbour_lines || now_sum == m->neighbours)
		return;
	changed = now_sum ^ m->neighbours;
	edgedma_vfound_buffer_caller(ctx, EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN,
		m->dma_addr, m->phys, m->size, m->caller,
		"the CPU wrote %s of the %s buffer at phys %#llx +%llu, in %s cache line, while the device owned it (%llu us since %s): the invalidate for the DMA discards such writes",
		(changed >> 32) && (u32)changed ? "before and after the end" :
		(changed >> 32) ? "before the start" : "after the end",
		edgedma_dir_name(m->dir), m->phys, m->size,
		(changed >> 32) && (u32)changed ? "the first and the last" : "a shared",
		div_u64(ktime_get_ns() - m->neighbours_ns, 1000),
		m->neighbours_ns == m->time_ns ? "the map" : "the last sync for the device");
}

/*
 * The CPU takes @m back (unmap, sync_for_cpu): did it write next to it?
 * The test inline, the sums out of line: most mappings are not watched.
 */
static __always_inline void edgedma_neighbours_check(const struct edgedma_ctx *ctx,
						     const struct edgedma_mapping *m)
{
	if (m->neighbour_lines &&
	    edgedma_check_on(ctx, EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN))
		edgedma_neighbours_compare(ctx, m);
}

/* ---- CPU writes to a to-device buffer the device owns ----------------------- */

/*
 * Whether a buffer the device is given is watched for CPU writes: the
 * check is on (it is off by default: a pass over the bytes at every
 * hand-over), the device only reads it (a device write changes it too),
 * a streaming mapping whose memory is known.
 */
static __always_inline bool edgedma_owned_watched(const struct edgedma_ctx *ctx, u32 dir, u64 phys)
{
	u32 kind = ctx->call->kind;

	return dir == DMA_TO_DEVICE && phys != EDGEDMA_NO_PHYS &&
	       edgedma_check_on(ctx, EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED) &&
	       (kind == EDGEDMA_CALL_MAP_PAGE || kind == EDGEDMA_CALL_MAP_SG ||
		kind == EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE ||
		kind == EDGEDMA_CALL_SYNC_SG_FOR_DEVICE);
}

static noinline void edgedma_owned_compare(const struct edgedma_ctx *ctx,
					   const struct edgedma_mapping *m)
{
	struct edgedma_owned_bytes now;
	u32 first, last;

	/* The bytes hashed then, whatever the policy says now. */
	edgedma_owned_hash(m->phys, m->size, m->content.len, &now);
	if (!edgedma_owned_changed(&m->content, &now, &first, &last))
		return;
	edgedma_vfound_buffer_caller(ctx, EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED,
		m->dma_addr, m->phys, m->size, m->caller,
		"the to-device buffer at phys %#llx +%llu changed in bytes %u..%u while the device owned it (%llu us since %s): the CPU wrote it, or the device wrote what it was given to read",
		m->phys, m->size, first, last,
		div_u64(ktime_get_ns() - m->content_ns, 1000),
		m->content_ns == m->time_ns ? "the map" : "the last sync for the device");
}

/* The CPU takes @m back (unmap, sync_for_cpu): did its bytes change? */
static __always_inline void edgedma_owned_check(const struct edgedma_ctx *ctx,
						const struct edgedma_mapping *m)
{
	if (m->content.len &&
	    edgedma_check_on(ctx, EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED))
		edgedma_owned_compare(ctx, m);
}

/* ---- map and unmap --------------------------------------------------------- */

/*
 * The map, unmap and free paths return the time they read for the table
 * (the mapping's, the unmap history's), 0 where they read none, and the
 * mapping event takes it rather than read the clock once more: a clock
 * read is dozens of instructions, and under emulation the dearest thing a
 * hook does (make bench, "What the emulator charges").
 */
static __always_inline u64 edgedma_track(const struct edgedma_ctx *ctx, u64 dma_addr, u64 size,
			  u64 phys, u32 sg_index, u32 sg_count)
{
	const struct edgedma_call *c = ctx->call;
	struct edgedma_mapping *m;

	if (!static_branch_likely(&edgedma_tracking_mappings))
		return 0;
	/*
	 * Filled in place, field by field (the node by the insert): the entry
	 * is the size of a few cache lines, and a compound literal would zero
	 * it all first, a memset call on arm64.
	 */
	m = edgedma_maptrack_new();
	if (!m)
		return 0;
	m->devrec = ctx->rec;
	m->dma_addr = dma_addr;
	m->size = size;
	m->phys = phys;
	m->time_ns = ktime_get_ns();
	m->cpu_virt = (unsigned long)c->cpu_addr;
	m->caller = c->caller;
	m->attrs = c->attrs;
	m->kind = c->kind;
	m->dir = c->dir;
	m->sg_index = sg_index;
	m->sg_count = sg_count;
	m->sg_nents = c->nents;
	m->neighbours = 0;
	m->neighbours_ns = 0;
	m->neighbour_lines = 0;
	m->content.hash = 0;
	m->content.parts = 0;
	m->content.len = 0;
	m->content_ns = 0;

	if (edgedma_neighbours_watched(ctx, c->dir, dma_addr, phys, size)) {
		m->neighbours = edgedma_neighbours_sum(phys, size, cache_line_size(),
						       &m->neighbour_lines);
		m->neighbours_ns = m->time_ns;
	}
	if (edgedma_owned_watched(ctx, c->dir, phys)) {
		edgedma_owned_hash(phys, size, ctx->policy->owned_hash_max, &m->content);
		m->content_ns = m->time_ns;
	}
	edgedma_maptrack_insert(m, edgedma_addr_unique(ctx));
	return m->time_ns;
}

static __always_inline u64 edgedma_on_map(const struct edgedma_ctx *ctx)
{
	const struct edgedma_call *c = ctx->call;

	/* Coherent memory and device registers are not buffers to judge. */
	if (c->kind != EDGEDMA_CALL_ALLOC_COHERENT &&
	    c->kind != EDGEDMA_CALL_MAP_RESOURCE)
		edgedma_check_memory(ctx, c->dma_addr, c->phys, c->size, c->cpu_addr != NULL);
	edgedma_check_segment(ctx, c->dma_addr, c->size,
			      c->kind == EDGEDMA_CALL_MAP_RESOURCE ? EDGEDMA_NO_PHYS : c->phys,
			      false);
	return edgedma_track(ctx, c->dma_addr, c->size, c->phys, 0, 0);
}

static u64 edgedma_on_map_sg(const struct edgedma_ctx *ctx)
{
	const struct edgedma_call *c = ctx->call;
	bool one_to_one = c->mapped_nents == c->nents;
	struct scatterlist *sg;
	u64 time_ns = 0;
	int i;

	/* Entry i is DMA segment i unless an IOMMU merged the list. */
	for_each_sg(c->sgl, sg, c->nents, i)
		edgedma_check_memory(ctx, one_to_one ? sg_dma_address(sg) : 0,
				     sg_phys(sg), sg->length, false);
	for_each_sg(c->sgl, sg, c->mapped_nents, i) {
		u64 phys = one_to_one ? sg_phys(sg) : EDGEDMA_NO_PHYS;

		edgedma_check_segment(ctx, sg_dma_address(sg), sg_dma_len(sg),
				      phys, true);
		time_ns = edgedma_track(ctx, sg_dma_address(sg), sg_dma_len(sg), phys, i,
					c->mapped_nents);
	}
	return time_ns;
}

/* The map call each unmap call must undo. */
static u32 edgedma_map_kind_of(u32 unmap_kind)
{
	switch (unmap_kind) {
	case EDGEDMA_CALL_UNMAP_PAGE:
		return EDGEDMA_CALL_MAP_PAGE;
	case EDGEDMA_CALL_UNMAP_SG:
		return EDGEDMA_CALL_MAP_SG;
	case EDGEDMA_CALL_UNMAP_RESOURCE:
		return EDGEDMA_CALL_MAP_RESOURCE;
	case EDGEDMA_CALL_FREE_COHERENT:
		return EDGEDMA_CALL_ALLOC_COHERENT;
	case EDGEDMA_CALL_FREE_PAGES:
		return EDGEDMA_CALL_ALLOC_PAGES;
	}
	return 0;
}

static const char *const edgedma_call_names[] = {
	[EDGEDMA_CALL_MAP_PAGE] = "dma_map_page",
	[EDGEDMA_CALL_UNMAP_PAGE] = "dma_unmap_page",
	[EDGEDMA_CALL_MAP_SG] = "dma_map_sg",
	[EDGEDMA_CALL_UNMAP_SG] = "dma_unmap_sg",
	[EDGEDMA_CALL_MAP_RESOURCE] = "dma_map_resource",
	[EDGEDMA_CALL_UNMAP_RESOURCE] = "dma_unmap_resource",
	[EDGEDMA_CALL_ALLOC_COHERENT] = "dma_alloc_coherent",
	[EDGEDMA_CALL_FREE_COHERENT] = "dma_free_coherent",
	[EDGEDMA_CALL_ALLOC_PAGES] = "dma_alloc_pages",
	[EDGEDMA_CALL_FREE_PAGES] = "dma_free_pages",
	[EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU] = "dma_sync_single_for_cpu",
	[EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE] = "dma_sync_single_for_device",
	[EDGEDMA_CALL_SYNC_SG_FOR_CPU] = "dma_sync_sg_for_cpu",
	[EDGEDMA_CALL_SYNC_SG_FOR_DEVICE] = "dma_sync_sg_for_device",
};

const char *edgedma_call_name(u32 kind)
{
	if (kind < ARRAY_SIZE(edgedma_call_names) && edgedma_call_names[kind])
		return edgedma_call_names[kind];
	return "?";
}

/*
 * Take the mapping at @dma_addr out of the table and report what is wrong
 * with the unmap; the caller releases it (edgedma_maptrack_release()).
 */
static __always_inline struct edgedma_mapping *edgedma_unmap_one(const struct edgedma_ctx *ctx,
						 u64 dma_addr, u64 size, u64 now)
{
	const struct edgedma_call *c = ctx->call;
	const struct edgedma_unmap_want want = {
		.size = c->kind == EDGEDMA_CALL_UNMAP_SG ? 0 : size,
		.dir = c->dir,
		.kind = edgedma_map_kind_of(c->kind),
	};
	struct edgedma_mapping *m;
	/* Filled by the history when it knows the address: not zeroed first. */
	struct edgedma_unmapped u __uninitialized;

	m = edgedma_maptrack_take(ctx->rec, dma_addr, &want, c->caller, now);
	if (!m) {
		if (edgedma_maptrack_history_find(ctx->rec, dma_addr, &u)) {
			if (!edgedma_history_proves_unmapped(ctx->rec, &u))
				return NULL;
			edgedma_found(ctx, EDGEDMA_FINDING_DOUBLE_UNMAP, dma_addr,
				      size, u.map_caller,
				      "%s of %#llx, which %pS already unmapped %llu us earlier",
				      edgedma_call_name(c->kind), dma_addr,
				      (void *)u.unmap_caller,
				      /* Another CPU's unmap may postdate @now. */
				      div_u64(now > u.unmap_time_ns ? now - u.unmap_time_ns : 0,
					      1000));
		} else if (edgedma_view_complete(ctx->rec)) {
			edgedma_found(ctx, EDGEDMA_FINDING_UNMAP_UNKNOWN, dma_addr,
				      size, 0,
				      "%s of %#llx, which this device never mapped (or whose map edgedma did not see)",
				      edgedma_call_name(c->kind), dma_addr);
		}
		return NULL;
	}
	edgedma_neighbours_check(ctx, m);
	edgedma_owned_check(ctx, m);
	if (m->kind != edgedma_map_kind_of(c->kind))
		edgedma_found(ctx, EDGEDMA_FINDING_UNMAP_MISMATCH, dma_addr, size,
			      m->caller, "%s of a mapping made with %s by %pS",
			      edgedma_call_name(c->kind), edgedma_call_name(m->kind),
			      (void *)m->caller);
	else if (c->kind != EDGEDMA_CALL_UNMAP_SG && size != m->size)
		edgedma_found(ctx, EDGEDMA_FINDING_UNMAP_MISMATCH, dma_addr, size,
			      m->caller, "%s of %llu bytes, but %pS mapped %llu bytes",
			      edgedma_call_name(c->kind), size, (void *)m->caller,
			      m->size);
	else if (c->kind != EDGEDMA_CALL_FREE_COHERENT && c->dir != m->dir)
		edgedma_found(ctx, EDGEDMA_FINDING_UNMAP_MISMATCH, dma_addr, size,
			      m->caller, "%s with direction %s, but %pS mapped it %s",
			      edgedma_call_name(c->kind), edgedma_dir_name(c->dir),
			      (void *)m->caller, edgedma_dir_name(m->dir));
	return m;
}

static __always_inline u64 edgedma_on_unmap(const struct edgedma_ctx *ctx)
{
	struct edgedma_mapping *m;
	u64 now;

	if (!static_branch_likely(&edgedma_tracking_mappings))
		return 0;
	now = ktime_get_ns();
	m = edgedma_unmap_one(ctx, ctx->call->dma_addr, ctx->call->size, now);
	if (m)
		edgedma_maptrack_release(m);
	return now;
}

static u64 edgedma_on_unmap_sg(const struct edgedma_ctx *ctx)
{
	const struct edgedma_call *c = ctx->call;
	struct edgedma_mapping *first, *m;
	struct scatterlist *sg;
	u32 count;
	u64 now;
	int i;

	if (!static_branch_likely(&edgedma_tracking_mappings) ||
	    !c->sgl || c->nents <= 0)
		return 0;
	now = ktime_get_ns();
	first = edgedma_unmap_one(ctx, sg_dma_address(c->sgl), 0, now);
	if (!first)
		return now;
	if (first->sg_nents != c->nents)
		edgedma_found(ctx, EDGEDMA_FINDING_UNMAP_MISMATCH,
			      sg_dma_address(c->sgl), 0, first->caller,
			      "dma_unmap_sg with %d entries, but %pS mapped the list with %u: pass the count given to dma_map_sg, not the one it returned",
			      c->nents, (void *)first->caller, first->sg_nents);
	/*
	 * The caller's list may be shorter than the one that was mapped: walk
	 * no further than it says it is. Segments past its end stay in the
	 * table, as they stay mapped in the kernel.
	 */
	count = min_t(u32, first->sg_count, c->nents);
	edgedma_maptrack_release(first);
	for_each_sg(c->sgl, sg, count, i) {
		const struct edgedma_unmap_want want = {
			.dir = c->dir,
			.kind = EDGEDMA_CALL_MAP_SG,
		};

		if (!i)
			continue;
		m = edgedma_maptrack_take(ctx->rec, sg_dma_address(sg), &want, c->caller, now);
		if (!m)
			continue;
		edgedma_neighbours_check(ctx, m);
		edgedma_owned_check(ctx, m);
		edgedma_maptrack_release(m);
	}
	return now;
}

/* ---- syncs ---------------------------------------------------------------- */

/*
 * A sync hands the whole mapping over: to the CPU, check what was written
 * next to it meanwhile; to the device, sum its neighbours again (the CPU
 * may write them while it owns the buffer).
 */
static void edgedma_sync_neighbours(const struct edgedma_ctx *ctx,
				    struct edgedma_mapping *m)
{
	u32 kind = ctx->call->kind, lines;
	u64 sum;

	if (kind == EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU || kind == EDGEDMA_CALL_SYNC_SG_FOR_CPU) {
		edgedma_neighbours_check(ctx, m);
		return;
	}
	if (!m->neighbour_lines ||
	    !edgedma_neighbours_watched(ctx, m->dir, m->dma_addr, m->phys, m->size))
		return;
	sum = edgedma_neighbours_sum(m->phys, m->size, cache_line_size(), &lines);
	if (lines == m->neighbour_lines)
		edgedma_maptrack_set_neighbours(ctx->rec, m->dma_addr, m->size, sum,
						ktime_get_ns());
}

/*
 * To the CPU: check the buffer, then stop watching it (the CPU may write
 * it now). To the device: hash it again, from now on the device's.
 */
static void edgedma_sync_owned(const struct edgedma_ctx *ctx, struct edgedma_mapping *m)
{
	u32 kind = ctx->call->kind;
	struct edgedma_owned_bytes now;

	if (kind == EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU || kind == EDGEDMA_CALL_SYNC_SG_FOR_CPU) {
		if (!m->content.len)
			return;
		edgedma_owned_check(ctx, m);
		edgedma_maptrack_set_content(ctx->rec, m->dma_addr, m->size, NULL, 0);
		return;
	}
	if (!edgedma_owned_watched(ctx, m->dir, m->phys))
		return;
	edgedma_owned_hash(m->phys, m->size, ctx->policy->owned_hash_max, &now);
	edgedma_maptrack_set_content(ctx->rec, m->dma_addr, m->size, &now, ktime_get_ns());
}

static void edgedma_sync_one(const struct edgedma_ctx *ctx, u64 addr, u64 size)
{
	const struct edgedma_call *c = ctx->call;
	/* Filled by the searches that find something: not zeroed per sync. */
	struct edgedma_mapping m __uninitialized;
	struct edgedma_unmapped u __uninitialized;

	if (!static_branch_likely(&edgedma_tracking_mappings))
		return;
	if (edgedma_maptrack_find_containing(ctx->rec, addr, size, &m)) {
		bool coherent;
		u64 mask = edgedma_mask_for(ctx, m.kind, &coherent);

		/* The mask may have shrunk since the map (dma_set_mask later). */
		if (mask && m.dma_addr + m.size - 1 > mask)
			edgedma_found(ctx, EDGEDMA_FINDING_MASK_EXCEEDED, m.dma_addr,
				      m.size, m.caller,
				      "%s of a mapping at [%#llx, +%llu) made by %pS, which now lies above the device's %s mask %#llx: the mask was narrowed while the mapping was live",
				      edgedma_call_name(c->kind), m.dma_addr, m.size,
				      (void *)m.caller, coherent ? "coherent DMA" : "DMA", mask);
		if (m.dir != DMA_BIDIRECTIONAL && c->dir != m.dir)
			edgedma_found(ctx, EDGEDMA_FINDING_SYNC_MISMATCH, addr, size,
				      m.caller, "%s with direction %s of a mapping %pS made %s",
				      edgedma_call_name(c->kind), edgedma_dir_name(c->dir),
				      (void *)m.caller, edgedma_dir_name(m.dir));
		edgedma_sync_neighbours(ctx, &m);
		edgedma_sync_owned(ctx, &m);
		return;
	}
	if (edgedma_maptrack_find_overlapping(ctx->rec, addr, &m)) {
		edgedma_found(ctx, EDGEDMA_FINDING_SYNC_MISMATCH, addr, size, m.caller,
			      "%s of [%#llx, +%llu) runs past the end of the %llu-byte mapping at %#llx made by %pS",
			      edgedma_call_name(c->kind), addr, size, m.size,
			      m.dma_addr, (void *)m.caller);
		return;
	}
	if (edgedma_maptrack_history_find(ctx->rec, addr, &u)) {
		if (edgedma_history_proves_unmapped(ctx->rec, &u))
			edgedma_found(ctx, EDGEDMA_FINDING_SYNC_UNKNOWN, addr, size,
				      u.map_caller, "%s of %#llx after %pS unmapped it",
				      edgedma_call_name(c->kind), addr,
				      (void *)u.unmap_caller);
	} else if (edgedma_view_complete(ctx->rec))
		edgedma_found(ctx, EDGEDMA_FINDING_SYNC_UNKNOWN, addr, size, 0,
			      "%s of %#llx, which is not mapped for this device",
			      edgedma_call_name(c->kind), addr);
}

static void edgedma_on_sync_sg(const struct edgedma_ctx *ctx)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(ctx->call->sgl, sg, ctx->call->nents, i) {
		if (!sg_dma_len(sg))
			break;
		edgedma_sync_one(ctx, sg_dma_address(sg), sg_dma_len(sg));
	}
}

/* Inline: edgedma_track_call() is its only caller, once per DMA call. */
static __always_inline void edgedma_judge_call(const struct edgedma_call *call)
{
	struct edgedma_xlat xlat = { .valid = false };
	struct edgedma_ctx ctx = { .call = call, .xlat = &xlat };
	u64 time_ns = 0;	/* the table's, where it read the clock */

	__this_cpu_inc(edgedma_calls);
	if (!call->dev)
		return;
	ctx.rec = edgedma_device_lookup(call->dev, &ctx.policy);
	if (!ctx.rec)
		return;
	edgedma_devrec_count_irqs_off(ctx.rec, EDGEDMA_DEV_CALLS, 1);
	edgedma_sync_visible_keep(ctx.rec, call->dev);

	switch (call->kind) {
	case EDGEDMA_CALL_MAP_PAGE:
	case EDGEDMA_CALL_MAP_RESOURCE:
	case EDGEDMA_CALL_ALLOC_COHERENT:
	case EDGEDMA_CALL_ALLOC_PAGES:
		time_ns = edgedma_on_map(&ctx);
		break;
	case EDGEDMA_CALL_MAP_SG:
		time_ns = edgedma_on_map_sg(&ctx);
		break;
	case EDGEDMA_CALL_FREE_COHERENT:
		if (call->caller_irqs_off)
			edgedma_found(&ctx, EDGEDMA_FINDING_FREE_IRQS_OFF, call->dma_addr,
				      call->size, 0,
				      "dma_free_coherent of %llu bytes at %#llx with interrupts disabled: the DMA core may vunmap there, which can sleep, and WARNs; free from process context (a work item)",
				      call->size, call->dma_addr);
		fallthrough;
	case EDGEDMA_CALL_UNMAP_PAGE:
	case EDGEDMA_CALL_UNMAP_RESOURCE:
	case EDGEDMA_CALL_FREE_PAGES:
		time_ns = edgedma_on_unmap(&ctx);
		break;
	case EDGEDMA_CALL_UNMAP_SG:
		time_ns = edgedma_on_unmap_sg(&ctx);
		break;
	case EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU:
	case EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE:
		edgedma_sync_one(&ctx, call->dma_addr, call->size);
		break;
	case EDGEDMA_CALL_SYNC_SG_FOR_CPU:
	case EDGEDMA_CALL_SYNC_SG_FOR_DEVICE:
		edgedma_on_sync_sg(&ctx);
		break;
	}
	edgedma_map_event_record(call, ctx.rec, time_ns);
}

u64 edgedma_checks_calls(void)
{
	return edgedma_percpu_sum(edgedma_calls);
}

u64 edgedma_checks_unseen(void)
{
	return edgedma_percpu_sum(edgedma_unseen);
}

u64 edgedma_checks_translations_skipped(void)
{
	return edgedma_percpu_sum(edgedma_translations_skipped);
}

void edgedma_checks_init(void)
{
	if (measure_irqsoff)
		static_branch_enable(&edgedma_irqsoff_timed);
}

/*
 * With interrupts off: a kprobe that fires while another one's handler runs
 * on the same CPU is skipped by the kprobe core, and an interrupt taken here
 * that unmaps a DMA buffer would be such a probe. Masking them makes the
 * window of a missed call the kprobe core's own few instructions.
 */
void edgedma_track_call(const struct edgedma_call *call)
{
	unsigned long flags;
	u64 start = 0;

	/* The table's locks may be held by CPUs the panic stopped. */
	if (unlikely(READ_ONCE(edgedma_panicking)))
		return;
	local_irq_save(flags);
	if (static_branch_unlikely(&edgedma_irqsoff_timed))
		start = local_clock();
	edgedma_judge_call(call);
	if (static_branch_unlikely(&edgedma_irqsoff_timed))
		edgedma_irqsoff_record(local_clock() - start);
	local_irq_restore(flags);
}
