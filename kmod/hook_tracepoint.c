// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint mode: probes on the kernel's dma trace events (6.12 on).
 *
 * The events' symbols are not exported: for_each_kernel_tracepoint() finds
 * them by name and tracepoint_probe_register() attaches a probe with the
 * event's TP_PROTO signature (void *data first), which the compiler checks
 * against <trace/events/dma.h>.
 *
 * The events do not say who called the API. The probe takes a short stack
 * trace and reports the first frame past the DMA-mapping API function that
 * fired the event: the same return address a kretprobe on that function
 * sees. The API functions are exported, so their addresses are known; their
 * sizes come from kallsyms once, at start.
 *
 * Events left out on purpose:
 *  - dma_map_sg_err, dma_alloc_sgt_err: failed calls, which are not
 *    reported (a failed dma_map_page or dma_map_resource fires the normal
 *    event with DMA_MAPPING_ERROR, a failed allocation dma_alloc or
 *    dma_alloc_pages with a NULL address: those are dropped below);
 *  - dma_alloc_sgt, dma_free_sgt: dma_alloc_noncontiguous() and its free,
 *    which no enum edgedma_call_kind covers and kprobe mode does not hook
 *    either: the two modes must add them together.
 *
 * 6.12's dma_free_attrs() fires no event for memory it returns to a
 * per-device coherent pool (dma_release_from_dev_coherent()), while
 * dma_alloc_attrs() fires dma_alloc for memory taken from one; kprobe mode
 * sees both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/dma-mapping.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <trace/events/dma.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "edgedma.h"
#include "hook.h"

/*
 * Frames a trace holds up to the caller: the probe, the tracepoint's
 * iterator, a static helper of the API (__dma_map_sg_attrs), the API
 * function, the caller. A short trace comes first, and a long one only when
 * the short one fills up before reaching the caller.
 */
#define EDGEDMA_TP_STACK_SHORT	8
#define EDGEDMA_TP_STACK_LONG	32

/* The exported API functions that fire the events we attach to. */
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

/* [start, end) of each function in edgedma_api_funcs, read-only once set. */
static unsigned long edgedma_api_end[EDGEDMA_NR_API_FUNCS];
/* The span of them all: most addresses (a driver's) are outside it. */
static unsigned long edgedma_api_lowest, edgedma_api_highest;

/* Each function's size, from kallsyms: "name+0x0/0xSIZE [module]". */
static int edgedma_api_ranges_init(void)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long offset, size;
	unsigned int i;
	const char *at;

	for (i = 0; i < EDGEDMA_NR_API_FUNCS; i++) {
		sprint_symbol(sym, edgedma_api_funcs[i]);
		at = strchr(sym, '+');
		if (!at || sscanf(at, "+%lx/%lx", &offset, &size) != 2 ||
		    offset || !size) {
			pr_err("kallsyms gives no size for %ps (\"%s\"): cannot tell callers\n",
			       (void *)edgedma_api_funcs[i], sym);
			return -ENOENT;
		}
		edgedma_api_end[i] = edgedma_api_funcs[i] + size;
		if (!i || edgedma_api_funcs[i] < edgedma_api_lowest)
			edgedma_api_lowest = edgedma_api_funcs[i];
		edgedma_api_highest = max(edgedma_api_highest, edgedma_api_end[i]);
	}
	return 0;
}

static bool edgedma_in_api(unsigned long addr)
{
	unsigned int i;

	if (addr < edgedma_api_lowest || addr >= edgedma_api_highest)
		return false;
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
static unsigned long edgedma_tp_caller_unwound(unsigned long *api_ret)
{
	unsigned long entries[EDGEDMA_TP_STACK_LONG];
	unsigned int nr, i, limit = EDGEDMA_TP_STACK_SHORT;
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
		if (nr < limit || limit == EDGEDMA_TP_STACK_LONG)
			return 0;
		limit = EDGEDMA_TP_STACK_LONG;
	}
}

