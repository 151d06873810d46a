/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels edgedma builds for lives here.
 *
 * The EDGEDMA_HAVE_* macros come from feature probes that Kbuild runs
 * against the target tree (see compat.mk); nothing else in the module tests
 * kernel versions or probe results directly.
 */
#ifndef _EDGEDMA_COMPAT_H
#define _EDGEDMA_COMPAT_H

#include <linux/version.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "edgedma needs Linux 5.10 or newer (per-command netlink policies, dma_alloc_pages)"
#endif

/*
 * 6.2 split genetlink operations into do and dump halves; pre_doit() gets
 * the split form from then on.
 */
#ifdef EDGEDMA_HAVE_GENL_SPLIT_OPS
typedef struct genl_split_ops edgedma_genl_ops_t;
#else
typedef struct genl_ops edgedma_genl_ops_t;
#endif

#endif /* _EDGEDMA_COMPAT_H */
