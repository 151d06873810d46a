// SPDX-License-Identifier: GPL-2.0
/*
 * Which pages are vmalloc memory.
 *
 * A struct page does not say that it backs a vmalloc area, and the DMA API
 * is only ever given the page. Drivers get such pages from one exported
 * function, vmalloc_to_page(), so a kretprobe on it remembers the pages it
 * returns in a small lossy set (a newer page may evict an older one in the
 * same slot), with the time. A page mapped for DMA within a short while of
 * being returned there came from vmalloc memory: that is how drivers build
 * such mappings.
 *
 * A remembered page is only believed while the vmalloc address it was looked
 * up for still maps it: vfree() and vunmap() clear the page table entries
 * before the pages go back to the allocator, so a page that is ordinary
 * memory again (freed module text, a freed remapping) no longer matches.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "edgedma.h"
#include "vmalloc_pages.h"

#define EDGEDMA_VMALLOC_SET_BITS	12
/*
 * How long a page counts as vmalloc memory after vmalloc_to_page() returned
 * it: the page may be freed and reused for anything afterwards (module text
 * is looked up this way at load, for one).
 */

struct edgedma_vmalloc_seen {
	const struct page *page;
	unsigned long addr;	/* the vmalloc address looked up */
	unsigned long when;	/* jiffies */
	unsigned long caller;	/* who looked the page up */
};

static struct edgedma_vmalloc_seen edgedma_vmalloc_set[1 << EDGEDMA_VMALLOC_SET_BITS];
static bool edgedma_vmalloc_probe_on;
/* When a lookup was last recorded (jiffies); set at load to outside the window. */
unsigned long edgedma_vmalloc_last_seen;

/*
 * Lookups of pages that are no driver's buffer. The DMA core frees (and
 * mmaps) the coherent buffers of non-coherent devices through their vmalloc
 * remapping, and the pages are then free for anyone. arm64 patches module
 * text (jump labels, alternatives, kprobes) through patch_map(), and its
 * modules live in the vmalloc range: every module load and static key flip
 * would look like a driver taking vmalloc pages. Only the functions this
 * kernel has count.
 */
static const char *const edgedma_not_buffer_lookups[] = {
	"iommu_dma_free", "__iommu_dma_free", "iommu_dma_mmap",
	"iommu_dma_get_sgtable", "dma_common_free_remap",
	/* patch_map() where it is not inlined, else the patchers it is in. */
	"patch_map", "__aarch64_insn_write", "aarch64_insn_write_literal_u64",
	"__text_poke", "aarch64_insn_copy", "aarch64_insn_set",
};

static struct {
	unsigned long start, end;
} edgedma_not_buffer_ranges[ARRAY_SIZE(edgedma_not_buffer_lookups)];

static bool edgedma_looked_up_for_no_buffer(unsigned long caller)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(edgedma_not_buffer_ranges); i++)
		if (caller >= edgedma_not_buffer_ranges[i].start &&
		    caller < edgedma_not_buffer_ranges[i].end)
			return true;
	return false;
}

static unsigned int edgedma_vmalloc_slot(const struct page *page)
{
	return hash_ptr((void *)page, EDGEDMA_VMALLOC_SET_BITS);
}

/*
 * Only lookups of vmalloc addresses count: the same function also resolves
 * module text for code patching (jump labels, kprobes), and such a page is
 * later freed and reused as ordinary memory.
 */
static int edgedma_vmalloc_to_page_entry(struct kretprobe_instance *ri,
					 struct pt_regs *regs)
{
	unsigned long addr = regs_get_kernel_argument(regs, 0);

	if (!is_vmalloc_addr((const void *)addr))
		return 1;
	*(unsigned long *)ri->data = addr;
	return 0;
}

static int edgedma_vmalloc_to_page_ret(struct kretprobe_instance *ri,
				       struct pt_regs *regs)
{
	struct page *page = (struct page *)regs_return_value(regs);
	unsigned long caller = edgedma_kretprobe_return_address(ri);
	struct edgedma_vmalloc_seen *slot;

