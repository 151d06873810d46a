// SPDX-License-Identifier: GPL-2.0
/*
 * Who called the DMA-mapping API, for the hooks that run below the API
 * function (hook_caller.h says how): the API functions' extents, the
 * unwinder, and the layouts learned from it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "hook_caller.h"

/*
 * Frames a trace holds up to the caller: the hook, the tracepoint's
 * iterator, a static helper of the API (__dma_map_sg_attrs), the API
 * function, the caller. A short trace comes first, and a long one only when
 * the short one fills up before reaching the caller.
 */
#define EDGEDMA_CALLER_STACK_SHORT	8
#define EDGEDMA_CALLER_STACK_LONG	32

/* The exported API functions that call the hooks. */
static const unsigned long edgedma_api_funcs[] = {
	(unsigned long)dma_map_page_attrs,
	(unsigned long)dma_unmap_page_attrs,
	(unsigned long)dma_map_sg_attrs,
	(unsigned long)dma_map_sgtable,
	(unsigned long)dma_unmap_sg_attrs,
	(unsigned long)dma_map_resource,
	(unsigned long)dma_unmap_resource,
	(unsigned long)dma_alloc_attrs,
	(unsigned long)dma_free_attrs,
	(unsigned long)dma_alloc_pages,
	(unsigned long)dma_free_pages,
#ifdef EDGEDMA_HAVE_DMA_SYNC_HOOKS
	(unsigned long)edgedma_dma_sync_single_for_cpu,
	(unsigned long)edgedma_dma_sync_single_for_device,
	(unsigned long)edgedma_dma_sync_sg_for_cpu,
	(unsigned long)edgedma_dma_sync_sg_for_device,
#endif
};

#define EDGEDMA_NR_API_FUNCS	ARRAY_SIZE(edgedma_api_funcs)

/*
 * The other functions kernel/dma/mapping.c exports on every kernel from
 * 5.10: with the ones above they bound the text of the DMA core, whose
 * static helpers (__dma_map_sg_attrs, ...) lie among them.
 */
static const unsigned long edgedma_core_funcs[] = {
	(unsigned long)dmam_free_coherent,
	(unsigned long)dmam_alloc_attrs,
	(unsigned long)dma_get_sgtable_attrs,
	(unsigned long)dma_can_mmap,
	(unsigned long)dma_mmap_attrs,
	(unsigned long)dma_get_required_mask,
	(unsigned long)dma_set_mask,
	(unsigned long)dma_set_coherent_mask,
	(unsigned long)dma_max_mapping_size,
	(unsigned long)dma_need_sync,
	(unsigned long)dma_get_merge_boundary,
};

/*
 * kernel/dma/mapping.c's static functions: where the compiler put one just
 * outside the exported ones (arm64's 6.1 has __dma_map_sg_attrs right
 * below them all), the span grows over it.
 */
static const char *const edgedma_core_statics[] = {
	"dmam_release", "dmam_match", "dma_go_direct", "__dma_map_sg_attrs",
	"__dma_alloc_pages", "__dma_free_pages", "alloc_single_sgt",
	"free_single_sgt", "dma_supported",
};

/* [start, end) of each function in edgedma_api_funcs, read-only once set. */
static unsigned long edgedma_api_end[EDGEDMA_NR_API_FUNCS];
unsigned long edgedma_api_lowest, edgedma_api_highest;

struct edgedma_caller_layout edgedma_caller_layouts[EDGEDMA_CALLER_LAYOUTS];
atomic_t edgedma_caller_layouts_claimed = ATOMIC_INIT(0);

static bool edgedma_core_static(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(edgedma_core_statics); i++)
		if (!strcmp(name, edgedma_core_statics[i]))
			return true;
	return false;
}

static void edgedma_span_add(unsigned long start, unsigned long end)
{
	if (!edgedma_api_highest || start < edgedma_api_lowest)
		edgedma_api_lowest = start;
	edgedma_api_highest = max(edgedma_api_highest, end);
}

