/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_VMALLOC_PAGES_H
#define _EDGEDMA_VMALLOC_PAGES_H

#include <linux/types.h>

struct page;

int edgedma_vmalloc_pages_init(void);
void edgedma_vmalloc_pages_exit(void);
size_t edgedma_vmalloc_pages_memory(void);	/* bytes held while loaded */
/*
 * Did vmalloc_to_page() recently hand out @page (and is it still unused by
 * anything else)? The return address into its caller, else 0. Any context.
 */
unsigned long edgedma_vmalloc_page_seen(struct page *page);

#endif /* _EDGEDMA_VMALLOC_PAGES_H */
