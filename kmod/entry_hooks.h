/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hooks at the entry of a kernel function, for the snapshot triggers (an
 * IOMMU driver's fault path, a DMA controller's error handler): the
 * handler runs before the function's first instruction, in its context,
 * with its arguments. Through ftrace where the kernel has a dynamic ftrace
 * site with registers or arguments (the Rockchip and Jetson kernels have
 * ftrace and no kprobes), else a kprobe; -EOPNOTSUPP on a kernel with
 * neither (i.MX). All hooks share one ftrace_ops: adding or removing one
 * changes its filter, and only the first and the last register and
 * unregister it (an RCU-tasks grace period each).
 */
#ifndef _EDGEDMA_ENTRY_HOOKS_H
#define _EDGEDMA_ENTRY_HOOKS_H

#include <linux/kprobes.h>
#include <linux/types.h>

#define EDGEDMA_ENTRY_HOOK_ARGS		6
#define EDGEDMA_ENTRY_HOOKS_MAX		16

struct edgedma_entry_hook;
/* The hooked function's first arguments; any context but NMI. */
typedef void (*edgedma_entry_hook_fn)(struct edgedma_entry_hook *h,
				      const unsigned long *args);

struct edgedma_entry_hook {
	/* The owner's, set before edgedma_entry_hook_add(). */
	const char *symbol;
	edgedma_entry_hook_fn fn;
	/* The registry's. */
	unsigned long start;	/* where the function starts (ftrace) */
	bool by_ftrace;
	struct kprobe kp;	/* otherwise */
};

/*
 * Hook @h->symbol's entry. 0, or -ENOENT (no such function: not in
 * kallsyms, or inlined away), -EOPNOTSUPP (the kernel has neither ftrace
 * sites nor kprobes), -ENOSPC (every slot in use), or what ftrace or the
 * kprobe layer answered. Process context; @h stays the caller's until
 * edgedma_entry_hook_del() returned.
 */
int edgedma_entry_hook_add(struct edgedma_entry_hook *h);
/* After it returns, @h's handler runs nowhere and never will. */
void edgedma_entry_hook_del(struct edgedma_entry_hook *h);
/* "ftrace" or "kprobe": how an added hook got there. */
const char *edgedma_entry_hook_how(const struct edgedma_entry_hook *h);
/* What the kernel offers: "ftrace, kprobes", "kprobes", ... or "none". */
const char *edgedma_entry_hooks_offered(void);

#endif /* _EDGEDMA_ENTRY_HOOKS_H */