int edgedma_hook_caller_init(void)
{
	unsigned long start, size;
	char sym[KSYM_SYMBOL_LEN];
	bool in_module;
	unsigned int i;

	edgedma_api_lowest = edgedma_api_highest = 0;
	for (i = 0; i < EDGEDMA_NR_API_FUNCS; i++) {
		if (!edgedma_function_at(edgedma_api_funcs[i], sym, &start, &size,
					 &in_module) || start != edgedma_api_funcs[i]) {
			pr_err("kallsyms gives no size for %ps: cannot tell callers\n",
			       (void *)edgedma_api_funcs[i]);
			return -ENOENT;
		}
		/*
		 * An inline API function (dma_map_sgtable() before 5.13) has
		 * its address in our own copy: no driver calls through it.
		 */
		edgedma_api_end[i] = in_module ? start : start + size;
		if (!in_module)
			edgedma_span_add(start, start + size);
	}
	for (i = 0; i < ARRAY_SIZE(edgedma_core_funcs); i++)
		if (edgedma_function_at(edgedma_core_funcs[i], sym, &start, &size,
					&in_module) && !in_module)
			edgedma_span_add(start, start + size);
	/* Static helpers just outside, one function at a time. */
	while (edgedma_function_at(edgedma_api_lowest - 1, sym, &start, &size,
				   &in_module) && !in_module && edgedma_core_static(sym))
		edgedma_api_lowest = start;
	while (edgedma_function_at(edgedma_api_highest, sym, &start, &size,
				   &in_module) && !in_module && start == edgedma_api_highest &&
	       edgedma_core_static(sym))
		edgedma_api_highest = start + size;
	return 0;
}

bool edgedma_in_api_functions(unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < EDGEDMA_NR_API_FUNCS; i++)
		if (addr >= edgedma_api_funcs[i] && addr < edgedma_api_end[i])
			return true;
	return false;
}

/*
 * The return address into the API's caller in a stack trace: the frame
 * past the first run of frames inside API functions, the last of which is
 * left in *api_ret. 0 if the trace has none.
 */
static unsigned long edgedma_caller_unwound(unsigned long *api_ret)
{
	unsigned long entries[EDGEDMA_CALLER_STACK_LONG];
	unsigned int nr, i, limit = EDGEDMA_CALLER_STACK_SHORT;
	bool in_api;

	for (;;) {
		nr = stack_trace_save(entries, limit, 0);
		in_api = false;
		for (i = 0; i < nr; i++) {
			if (edgedma_in_api(entries[i])) {
				in_api = true;
				*api_ret = entries[i];
			} else if (in_api) {
				return entries[i];
			}
		}
		if (nr < limit || limit == EDGEDMA_CALLER_STACK_LONG)
			return 0;
		limit = EDGEDMA_CALLER_STACK_LONG;
	}
}

/* A slot off the task's stack (an interrupt stack): a read that may fault. */
noinline bool edgedma_caller_foreign_word(unsigned long at, unsigned long *word)
{
	unsigned long w;

	if (get_kernel_nofault(w, (unsigned long *)at))
		return false;
	*word = edgedma_strip_code_pointer(w);
	return true;
}

/*
 * The one slot in [from, EDGEDMA_CALLER_SCAN_BYTES) holding @value. Holes in
 * the frames (padding, locals not yet written) keep words of earlier,
 * deeper calls, and those include the same return addresses: a value seen
 * twice cannot tell which slot the live call pushed, so nothing is learned
 * from this call and a later one tries again.
 */
static bool edgedma_caller_find_slot(const struct edgedma_caller_stack *stack,
				     unsigned int from, unsigned long value,
				     unsigned int *off)
{
	unsigned int at, found = 0;
	unsigned long w;

	for (at = from; at < EDGEDMA_CALLER_SCAN_BYTES; at += sizeof(unsigned long)) {
		if (!edgedma_caller_stack_word(stack, at, &w) || w != value)
			continue;
		if (found++)
			return false;
		*off = at;
	}
	return found == 1;
}

static void edgedma_caller_learn_layout(unsigned long hook_ret,
					const struct edgedma_caller_stack *stack,
					unsigned long api_ret, unsigned long caller)
{
	struct edgedma_caller_layout *l;
	unsigned int api_off, caller_off, n;

	if (!edgedma_caller_find_slot(stack, 0, api_ret, &api_off) ||
	    !edgedma_caller_find_slot(stack, 0, caller, &caller_off) ||
	    caller_off <= api_off)
		return;
	n = atomic_inc_return(&edgedma_caller_layouts_claimed);
	if (n > EDGEDMA_CALLER_LAYOUTS)
		return;
	l = &edgedma_caller_layouts[n - 1];
	l->hook_ret = hook_ret;
	l->api_ret = api_ret;
	l->api_off = api_off;
	l->caller_off = caller_off;
	smp_store_release(&l->ready, true);
}

noinline unsigned long edgedma_caller_slow(unsigned long hook_ret,
					   const struct edgedma_caller_stack *stack)
{
	unsigned long api_ret = 0, caller;

	caller = edgedma_caller_unwound(&api_ret);
	if (caller)
		edgedma_caller_learn_layout(hook_ret, stack, api_ret, caller);
	return caller;
}
