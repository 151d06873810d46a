// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching to the DMA-mapping API: which ways this kernel offers, the
 * hook= and hook_floor= parameters, and starting and stopping the way
 * chosen.
 *
 * Tracepoint mode (hook_tracepoint.c) needs the kernel's dma trace events
 * (6.12 on) and finds them at run time, since their symbols are not
 * exported. Kprobe mode (hook_kprobe.c) needs kprobes and kretprobes built
 * in. Ops mode (hook_ops.c) needs CONFIG_DMA_OPS (before 6.12) and nothing
 * else: it is what vendor kernels without kprobes get. All hand identical
 * records to edgedma_track_call().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "edgedma.h"
#include "hook.h"

enum edgedma_hook_request {
	EDGEDMA_HOOK_AUTO,
	EDGEDMA_HOOK_TRACEPOINT,
	EDGEDMA_HOOK_KPROBE,
	EDGEDMA_HOOK_OPS,
};

static const char * const edgedma_hook_names[] = {
	[EDGEDMA_HOOK_AUTO] = "auto",
	[EDGEDMA_HOOK_TRACEPOINT] = "tracepoint",
	[EDGEDMA_HOOK_KPROBE] = "kprobe",
	[EDGEDMA_HOOK_OPS] = "ops",
};

static unsigned int edgedma_hook_request = EDGEDMA_HOOK_AUTO;
static bool edgedma_floor_requested;
u32 edgedma_hook_active;
u64 edgedma_hooks_armed_ns = U64_MAX;

static int edgedma_hook_param_set(const char *val,
				  const struct kernel_param *kp)
{
	int i = sysfs_match_string(edgedma_hook_names, val);

	if (i < 0)
		return -EINVAL;
	*(unsigned int *)kp->arg = i;
	return 0;
}

static int edgedma_hook_param_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%s\n",
			 edgedma_hook_names[*(unsigned int *)kp->arg]);
}

static const struct kernel_param_ops edgedma_hook_param_ops = {
	.set = edgedma_hook_param_set,
	.get = edgedma_hook_param_get,
};

module_param_cb(hook, &edgedma_hook_param_ops, &edgedma_hook_request, 0444);
MODULE_PARM_DESC(hook, "how to hook the DMA-mapping API: auto (default: tracepoint where the kernel has the dma trace events, else kprobe, else ops), tracepoint, kprobe or ops");
module_param_named(hook_floor, edgedma_floor_requested, bool, 0444);
MODULE_PARM_DESC(hook_floor, "attach the same probes with empty handlers that report nothing (measures the hook's own cost)");

u32 edgedma_hook_modes_available(void)
{
	u32 modes = 0;

	if (edgedma_tracepoint_present())
		modes |= EDGEDMA_HOOK_MODE_TRACEPOINT;
	if (IS_ENABLED(CONFIG_KPROBES) && IS_ENABLED(CONFIG_KRETPROBES))
		modes |= EDGEDMA_HOOK_MODE_KPROBE;
	if (IS_ENABLED(EDGEDMA_HAVE_HOOK_OPS))
		modes |= EDGEDMA_HOOK_MODE_OPS;
	return modes;
}

static const char *edgedma_hook_mode_name(u32 mode)
{
	switch (mode) {
	case EDGEDMA_HOOK_MODE_TRACEPOINT:
		return "tracepoint";
	case EDGEDMA_HOOK_MODE_KPROBE:
		return "kprobe";
	default:
		return "ops";
	}
}

