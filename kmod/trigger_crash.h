/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Oops and panic as snapshot triggers: every device holding DMA mappings
 * is snapshotted once, and a line per snapshot goes to the console before
 * the machine dies. Keeping the records across the reboot is the crash
 * region's job (a later piece); the records are already what it will keep.
 */
#ifndef _EDGEDMA_TRIGGER_CRASH_H
#define _EDGEDMA_TRIGGER_CRASH_H

int edgedma_crash_triggers_start(void);
void edgedma_crash_triggers_stop(void);

#endif /* _EDGEDMA_TRIGGER_CRASH_H */
