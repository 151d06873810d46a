// SPDX-License-Identifier: GPL-2.0
/*
 * Summing the bytes that share a DMA buffer's partial cache lines.
 *
 * Those bytes belong to other objects (the neighbouring slab object, a
 * struct the buffer is embedded in), which is what makes a write to them
 * dangerous, and why they are read here without KASAN's instrumentation:
 * reading a neighbour, even a freed or redzoned one, is the point.
 */
#include <linux/compiler.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/mm.h>

#include "cacheline_neighbours.h"
#include "edgedma.h"

#define FNV64_OFFSET	0xcbf29ce484222325ULL
#define FNV64_PRIME	0x100000001b3ULL

/* The linear map holds [@phys, +@len): it is RAM and not highmem. */
static bool edgedma_linear(u64 phys, u64 len)
{
	unsigned long pfn = PHYS_PFN(phys);

	/* Never more than a line: at most two pages. */
	if (!pfn_valid(pfn) || PageHighMem(pfn_to_page(pfn)))
		return false;
	pfn = PHYS_PFN(phys + len - 1);
	return pfn_valid(pfn) && !PageHighMem(pfn_to_page(pfn));
}

static __no_sanitize_address u64 edgedma_fnv(u64 sum, const u8 *p, u64 len)
{
	u64 i;

	for (i = 0; i < len; i++)
		sum = (sum ^ READ_ONCE(p[i])) * FNV64_PRIME;
	return sum;
}

u64 edgedma_neighbours_sum(u64 phys, u64 size, u32 line, u32 *lines)
{
	u64 head = phys & ~((u64)line - 1), end = phys + size;
	u64 tail_end = ALIGN(end, (u64)line);
	u64 sum = 0;

	*lines = 0;
	if (phys == EDGEDMA_NO_PHYS || !size || line <= 1)
		return 0;
	if (head < phys && edgedma_linear(head, phys - head)) {
		sum = (u64)lower_32_bits(edgedma_fnv(FNV64_OFFSET, phys_to_virt(head),
						     phys - head)) << 32;
		*lines |= EDGEDMA_NEIGHBOUR_HEAD;
	}
	if (tail_end > end && edgedma_linear(end, tail_end - end)) {
		sum |= lower_32_bits(edgedma_fnv(FNV64_OFFSET, phys_to_virt(end),
						 tail_end - end));
		*lines |= EDGEDMA_NEIGHBOUR_TAIL;
	}
	return sum;
}
