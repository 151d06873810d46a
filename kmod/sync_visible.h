/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_SYNC_VISIBLE_H
#define _EDGEDMA_SYNC_VISIBLE_H

#include <linux/types.h>

struct device;
struct edgedma_devrec;

int edgedma_sync_visible_init(void);
/* After the hooks stopped: gives back what can safely be given back. */
void edgedma_sync_visible_exit(void);

/* Hook context: @dev made a DMA-API call; keep its syncs reaching the core. */
void edgedma_sync_visible_keep(struct edgedma_devrec *rec, struct device *dev);

/* Times a device's sync skipping was turned off (GET_STATS). */
u64 edgedma_sync_visible_cleared(void);

#endif /* _EDGEDMA_SYNC_VISIBLE_H */