/*
 * Unwinding the stack is what a probe would cost most by far (about 6 us a
 * call on an x86_64 TCG guest with ORC, 4 us on arm64), and a given chain of
 * calls always lays its frames out the same way. So the first unwind of
 * each chain also finds where on the stack, relative to the probe's stack
 * pointer, the two return addresses it used were pushed: the one into the
 * API function and the one into the caller. Later calls down the same chain
 * read the caller straight from its slot.
 *
 * A chain is told by two return addresses: the probe's own (into the API
 * function, or into the tracepoint iterator when other probes share the
 * event) and the one into the API function (which call site, so which of
 * the API functions sharing an event, e.g. dma_map_sg_attrs and
 * dma_map_sgtable for dma_map_sg). When both match, the frames between
 * the probe and the caller are the ones measured, so both slots hold
 * return addresses that live calls pushed: nothing stale is read, as long
 * as the slots were told apart from stale copies of the same values when
 * they were learned (edgedma_tp_find_slot()). Anything else takes the
 * unwinder, and teaches a new layout while there is room.
 */
#define EDGEDMA_TP_LAYOUTS	32
/* Farthest a slot is looked for above the probe's stack pointer. */
#define EDGEDMA_TP_SCAN_BYTES	1024

struct edgedma_tp_layout {
	unsigned long probe_ret;
	unsigned long api_ret;
	unsigned int api_off;		/* bytes above the probe's sp */
	unsigned int caller_off;
	bool ready;			/* published: the rest is read-only */
};

static struct edgedma_tp_layout edgedma_tp_layouts[EDGEDMA_TP_LAYOUTS];
static atomic_t edgedma_tp_layouts_claimed = ATOMIC_INIT(0);

/*
 * The probe's stack pointer and the task stack it is on, read once per
 * probe: every slot read below checks against them.
 */
struct edgedma_tp_stack {
	unsigned long sp;
	unsigned long low, high;	/* the task's stack */
};

static __always_inline void edgedma_tp_stack_of(struct edgedma_tp_stack *s,
						unsigned long sp)
{
	s->sp = sp;
	s->low = (unsigned long)task_stack_page(current);
	s->high = s->low + THREAD_SIZE;
}

/* A slot off the task's stack (an interrupt stack): a read that may fault. */
static noinline bool edgedma_tp_foreign_word(unsigned long at, unsigned long *word)
{
	unsigned long w;

	if (get_kernel_nofault(w, (unsigned long *)at))
		return false;
	*word = edgedma_strip_code_pointer(w);
	return true;
}

/*
 * Within the task's stack, where a process-context call runs, a plain read
 * (not instrumented: the slot is in another function's frame). Elsewhere
 * (an interrupt stack) slots of a foreign chain may sit past the stack's
 * end: a read that may fault, which costs more. Inline: the probes read
 * two slots per call.
 */
static __always_inline bool edgedma_tp_stack_word(const struct edgedma_tp_stack *s,
						  unsigned int off, unsigned long *word)
{
	unsigned long at = s->sp + off;

	if (unlikely(s->sp < s->low || at + sizeof(*word) > s->high))
		return edgedma_tp_foreign_word(at, word);
	*word = edgedma_strip_code_pointer(READ_ONCE_NOCHECK(*(unsigned long *)at));
	return true;
}

/*
 * The one slot in [from, EDGEDMA_TP_SCAN_BYTES) holding @value. Holes in
 * the frames (padding, locals not yet written) keep words of earlier,
 * deeper calls, and those include the same return addresses: a value seen
 * twice cannot tell which slot the live call pushed, so nothing is learned
 * from this call and a later one tries again.
 */
static bool edgedma_tp_find_slot(const struct edgedma_tp_stack *stack, unsigned int from,
				 unsigned long value, unsigned int *off)
{
	unsigned int at, found = 0;
	unsigned long w;

	for (at = from; at < EDGEDMA_TP_SCAN_BYTES; at += sizeof(unsigned long)) {
		if (!edgedma_tp_stack_word(stack, at, &w) || w != value)
			continue;
		if (found++)
			return false;
		*off = at;
	}
	return found == 1;
}

