/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_CACHELINE_NEIGHBOURS_H
#define _EDGEDMA_CACHELINE_NEIGHBOURS_H

#include <linux/types.h>

/*
 * Did the CPU write next to a DMA buffer, in a cache line the buffer
 * shares, while the device owned the buffer? The bytes of the buffer's
 * partial first and last lines that lie outside it are summed when the
 * device is given the buffer and summed again when the CPU takes it back;
 * a difference is a write the invalidate for the DMA can discard.
 */

/* Which partial lines a buffer has (bit 0: the first, bit 1: the last). */
#define EDGEDMA_NEIGHBOUR_HEAD	1
#define EDGEDMA_NEIGHBOUR_TAIL	2

/*
 * The sums of the bytes outside [@phys, +@size) in its partial lines of
 * @line bytes, the first line's in the upper 32 bits and the last line's
 * in the lower; the lines summed in *@lines (0: none, or memory the
 * kernel's linear map does not hold). Any context.
 */
u64 edgedma_neighbours_sum(u64 phys, u64 size, u32 line, u32 *lines);

#endif /* _EDGEDMA_CACHELINE_NEIGHBOURS_H */
