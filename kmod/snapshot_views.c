// SPDX-License-Identifier: GPL-2.0
/*
 * The per-page views of a snapshot (see snapshot_views.h). Each is read
 * without sleeping or allocating: the IOMMU drivers edgedma knows walk
 * their tables locklessly (an unknown one, on PREEMPT_RT, is left out in
 * fault context and the record says why), the kernel page tables are read
 * as the CPU reads them, struct page fields are read once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/iommu.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/page-flags.h>
#include <linux/page_ref.h>
#include <linux/swiotlb.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "cpu_page_table.h"
#include "edgedma.h"
#include "maptrack.h"
#include "snapshot_capture.h"
#include "snapshot_record.h"
#include "snapshot_views.h"

static unsigned int snapshot_pages = 8;
module_param(snapshot_pages, uint, 0644);
MODULE_PARM_DESC(snapshot_pages, "Pages a snapshot views, the one it is about first, 1 to 1024 (default 8)");

/* A part left out, and why (EDGEDMA_A_SNAPSHOT_SKIPPED). */
void edgedma_put_skipped(struct edgedma_record *r, u32 part, u32 reason)
{
	int nest = edgedma_record_nest_start(r, EDGEDMA_A_SNAPSHOT_SKIPPED);

	if (nest < 0)
		return;
	if (edgedma_record_put_u32(r, EDGEDMA_A_SKIP_PART, part) ||
	    edgedma_record_put_u32(r, EDGEDMA_A_SKIP_REASON, reason))
		edgedma_record_nest_cancel(r, nest);
	else
		edgedma_record_nest_end(r, nest);
}

static u32 edgedma_domain_kind(const struct iommu_domain *domain)
{
	if (!domain)
		return EDGEDMA_IOMMU_DOMAIN_NONE;
	switch (domain->type) {
	case IOMMU_DOMAIN_IDENTITY:
		return EDGEDMA_IOMMU_DOMAIN_IDENTITY;
	case IOMMU_DOMAIN_DMA:
		return EDGEDMA_IOMMU_DOMAIN_DMA;
#ifdef IOMMU_DOMAIN_DMA_FQ
	case IOMMU_DOMAIN_DMA_FQ:
		return EDGEDMA_IOMMU_DOMAIN_DMA_FQ;
#endif
	case IOMMU_DOMAIN_BLOCKED:
		return EDGEDMA_IOMMU_DOMAIN_BLOCKED;
	case IOMMU_DOMAIN_UNMANAGED:
		return EDGEDMA_IOMMU_DOMAIN_UNMANAGED;
	default:
		return EDGEDMA_IOMMU_DOMAIN_OTHER;
	}
}

/* Where one page lies, as far as each party says. */
struct edgedma_page_view {
	u64 dma_page;
	u64 expected;		/* EDGEDMA_NO_PHYS: no live mapping holds it */
	u32 domain;
	u64 iommu_phys;		/* EDGEDMA_NO_PHYS: not asked or nothing */
	bool iommu_asked;
	bool iommu_unmapped;
	bool iommu_may_sleep;	/* left out: the lookup may sleep here */
};

static void edgedma_view_iommu(struct device *dev, const struct edgedma_snapshot_request *t,
			       struct edgedma_page_view *v)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dev);
	phys_addr_t phys;

	v->domain = edgedma_domain_kind(domain);
	v->iommu_phys = EDGEDMA_NO_PHYS;
	if (!domain) {
		v->iommu_phys = edgedma_direct_dma_to_phys(dev, v->dma_page);
		v->iommu_asked = v->iommu_phys != EDGEDMA_NO_PHYS;
		return;
	}
	if (!(domain->type & __IOMMU_DOMAIN_PAGING))
		return;
	/* In fault context an IOMMU driver's sleeping lock must not be taken. */
	if (t->atomic && !edgedma_iommu_translate_in_hook(domain)) {
		v->iommu_may_sleep = true;
		return;
	}
	v->iommu_asked = true;
	phys = iommu_iova_to_phys(domain, v->dma_page);
	if (phys)
		v->iommu_phys = phys;
	else
		v->iommu_unmapped = true;
}