	/* Our own re-check in edgedma_vmalloc_page_seen() is no lookup. */
	if (!page || edgedma_looked_up_for_no_buffer(caller) ||
	    within_module(caller, THIS_MODULE))
		return 0;
	slot = &edgedma_vmalloc_set[edgedma_vmalloc_slot(page)];
	WRITE_ONCE(slot->addr, *(unsigned long *)ri->data);
	WRITE_ONCE(slot->when, jiffies);
	WRITE_ONCE(slot->caller, caller);
	WRITE_ONCE(slot->page, page);
	WRITE_ONCE(edgedma_vmalloc_last_seen, jiffies);
	return 0;
}

static struct kretprobe edgedma_vmalloc_probe = {
	.kp.symbol_name = "vmalloc_to_page",
	.entry_handler = edgedma_vmalloc_to_page_entry,
	.handler = edgedma_vmalloc_to_page_ret,
	.data_size = sizeof(unsigned long),
	.maxactive = 64,
};

unsigned long edgedma_vmalloc_page_seen_slow(struct page *page)
{
	const struct edgedma_vmalloc_seen *slot;

	if (!page)
		return 0;
	slot = &edgedma_vmalloc_set[edgedma_vmalloc_slot(page)];
	if (READ_ONCE(slot->page) != page ||
	    !time_before(jiffies, READ_ONCE(slot->when) + EDGEDMA_VMALLOC_FRESH))
		return 0;
	/*
	 * Cheap signs of a page freed since and reused, before the walk below
	 * decides: vmalloc pages are in no page cache, on no LRU list and not
	 * slab memory.
	 */
	if (PageSlab(page) || PageLRU(page) || READ_ONCE(page->mapping))
		return 0;
	/*
	 * Unmapped since (also a slot rewritten while read: its address then
	 * maps another page). Nested in a kprobe handler the kretprobe on
	 * vmalloc_to_page() misses this call; elsewhere its return handler
	 * ignores callers in this module.
	 */
	if (vmalloc_to_page((const void *)READ_ONCE(slot->addr)) != page)
		return 0;
	return READ_ONCE(slot->caller) ?: 1;
}

int edgedma_vmalloc_pages_init(void)
{
	unsigned int i;
	int err;

	edgedma_vmalloc_last_seen = jiffies - EDGEDMA_VMALLOC_FRESH;

	for (i = 0; i < ARRAY_SIZE(edgedma_not_buffer_lookups); i++)
		edgedma_function_range(edgedma_not_buffer_lookups[i],
				       &edgedma_not_buffer_ranges[i].start,
				       &edgedma_not_buffer_ranges[i].end);
	/* hook_floor measures the DMA hooks alone: nothing else attaches. */
	if (edgedma_hook_floor())
		return 0;
	if (!IS_ENABLED(CONFIG_KRETPROBES)) {
		pr_info("this kernel has no kretprobes (CONFIG_KPROBES): vmalloc-buffer sees vmalloc addresses only\n");
		return 0;
	}
	err = register_kretprobe(&edgedma_vmalloc_probe);
	if (err) {
		pr_info("cannot probe vmalloc_to_page (%d): vmalloc-buffer sees vmalloc addresses only\n",
			err);
		return 0;
	}
	edgedma_vmalloc_probe_on = true;
	return 0;
}

/* The kretprobe's instances, allocated by the kprobe core. */
size_t edgedma_vmalloc_pages_memory(void)
{
	if (!edgedma_vmalloc_probe_on)
		return 0;
	return (size_t)edgedma_vmalloc_probe.maxactive *
	       (sizeof(struct kretprobe_instance) + edgedma_vmalloc_probe.data_size);
}

void edgedma_vmalloc_pages_exit(void)
{
	if (!edgedma_vmalloc_probe_on)
		return;
	unregister_kretprobe(&edgedma_vmalloc_probe);
	/* Kretprobe instances are freed from RCU callbacks into our text. */
	rcu_barrier();
	edgedma_vmalloc_probe_on = false;
}
