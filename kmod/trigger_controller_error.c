// SPDX-License-Identifier: GPL-2.0
/*
 * Controller error handlers as snapshot triggers (see
 * trigger_controller_error.h).
 *
 * Each hook is an entry hook on the named function (entry_hooks.h: ftrace,
 * else a kprobe): it runs before the function's first instruction, in its
 * context (usually a hard IRQ), so the controller's registers are read
 * before the handler clears its error state. The hook holds a reference on
 * its device and is removed when the device is deleted. The table changes
 * under a mutex in process context; a handler only reads its own hook.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <uapi/linux/edgedma.h>

#include "entry_hooks.h"
#include "snapshot_capture.h"
#include "trigger_controller_error.h"

struct edgedma_error_hook {
	struct edgedma_entry_hook hook;
	char symbol[EDGEDMA_ERROR_SYMBOL_LEN];
	struct device *dev;	/* NULL: slot free; holds a reference */
	atomic64_t hits;
};

static struct edgedma_error_hook edgedma_error_hooks[EDGEDMA_ERROR_HOOKS_MAX];
static DEFINE_MUTEX(edgedma_error_hooks_lock);

static void edgedma_error_hook_entered(struct edgedma_entry_hook *eh,
				       const unsigned long *args)
{
	struct edgedma_error_hook *h = container_of(eh, struct edgedma_error_hook, hook);
	struct edgedma_snapshot_request t = {
		.kind = EDGEDMA_SNAPSHOT_TRIGGER_CONTROLLER_ERROR,
		.symbol = h->symbol,
		.atomic = true,
	};
	u64 seq;

	atomic64_inc(&h->hits);
	edgedma_snapshot_take(h->dev, &t, &seq);
}

static void edgedma_error_hook_release(struct edgedma_error_hook *h)
{
	edgedma_entry_hook_del(&h->hook);
	put_device(h->dev);
	h->dev = NULL;
}

int edgedma_error_hook_add(const char *symbol, struct device *dev,
			   struct netlink_ext_ack *extack)
{
	struct edgedma_error_hook *h = NULL;
	unsigned int i;
	int err;

	mutex_lock(&edgedma_error_hooks_lock);
	for (i = 0; i < EDGEDMA_ERROR_HOOKS_MAX; i++) {
		struct edgedma_error_hook *at = &edgedma_error_hooks[i];

		if (at->dev == dev && !strcmp(at->symbol, symbol)) {
			NL_SET_ERR_MSG(extack, "that function already snapshots that device");
			err = -EEXIST;
			goto out;
		}
		if (!at->dev && !h)
			h = at;
	}
	if (!h) {
		NL_SET_ERR_MSG(extack, "all 8 error hooks are in use; remove one first");
		err = -ENOSPC;
		goto out;
	}
	strscpy(h->symbol, symbol, sizeof(h->symbol));
	h->hook.symbol = h->symbol;
	h->hook.fn = edgedma_error_hook_entered;
	atomic64_set(&h->hits, 0);
	h->dev = get_device(dev);
	err = edgedma_entry_hook_add(&h->hook);
	if (err) {
		put_device(h->dev);
		h->dev = NULL;
		if (err == -EOPNOTSUPP)
			NL_SET_ERR_MSG(extack, "this kernel has neither ftrace (CONFIG_DYNAMIC_FTRACE_WITH_REGS) nor kprobes (CONFIG_KPROBES): no controller-error hooks");
		else if (err == -ENOENT || err == -EINVAL)
			NL_SET_ERR_MSG(extack, "no such function to hook (not in kallsyms, inlined away, or without an ftrace site)");
		else
			NL_SET_ERR_MSG(extack, "the kernel refuses to hook that function");
	}
out:
	mutex_unlock(&edgedma_error_hooks_lock);
	return err;
}

int edgedma_error_hook_del(const char *symbol, const char *dev_name_or_null)
{
	unsigned int i;
	int err = -ENOENT;

	mutex_lock(&edgedma_error_hooks_lock);
	for (i = 0; i < EDGEDMA_ERROR_HOOKS_MAX; i++) {
		struct edgedma_error_hook *h = &edgedma_error_hooks[i];

		if (!h->dev || strcmp(h->symbol, symbol) ||
		    (dev_name_or_null && strcmp(dev_name(h->dev), dev_name_or_null)))
			continue;
		edgedma_error_hook_release(h);
		err = 0;
	}
	mutex_unlock(&edgedma_error_hooks_lock);
	return err;
}

bool edgedma_error_hook_next(unsigned long *slot, struct edgedma_error_hook_info *out)
{
	bool found = false;

	mutex_lock(&edgedma_error_hooks_lock);
	for (; *slot < EDGEDMA_ERROR_HOOKS_MAX && !found; (*slot)++) {
		struct edgedma_error_hook *h = &edgedma_error_hooks[*slot];

		if (!h->dev)
			continue;
		strscpy(out->symbol, h->symbol, sizeof(out->symbol));
		strscpy(out->device, dev_name(h->dev), sizeof(out->device));
		out->hits = atomic64_read(&h->hits);
		found = true;
	}
	mutex_unlock(&edgedma_error_hooks_lock);
	return found;
}

void edgedma_error_hooks_device_gone(struct device *dev)
{
	unsigned int i;

	mutex_lock(&edgedma_error_hooks_lock);
	for (i = 0; i < EDGEDMA_ERROR_HOOKS_MAX; i++)
		if (edgedma_error_hooks[i].dev == dev)
			edgedma_error_hook_release(&edgedma_error_hooks[i]);
	mutex_unlock(&edgedma_error_hooks_lock);
}

void edgedma_error_hooks_exit(void)
{
	unsigned int i;

	mutex_lock(&edgedma_error_hooks_lock);
	for (i = 0; i < EDGEDMA_ERROR_HOOKS_MAX; i++)
		if (edgedma_error_hooks[i].dev)
			edgedma_error_hook_release(&edgedma_error_hooks[i]);
	mutex_unlock(&edgedma_error_hooks_lock);
}