static void edgedma_tp_learn_layout(unsigned long probe_ret,
				    const struct edgedma_tp_stack *stack,
				    unsigned long api_ret, unsigned long caller)
{
	struct edgedma_tp_layout *l;
	unsigned int api_off, caller_off, n;

	if (!edgedma_tp_find_slot(stack, 0, api_ret, &api_off) ||
	    !edgedma_tp_find_slot(stack, 0, caller, &caller_off) ||
	    caller_off <= api_off)
		return;
	n = atomic_inc_return(&edgedma_tp_layouts_claimed);
	if (n > EDGEDMA_TP_LAYOUTS)
		return;
	l = &edgedma_tp_layouts[n - 1];
	l->probe_ret = probe_ret;
	l->api_ret = api_ret;
	l->api_off = api_off;
	l->caller_off = caller_off;
	smp_store_release(&l->ready, true);
}

static noinline unsigned long
edgedma_tp_caller_slow(unsigned long probe_ret, const struct edgedma_tp_stack *stack)
{
	unsigned long api_ret = 0, caller;

	caller = edgedma_tp_caller_unwound(&api_ret);
	if (caller)
		edgedma_tp_learn_layout(probe_ret, stack, api_ret, caller);
	return caller;
}

/*
 * Inline in every probe: the return address and stack pointer are the
 * probe's, whose frame does not change from call to call.
 */
static __always_inline unsigned long edgedma_tp_caller(void)
{
	unsigned long probe_ret = (unsigned long)__builtin_return_address(0);
	unsigned int i, n = min_t(unsigned int, EDGEDMA_TP_LAYOUTS,
				  atomic_read(&edgedma_tp_layouts_claimed));
	struct edgedma_tp_stack stack;
	unsigned long api_ret, caller;

	edgedma_tp_stack_of(&stack, current_stack_pointer);
	for (i = 0; i < n; i++) {
		const struct edgedma_tp_layout *l = &edgedma_tp_layouts[i];

		if (!smp_load_acquire(&l->ready) || l->probe_ret != probe_ret)
			continue;
		if (!edgedma_tp_stack_word(&stack, l->api_off, &api_ret) ||
		    api_ret != l->api_ret)
			continue;
		if (edgedma_tp_stack_word(&stack, l->caller_off, &caller) &&
		    caller && !edgedma_in_api(caller))
			return caller;
	}
	return edgedma_tp_caller_slow(probe_ret, &stack);
}

static void edgedma_tp_map_page(void *data, struct device *dev,
				phys_addr_t phys, dma_addr_t dma_addr,
				size_t size, enum dma_data_direction dir,
				unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (dma_addr == DMA_MAPPING_ERROR)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_MAP_PAGE, dev, dir,
			  edgedma_tp_caller());
	call.phys = phys;
	call.cpu_addr = edgedma_linear_addr(phys);
	call.dma_addr = dma_addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_tp_map_resource(void *data, struct device *dev,
				    phys_addr_t phys, dma_addr_t dma_addr,
				    size_t size, enum dma_data_direction dir,
				    unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (dma_addr == DMA_MAPPING_ERROR)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_MAP_RESOURCE, dev, dir,
			  edgedma_tp_caller());
	call.phys = phys;
	call.dma_addr = dma_addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

/* Inline: each unmap event's probe is then one function, not two. */
static __always_inline void edgedma_tp_unmap(u32 kind, struct device *dev,
					     dma_addr_t addr, size_t size,
					     enum dma_data_direction dir,
					     unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, kind, dev, dir, edgedma_tp_caller());
	call.dma_addr = addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_tp_unmap_page(void *data, struct device *dev,
				  dma_addr_t addr, size_t size,
				  enum dma_data_direction dir,
				  unsigned long attrs)
{
	edgedma_tp_unmap(EDGEDMA_CALL_UNMAP_PAGE, dev, addr, size, dir, attrs);
}

static void edgedma_tp_unmap_resource(void *data, struct device *dev,
				      dma_addr_t addr, size_t size,
				      enum dma_data_direction dir,
				      unsigned long attrs)
{
	edgedma_tp_unmap(EDGEDMA_CALL_UNMAP_RESOURCE, dev, addr, size, dir,
			 attrs);
}

