/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of the edgedma module. Each concern has
 * its own file; this header only joins them.
 */
#ifndef _EDGEDMA_H
#define _EDGEDMA_H

#include <linux/types.h>

#ifndef EDGEDMA_VERSION
#error "EDGEDMA_VERSION is set by Kbuild from the top-level VERSION file"
#endif

/* hook.c: how the module can attach to the DMA-mapping API on this kernel. */
u32 edgedma_hook_modes_available(void);

/* netlink.c: the generic netlink family. */
int edgedma_netlink_init(void);
void edgedma_netlink_exit(void);

#endif /* _EDGEDMA_H */
