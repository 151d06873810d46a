/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_VMALLOC_PAGES_H
#define _EDGEDMA_VMALLOC_PAGES_H

#include <linux/compiler.h>
#include <linux/jiffies.h>
#include <linux/types.h>

struct page;

int edgedma_vmalloc_pages_init(void);
void edgedma_vmalloc_pages_exit(void);
size_t edgedma_vmalloc_pages_memory(void);	/* bytes held while loaded */
/*
 * How long a page counts as vmalloc memory after vmalloc_to_page() returned
 * it: the page may be freed and reused for anything afterwards (module text
 * is looked up this way at load, for one).
 */
#define EDGEDMA_VMALLOC_FRESH		(2 * HZ)

extern unsigned long edgedma_vmalloc_last_seen;

unsigned long edgedma_vmalloc_page_seen_slow(struct page *page);

/*
 * Did vmalloc_to_page() recently hand out @page (and is it still unused by
 * anything else)? The return address into its caller, else 0. Any context.
 * Inline: every map asks, and mostly no lookup was recorded in the window.
 */
static inline unsigned long edgedma_vmalloc_page_seen(struct page *page)
{
	if (!time_before(jiffies, READ_ONCE(edgedma_vmalloc_last_seen) +
				  EDGEDMA_VMALLOC_FRESH))
		return 0;
	return edgedma_vmalloc_page_seen_slow(page);
}

#endif /* _EDGEDMA_VMALLOC_PAGES_H */
