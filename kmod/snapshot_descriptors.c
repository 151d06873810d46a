// SPDX-License-Identifier: GPL-2.0
/*
 * Descriptor chains in snapshots (see snapshot_descriptors.h).
 *
 * The start of a chain is what the controller's registers say now. Each
 * descriptor is read only through the live mapping of the device that
 * holds its DMA address, at that mapping's kernel address: the memory the
 * driver gave the device, never a guess from the address. A descriptor in
 * no live mapping is reported as such and not read; a read that faults is
 * caught (copy_from_kernel_nofault). Every walk is bounded, and a list
 * that comes back to a descriptor is flagged as a loop.
 *
 * A PL330 channel's program is read the same way, as blocks of its
 * microcode buffer (rounded down from the CPC register, so decoding starts
 * at the program's first instruction); userspace decodes it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/uaccess.h>
#include <net/netlink.h>
#include <uapi/linux/edgedma.h>

#include "edgedma.h"
#include "maptrack.h"
#include "profiles.h"
#include "snapshot_descriptors.h"
#include "snapshot_record.h"
#include "snapshot_views.h"

static unsigned int snapshot_descriptors = 32;
module_param(snapshot_descriptors, uint, 0644);
MODULE_PARM_DESC(snapshot_descriptors, "Descriptors a snapshot walks per chain at most, 0 to 4096 (default 32)");

/*
 * Buffers in no live mapping are looked up in the unmap history, which
 * takes a lock per entry: this many per chain, later ones say unknown.
 */
#define EDGEDMA_HISTORY_LOOKUPS		64

/* A list revisiting one of its last this many descriptors is a loop. */
#define EDGEDMA_LOOP_WINDOW		64

u64 edgedma_desc_field_value(const u8 *desc, const struct edgedma_profile_chain *c,
			     unsigned int field)
{
	const struct edgedma_desc_field *f = &c->fields[field];
	const u8 *at = desc + f->offset;
	u64 v = 0;
	int i;

	if (c->flags & EDGEDMA_CHAIN_BIG_ENDIAN)
		for (i = 0; i < f->width; i++)
			v = v << 8 | at[i];
	else
		for (i = f->width - 1; i >= 0; i--)
			v = v << 8 | at[i];
	v >>= f->shift;
	if (f->bits && f->bits < 64)
		v &= (1ULL << f->bits) - 1;
	return v;
}

/* The nth field of @role, or -1. */
static int edgedma_role_field(const struct edgedma_profile_chain *c, u8 role,
			      unsigned int nth)
{
	unsigned int i;

	for (i = 0; i < c->nfields; i++)
		if (c->fields[i].role == role && !nth--)
			return i;
	return -1;
}

/* One walk: the mapping last found, so a ring in one buffer is one lookup. */
struct edgedma_chain_walker {
	struct edgedma_record *r;
	struct edgedma_devrec *rec;
	const struct edgedma_profile_chain *c;
	struct edgedma_buffer_pages *pages;
	bool trylock;
	bool have_holder;
	struct edgedma_mapping holder;
	unsigned int history_lookups;
	u32 walk;			/* enum edgedma_chain_walk */
	bool have_owners;		/* a ring with head and tail read */
	u32 head, tail;
	u8 desc[EDGEDMA_DESC_SIZE_MAX];
};

static bool edgedma_mapping_holds(const struct edgedma_mapping *m, u64 addr, u64 len)
{
	return addr >= m->dma_addr && addr - m->dma_addr < m->size &&
	       len <= m->size - (addr - m->dma_addr);
}

/*
 * The kernel address of @addr inside @m: the mapping's own CPU address (a
 * coherent allocation's, which on a non-coherent device is its uncached
 * alias), else the linear map of its physical address when the kernel
 * manages that memory and maps it.
 */
