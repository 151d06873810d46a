// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel page-table entry of a kernel address (see cpu_page_table.h).
 *
 * x86 has lookup_address(), exported, which also finds large pages. arm64
 * exports nothing of the kind and neither init_mm nor swapper_pg_dir, so
 * the walk starts where the CPU starts: TTBR1_EL1, which holds the kernel
 * half's table while kernel code runs.
 */
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <asm/pgtable.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#endif
#include <uapi/linux/edgedma.h>

#include "cpu_page_table.h"

#if defined(CONFIG_X86_64)

/*
 * The entry's PAT index (PWT, PCD, and PAT, whose bit moves in large
 * entries) picks a memory type from the PAT MSR. The kernel's own table
 * of that (pgprot2cachemode) is not exported, so read the MSR.
 */
static u32 edgedma_x86_memtype(u64 entry, bool large)
{
	unsigned int index = (!!(entry & _PAGE_PWT)) |
			     (!!(entry & _PAGE_PCD)) << 1 |
			     (!!(entry & (large ? _PAGE_PAT_LARGE : _PAGE_PAT))) << 2;
	u64 pat;

	rdmsrl(MSR_IA32_CR_PAT, pat);
	switch ((pat >> (8 * index)) & 7) {
	case 6:
		return EDGEDMA_MEMTYPE_WRITE_BACK;
	case 1:
		return EDGEDMA_MEMTYPE_WRITE_COMBINE;
	case 4:
		return EDGEDMA_MEMTYPE_WRITE_THROUGH;
	case 0:
	case 7:
		return EDGEDMA_MEMTYPE_UNCACHED;	/* UC, UC- */
	default:
		return EDGEDMA_MEMTYPE_OTHER;		/* WP */
	}
}

int edgedma_cpu_pte(unsigned long addr, struct edgedma_cpu_pte *out)
{
	unsigned int level;
	pte_t *ptep = lookup_address(addr, &level);
	u64 entry;

	memset(out, 0, sizeof(*out));
	if (!ptep)
		return -ENOENT;
	entry = pte_val(*ptep);
	out->entry = entry;
	out->size = page_level_size(level);
	out->present = entry & _PAGE_PRESENT;
	if (!out->present)
		return -ENOENT;
	out->writable = entry & _PAGE_RW;
	out->executable = !(entry & _PAGE_NX);
	/* A large entry's frame bits below its size are other flags (PAT). */
	out->pfn = ((entry & PTE_PFN_MASK & ~(out->size - 1)) +
		    (addr & (out->size - 1))) >> PAGE_SHIFT;
	out->memtype = edgedma_x86_memtype(entry, level != PG_LEVEL_4K);
	return 0;
}

#elif defined(CONFIG_ARM64)

/* MAIR_EL1 attribute encodings (ARM DDI 0487, "MAIR_EL1"). */
static u32 edgedma_arm64_memtype(u64 entry)
{
	unsigned int index = (entry & PTE_ATTRINDX_MASK) >> 2;
	u8 attr = read_sysreg(mair_el1) >> (8 * index);

	if (!(attr & 0xf0))
		return EDGEDMA_MEMTYPE_DEVICE;		/* 0b0000dd00 */
	if (attr == 0x44)
		return EDGEDMA_MEMTYPE_WRITE_COMBINE;	/* Normal, non-cacheable */
	if (attr == 0xff || attr == 0xf0)
		return EDGEDMA_MEMTYPE_WRITE_BACK;	/* Normal WB (or MTE tagged) */
	if ((attr & 0xc0) == 0x80 && (attr & 0x0c) == 0x08)
		return EDGEDMA_MEMTYPE_WRITE_THROUGH;
	return EDGEDMA_MEMTYPE_OTHER;
}

static int edgedma_arm64_leaf(unsigned long addr, u64 entry, u64 size,
			      struct edgedma_cpu_pte *out)
{
	out->entry = entry;
	out->size = size;
	out->present = entry & PTE_VALID;
	if (!out->present)
		return -ENOENT;
	out->writable = !(entry & PTE_RDONLY);
	out->executable = !(entry & PTE_PXN);
	out->pfn = ((__pte_to_phys(__pte(entry)) & ~(size - 1)) +
		    (addr & (size - 1))) >> PAGE_SHIFT;
	out->memtype = edgedma_arm64_memtype(entry);
	return 0;
}

int edgedma_cpu_pte(unsigned long addr, struct edgedma_cpu_pte *out)
{
	/* TTBR1_EL1: ASID in [63:48], CnP in [0]; the table's address between. */
	phys_addr_t table = read_sysreg(ttbr1_el1) & GENMASK_ULL(47, 1);
	pgd_t *pgdp = pgd_offset_pgd((pgd_t *)phys_to_virt(table), addr);
	p4d_t *p4dp;
	pud_t *pudp;
	pmd_t *pmdp;
	pte_t *ptep;
	pgd_t pgd;
	p4d_t p4d;
	pud_t pud;
	pmd_t pmd;

	memset(out, 0, sizeof(*out));
	pgd = READ_ONCE(*pgdp);
	if (pgd_none(pgd) || pgd_bad(pgd)) {
		out->entry = pgd_val(pgd);
		return -ENOENT;
	}
	p4dp = p4d_offset(pgdp, addr);
	p4d = READ_ONCE(*p4dp);
	if (p4d_none(p4d) || p4d_bad(p4d)) {
		out->entry = p4d_val(p4d);
		return -ENOENT;
	}
	pudp = pud_offset(p4dp, addr);
	pud = READ_ONCE(*pudp);
	if (pud_none(pud)) {
		out->entry = pud_val(pud);
		return -ENOENT;
	}
	if (pud_sect(pud))
		return edgedma_arm64_leaf(addr, pud_val(pud), PUD_SIZE, out);
	pmdp = pmd_offset(pudp, addr);
	pmd = READ_ONCE(*pmdp);
	if (pmd_none(pmd)) {
		out->entry = pmd_val(pmd);
		return -ENOENT;
	}
	if (pmd_sect(pmd))
		return edgedma_arm64_leaf(addr, pmd_val(pmd), PMD_SIZE, out);
	ptep = pte_offset_kernel(pmdp, addr);
	return edgedma_arm64_leaf(addr, pte_val(READ_ONCE(*ptep)), PAGE_SIZE, out);
}

#else

int edgedma_cpu_pte(unsigned long addr, struct edgedma_cpu_pte *out)
{
	memset(out, 0, sizeof(*out));
	return -EOPNOTSUPP;
}

#endif
