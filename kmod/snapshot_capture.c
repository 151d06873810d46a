// SPDX-License-Identifier: GPL-2.0
/*
 * Taking a snapshot (see snapshot_capture.h): the record is written in
 * place into a store slot, facts only, in the order a reader needs them
 * when the record runs out of room: the header, what the device was doing
 * with the address the snapshot is about (the live mapping holding it, the
 * latest unmap in its page), then the rest of the device's mappings and unmaps.
 *
 * Nothing here sleeps, allocates or waits for a lock in fault or panic
 * context: the walks try each lock once and the record says which part a
 * busy lock left out. Symbol names are made here (kallsyms takes no lock)
 * because a record read after a reboot cannot ask this kernel for them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/utsname.h>
#include <net/netlink.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "edgedma.h"
#include "findings.h"
#include "maptrack.h"
#include "policy.h"
#include "profiles.h"
#include "snapshot_capture.h"
#include "snapshot_descriptors.h"
#include "snapshot_record.h"
#include "snapshot_store.h"
#include "snapshot_views.h"

static unsigned int snapshot_mappings = 32;
module_param(snapshot_mappings, uint, 0644);
MODULE_PARM_DESC(snapshot_mappings, "Live mappings of the device a snapshot lists besides the one it is about, 0 to 4096 (default 32)");

static unsigned int snapshot_unmaps = 16;
module_param(snapshot_unmaps, uint, 0644);
MODULE_PARM_DESC(snapshot_unmaps, "Recent unmaps of the device a snapshot lists besides the latest of its address, 0 to 4096 (default 16)");

/* For devices without a record (device_slots full). */
static struct edgedma_snapshot_rate edgedma_untracked_rate;

/* Per enum edgedma_snapshot_trigger, from 1. */
#define EDGEDMA_TRIGGER_KINDS	EDGEDMA_SNAPSHOT_TRIGGER_FINDING
static atomic64_t edgedma_trigger_fired[EDGEDMA_TRIGGER_KINDS];
static atomic64_t edgedma_trigger_taken[EDGEDMA_TRIGGER_KINDS];
static atomic64_t edgedma_trigger_off[EDGEDMA_TRIGGER_KINDS];

void edgedma_snapshot_trigger_counts(u32 kind, struct edgedma_trigger_counts *out)
{
	memset(out, 0, sizeof(*out));
	if (!kind || kind > EDGEDMA_TRIGGER_KINDS)
		return;
	out->fired = atomic64_read(&edgedma_trigger_fired[kind - 1]);
	out->taken = atomic64_read(&edgedma_trigger_taken[kind - 1]);
	out->off = atomic64_read(&edgedma_trigger_off[kind - 1]);
}

/*
 * Whether @dev's policy lets trigger @t snapshot it. A request always
 * does. At panic a rule change stopped half-way cannot be waited for:
 * the defaults (every trigger on) decide then.
 */
static bool edgedma_snapshot_wanted(struct device *dev,
				    const struct edgedma_snapshot_request *t)
{
	struct edgedma_policy p;

	if (t->kind == EDGEDMA_SNAPSHOT_TRIGGER_MANUAL)
		return true;
	if (t->panic) {
		if (!edgedma_policy_resolve_once(dev, &p))
			return true;
	} else {
		edgedma_policy_resolve(dev, &p);
	}
	if (!(p.snapshot_triggers & BIT(t->kind - 1)))
		return false;
	return t->kind != EDGEDMA_SNAPSHOT_TRIGGER_FINDING ||
	       (t->finding_kind && (p.snapshot_findings & BIT(t->finding_kind - 1)));
}

/* Symbol names longer than this are cut: the header must stay small. */
#define EDGEDMA_TRIGGER_SYMBOL_LEN	128

/*
 * @m as a nested @type attribute; with @names_too (a mapping of another
 * device) its device and driver names as well.
 */