static const void *edgedma_mapping_cpu_addr(const struct edgedma_mapping *m, u64 addr)
{
	u64 off = addr - m->dma_addr;

	if (m->cpu_virt)
		return (const void *)(m->cpu_virt + off);
	if (m->phys == EDGEDMA_NO_PHYS || !pfn_valid(PHYS_PFN(m->phys + off)) ||
	    PageHighMem(pfn_to_page(PHYS_PFN(m->phys + off))))
		return NULL;
	return phys_to_virt(m->phys + off);
}

/* Read the descriptor at @addr into w->desc; enum edgedma_desc_state. */
static u32 edgedma_read_descriptor(struct edgedma_chain_walker *w, u64 addr)
{
	u32 size = w->c->desc_size;
	const void *cpu;

	if (!w->have_holder || !edgedma_mapping_holds(&w->holder, addr, size)) {
		w->have_holder = edgedma_maptrack_find_overlapping_try(w->rec, addr, w->trylock,
								       &w->holder);
		if (!w->have_holder || !edgedma_mapping_holds(&w->holder, addr, size))
			return EDGEDMA_DESC_NO_MAPPING;
	}
	cpu = edgedma_mapping_cpu_addr(&w->holder, addr);
	if (!cpu)
		return EDGEDMA_DESC_NO_CPU_ADDR;
	if (copy_from_kernel_nofault(w->desc, cpu, size))
		return EDGEDMA_DESC_READ_FAULT;
	return EDGEDMA_DESC_READ;
}

struct edgedma_unmap_lookup {
	u64 addr;
	bool found;
	struct edgedma_unmapped latest;
};

static bool edgedma_find_unmap_of(const struct edgedma_unmapped *u, void *arg)
{
	struct edgedma_unmap_lookup *l = arg;

	if (l->addr >= u->dma_addr && l->addr - u->dma_addr < max_t(u64, u->size, 1) &&
	    (!l->found || u->unmap_time_ns > l->latest.unmap_time_ns)) {
		l->latest = *u;
		l->found = true;
	}
	return true;
}

/*
 * Where the buffer @addr, @len bytes (0: unknown) lies; its pages are
 * noted for their views unless the driver owns the descriptor.
 */
static int edgedma_put_buffer(struct edgedma_chain_walker *w, unsigned int field,
			      u64 addr, int len_field, u64 len, bool drivers)
{
	struct edgedma_record *r = w->r;
	struct edgedma_mapping m;
	u64 map_addr = 0, map_size = 0;
	u32 state;
	int nest;

	if (!addr) {
		state = EDGEDMA_BUFFER_NULL;
	} else if (edgedma_maptrack_find_overlapping_try(w->rec, addr, w->trylock, &m)) {
		state = edgedma_mapping_holds(&m, addr, max_t(u64, len, 1)) ?
			EDGEDMA_BUFFER_LIVE : EDGEDMA_BUFFER_OVERRUN;
		map_addr = m.dma_addr;
		map_size = m.size;
	} else if (w->history_lookups < EDGEDMA_HISTORY_LOOKUPS) {
		struct edgedma_unmap_lookup l = { .addr = addr };

		w->history_lookups++;
		edgedma_maptrack_history_walk(w->rec, edgedma_find_unmap_of, &l);
		state = l.found ? EDGEDMA_BUFFER_UNMAPPED : EDGEDMA_BUFFER_UNKNOWN;
		if (l.found) {
			map_addr = l.latest.dma_addr;
			map_size = l.latest.size;
		}
	} else {
		state = EDGEDMA_BUFFER_UNKNOWN;
		w->walk |= EDGEDMA_WALK_HISTORY_SKIPPED;
	}
	if (state != EDGEDMA_BUFFER_NULL && !drivers) {
		bool live = state == EDGEDMA_BUFFER_LIVE || state == EDGEDMA_BUFFER_OVERRUN;

		edgedma_buffer_pages_add(w->pages, addr, live ? &m : NULL,
					 state != EDGEDMA_BUFFER_LIVE);
		/* Past its mapping: where the device would go on to. */
		if (state == EDGEDMA_BUFFER_OVERRUN)
			edgedma_buffer_pages_add(w->pages, addr + len - 1, NULL, true);
	}

	nest = edgedma_record_nest_start(r, EDGEDMA_A_DESC_BUFFER);
	if (nest < 0)
		return nest;
	if (edgedma_record_put_u32(r, EDGEDMA_A_BUFFER_FIELD, field) ||
	    edgedma_record_put_u64(r, EDGEDMA_A_BUFFER_ADDR, addr) ||
	    (len_field >= 0 && edgedma_record_put_u64(r, EDGEDMA_A_BUFFER_LENGTH, len)) ||
	    edgedma_record_put_u32(r, EDGEDMA_A_BUFFER_STATE, state) ||
	    (map_size && (edgedma_record_put_u64(r, EDGEDMA_A_BUFFER_MAPPING_ADDR, map_addr) ||
			  edgedma_record_put_u64(r, EDGEDMA_A_BUFFER_MAPPING_SIZE, map_size)))) {
		edgedma_record_nest_cancel(r, nest);
		return -EMSGSIZE;
	}
	edgedma_record_nest_end(r, nest);
	return 0;
}