/* dma_alloc: dma_alloc_attrs(); dir is always DMA_BIDIRECTIONAL. */
static void edgedma_tp_alloc(void *data, struct device *dev, void *virt_addr,
			     dma_addr_t dma_addr, size_t size,
			     enum dma_data_direction dir, gfp_t flags,
			     unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (!virt_addr)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_ALLOC_COHERENT, dev, dir,
			  edgedma_tp_caller());
	call.dma_addr = dma_addr;
	call.cpu_addr = virt_addr;
	call.phys = edgedma_linear_phys(virt_addr);
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

/* dma_free: dma_free_attrs(), which fires it for NULL too (a no-op). */
static void edgedma_tp_free(void *data, struct device *dev, void *virt_addr,
			    dma_addr_t dma_addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (!virt_addr)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_FREE_COHERENT, dev, dir,
			  edgedma_tp_caller());
	/* A probe runs in its caller's context (after the core's WARN). */
	call.caller_irqs_off = irqs_disabled();
	call.dma_addr = dma_addr;
	call.cpu_addr = virt_addr;
	call.size = size;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

/*
 * dma_alloc_pages, dma_free_pages: virt_addr is page_to_virt(page), a
 * linear-map address on the 64-bit kernels edgedma supports, so __pa() of
 * it is page_to_phys(page), what kprobe mode computes.
 */
static void edgedma_tp_alloc_pages(void *data, struct device *dev,
				   void *virt_addr, dma_addr_t dma_addr,
				   size_t size, enum dma_data_direction dir,
				   gfp_t flags, unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	if (!virt_addr)
		return;
	edgedma_call_init(&call, EDGEDMA_CALL_ALLOC_PAGES, dev, dir,
			  edgedma_tp_caller());
	call.dma_addr = dma_addr;
	call.phys = __pa(virt_addr);
	call.cpu_addr = edgedma_linear_addr(call.phys);
	call.size = size;
	edgedma_track_call(&call);
}

static void edgedma_tp_free_pages(void *data, struct device *dev,
				  void *virt_addr, dma_addr_t dma_addr,
				  size_t size, enum dma_data_direction dir,
				  unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, EDGEDMA_CALL_FREE_PAGES, dev, dir,
			  edgedma_tp_caller());
	call.dma_addr = dma_addr;
	call.phys = __pa(virt_addr);
	call.size = size;
	edgedma_track_call(&call);
}

/* dma_map_sg: fired only when entries were mapped (ents > 0). */
static void edgedma_tp_map_sg(void *data, struct device *dev,
			      struct scatterlist *sgl, int nents, int ents,
			      enum dma_data_direction dir, unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, EDGEDMA_CALL_MAP_SG, dev, dir,
			  edgedma_tp_caller());
	call.sgl = sgl;
	call.nents = nents;
	call.mapped_nents = ents;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_tp_unmap_sg(void *data, struct device *dev,
				struct scatterlist *sgl, int nents,
				enum dma_data_direction dir,
				unsigned long attrs)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, EDGEDMA_CALL_UNMAP_SG, dev, dir,
			  edgedma_tp_caller());
	call.sgl = sgl;
	call.nents = nents;
	call.attrs = attrs;
	edgedma_track_call(&call);
}

static void edgedma_tp_sync_single(u32 kind, struct device *dev,
				   dma_addr_t dma_addr, size_t size,
				   enum dma_data_direction dir)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, kind, dev, dir, edgedma_tp_caller());
	call.dma_addr = dma_addr;
	call.size = size;
	edgedma_track_call(&call);
}

static void edgedma_tp_sync_single_for_cpu(void *data, struct device *dev,
					   dma_addr_t dma_addr, size_t size,
					   enum dma_data_direction dir)
{
	edgedma_tp_sync_single(EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU, dev, dma_addr,
			       size, dir);
}