static u32 edgedma_page_flags(struct page *page)
{
	u32 flags = 0;

	if (PageSlab(page))
		flags |= EDGEDMA_PAGE_SLAB;
	if (PageReserved(page))
		flags |= EDGEDMA_PAGE_RESERVED;
	if (PageBuddy(page))
		flags |= EDGEDMA_PAGE_FREE;
	if (PageCompound(page))
		flags |= EDGEDMA_PAGE_COMPOUND;
	if (PageHead(page))
		flags |= EDGEDMA_PAGE_HEAD;
	return flags;
}

#define PUT32(attr, v) edgedma_record_put_u32(r, EDGEDMA_A_PAGE_##attr, v)
#define PUT64(attr, v) edgedma_record_put_u64(r, EDGEDMA_A_PAGE_##attr, v)

/* The CPU and allocator views of physical page @phys (or @cpu_virt's). */
static int edgedma_put_cpu_views(struct edgedma_record *r, struct device *dev,
				 u64 phys, unsigned long cpu_virt)
{
	unsigned long pfn = phys >> PAGE_SHIFT;
	struct edgedma_cpu_pte pte;
	bool valid = pfn_valid(pfn);

	if (PUT64(PHYS, phys) || PUT32(PFN_VALID, valid))
		return -EMSGSIZE;
	if (valid) {
		struct page *page = pfn_to_page(pfn);

		if (PUT32(FLAGS, edgedma_page_flags(page)) ||
		    PUT32(REFCOUNT, page_ref_count(page)))
			return -EMSGSIZE;
		/* Every page the kernel manages is in the linear map (64-bit). */
		if (!cpu_virt)
			cpu_virt = (unsigned long)page_address(page);
	}
	if (PUT32(SWIOTLB, edgedma_is_swiotlb(dev, phys)))
		return -EMSGSIZE;
	if (!cpu_virt)
		return 0;
	if (edgedma_cpu_pte(cpu_virt, &pte) == -EOPNOTSUPP)
		return 0;
	if (PUT64(CPU_VIRT, cpu_virt) || PUT64(PTE, pte.entry) ||
	    PUT32(PTE_PRESENT, pte.present))
		return -EMSGSIZE;
	if (!pte.present)
		return 0;
	if (PUT64(PTE_SIZE, pte.size) || PUT32(PTE_WRITABLE, pte.writable) ||
	    PUT32(PTE_EXECUTABLE, pte.executable) || PUT64(PTE_PFN, pte.pfn) ||
	    PUT32(PTE_MEMTYPE, pte.memtype))
		return -EMSGSIZE;
	return 0;
}

static bool edgedma_put_page(struct edgedma_record *r, struct device *dev,
			     const struct edgedma_snapshot_request *t,
			     const struct edgedma_mapping *owner, u64 dma_page)
{
	struct edgedma_page_view v = { .dma_page = dma_page, .expected = EDGEDMA_NO_PHYS };
	unsigned long cpu_virt = 0;
	u64 phys;
	int nest;

	if (owner && owner->phys != EDGEDMA_NO_PHYS)
		v.expected = owner->phys + (dma_page - owner->dma_addr);
	/* The mapping's own CPU address (vmalloc, ...) when it was given one. */
	if (owner && owner->cpu_virt)
		cpu_virt = (owner->cpu_virt + (dma_page - owner->dma_addr)) & PAGE_MASK;
	edgedma_view_iommu(dev, t, &v);
	phys = v.expected != EDGEDMA_NO_PHYS ? v.expected : v.iommu_phys;

	nest = edgedma_record_nest_start(r, EDGEDMA_A_SNAPSHOT_PAGE);
	if (nest < 0)
		return false;
	if (PUT64(DMA_ADDR, dma_page) ||
	    (v.expected != EDGEDMA_NO_PHYS && PUT64(EXPECTED_PHYS, v.expected)) ||
	    PUT32(IOMMU_DOMAIN, v.domain) ||
	    (v.iommu_phys != EDGEDMA_NO_PHYS && PUT64(IOMMU_PHYS, v.iommu_phys)) ||
	    /* Where the device lands may be a bounce slot, not the buffer. */
	    (v.iommu_phys != EDGEDMA_NO_PHYS &&
	     PUT32(IOMMU_SWIOTLB, edgedma_is_swiotlb(dev, v.iommu_phys))) ||
	    (v.iommu_unmapped && PUT32(IOMMU_UNMAPPED, 1)) ||
	    (phys != EDGEDMA_NO_PHYS &&
	     edgedma_put_cpu_views(r, dev, phys & PAGE_MASK, cpu_virt))) {
		edgedma_record_nest_cancel(r, nest);
		return false;
	}
	edgedma_record_nest_end(r, nest);
	if (v.iommu_may_sleep)
		edgedma_put_skipped(r, EDGEDMA_SNAPSHOT_PART_IOMMU_VIEW,
				    EDGEDMA_SKIP_MAY_SLEEP);
	return true;
}