/* Ring slot @slot's owner: the device's from head up to tail, wrapping. */
static u32 edgedma_slot_owner(const struct edgedma_chain_walker *w, u32 slot)
{
	bool device = w->head <= w->tail ? slot >= w->head && slot < w->tail
					 : slot >= w->head || slot < w->tail;

	return device ? EDGEDMA_OWNER_DEVICE : EDGEDMA_OWNER_DRIVER;
}

/*
 * One EDGEDMA_A_CHAIN_DESCRIPTOR: the descriptor at @addr, read, with its
 * buffers. Returns its state, or 0 when the record ran out of room.
 */
static u32 edgedma_put_descriptor(struct edgedma_chain_walker *w, u32 index, u64 addr)
{
	const struct edgedma_profile_chain *c = w->c;
	struct edgedma_record *r = w->r;
	u32 owner = w->have_owners ? edgedma_slot_owner(w, index) : 0;
	unsigned int nth;
	u32 state;
	int nest;

	state = edgedma_read_descriptor(w, addr);
	nest = edgedma_record_nest_start(r, EDGEDMA_A_CHAIN_DESCRIPTOR);
	if (nest < 0)
		return 0;
	if (edgedma_record_put_u32(r, EDGEDMA_A_DESC_INDEX, index) ||
	    edgedma_record_put_u64(r, EDGEDMA_A_DESC_DMA_ADDR, addr) ||
	    edgedma_record_put_u32(r, EDGEDMA_A_DESC_STATE, state) ||
	    (owner && edgedma_record_put_u32(r, EDGEDMA_A_DESC_OWNER, owner)) ||
	    (state == EDGEDMA_DESC_READ &&
	     edgedma_record_put(r, EDGEDMA_A_DESC_BYTES, w->desc, c->desc_size)))
		goto cancel;
	for (nth = 0; state == EDGEDMA_DESC_READ; nth++) {
		int addr_field = edgedma_role_field(c, EDGEDMA_DESC_ROLE_ADDRESS, nth);
		int len_field = edgedma_role_field(c, EDGEDMA_DESC_ROLE_LENGTH, nth);

		if (addr_field < 0)
			break;
		if (edgedma_put_buffer(w, addr_field,
				       edgedma_desc_field_value(w->desc, c, addr_field),
				       len_field,
				       len_field < 0 ? 0 :
				       edgedma_desc_field_value(w->desc, c, len_field),
				       owner == EDGEDMA_OWNER_DRIVER))
			goto cancel;
	}
	edgedma_record_nest_end(r, nest);
	return state;
cancel:
	edgedma_record_nest_cancel(r, nest);
	return 0;
}

/* Walk-ending states of a descriptor, as EDGEDMA_A_CHAIN_WALK bits. */
static u32 edgedma_walk_stop(u32 state)
{
	switch (state) {
	case 0:
		return EDGEDMA_WALK_NO_ROOM;
	case EDGEDMA_DESC_NO_MAPPING:
		return EDGEDMA_WALK_NO_MAPPING;
	case EDGEDMA_DESC_NO_CPU_ADDR:
	case EDGEDMA_DESC_READ_FAULT:
		return EDGEDMA_WALK_UNREADABLE;
	}
	return 0;
}