static bool edgedma_snapshot_put_mapping_as(struct edgedma_record *r, u16 type,
					    const struct edgedma_mapping *m,
					    bool names_too)
{
	char name[EDGEDMA_SYMBOL_LEN];
	int nest;

	nest = edgedma_record_nest_start(r, type);
	if (nest < 0)
		return false;
	if (names_too) {
		char device[EDGEDMA_NAME_LEN], driver[EDGEDMA_NAME_LEN];

		edgedma_devrec_names(m->devrec, device, driver);
		if (edgedma_record_put_str(r, EDGEDMA_A_MAPPING_DEVICE, device) ||
		    edgedma_record_put_str(r, EDGEDMA_A_MAPPING_DRIVER, driver)) {
			edgedma_record_nest_cancel(r, nest);
			return false;
		}
	}
	edgedma_symbol_name(name, sizeof(name), m->caller);
#define PUT32(attr, v) edgedma_record_put_u32(r, EDGEDMA_A_MAPPING_##attr, v)
#define PUT64(attr, v) edgedma_record_put_u64(r, EDGEDMA_A_MAPPING_##attr, v)
	if (PUT32(CALL, m->kind) || PUT64(DMA_ADDR, m->dma_addr) ||
	    PUT64(SIZE, m->size) || PUT32(DIR, m->dir) ||
	    PUT64(ATTRS, m->attrs) ||
	    (m->phys != EDGEDMA_NO_PHYS && PUT64(CPU_PHYS, m->phys)) ||
	    (m->cpu_virt && PUT64(CPU_VIRT, m->cpu_virt)) ||
	    PUT64(CALLER, m->caller) ||
	    (name[0] && edgedma_record_put_str(r, EDGEDMA_A_MAPPING_CALLER_NAME, name)) ||
	    PUT64(TIME_NS, m->time_ns) ||
	    (m->kind == EDGEDMA_CALL_MAP_SG &&
	     (PUT32(SG_INDEX, m->sg_index) || PUT32(SG_COUNT, m->sg_count)))) {
		edgedma_record_nest_cancel(r, nest);
		return false;
	}
#undef PUT32
#undef PUT64
	edgedma_record_nest_end(r, nest);
	return true;
}

static bool edgedma_snapshot_put_mapping(struct edgedma_record *r,
					 const struct edgedma_mapping *m)
{
	return edgedma_snapshot_put_mapping_as(r, EDGEDMA_A_SNAPSHOT_MAPPING, m, false);
}

static bool edgedma_snapshot_put_unmapped(struct edgedma_record *r,
					  const struct edgedma_unmapped *u)
{
	char map_name[EDGEDMA_SYMBOL_LEN], unmap_name[EDGEDMA_SYMBOL_LEN];
	int nest;

	nest = edgedma_record_nest_start(r, EDGEDMA_A_SNAPSHOT_UNMAPPED);
	if (nest < 0)
		return false;
	edgedma_symbol_name(map_name, sizeof(map_name), u->map_caller);
	edgedma_symbol_name(unmap_name, sizeof(unmap_name), u->unmap_caller);
#define PUT32(attr, v) edgedma_record_put_u32(r, EDGEDMA_A_UNMAPPED_##attr, v)
#define PUT64(attr, v) edgedma_record_put_u64(r, EDGEDMA_A_UNMAPPED_##attr, v)
#define PUTS(attr, s) edgedma_record_put_str(r, EDGEDMA_A_UNMAPPED_##attr, s)
	if (PUT32(CALL, u->kind) || PUT64(DMA_ADDR, u->dma_addr) ||
	    PUT64(SIZE, u->size) || PUT32(DIR, u->dir) ||
	    PUT64(MAP_TIME_NS, u->map_time_ns) ||
	    PUT64(UNMAP_TIME_NS, u->unmap_time_ns) ||
	    PUT64(MAP_CALLER, u->map_caller) ||
	    PUT64(UNMAP_CALLER, u->unmap_caller) ||
	    (u->phys != EDGEDMA_NO_PHYS && PUT64(CPU_PHYS, u->phys)) ||
	    (map_name[0] && PUTS(MAP_CALLER_NAME, map_name)) ||
	    (unmap_name[0] && PUTS(UNMAP_CALLER_NAME, unmap_name))) {
		edgedma_record_nest_cancel(r, nest);
		return false;
	}
#undef PUT32
#undef PUT64
#undef PUTS
	edgedma_record_nest_end(r, nest);
	return true;
}

