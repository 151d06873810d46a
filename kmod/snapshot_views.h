/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The views of a snapshot: for each page of DMA memory involved, what the
 * mapping table says it should be, what the IOMMU translates it to now,
 * the kernel page-table entry of its CPU address, and what the page
 * allocator uses the physical page for.
 */
#ifndef _EDGEDMA_SNAPSHOT_VIEWS_H
#define _EDGEDMA_SNAPSHOT_VIEWS_H

#include <linux/types.h>

struct device;
struct edgedma_mapping;
struct edgedma_record;
struct edgedma_snapshot_request;

/*
 * The pages of @t->addr: its own first, then the rest of @owner (the live
 * mapping holding it, or NULL), up to snapshot_pages. Returns how many of
 * snapshot_pages it used. Any context but NMI.
 */
unsigned int edgedma_snapshot_put_pages(struct edgedma_record *r, struct device *dev,
					const struct edgedma_snapshot_request *t,
					const struct edgedma_mapping *owner);

/*
 * Pages of descriptor buffers a snapshot views after those of its address,
 * gathered while the chains are walked (no room in the record then: the
 * chains come first). A buffer the walk found wrong (in no live mapping,
 * or running past its mapping) is kept before one found live; slots a
 * driver owns are not gathered (their addresses may be stale by design).
 */
#define EDGEDMA_BUFFER_PAGES	8

struct edgedma_buffer_page {
	u64 dma_page;
	bool wrong;		/* not a live buffer */
	bool have_owner;	/* the live mapping holding it: */
	u64 owner_dma, owner_phys;
	unsigned long owner_cpu_virt;
};

struct edgedma_buffer_pages {
	unsigned int n;
	bool left_out;		/* more than EDGEDMA_BUFFER_PAGES */
	struct edgedma_buffer_page page[EDGEDMA_BUFFER_PAGES];
};

/* Note the page of @addr, held by the live mapping @owner (or NULL). */
void edgedma_buffer_pages_add(struct edgedma_buffer_pages *bp, u64 addr,
			      const struct edgedma_mapping *owner, bool wrong);

/*
 * The pages @bp gathered, wrong ones first, up to @room of snapshot_pages
 * (what edgedma_snapshot_put_pages() left). Any context but NMI.
 */
void edgedma_snapshot_put_buffer_pages(struct edgedma_record *r, struct device *dev,
				       const struct edgedma_snapshot_request *t,
				       const struct edgedma_buffer_pages *bp,
				       unsigned int used);

/* A part left out of the record, and why (enum edgedma_skip_reason). */
void edgedma_put_skipped(struct edgedma_record *r, u32 part, u32 reason);

int edgedma_snapshot_views_init(void);

#endif /* _EDGEDMA_SNAPSHOT_VIEWS_H */
