/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_DEVICE_OWNED_WRITES_H
#define _EDGEDMA_DEVICE_OWNED_WRITES_H

#include <linux/types.h>

/*
 * Did a to-device buffer change while the device owned it? Its bytes are
 * hashed when the device is given the buffer (map, sync_for_device) and
 * hashed again when the CPU takes it back (unmap, sync_for_cpu): a
 * difference is data the device may never have seen (it read the old
 * bytes, or, not snooping the caches, memory the new ones had not
 * reached). The CPU wrote it, or the device wrote a buffer it was only
 * given to read: the hash cannot tell which.
 */

/* Parts of the hashed bytes that are hashed on their own as well. */
#define EDGEDMA_OWNED_PARTS	8

/* The hashed bytes of a to-device buffer. */
struct edgedma_owned_bytes {
	u64 hash;	/* of all len bytes */
	/*
	 * Byte k: a fold of the hash of part k alone, the parts being
	 * len / EDGEDMA_OWNED_PARTS rounded up to 8 bytes, from the start.
	 * Two hashes' parts say where the bytes changed.
	 */
	u64 parts;
	u32 len;	/* 0: not hashed, the buffer is not watched */
};

/*
 * Hash the first @out->len bytes of [@phys, +@size): at most @cap (the
 * device's policy; at the check, the length hashed before), through the
 * kernel's linear map. @out->len is 0 when the memory is not all in the
 * linear map (highmem, not RAM): the buffer is then not watched. Any
 * context; no sleeping, no allocation.
 */
void edgedma_owned_hash(u64 phys, u64 size, u32 cap, struct edgedma_owned_bytes *out);

/* The bytes hashed where no policy says: the module parameter owned_hash_max. */
u32 edgedma_owned_hash_default(void);

/*
 * The bytes that differ between two hashes of the same length, as the
 * span [*@first, *@last] of the parts whose hashes differ (the whole
 * length when the parts' folds happen to agree). False when nothing
 * differs or the lengths do.
 */
bool edgedma_owned_changed(const struct edgedma_owned_bytes *then,
			   const struct edgedma_owned_bytes *now, u32 *first, u32 *last);

#endif /* _EDGEDMA_DEVICE_OWNED_WRITES_H */