static void edgedma_tp_sync_single_for_device(void *data, struct device *dev,
					      dma_addr_t dma_addr, size_t size,
					      enum dma_data_direction dir)
{
	edgedma_tp_sync_single(EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE, dev,
			       dma_addr, size, dir);
}

static void edgedma_tp_sync_sg(u32 kind, struct device *dev,
			       struct scatterlist *sgl, int nents,
			       enum dma_data_direction dir)
{
	struct edgedma_call call __uninitialized;

	edgedma_call_init(&call, kind, dev, dir, edgedma_tp_caller());
	call.sgl = sgl;
	call.nents = nents;
	edgedma_track_call(&call);
}

static void edgedma_tp_sync_sg_for_cpu(void *data, struct device *dev,
				       struct scatterlist *sgl, int nents,
				       enum dma_data_direction dir)
{
	edgedma_tp_sync_sg(EDGEDMA_CALL_SYNC_SG_FOR_CPU, dev, sgl, nents, dir);
}

static void edgedma_tp_sync_sg_for_device(void *data, struct device *dev,
					  struct scatterlist *sgl, int nents,
					  enum dma_data_direction dir)
{
	edgedma_tp_sync_sg(EDGEDMA_CALL_SYNC_SG_FOR_DEVICE, dev, sgl, nents,
			   dir);
}

/* hook_floor: one empty probe per event class. */
static void edgedma_tp_floor_map(void *data, struct device *dev,
				 phys_addr_t phys, dma_addr_t dma_addr,
				 size_t size, enum dma_data_direction dir,
				 unsigned long attrs)
{
}

static void edgedma_tp_floor_unmap(void *data, struct device *dev,
				   dma_addr_t addr, size_t size,
				   enum dma_data_direction dir,
				   unsigned long attrs)
{
}

static void edgedma_tp_floor_alloc(void *data, struct device *dev,
				   void *virt_addr, dma_addr_t dma_addr,
				   size_t size, enum dma_data_direction dir,
				   gfp_t flags, unsigned long attrs)
{
}

static void edgedma_tp_floor_free(void *data, struct device *dev,
				  void *virt_addr, dma_addr_t dma_addr,
				  size_t size, enum dma_data_direction dir,
				  unsigned long attrs)
{
}

static void edgedma_tp_floor_map_sg(void *data, struct device *dev,
				    struct scatterlist *sgl, int nents,
				    int ents, enum dma_data_direction dir,
				    unsigned long attrs)
{
}

static void edgedma_tp_floor_unmap_sg(void *data, struct device *dev,
				      struct scatterlist *sgl, int nents,
				      enum dma_data_direction dir,
				      unsigned long attrs)
{
}

static void edgedma_tp_floor_sync_single(void *data, struct device *dev,
					 dma_addr_t dma_addr, size_t size,
					 enum dma_data_direction dir)
{
}

static void edgedma_tp_floor_sync_sg(void *data, struct device *dev,
				     struct scatterlist *sgl, int nents,
				     enum dma_data_direction dir)
{
}

/*
 * The events attached to: event, its probe, its floor probe (by event
 * class). An X-macro, so that the table and the prototype checks below
 * cannot drift apart.
 */
/*
 * Attached in this order, and the order matters: a mapping made once its
 * map event is watched but undone before its unmap event is, would stay in
 * the table for good (a leak at unbind). Ends of mappings are watched first;
 * a mapping made before its map event is watched is unknown, which is what
 * the device's incomplete view (devices.h) is for.
 */
#define EDGEDMA_TP_EVENTS(X)						\
	X(dma_unmap_page, unmap_page, unmap)				\
	X(dma_unmap_resource, unmap_resource, unmap)			\
	X(dma_free, free, free)						\
	X(dma_free_pages, free_pages, free)				\
	X(dma_unmap_sg, unmap_sg, unmap_sg)				\
	X(dma_sync_single_for_cpu, sync_single_for_cpu, sync_single)	\
	X(dma_sync_single_for_device, sync_single_for_device, sync_single) \
	X(dma_sync_sg_for_cpu, sync_sg_for_cpu, sync_sg)		\
	X(dma_sync_sg_for_device, sync_sg_for_device, sync_sg)		\
	X(dma_map_page, map_page, map)					\
	X(dma_map_resource, map_resource, map)				\
	X(dma_alloc, alloc, alloc)					\
	X(dma_alloc_pages, alloc_pages, alloc)				\
	X(dma_map_sg, map_sg, map_sg)

