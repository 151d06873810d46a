// SPDX-License-Identifier: GPL-2.0
/*
 * Function-entry hooks for the snapshot triggers (see entry_hooks.h).
 *
 * The hooks hang in a table of slots read by the ftrace callback with
 * preemption off; a hook leaves its slot, then synchronize_rcu() waits out
 * every callback that may still have read it. The table changes under a
 * mutex in process context. Two hooks may share a function (one error
 * handler serving two devices): its ftrace site leaves the filter with the
 * last of them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "compat.h"
#include "entry_hooks.h"

static DEFINE_MUTEX(edgedma_entry_hooks_lock);
static struct edgedma_entry_hook *edgedma_entry_hooks[EDGEDMA_ENTRY_HOOKS_MAX];

#ifdef EDGEDMA_HAVE_FTRACE_ENTRY_HOOKS
/* The ftrace site lies in a function's first instructions (compat.c). */
#define EDGEDMA_FTRACE_SITE_SPAN	16

static struct ftrace_ops edgedma_entry_hooks_ops;
static unsigned int edgedma_entry_hooks_by_ftrace;

static void notrace edgedma_entry_hooks_ftrace(unsigned long ip, unsigned long parent_ip,
					       struct ftrace_ops *op,
					       edgedma_ftrace_regs_t *fregs)
{
	unsigned long args[EDGEDMA_ENTRY_HOOK_ARGS];
	bool have_args = false;
	unsigned int i, n;

	preempt_disable_notrace();
	for (i = 0; i < EDGEDMA_ENTRY_HOOKS_MAX; i++) {
		struct edgedma_entry_hook *h = READ_ONCE(edgedma_entry_hooks[i]);

		if (!h || !h->by_ftrace || ip - h->start >= EDGEDMA_FTRACE_SITE_SPAN)
			continue;
		if (!have_args) {
			for (n = 0; n < EDGEDMA_ENTRY_HOOK_ARGS; n++)
				args[n] = edgedma_ftrace_arg(fregs, n);
			have_args = true;
		}
		h->fn(h, args);
	}
	preempt_enable_notrace();
}

/* Another ftrace hook of the same function still needs its site. */
static bool edgedma_entry_site_shared(const struct edgedma_entry_hook *h)
{
	unsigned int i;

	for (i = 0; i < EDGEDMA_ENTRY_HOOKS_MAX; i++) {
		const struct edgedma_entry_hook *o = edgedma_entry_hooks[i];

		if (o && o != h && o->by_ftrace && o->start == h->start)
			return true;
	}
	return false;
}

static int edgedma_entry_hook_ftrace_add(struct edgedma_entry_hook *h)
{
	struct ftrace_ops *ops = &edgedma_entry_hooks_ops;
	int err;

	if (!edgedma_entry_hooks_by_ftrace)
		*ops = (struct ftrace_ops) {
			.func = edgedma_entry_hooks_ftrace,
			.flags = EDGEDMA_FTRACE_OPS_FLAGS,
		};
	err = edgedma_ftrace_filter_function(ops, h->symbol, &h->start);
	if (err)
		goto out;
	h->by_ftrace = true;
	if (!edgedma_entry_hooks_by_ftrace) {
		/* An empty filter would trace every function: never registered so. */
		err = register_ftrace_function(ops);
		if (err) {
			h->by_ftrace = false;
			goto out;
		}
	}
	edgedma_entry_hooks_by_ftrace++;
	return 0;
out:
	if (!edgedma_entry_hooks_by_ftrace)
		edgedma_ftrace_filter_clear(ops);
	return err;
}

/* @h has left the table; its callbacks may still run. */
static void edgedma_entry_hook_ftrace_del(struct edgedma_entry_hook *h)
{
	struct ftrace_ops *ops = &edgedma_entry_hooks_ops;

	if (--edgedma_entry_hooks_by_ftrace == 0) {
		unregister_ftrace_function(ops);
		edgedma_ftrace_filter_clear(ops);
	} else if (!edgedma_entry_site_shared(h)) {
		edgedma_ftrace_unfilter_function(ops, h->start);
	}
	h->by_ftrace = false;
}