/* A ring: @count slots from @start, from slot @first on, wrapping. */
static void edgedma_walk_ring(struct edgedma_chain_walker *w, u64 start, u32 count,
			      u32 first, u32 bound)
{
	u32 n, slot = count ? first % count : 0;

	for (n = 0; n < count && n < bound; n++) {
		u32 state = edgedma_put_descriptor(w, slot,
						   start + (u64)slot * w->c->desc_size);

		/*
		 * A slot in no mapping does not stop a ring (the next may be
		 * in one), but an unmapped ring is usually unmapped whole:
		 * one slot says it; running out of room stops it.
		 */
		w->walk |= edgedma_walk_stop(state);
		if (!state || state == EDGEDMA_DESC_NO_MAPPING)
			break;
		slot = slot + 1 == count ? 0 : slot + 1;
	}
	if (n == bound && n < count)
		w->walk |= EDGEDMA_WALK_BOUND;
}

/* A list from @start, following the next field, until 0 or @start again. */
static void edgedma_walk_list(struct edgedma_chain_walker *w, u64 start, u32 bound)
{
	int next_field = edgedma_role_field(w->c, EDGEDMA_DESC_ROLE_NEXT, 0);
	u64 seen[EDGEDMA_LOOP_WINDOW];
	u64 addr = start, brent = start;
	u32 n, brent_span = 1;

	for (n = 0; addr && n < bound; n++) {
		u32 state = edgedma_put_descriptor(w, n, addr);
		u32 i;

		if (state != EDGEDMA_DESC_READ) {
			w->walk |= edgedma_walk_stop(state);
			return;
		}
		seen[n % EDGEDMA_LOOP_WINDOW] = addr;
		addr = edgedma_desc_field_value(w->desc, w->c, next_field);
		/*
		 * Back to a recent descriptor: a loop, caught before any
		 * descriptor is listed twice. Longer loops: Brent's check,
		 * a saved address refreshed at each power of two.
		 */
		for (i = 0; i <= n && i < EDGEDMA_LOOP_WINDOW; i++) {
			if (seen[i] == addr) {
				w->walk |= EDGEDMA_WALK_LOOP;
				return;
			}
		}
		if (addr == brent) {
			w->walk |= EDGEDMA_WALK_LOOP;
			return;
		}
		if (n + 1 == brent_span) {
			brent = addr;
			brent_span <<= 1;
		}
	}
	if (addr && n == bound)
		w->walk |= EDGEDMA_WALK_BOUND;
}

/* Register @reg's value; false when it has none to give. */
static bool edgedma_chain_reg(const struct edgedma_profile *p,
			      const struct edgedma_profile_binding *b, u8 reg, u64 *value)
{
	if (reg == EDGEDMA_NO_REG || !b->window[p->regs[reg].window] ||
	    (p->regs[reg].flags & EDGEDMA_REGISTER_READ_CLEARS))
		return false;
	*value = edgedma_profile_read_register(b, &p->regs[reg]);
	return true;
}

void edgedma_snapshot_put_chain(struct edgedma_record *r, struct edgedma_devrec *rec,
				bool trylock, const struct edgedma_profile *p,
				const struct edgedma_profile_binding *b,
				const struct edgedma_profile_chain *c,
				struct edgedma_buffer_pages *pages)
{
	struct edgedma_chain_walker w = {
		.r = r, .rec = rec, .c = c, .pages = pages, .trylock = trylock,
	};
	u64 start, hi = 0, length = 0, head = 0, tail = 0, program = 0;
	u32 bound = min_t(u32, READ_ONCE(snapshot_descriptors), EDGEDMA_CHAIN_DESCS_MAX);
	u32 count = c->entries, skipped = 0, *walk_value;
	bool have_head, have_tail;
	int nest;

