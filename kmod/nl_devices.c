// SPDX-License-Identifier: GPL-2.0
/* DEVICES_GET: every device edgedma has seen calling the DMA API, with its counters. */
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "netlink.h"

static int edgedma_nl_put_device(struct sk_buff *skb, const struct edgedma_device_info *d)
{
#define PUT64(attr, value) \
	edgedma_put_u64(skb, EDGEDMA_A_DEVICE_##attr, value, EDGEDMA_A_DEVICE_PAD)
	if (nla_put_string(skb, EDGEDMA_A_DEVICE_NAME, d->name) ||
	    nla_put_string(skb, EDGEDMA_A_DEVICE_DRIVER, d->driver) ||
	    PUT64(CALLS, d->calls) ||
	    PUT64(MAPPINGS_LIVE, d->mappings_live) ||
	    PUT64(FINDINGS, d->findings) ||
	    nla_put_u32(skb, EDGEDMA_A_DEVICE_COMPLETE, d->complete) ||
	    nla_put_u32(skb, EDGEDMA_A_DEVICE_SYNC_KEPT, d->sync_kept))
		return -EMSGSIZE;
#undef PUT64
	return 0;
}

int edgedma_nl_devices_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct edgedma_device_info d;
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	/* args[0]: the next slot of the device table to look at. */
	while (edgedma_device_info_next(&cb->args[0], &d)) {
		void *hdr = edgedma_nl_dump_put(skb, cb, EDGEDMA_CMD_DEVICES_GET);

		if (!hdr || edgedma_nl_put_device(skb, &d)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			cb->args[0]--;	/* send this one in the next message */
			break;
		}
		genlmsg_end(skb, hdr);
	}
	return skb->len;
}
