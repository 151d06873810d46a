/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_SYNC_VISIBLE_H
#define _EDGEDMA_SYNC_VISIBLE_H

#include <linux/types.h>

#include "compat.h"

struct device;
struct edgedma_devrec;

int edgedma_sync_visible_init(void);
/* After the hooks stopped: gives back what can safely be given back. */
void edgedma_sync_visible_exit(void);

extern bool edgedma_keep_syncs_visible;
void edgedma_sync_visible_clear(struct edgedma_devrec *rec, struct device *dev);

/*
 * Hook context: @dev made a DMA-API call; keep its syncs reaching the core.
 * Inline: every call asks, and the answer is nearly always "nothing to do".
 */
static inline void edgedma_sync_visible_keep(struct edgedma_devrec *rec,
					     struct device *dev)
{
	if (EDGEDMA_HAVE_SYNC_SKIPPING && edgedma_keep_syncs_visible &&
	    edgedma_dev_skips_sync(dev))
		edgedma_sync_visible_clear(rec, dev);
}

/* Times a device's sync skipping was turned off (GET_STATS). */
u64 edgedma_sync_visible_cleared(void);

#endif /* _EDGEDMA_SYNC_VISIBLE_H */
