/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_MAPTRACK_H
#define _EDGEDMA_MAPTRACK_H

#include <linux/list.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include "device_owned_writes.h"

struct edgedma_devrec;
struct module;

/*
 * One live mapping (a scatter-gather mapping has one per mapped segment).
 * checks.c's edgedma_track() sets every field of a new entry: a new field
 * goes there too.
 */
struct edgedma_mapping {
	struct hlist_node node;
	struct edgedma_devrec *devrec;
	u64 dma_addr;
	u64 size;
	u64 phys;		/* EDGEDMA_NO_PHYS when unknown */
	u64 time_ns;
	unsigned long cpu_virt;
	unsigned long caller;
	unsigned long attrs;
	u32 kind;		/* enum edgedma_call_kind of the map or alloc */
	u32 dir;
	u32 sg_index;		/* sg: this segment's number */
	u32 sg_count;		/* sg: segments the API mapped */
	u32 sg_nents;		/* sg: entries the caller passed to map */
	/*
	 * The bytes outside the buffer in its partial first and last cache
	 * lines, summed when the device was given the buffer (map,
	 * sync_for_device), for a non-coherent device that writes it
	 * (cacheline_neighbours.c). neighbour_lines: 0 when not watched.
	 */
	u64 neighbours;
	u64 neighbours_ns;	/* when they were summed */
	u32 neighbour_lines;
	/*
	 * A to-device buffer's bytes, hashed when the device was given it
	 * (device_owned_writes.c): content.len bytes from its start, 0 when
	 * not watched (the check is off, or the CPU owns it since a sync).
	 */
	struct edgedma_owned_bytes content;
	u64 content_ns;		/* when they were hashed */
};

/* A mapping that was removed, kept for a while to explain later calls. */
struct edgedma_unmapped {
	struct edgedma_devrec *devrec;
	u64 dma_addr;
	u64 size;
	u64 phys;		/* EDGEDMA_NO_PHYS when unknown */
	u64 map_time_ns;
	u64 unmap_time_ns;
	unsigned long map_caller;
	unsigned long unmap_caller;
	u32 kind;
	u32 dir;
};

int edgedma_maptrack_init(void);
void edgedma_maptrack_exit(void);

/* Off with track_mappings=N: the hooks then neither add nor look up. */
DECLARE_STATIC_KEY_TRUE(edgedma_tracking_mappings);

/*
 * Recording a mapping: an entry from the pool (NULL when it is empty,
 * counted), which the caller fills in place, every field, then inserts.
 * @addr_unique: no other mapping of the device can be live at its address
 * now (an IOMMU hands an IOVA out once, and the hooks see its unmap before
 * the kernel frees it): an entry still there lost its unmap to the hooks,
 * and is dropped (counted, edgedma_maptrack_stale()). Hook context.
 */
struct edgedma_mapping *edgedma_maptrack_new(void);
void edgedma_maptrack_insert(struct edgedma_mapping *m, bool addr_unique);
/* What an unmap says of the mapping it undoes. */
struct edgedma_unmap_want {
	u64 size;	/* 0: any (an sg list's segment) */
	u32 dir;
	u32 kind;	/* the map call's enum edgedma_call_kind */
};

/*
 * Take the mapping of @devrec at exactly @dma_addr out of the table and
 * remember its removal, at @unmap_time_ns, in the unmap history; NULL when
 * there is none. The
 * caller reads it and then gives it back with edgedma_maptrack_release().
 * Two live entries can share an address: in tracepoint mode the
 * hooks see an unmap only after the kernel freed the IOVA, which another
 * CPU may already have mapped again; on the direct path one buffer may be
 * mapped twice. The one whose size (0: any), direction and kind match
 * @want goes first. Hook context.
 */
struct edgedma_mapping *edgedma_maptrack_take(struct edgedma_devrec *devrec, u64 dma_addr,
					      const struct edgedma_unmap_want *want,
					      unsigned long unmap_caller, u64 unmap_time_ns);
void edgedma_maptrack_release(struct edgedma_mapping *m);
/* Copy the mapping of @devrec that contains [addr, addr + size). */
bool edgedma_maptrack_find_containing(struct edgedma_devrec *devrec, u64 addr,
				      u64 size, struct edgedma_mapping *out);
/* Set the neighbour sum of @devrec's mapping at @dma_addr of @size. */
void edgedma_maptrack_set_neighbours(struct edgedma_devrec *devrec, u64 dma_addr,
				     u64 size, u64 sum, u64 time_ns);
/* Set the content hash of @devrec's mapping at @dma_addr of @size (NULL: none). */
void edgedma_maptrack_set_content(struct edgedma_devrec *devrec, u64 dma_addr, u64 size,
				  const struct edgedma_owned_bytes *content, u64 time_ns);
/* Copy any mapping of @devrec that overlaps @addr. */
bool edgedma_maptrack_find_overlapping(struct edgedma_devrec *devrec,
				       u64 addr, struct edgedma_mapping *out);
/*
 * The same from any context, interrupts on or off; with @trylock a busy
 * bucket is passed over (fault and panic context).
 */
bool edgedma_maptrack_find_overlapping_try(struct edgedma_devrec *devrec, u64 addr,
					   bool trylock, struct edgedma_mapping *out);
/* The most recent history entry of @devrec at @dma_addr. */
bool edgedma_maptrack_history_find(struct edgedma_devrec *devrec, u64 dma_addr,
				   struct edgedma_unmapped *out);

/*
 * Visit live mappings in process context. @fn returns false to stop; the
 * cursor (*pos) lets a netlink dump resume where its last message ended.
 * Entries are copied out under their bucket's lock; @fn runs unlocked.
 */
typedef bool (*edgedma_mapping_fn)(const struct edgedma_mapping *m, void *arg);
void edgedma_maptrack_walk(unsigned long *pos, edgedma_mapping_fn fn, void *arg);

/*
 * Visit the live mappings of @rec (NULL: of every device), each copied out
 * under its bucket's lock; @fn returns false to stop. Any context. With
 * @trylock (panic, faults) a busy lock is passed over: false then says the
 * walk was not whole.
 */
bool edgedma_maptrack_walk_device(const struct edgedma_devrec *rec, bool trylock,
				  edgedma_mapping_fn fn, void *arg);
/*
 * The same for the remembered unmaps, which need no lock: any context,
 * never a wait. An entry its CPU was rewriting at that moment is passed
 * over, and false says so.
 */
bool edgedma_maptrack_history_walk(const struct edgedma_devrec *rec,
				   bool (*fn)(const struct edgedma_unmapped *u,
					      void *arg),
				   void *arg);
/* Whether unmaps are remembered at all (history_size > 0). */
bool edgedma_maptrack_history_kept(void);

/* Drop every mapping @match selects (unbind, unload), passing each to @fn. */
void edgedma_maptrack_drain(bool (*match)(const struct edgedma_mapping *m,
					  const void *key),
			    const void *key,
			    void (*fn)(const struct edgedma_mapping *m));

u64 edgedma_maptrack_live(void);
/* Grows with every add and remove: equal before and after, nothing changed. */
u64 edgedma_maptrack_generation(void);
u64 edgedma_maptrack_pool_size(void);
u64 edgedma_maptrack_exhausted(void);
u64 edgedma_maptrack_stale(void);	/* entries dropped: address mapped again */
size_t edgedma_maptrack_memory(void);	/* bytes preallocated at load */

#endif /* _EDGEDMA_MAPTRACK_H */