static bool edgedma_entry_hooks_have_ftrace(void)
{
	return true;
}
#else
static int edgedma_entry_hook_ftrace_add(struct edgedma_entry_hook *h)
{
	return -EOPNOTSUPP;
}

static void edgedma_entry_hook_ftrace_del(struct edgedma_entry_hook *h) { }

static bool edgedma_entry_hooks_have_ftrace(void)
{
	return false;
}
#endif

static int edgedma_entry_hook_kprobe(struct kprobe *kp, struct pt_regs *regs)
{
	struct edgedma_entry_hook *h = container_of(kp, struct edgedma_entry_hook, kp);
	unsigned long args[EDGEDMA_ENTRY_HOOK_ARGS];
	unsigned int n;

	for (n = 0; n < EDGEDMA_ENTRY_HOOK_ARGS; n++)
		args[n] = regs_get_kernel_argument(regs, n);
	h->fn(h, args);
	return 0;
}

int edgedma_entry_hook_add(struct edgedma_entry_hook *h)
{
	unsigned int i, slot = EDGEDMA_ENTRY_HOOKS_MAX;
	int err;

	mutex_lock(&edgedma_entry_hooks_lock);
	for (i = 0; i < EDGEDMA_ENTRY_HOOKS_MAX && slot == EDGEDMA_ENTRY_HOOKS_MAX; i++)
		if (!edgedma_entry_hooks[i])
			slot = i;
	err = -ENOSPC;
	if (slot == EDGEDMA_ENTRY_HOOKS_MAX)
		goto out;
	h->by_ftrace = false;
	h->start = 0;
	memset(&h->kp, 0, sizeof(h->kp));
	err = edgedma_entry_hook_ftrace_add(h);
	/* No such function; or no kprobes: ftrace's reason stands. */
	if (err == -ENOENT || (err && !IS_ENABLED(CONFIG_KPROBES)))
		goto out;
	if (err) {
		/* No ftrace site (notrace, or no ftrace): a kprobe instead. */
		h->kp.symbol_name = h->symbol;
		h->kp.pre_handler = edgedma_entry_hook_kprobe;
		err = register_kprobe(&h->kp);
		if (err)
			goto out;
	}
	/* Seen by the callback from here on: everything above is set. */
	smp_store_release(&edgedma_entry_hooks[slot], h);
out:
	mutex_unlock(&edgedma_entry_hooks_lock);
	return err;
}

void edgedma_entry_hook_del(struct edgedma_entry_hook *h)
{
	unsigned int i;

	mutex_lock(&edgedma_entry_hooks_lock);
	for (i = 0; i < EDGEDMA_ENTRY_HOOKS_MAX; i++)
		if (edgedma_entry_hooks[i] == h)
			break;
	if (i == EDGEDMA_ENTRY_HOOKS_MAX)
		goto out;
	WRITE_ONCE(edgedma_entry_hooks[i], NULL);
	if (h->by_ftrace) {
		edgedma_entry_hook_ftrace_del(h);
		/* Callbacks run with preemption off: any that read @h are done. */
		synchronize_rcu();
	} else {
		/* unregister_kprobe() waits for the handlers that are running. */
		unregister_kprobe(&h->kp);
	}
out:
	mutex_unlock(&edgedma_entry_hooks_lock);
}

const char *edgedma_entry_hook_how(const struct edgedma_entry_hook *h)
{
	return h->by_ftrace ? "ftrace" : "kprobe";
}

const char *edgedma_entry_hooks_offered(void)
{
	bool ftrace = edgedma_entry_hooks_have_ftrace();

	if (IS_ENABLED(CONFIG_KPROBES))
		return ftrace ? "ftrace, kprobes" : "kprobes";
	return ftrace ? "ftrace" : "none";
}