#undef PUT32
#undef PUT64

unsigned int edgedma_snapshot_put_pages(struct edgedma_record *r, struct device *dev,
					const struct edgedma_snapshot_request *t,
					const struct edgedma_mapping *owner)
{
	unsigned int limit = READ_ONCE(snapshot_pages), room = limit;
	u64 first = t->addr & PAGE_MASK, page, end;

	if (!t->has_addr || !room)
		return 0;
	if (!edgedma_put_page(r, dev, t, owner, first))
		return limit;	/* the record is full */
	room--;
	if (!owner)
		return limit - room;
	end = owner->dma_addr + owner->size;
	for (page = owner->dma_addr & PAGE_MASK; page < end; page += PAGE_SIZE) {
		if (page == first)
			continue;
		if (!room) {
			edgedma_put_skipped(r, EDGEDMA_SNAPSHOT_PART_PAGES,
					    EDGEDMA_SKIP_LIMIT);
			return limit;
		}
		if (!edgedma_put_page(r, dev, t, owner, page))
			return limit;
		room--;
	}
	return limit - room;
}

void edgedma_buffer_pages_add(struct edgedma_buffer_pages *bp, u64 addr,
			      const struct edgedma_mapping *owner, bool wrong)
{
	u64 page = addr & PAGE_MASK;
	struct edgedma_buffer_page *slot = NULL;
	unsigned int i;

	for (i = 0; i < bp->n; i++) {
		if (bp->page[i].dma_page != page)
			continue;
		/* A page seen wrong once stays wrong. */
		bp->page[i].wrong |= wrong;
		return;
	}
	if (bp->n < EDGEDMA_BUFFER_PAGES) {
		slot = &bp->page[bp->n++];
	} else {
		bp->left_out = true;
		/* A wrong buffer's page displaces a live one's. */
		for (i = 0; wrong && i < bp->n && !slot; i++)
			if (!bp->page[i].wrong)
				slot = &bp->page[i];
		if (!slot)
			return;
	}
	*slot = (struct edgedma_buffer_page){ .dma_page = page, .wrong = wrong };
	if (owner) {
		slot->have_owner = true;
		slot->owner_dma = owner->dma_addr;
		slot->owner_phys = owner->phys;
		slot->owner_cpu_virt = owner->cpu_virt;
	}
}

void edgedma_snapshot_put_buffer_pages(struct edgedma_record *r, struct device *dev,
				       const struct edgedma_snapshot_request *t,
				       const struct edgedma_buffer_pages *bp,
				       unsigned int used)
{
	unsigned int limit = READ_ONCE(snapshot_pages), pass, i;
	bool left_out = bp->left_out;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < bp->n; i++) {
			const struct edgedma_buffer_page *p = &bp->page[i];
			struct edgedma_mapping owner = {
				.dma_addr = p->owner_dma, .phys = p->owner_phys,
				.cpu_virt = p->owner_cpu_virt,
			};

			if (p->wrong != !pass)
				continue;
			/* The address's own pages are in already. */
			if (t->has_addr && p->dma_page == (t->addr & PAGE_MASK))
				continue;
			if (used >= limit) {
				left_out = true;
				goto out;
			}
			if (!edgedma_put_page(r, dev, t, p->have_owner ? &owner : NULL,
					      p->dma_page))
				return;
			used++;
		}
	}
out:
	if (left_out)
		edgedma_put_skipped(r, EDGEDMA_SNAPSHOT_PART_PAGES, EDGEDMA_SKIP_LIMIT);
}

int __init edgedma_snapshot_views_init(void)
{
	return edgedma_param_check("snapshot_pages", snapshot_pages, 1, 1024);
}