/*
 * Whether @u covered the page of @addr: what an IOMMU maps and faults on
 * is pages (VT-d reports only the page of a fault), so of the unmaps in
 * that page the latest is the one that left it unmapped.
 */
static bool edgedma_unmapped_in_page(const struct edgedma_unmapped *u, u64 addr)
{
	u64 page = addr & PAGE_MASK;

	return u->dma_addr < page + PAGE_SIZE &&
	       u->dma_addr + max_t(u64, u->size, 1) > page;
}

/* The walks of the device's mappings and unmaps. */
struct edgedma_snapshot_walk {
	struct edgedma_record *r;
	const struct edgedma_snapshot_request *t;
	bool have_first;
	struct edgedma_mapping first;		/* the mapping holding t->addr */
	struct edgedma_unmapped first_unmap;	/* the latest in t->addr's page */
	unsigned int room;			/* items still to list */
	u64 left_out;
};

static bool edgedma_snapshot_walk_mapping(const struct edgedma_mapping *m, void *arg)
{
	struct edgedma_snapshot_walk *w = arg;

	if (w->have_first && m->dma_addr == w->first.dma_addr &&
	    m->size == w->first.size && m->time_ns == w->first.time_ns)
		return true;
	if (!w->room || !edgedma_snapshot_put_mapping(w->r, m))
		w->left_out++;
	else
		w->room--;
	return true;	/* on to the end: left_out counts the rest */
}

static bool edgedma_snapshot_find_unmap(const struct edgedma_unmapped *u, void *arg)
{
	struct edgedma_snapshot_walk *w = arg;

	if (edgedma_unmapped_in_page(u, w->t->addr) &&
	    (!w->have_first || u->unmap_time_ns > w->first_unmap.unmap_time_ns)) {
		w->first_unmap = *u;
		w->have_first = true;
	}
	return true;
}

static bool edgedma_snapshot_walk_unmap(const struct edgedma_unmapped *u, void *arg)
{
	struct edgedma_snapshot_walk *w = arg;

	if (w->have_first && u->dma_addr == w->first_unmap.dma_addr &&
	    u->unmap_time_ns == w->first_unmap.unmap_time_ns)
		return true;
	if (!w->room)
		return false;
	if (!edgedma_snapshot_put_unmapped(w->r, u))
		return false;
	w->room--;
	return true;
}

/* Mappings whose CPU memory shares a cache line with the first one. */
#define EDGEDMA_LINE_SHARERS	16

struct edgedma_sharers_walk {
	struct edgedma_record *r;
	const struct edgedma_mapping *first;
	u64 head_line, tail_line, line;
	unsigned int room;
	bool names;
};

static bool edgedma_in_line(const struct edgedma_mapping *m, u64 line_start, u64 line)
{
	return m->phys < line_start + line && m->phys + m->size > line_start;
}

static bool edgedma_snapshot_walk_sharer(const struct edgedma_mapping *m, void *arg)
{
	struct edgedma_sharers_walk *w = arg;
	const struct edgedma_mapping *f = w->first;

	if (m->phys == EDGEDMA_NO_PHYS || !m->size ||
	    (m->devrec == f->devrec && m->dma_addr == f->dma_addr &&
	     m->time_ns == f->time_ns))
		return true;
	if (!edgedma_in_line(m, w->head_line, w->line) &&
	    !edgedma_in_line(m, w->tail_line, w->line))
		return true;
	if (!w->room ||
	    !edgedma_snapshot_put_mapping_as(w->r, EDGEDMA_A_SNAPSHOT_LINE_SHARER, m,
					     w->names))
		return false;
	w->room--;
	return true;
}

