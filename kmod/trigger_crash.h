/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Oops and panic as snapshot triggers: every device holding DMA mappings
 * is snapshotted at the first oops and at a panic, a line per snapshot goes
 * to the console, and the crash region keeps them across the reboot.
 */
#ifndef _EDGEDMA_TRIGGER_CRASH_H
#define _EDGEDMA_TRIGGER_CRASH_H

#include <linux/types.h>

/* A panic has begun: the hooks record nothing from here on. */
extern bool edgedma_panicking;

int edgedma_crash_triggers_start(void);
void edgedma_crash_triggers_stop(void);

#endif /* _EDGEDMA_TRIGGER_CRASH_H */
