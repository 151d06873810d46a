/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long the hooks keep interrupts off (measure_irqsoff=1): the longest
 * section, for GET_STATS, and a histogram of them all in debugfs
 * (edgedma/irqsoff), since under emulation or a busy hypervisor the
 * longest one is mostly time the virtual CPU did not run.
 */
#ifndef _EDGEDMA_IRQSOFF_H
#define _EDGEDMA_IRQSOFF_H

#include <linux/types.h>

struct dentry;

/* One section of @ns; with interrupts off, on the CPU that ran it. */
void edgedma_irqsoff_record(u64 ns);
/* The longest section recorded since load (or since the last clear), ns. */
u64 edgedma_irqsoff_max_ns(void);
/* The histogram's file in the module's debugfs folder. */
void edgedma_irqsoff_debugfs_init(struct dentry *dir);

#endif /* _EDGEDMA_IRQSOFF_H */