/*
 * The cache line size, whether the device is coherent, and the other
 * live mappings (of any device) in the partial first and last lines of
 * @first: on a non-coherent device, the CPU's writes there and the
 * device's are each other's to lose.
 */
static void edgedma_snapshot_put_lines(struct edgedma_record *r, struct device *dev,
				       const struct edgedma_snapshot_request *t,
				       const struct edgedma_mapping *first)
{
	u32 line = cache_line_size();
	struct edgedma_sharers_walk w = {
		.r = r, .first = first, .line = line,
		.room = EDGEDMA_LINE_SHARERS, .names = !t->panic,
	};

	edgedma_record_put_u32(r, EDGEDMA_A_SNAPSHOT_CACHE_LINE, line);
	edgedma_record_put_u32(r, EDGEDMA_A_SNAPSHOT_COHERENT, dev_is_dma_coherent(dev));
	if (!first || first->phys == EDGEDMA_NO_PHYS || !first->size || line <= 1)
		return;
	if (!(first->phys & (line - 1)) && !((first->phys + first->size) & (line - 1)))
		return;		/* it owns every line it touches */
	w.head_line = first->phys & ~((u64)line - 1);
	w.tail_line = (first->phys + first->size - 1) & ~((u64)line - 1);
	if (!edgedma_maptrack_walk_device(NULL, t->atomic,
					  edgedma_snapshot_walk_sharer, &w))
		edgedma_put_skipped(r, EDGEDMA_SNAPSHOT_PART_LINE_SHARERS,
					     EDGEDMA_SKIP_LOCK_BUSY);
}

static void edgedma_snapshot_put_mappings(struct edgedma_record *r,
					  struct device *dev,
					  struct edgedma_devrec *rec,
					  const struct edgedma_snapshot_request *t,
					  const struct edgedma_buffer_pages *buffers)
{
	unsigned int pages;
	struct edgedma_snapshot_walk w = {
		.r = r, .t = t, .room = READ_ONCE(snapshot_mappings),
	};

	if (t->has_addr &&
	    edgedma_maptrack_find_overlapping_try(rec, t->addr, t->atomic, &w.first)) {
		w.have_first = true;
		edgedma_snapshot_put_mapping(r, &w.first);
	}
	/* What the memory is, before the lists that may fill the record. */
	pages = edgedma_snapshot_put_pages(r, dev, t, w.have_first ? &w.first : NULL);
	edgedma_snapshot_put_buffer_pages(r, dev, t, buffers, pages);
	edgedma_snapshot_put_lines(r, dev, t, w.have_first ? &w.first : NULL);
	if (!edgedma_maptrack_walk_device(rec, t->atomic,
					  edgedma_snapshot_walk_mapping, &w))
		edgedma_put_skipped(r, EDGEDMA_SNAPSHOT_PART_MAPPINGS,
					     EDGEDMA_SKIP_LOCK_BUSY);
	if (w.left_out)
		edgedma_record_put_u64(r, EDGEDMA_A_SNAPSHOT_MAPPINGS_LEFT_OUT,
				       w.left_out);
}

