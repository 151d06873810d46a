/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who called the DMA-mapping API, for a hook that runs below the API
 * function rather than at its entry or return: a tracepoint probe (fired
 * inside the API function) or a wrapper of the device's dma_map_ops
 * (called by it). Such a hook has no kretprobe to hand it the return
 * address into the driver.
 *
 * The hook takes a short stack trace and reports the first frame past the
 * run of API frames: the same return address a kretprobe on the API
 * function sees. The API functions are exported, so their addresses are
 * known; their sizes come from kallsyms once, at start.
 *
 * Unwinding the stack is what a hook would cost most by far (about 6 us a
 * call on an x86_64 TCG guest with ORC, 4 us on arm64), and a given chain of
 * calls always lays its frames out the same way. So the first unwind of
 * each chain also finds where on the stack, relative to the hook's stack
 * pointer, the two return addresses it used were pushed: the one into the
 * API function and the one into the caller. Later calls down the same chain
 * read the caller straight from its slot.
 *
 * A chain is told by two return addresses: the hook's own (into the API
 * function, into a static helper of it, or into the tracepoint iterator when
 * other probes share the event) and the one into the API function (which
 * call site, so which of the API functions sharing an event or an ops
 * member, e.g. dma_map_sg_attrs and dma_map_sgtable). When both match, the
 * frames between the hook and the caller are the ones measured, so both
 * slots hold return addresses that live calls pushed: nothing stale is read,
 * as long as the slots were told apart from stale copies of the same values
 * when they were learned (hook_caller.c). Anything else takes the unwinder,
 * and teaches a new layout while there is room.
 */
#ifndef _EDGEDMA_HOOK_CALLER_H
#define _EDGEDMA_HOOK_CALLER_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/sched/task_stack.h>
#include <linux/types.h>

#include "compat.h"

#define EDGEDMA_CALLER_LAYOUTS		32
/* Farthest a slot is looked for above the hook's stack pointer. */
#define EDGEDMA_CALLER_SCAN_BYTES	1024

struct edgedma_caller_layout {
	unsigned long hook_ret;
	unsigned long api_ret;
	unsigned int api_off;		/* bytes above the hook's sp */
	unsigned int caller_off;
	bool ready;			/* published: the rest is read-only */
};

extern struct edgedma_caller_layout edgedma_caller_layouts[EDGEDMA_CALLER_LAYOUTS];
extern atomic_t edgedma_caller_layouts_claimed;
/* The span of the API functions: most addresses (a driver's) are outside it. */
extern unsigned long edgedma_api_lowest, edgedma_api_highest;

/* Sizes the API functions from kallsyms; before the first hook goes in. */
int edgedma_hook_caller_init(void);

bool edgedma_in_api_functions(unsigned long addr);

static __always_inline bool edgedma_in_api(unsigned long addr)
{
	if (addr < edgedma_api_lowest || addr >= edgedma_api_highest)
		return false;
	return edgedma_in_api_functions(addr);
}

/*
 * The hook's stack pointer and the task stack it is on, read once per
 * call: every slot read below checks against them.
 */
struct edgedma_caller_stack {
	unsigned long sp;
	unsigned long low, high;	/* the task's stack */
};

static __always_inline void edgedma_caller_stack_of(struct edgedma_caller_stack *s,
						    unsigned long sp)
{
	s->sp = sp;
	s->low = (unsigned long)task_stack_page(current);
	s->high = s->low + THREAD_SIZE;
}

bool edgedma_caller_foreign_word(unsigned long at, unsigned long *word);

/*
 * Within the task's stack, where a process-context call runs, a plain read
 * (not instrumented: the slot is in another function's frame). Elsewhere
 * (an interrupt stack) slots of a foreign chain may sit past the stack's
 * end: a read that may fault, which costs more. Inline: the hooks read
 * two slots per call.
 */
static __always_inline bool edgedma_caller_stack_word(const struct edgedma_caller_stack *s,
						      unsigned int off, unsigned long *word)
{
	unsigned long at = s->sp + off;

	if (unlikely(s->sp < s->low || at + sizeof(*word) > s->high))
		return edgedma_caller_foreign_word(at, word);
	*word = edgedma_strip_code_pointer(READ_ONCE_NOCHECK(*(unsigned long *)at));
	return true;
}

/* Unwinds, and learns this chain's layout while there is room. */
unsigned long edgedma_caller_slow(unsigned long hook_ret,
				  const struct edgedma_caller_stack *stack);

/*
 * The return address into the API's caller, or 0. Inline in every hook: the
 * return address and stack pointer are the hook's, whose frame does not
 * change from call to call.
 */
static __always_inline unsigned long edgedma_hook_caller(void)
{
	unsigned long hook_ret = (unsigned long)__builtin_return_address(0);
	unsigned int i, n = min_t(unsigned int, EDGEDMA_CALLER_LAYOUTS,
				  atomic_read(&edgedma_caller_layouts_claimed));
	struct edgedma_caller_stack stack;
	unsigned long api_ret, caller;

	edgedma_caller_stack_of(&stack, current_stack_pointer);
	for (i = 0; i < n; i++) {
		const struct edgedma_caller_layout *l = &edgedma_caller_layouts[i];

		if (!smp_load_acquire(&l->ready) || l->hook_ret != hook_ret)
			continue;
		if (!edgedma_caller_stack_word(&stack, l->api_off, &api_ret) ||
		    api_ret != l->api_ret)
			continue;
		if (edgedma_caller_stack_word(&stack, l->caller_off, &caller) &&
		    caller && !edgedma_in_api(caller))
			return caller;
	}
	return edgedma_caller_slow(hook_ret, &stack);
}

/*
 * The same for a wrapper in a device's dma_map_ops table, which the DMA
 * core calls. Where the call is the last thing the core's function does
 * (dma_map_page_attrs() without DMA-API debug), the compiler makes it a
 * tail jump: the core's frame is gone and the wrapper returns straight into
 * the driver. A return address outside the DMA core's text (the span of
 * kernel/dma/mapping.c's functions, hook_caller.c) is therefore the caller
 * itself; inside, the core still has its frame and the caller is found
 * past it.
 */
static __always_inline unsigned long edgedma_table_hook_caller(void)
{
	unsigned long ret = (unsigned long)__builtin_return_address(0);
	unsigned long addr = edgedma_strip_code_pointer(ret);

	if (addr < edgedma_api_lowest || addr >= edgedma_api_highest)
		return addr;
	return edgedma_hook_caller();
}

#endif /* _EDGEDMA_HOOK_CALLER_H */
