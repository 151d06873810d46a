// SPDX-License-Identifier: GPL-2.0
/*
 * ERROR_HOOK_SET, ERROR_HOOK_GET (dump) and ERROR_HOOK_DEL: a controller's
 * error handler that snapshots its device when entered
 * (trigger_controller_error.c).
 */
#include <linux/device.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "edgedma.h"
#include "netlink.h"
#include "trigger_controller_error.h"

static const char *edgedma_error_hook_symbol(struct genl_info *info)
{
	struct nlattr *a = info->attrs[EDGEDMA_A_ERROR_HOOK_SYMBOL];

	if (!a || !nla_len(a) || !*(char *)nla_data(a)) {
		GENL_SET_ERR_MSG(info, "name the function (ERROR_HOOK_SYMBOL)");
		return NULL;
	}
	return nla_data(a);
}

int edgedma_nl_error_hook_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *dev_attr = info->attrs[EDGEDMA_A_ERROR_HOOK_DEVICE];
	const char *symbol = edgedma_error_hook_symbol(info);
	struct device *dev;
	int err;

	if (!symbol)
		return -EINVAL;
	if (!dev_attr) {
		GENL_SET_ERR_MSG(info, "name the device the function serves (ERROR_HOOK_DEVICE)");
		return -EINVAL;
	}
	dev = edgedma_find_device_by_name(nla_data(dev_attr));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, dev_attr,
				    "no device of that name on the PCI or platform bus");
		return -ENODEV;
	}
	err = edgedma_error_hook_add(symbol, dev, info->extack);
	put_device(dev);
	if (err == -ENOENT || err == -EINVAL)
		NL_SET_BAD_ATTR(info->extack, info->attrs[EDGEDMA_A_ERROR_HOOK_SYMBOL]);
	return err;
}

int edgedma_nl_error_hook_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *dev_attr = info->attrs[EDGEDMA_A_ERROR_HOOK_DEVICE];
	const char *symbol = edgedma_error_hook_symbol(info);
	int err;

	if (!symbol)
		return -EINVAL;
	err = edgedma_error_hook_del(symbol, dev_attr ? nla_data(dev_attr) : NULL);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[EDGEDMA_A_ERROR_HOOK_SYMBOL],
				    "no error hook on that function (for that device)");
	return err;
}

/* cb->args[0]: the next hook slot. */
int edgedma_nl_error_hook_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct edgedma_error_hook_info h;
	unsigned long slot = cb->args[0];
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	for (;;) {
		unsigned long at = slot;
		void *hdr;

		if (!edgedma_error_hook_next(&slot, &h))
			break;
		hdr = edgedma_nl_dump_put(skb, cb, EDGEDMA_CMD_ERROR_HOOK_GET);
		if (!hdr ||
		    nla_put_string(skb, EDGEDMA_A_ERROR_HOOK_SYMBOL, h.symbol) ||
		    nla_put_string(skb, EDGEDMA_A_ERROR_HOOK_DEVICE, h.device) ||
		    edgedma_put_u64(skb, EDGEDMA_A_ERROR_HOOK_HITS, h.hits,
				    EDGEDMA_A_ERROR_HOOK_PAD)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			slot = at;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = slot;
	return skb->len;
}