static void edgedma_snapshot_put_unmaps(struct edgedma_record *r,
					struct edgedma_devrec *rec,
					const struct edgedma_snapshot_request *t)
{
	struct edgedma_snapshot_walk w = {
		.r = r, .t = t, .room = READ_ONCE(snapshot_unmaps),
	};
	bool whole = true;

	if (!edgedma_maptrack_history_kept()) {
		edgedma_put_skipped(r, EDGEDMA_SNAPSHOT_PART_UNMAPPED,
					     EDGEDMA_SKIP_NOT_KEPT);
		return;
	}
	if (t->has_addr) {
		whole = edgedma_maptrack_history_walk(rec, edgedma_snapshot_find_unmap, &w);
		if (w.have_first)
			edgedma_snapshot_put_unmapped(r, &w.first_unmap);
	}
	whole &= edgedma_maptrack_history_walk(rec, edgedma_snapshot_walk_unmap, &w);
	if (!whole)
		edgedma_put_skipped(r, EDGEDMA_SNAPSHOT_PART_UNMAPPED,
					     EDGEDMA_SKIP_LOCK_BUSY);
}

/* The header: what the dump and the events group show of a snapshot. */
static void edgedma_snapshot_put_header(struct edgedma_record *r, u64 seq,
					struct device *dev,
					struct edgedma_devrec *rec,
					const struct edgedma_snapshot_request *t)
{
	char name[EDGEDMA_NAME_LEN], driver[EDGEDMA_NAME_LEN];
	char symbol[EDGEDMA_TRIGGER_SYMBOL_LEN];

	/*
	 * At panic a CPU stopped while renaming the record would make its
	 * reader retry forever: read the device itself there.
	 */
	if (rec && !t->panic) {
		edgedma_devrec_names(rec, name, driver);
	} else {
		const struct device_driver *drv = READ_ONCE(dev->driver);

		strscpy(name, dev_name(dev), sizeof(name));
		strscpy(driver, drv ? drv->name : "", sizeof(driver));
	}
#define PUT32(attr, v) edgedma_record_put_u32(r, EDGEDMA_A_SNAPSHOT_##attr, v)
#define PUT64(attr, v) edgedma_record_put_u64(r, EDGEDMA_A_SNAPSHOT_##attr, v)
	PUT64(SEQ, seq);
	/* The NMI-safe clocks: at panic the timekeeping lock may be held. */
	PUT64(TIME_NS, ktime_get_mono_fast_ns());
	PUT64(REAL_TIME_NS, ktime_get_real_fast_ns());
	PUT32(CPU, raw_smp_processor_id());
	PUT32(TRIGGER, t->kind);
	if (t->has_addr)
		PUT64(TRIGGER_ADDR, t->addr);
	if (t->access)
		PUT32(TRIGGER_ACCESS, t->access);
	if (t->reason)
		PUT32(TRIGGER_REASON, t->reason);
	if (t->symbol) {
		strscpy(symbol, t->symbol, sizeof(symbol));
		edgedma_record_put_str(r, EDGEDMA_A_SNAPSHOT_TRIGGER_SYMBOL, symbol);
	}
	if (t->finding_seq) {
		PUT64(FINDING_SEQ, t->finding_seq);
		PUT32(FINDING_KIND, t->finding_kind);
	}
	edgedma_record_put_str(r, EDGEDMA_A_SNAPSHOT_DEVICE, name);
	edgedma_record_put_str(r, EDGEDMA_A_SNAPSHOT_DRIVER, driver);
#undef PUT32
#undef PUT64
}

static void edgedma_snapshot_summarize(const struct edgedma_record *r,
				       struct edgedma_snapshot_summary *sum)
{
	const struct nlattr *nla = (const struct nlattr *)r->buf;
	int rem = r->len;

	memset(sum, 0, sizeof(*sum));
	sum->len = r->len;
	sum->truncated = r->truncated;
	for (; nla_ok(nla, rem); nla = nla_next(nla, &rem)) {
		switch (nla_type(nla)) {
		case EDGEDMA_A_SNAPSHOT_REGISTER:
			sum->registers++;
			break;
		case EDGEDMA_A_SNAPSHOT_MAPPING:
			sum->mappings++;
			break;
		case EDGEDMA_A_SNAPSHOT_UNMAPPED:
			sum->unmapped++;
			break;
		}
	}
}