	nest = edgedma_record_nest_start(r, EDGEDMA_A_SNAPSHOT_CHAIN);
	if (nest < 0)
		return;
	if (edgedma_profile_put_chain_layout(r, p, c))
		goto cancel;

	if (!edgedma_chain_reg(p, b, c->start_reg, &start) ||
	    (c->start_hi_reg != EDGEDMA_NO_REG && !edgedma_chain_reg(p, b, c->start_hi_reg, &hi)) ||
	    (c->kind == EDGEDMA_CHAIN_RING && !c->entries &&
	     !edgedma_chain_reg(p, b, c->length_reg, &length))) {
		skipped = EDGEDMA_SKIP_REGISTER_UNREAD;
		goto skip;
	}
	if (c->start_hi_reg != EDGEDMA_NO_REG)
		start = (start & 0xffffffffULL) | hi << 32;
	if (c->kind == EDGEDMA_CHAIN_RING && !c->entries)
		count = min_t(u64, (c->flags & EDGEDMA_CHAIN_LENGTH_IN_BYTES) ?
				   div_u64(length, c->desc_size) : length, U32_MAX);
	/* Checked at PROFILE_SET: entries * desc_size is a power of two. */
	if (c->kind == EDGEDMA_CHAIN_PL330_PROGRAM)
		program = start & ~((u64)c->entries * c->desc_size - 1);
	have_head = edgedma_chain_reg(p, b, c->head_reg, &head);
	have_tail = edgedma_chain_reg(p, b, c->tail_reg, &tail);
	if (edgedma_record_put_u64(r, EDGEDMA_A_CHAIN_START, start) ||
	    (c->kind != EDGEDMA_CHAIN_LIST &&
	     edgedma_record_put_u32(r, EDGEDMA_A_CHAIN_COUNT, count)) ||
	    (have_head && edgedma_record_put_u32(r, EDGEDMA_A_CHAIN_HEAD, head)) ||
	    (have_tail && edgedma_record_put_u32(r, EDGEDMA_A_CHAIN_TAIL, tail)))
		goto end;
	/* Registers that say slots past the ring's end say nothing of owners. */
	if (c->kind == EDGEDMA_CHAIN_RING && have_head && have_tail && head < count &&
	    tail < count) {
		w.have_owners = true;
		w.head = head;
		w.tail = tail;
	}
	if (!rec) {
		skipped = EDGEDMA_SKIP_DEVICE_UNSEEN;
		goto skip;
	}
	if (c->max_descs)
		bound = min(bound, c->max_descs);
	if (!bound && (c->kind == EDGEDMA_CHAIN_LIST ? start : count)) {
		skipped = EDGEDMA_SKIP_LIMIT;
		goto skip;
	}
	/*
	 * The walk's outcome is known only at its end, when the record may
	 * be full: its attribute is written first and filled in then.
	 */
	if (edgedma_record_put_u32(r, EDGEDMA_A_CHAIN_WALK, 0))
		goto end;
	walk_value = (u32 *)(r->buf + r->len - sizeof(u32));
	if (c->kind == EDGEDMA_CHAIN_RING)
		edgedma_walk_ring(&w, start, count, have_head ? head : 0, bound);
	else if (c->kind == EDGEDMA_CHAIN_PL330_PROGRAM)
		edgedma_walk_ring(&w, program, count, 0, bound);
	else
		edgedma_walk_list(&w, start, bound);
	*walk_value = w.walk;
	goto end;
skip:
	edgedma_record_put_u32(r, EDGEDMA_A_CHAIN_SKIPPED, skipped);
end:
	/* What fit is whole: the record's TRUNCATED says the rest is missing. */
	edgedma_record_nest_end(r, nest);
	return;
cancel:
	edgedma_record_nest_cancel(r, nest);
}

int __init edgedma_snapshot_descriptors_init(void)
{
	return edgedma_param_check("snapshot_descriptors", snapshot_descriptors, 0,
				   EDGEDMA_CHAIN_DESCS_MAX);
}
