/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own page-table entry for a kernel virtual address, as the
 * CPU would use it: read without a lock (kernel mappings of memory that
 * DMA uses are not torn down under us; a racing vunmap gives a stale but
 * harmless read), from any context.
 */
#ifndef _EDGEDMA_CPU_PAGE_TABLE_H
#define _EDGEDMA_CPU_PAGE_TABLE_H

#include <linux/types.h>

struct edgedma_cpu_pte {
	u64 entry;		/* as the CPU reads it */
	u64 size;		/* bytes it maps: a page or a block */
	u64 pfn;		/* of the page holding the address */
	bool present;
	bool writable;
	bool executable;	/* by the kernel */
	u32 memtype;		/* enum edgedma_memtype */
};

/*
 * The entry mapping @addr. -ENOENT when no entry maps it (@out->entry is
 * then what the walk stopped at, present false), -EOPNOTSUPP on an
 * architecture this does not know.
 */
int edgedma_cpu_pte(unsigned long addr, struct edgedma_cpu_pte *out);

#endif /* _EDGEDMA_CPU_PAGE_TABLE_H */