/* The mode hook= asks for, or 0 with the reason logged. */
static u32 edgedma_hook_mode_wanted(void)
{
	u32 available = edgedma_hook_modes_available();

	switch (edgedma_hook_request) {
	case EDGEDMA_HOOK_TRACEPOINT:
		if (available & EDGEDMA_HOOK_MODE_TRACEPOINT)
			return EDGEDMA_HOOK_MODE_TRACEPOINT;
		pr_err("hook=tracepoint: this kernel has no dma trace events (they came in 6.12); use hook=kprobe or hook=auto\n");
		return 0;
	case EDGEDMA_HOOK_KPROBE:
		if (available & EDGEDMA_HOOK_MODE_KPROBE)
			return EDGEDMA_HOOK_MODE_KPROBE;
		pr_err("hook=kprobe: this kernel is built without kprobes or kretprobes (CONFIG_KPROBES, CONFIG_KRETPROBES); use hook=auto\n");
		return 0;
	case EDGEDMA_HOOK_OPS:
		if (available & EDGEDMA_HOOK_MODE_OPS)
			return EDGEDMA_HOOK_MODE_OPS;
		pr_err("hook=ops: this kernel has no per-device DMA ops (CONFIG_DMA_OPS; 6.12 calls IOMMU devices directly); use hook=auto\n");
		return 0;
	default:
		if (available & EDGEDMA_HOOK_MODE_TRACEPOINT)
			return EDGEDMA_HOOK_MODE_TRACEPOINT;
		if (available & EDGEDMA_HOOK_MODE_KPROBE)
			return EDGEDMA_HOOK_MODE_KPROBE;
		if (available & EDGEDMA_HOOK_MODE_OPS) {
			pr_info("hook=auto: no dma trace events (6.12 on) and no kprobes (CONFIG_KPROBES, CONFIG_KRETPROBES): ops mode\n");
			return EDGEDMA_HOOK_MODE_OPS;
		}
		pr_err("hook=auto: this kernel has neither dma trace events, nor kprobes with kretprobes, nor per-device DMA ops (CONFIG_DMA_OPS): nothing to hook the DMA-mapping API with\n");
		return 0;
	}
}

int edgedma_hook_start(void)
{
	u32 mode = edgedma_hook_mode_wanted();
	int err;

	if (!mode)
		return -EOPNOTSUPP;

	if (mode == EDGEDMA_HOOK_MODE_TRACEPOINT)
		err = edgedma_tracepoint_start(edgedma_floor_requested);
	else if (mode == EDGEDMA_HOOK_MODE_KPROBE)
		err = edgedma_kprobe_start(edgedma_floor_requested);
	else
		err = edgedma_ops_start(edgedma_floor_requested);
	if (err) {
		pr_err("cannot hook the DMA-mapping API in %s mode: %d\n",
		       edgedma_hook_mode_name(mode), err);
		return err;
	}

	/* Every hook is in: a call that starts from now on is seen. */
	WRITE_ONCE(edgedma_hooks_armed_ns, ktime_get_ns());
	WRITE_ONCE(edgedma_hook_active, mode);
	pr_info("hooked the DMA-mapping API in %s mode%s\n",
		edgedma_hook_mode_name(mode),
		edgedma_floor_requested ? " with empty handlers (hook_floor)" : "");
	return 0;
}

void edgedma_hook_stop(void)
{
	/*
	 * From here a map may pass unseen (its hook goes before the unmap's):
	 * no call about an address edgedma does not hold may be judged.
	 */
	WRITE_ONCE(edgedma_hooks_armed_ns, U64_MAX);
	/* Ordered before the first hook goes out. */
	smp_mb();
	switch (edgedma_hook_active) {
	case EDGEDMA_HOOK_MODE_TRACEPOINT:
		edgedma_tracepoint_stop();
		break;
	case EDGEDMA_HOOK_MODE_KPROBE:
		edgedma_kprobe_stop();
		break;
	case EDGEDMA_HOOK_MODE_OPS:
		edgedma_ops_stop();
		break;
	}
	WRITE_ONCE(edgedma_hook_active, 0);
}

bool edgedma_hook_floor(void)
{
	return edgedma_floor_requested;
}

/*
 * Calls the hooks could not see: kretprobes that found all their
 * instances busy (maxactive) and kprobes that fired inside another kprobe
 * handler (e.g. a DMA call from an interrupt taken in one). Tracepoints
 * miss nothing.
 */
u64 edgedma_hook_missed(void)
{
	return edgedma_kprobe_missed();
}

size_t edgedma_hook_memory(void)
{
	return edgedma_hook_mode_active() == EDGEDMA_HOOK_MODE_KPROBE ?
	       edgedma_kprobe_memory() : 0;
}

bool edgedma_hook_kprobe_counts(u32 *kretprobes, u32 *ftrace_entries,
				u32 *kprobe_entries)
{
	if (edgedma_hook_mode_active() != EDGEDMA_HOOK_MODE_KPROBE)
		return false;
	edgedma_kprobe_counts(kretprobes, ftrace_entries, kprobe_entries);
	return true;
}

const char *edgedma_hook_skipped(unsigned int i, const char **unseen)
{
	if (edgedma_hook_mode_active() != EDGEDMA_HOOK_MODE_KPROBE)
		return NULL;
	return edgedma_kprobe_skipped(i, unseen);
}