int edgedma_snapshot_take(struct device *dev,
			  const struct edgedma_snapshot_request *t, u64 *seq)
{
	struct edgedma_buffer_pages buffers = { 0 };
	struct edgedma_snapshot_slot *slot;
	struct edgedma_devrec *rec;
	struct edgedma_record r;
	u32 size, header_len;
	u64 started;
	void *buf;

	if (WARN_ON_ONCE(!t->kind || t->kind > EDGEDMA_TRIGGER_KINDS))
		return -EINVAL;
	atomic64_inc(&edgedma_trigger_fired[t->kind - 1]);
	if (!edgedma_snapshot_wanted(dev, t)) {
		atomic64_inc(&edgedma_trigger_off[t->kind - 1]);
		return -EPERM;
	}
	started = ktime_get_mono_fast_ns();
	rec = edgedma_devrec_find(dev);
	if (!t->panic && !edgedma_snapshot_rate_allows(rec ? &rec->snapshots
							   : &edgedma_untracked_rate))
		return -EBUSY;
	slot = edgedma_snapshot_claim(seq, &buf, &size);
	if (!slot)
		return -EBUSY;

	edgedma_record_init(&r, buf, size);
	edgedma_snapshot_put_header(&r, *seq, dev, rec, t);
	header_len = r.len;
	edgedma_record_put_str(&r, EDGEDMA_A_SNAPSHOT_KERNEL_RELEASE,
			       init_utsname()->release);
	edgedma_record_put_u32(&r, EDGEDMA_A_SNAPSHOT_HOOK_MODE,
			       edgedma_hook_mode_active());
	edgedma_record_put_u32(&r, EDGEDMA_A_SNAPSHOT_PAGE_SIZE, PAGE_SIZE);
	/*
	 * The controller's registers and descriptor chains first: what the
	 * device was told to do.
	 */
	edgedma_profile_put(&r, dev, rec, t->atomic,
			    t->kind == EDGEDMA_SNAPSHOT_TRIGGER_CONTROLLER_ERROR, &buffers);
	/* And what the IOMMU in front of it says (a fault's status, address). */
	edgedma_profile_put_iommu(&r, dev);
	if (rec) {
		edgedma_snapshot_put_mappings(&r, dev, rec, t, &buffers);
		edgedma_snapshot_put_unmaps(&r, rec, t);
	} else {
		edgedma_snapshot_put_pages(&r, dev, t, NULL);
		edgedma_snapshot_put_lines(&r, dev, t, NULL);
		edgedma_put_skipped(&r, EDGEDMA_SNAPSHOT_PART_MAPPINGS,
					     EDGEDMA_SKIP_DEVICE_UNSEEN);
		edgedma_put_skipped(&r, EDGEDMA_SNAPSHOT_PART_UNMAPPED,
					     EDGEDMA_SKIP_DEVICE_UNSEEN);
	}
	edgedma_record_finish(&r, EDGEDMA_A_SNAPSHOT_CAPTURE_NS,
			      ktime_get_mono_fast_ns() - started, EDGEDMA_A_SNAPSHOT_TRUNCATED);
	edgedma_snapshot_capture_took(r.len, ktime_get_mono_fast_ns() - started);
	if (t->summary)
		edgedma_snapshot_summarize(&r, t->summary);
	edgedma_snapshot_commit(slot, r.len, header_len, r.truncated, !t->panic);
	atomic64_inc(&edgedma_trigger_taken[t->kind - 1]);
	return 0;
}

int __init edgedma_snapshot_capture_init(void)
{
	return edgedma_param_check("snapshot_mappings", snapshot_mappings, 0, 4096) ?:
	       edgedma_param_check("snapshot_unmaps", snapshot_unmaps, 0, 4096) ?:
	       edgedma_snapshot_descriptors_init() ?:
	       edgedma_snapshot_views_init();
}
