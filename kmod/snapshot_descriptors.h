/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The descriptor chains of a snapshot: a controller's rings and lists, as
 * its profile lays them out, read where the device reads them (through
 * the live mapping that holds each descriptor), with every buffer a
 * descriptor points at resolved against the mapping table.
 */
#ifndef _EDGEDMA_SNAPSHOT_DESCRIPTORS_H
#define _EDGEDMA_SNAPSHOT_DESCRIPTORS_H

#include <linux/types.h>

struct edgedma_buffer_pages;
struct edgedma_devrec;
struct edgedma_profile;
struct edgedma_profile_binding;
struct edgedma_profile_chain;
struct edgedma_record;

/*
 * One EDGEDMA_A_SNAPSHOT_CHAIN of @c into @r: its layout, the start, size,
 * head and tail its registers hold now, and the descriptors walked
 * (bounded by MAX_DESCS and snapshot_descriptors). @rec: the device's
 * record, NULL when it made no DMA-API call (nothing can be read then).
 * The pages of the buffers walked go to @pages, for their views.
 * Under rcu_read_lock(); any context but NMI: MMIO reads, bounded lookups
 * that only try their locks when @trylock, fault-safe memory reads.
 */
void edgedma_snapshot_put_chain(struct edgedma_record *r, struct edgedma_devrec *rec,
				bool trylock, const struct edgedma_profile *p,
				const struct edgedma_profile_binding *b,
				const struct edgedma_profile_chain *c,
				struct edgedma_buffer_pages *pages);

/* A descriptor field's value from the descriptor's bytes. */
u64 edgedma_desc_field_value(const u8 *desc, const struct edgedma_profile_chain *c,
			     unsigned int field);

int edgedma_snapshot_descriptors_init(void);

#endif /* _EDGEDMA_SNAPSHOT_DESCRIPTORS_H */