/*
 * The compiler checks every probe against its event's TP_PROTO: one
 * never-called function per event passes both probes to the check the
 * event's declaration provides.
 */
#define EDGEDMA_TP_CHECK(event, probe, floor)				\
static void __maybe_unused edgedma_tp_check_##event(void)		\
{									\
	check_trace_callback_type_##event(edgedma_tp_##probe);		\
	check_trace_callback_type_##event(edgedma_tp_floor_##floor);	\
}

EDGEDMA_TP_EVENTS(EDGEDMA_TP_CHECK)

struct edgedma_tp_def {
	const char *event;
	void *probe;
	void *floor;
};

#define EDGEDMA_TP_DEF(event, probe, floor)				\
	{ #event, edgedma_tp_##probe, edgedma_tp_floor_##floor },

static const struct edgedma_tp_def edgedma_tp_defs[] = {
	EDGEDMA_TP_EVENTS(EDGEDMA_TP_DEF)
};

#define EDGEDMA_NR_TP	ARRAY_SIZE(edgedma_tp_defs)

/* What start attached, for stop. */
static struct tracepoint *edgedma_tp_points[EDGEDMA_NR_TP];
static void *edgedma_tp_probes[EDGEDMA_NR_TP];

static void edgedma_tp_match(struct tracepoint *tp, void *priv)
{
	struct tracepoint **found = priv;
	unsigned int i;

	for (i = 0; i < EDGEDMA_NR_TP; i++)
		if (!strcmp(tp->name, edgedma_tp_defs[i].event))
			found[i] = tp;
}

/* Fill found[] with the events, by name; NULL or the first one missing. */
static const char *edgedma_tp_lookup(struct tracepoint **found)
{
	unsigned int i;

	memset(found, 0, sizeof(*found) * EDGEDMA_NR_TP);
	for_each_kernel_tracepoint(edgedma_tp_match, found);
	for (i = 0; i < EDGEDMA_NR_TP; i++)
		if (!found[i])
			return edgedma_tp_defs[i].event;
	return NULL;
}

bool edgedma_tracepoint_present(void)
{
	struct tracepoint *found[EDGEDMA_NR_TP];

	return !edgedma_tp_lookup(found);
}

int edgedma_tracepoint_start(bool floor)
{
	const char *missing;
	unsigned int i;
	int err;

	missing = edgedma_tp_lookup(edgedma_tp_points);
	if (missing) {
		pr_err("this kernel has no %s trace event\n", missing);
		return -EOPNOTSUPP;
	}
	err = edgedma_api_ranges_init();
	if (err)
		return err;

	for (i = 0; i < EDGEDMA_NR_TP; i++) {
		edgedma_tp_probes[i] = floor ? edgedma_tp_defs[i].floor :
					       edgedma_tp_defs[i].probe;
		err = tracepoint_probe_register(edgedma_tp_points[i],
						edgedma_tp_probes[i], NULL);
		if (err) {
			pr_err("cannot attach to the %s trace event: %d\n",
			       edgedma_tp_defs[i].event, err);
			goto err_unregister;
		}
	}
	return 0;

err_unregister:
	while (i--)
		tracepoint_probe_unregister(edgedma_tp_points[i],
					    edgedma_tp_probes[i], NULL);
	tracepoint_synchronize_unregister();
	return err;
}

/* After this no probe of ours runs anywhere. */
void edgedma_tracepoint_stop(void)
{
	unsigned int i;

	for (i = 0; i < EDGEDMA_NR_TP; i++)
		tracepoint_probe_unregister(edgedma_tp_points[i],
					    edgedma_tp_probes[i], NULL);
	tracepoint_synchronize_unregister();
}
