/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The views of a snapshot: for each page of DMA memory involved, what the
 * mapping table says it should be, what the IOMMU translates it to now,
 * the kernel page-table entry of its CPU address, and what the page
 * allocator uses the physical page for.
 */
#ifndef _EDGEDMA_SNAPSHOT_VIEWS_H
#define _EDGEDMA_SNAPSHOT_VIEWS_H

struct device;
struct edgedma_mapping;
struct edgedma_record;
struct edgedma_snapshot_request;

/*
 * The pages of @t->addr: its own first, then the rest of @owner (the live
 * mapping holding it, or NULL), up to snapshot_pages. Any context but NMI.
 */
void edgedma_snapshot_put_pages(struct edgedma_record *r, struct device *dev,
				const struct edgedma_snapshot_request *t,
				const struct edgedma_mapping *owner);

/* A part left out of the record, and why (enum edgedma_skip_reason). */
void edgedma_put_skipped(struct edgedma_record *r, u32 part, u32 reason);

int edgedma_snapshot_views_init(void);

#endif /* _EDGEDMA_SNAPSHOT_VIEWS_H */
