/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_CRASH_REGION_H
#define _EDGEDMA_CRASH_REGION_H

/*
 * The crash region: RAM a warm reboot keeps (module parameter
 * crash_region=SIZE@PHYS), where the snapshots the module holds are
 * written at oops and panic, for the next load to find (layout: struct
 * edgedma_crash_region in the uapi header).
 */

/* Map the region and validate what an earlier boot left there. Process context. */
int edgedma_crash_region_init(void);
void edgedma_crash_region_exit(void);

/*
 * Write every stored snapshot that fits into the region, newest first.
 * Oops and panic context: no allocation, no sleeping, no lock; once per
 * boot.
 */
void edgedma_crash_region_write(void);

#endif /* _EDGEDMA_CRASH_REGION_H */
