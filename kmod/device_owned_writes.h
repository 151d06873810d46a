/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_DEVICE_OWNED_WRITES_H
#define _EDGEDMA_DEVICE_OWNED_WRITES_H

#include <linux/types.h>

/*
 * Did the CPU write a to-device buffer while the device owned it? Its
 * bytes are hashed when the device is given the buffer (map,
 * sync_for_device) and hashed again when the CPU takes it back (unmap,
 * sync_for_cpu): a difference is data the device may never have seen (it
 * read the old bytes, or, not snooping the caches, memory the new ones
 * had not reached).
 */

/*
 * The hash of the first *@len bytes of [@phys, +@size): at most the module
 * parameter owned_hash_max, through the kernel's linear map. *@len is 0
 * when the memory is not all in the linear map (highmem, not RAM): the
 * buffer is then not watched. Any context; no sleeping, no allocation.
 */
u64 edgedma_owned_hash(u64 phys, u64 size, u32 *len);

#endif /* _EDGEDMA_DEVICE_OWNED_WRITES_H */
