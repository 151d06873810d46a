// SPDX-License-Identifier: GPL-2.0
/* FINDINGS_GET (the log) and FINDING (the "events" multicast group). */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "edgedma.h"
#include "finding_sites.h"
#include "findings.h"
#include "netlink.h"

static int edgedma_nl_put_finding(struct sk_buff *msg, const struct edgedma_finding *f)
{
	u64 occurrences, last_ns;
	bool counted = edgedma_site_counts(f->site, &occurrences, &last_ns);

	/*
	 * A site's time is taken as it is claimed, just before its first
	 * finding's own: the latest occurrence is never before the first.
	 */
	last_ns = max(last_ns, f->time_ns);

#define PUT64(attr, value) \
	edgedma_put_u64(msg, EDGEDMA_A_FINDING_##attr, value, EDGEDMA_A_FINDING_PAD)
	if (PUT64(SEQ, f->seq) ||
	    PUT64(TIME_NS, f->time_ns) ||
	    nla_put_u32(msg, EDGEDMA_A_FINDING_KIND, f->kind) ||
	    nla_put_u32(msg, EDGEDMA_A_FINDING_CALL, f->call) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DEVICE, f->device) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DRIVER, f->driver) ||
	    PUT64(DMA_ADDR, f->dma_addr) ||
	    PUT64(SIZE, f->size) ||
	    nla_put_u32(msg, EDGEDMA_A_FINDING_DIR, f->dir) ||
	    (f->phys != EDGEDMA_NO_PHYS && PUT64(CPU_PHYS, f->phys)) ||
	    PUT64(CALLER, f->caller) ||
	    (f->map_caller && PUT64(MAP_CALLER, f->map_caller)) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DETAIL, f->detail) ||
	    (f->caller_name[0] &&
	     nla_put_string(msg, EDGEDMA_A_FINDING_CALLER_NAME, f->caller_name)) ||
	    (f->map_caller_name[0] &&
	     nla_put_string(msg, EDGEDMA_A_FINDING_MAP_CALLER_NAME, f->map_caller_name)) ||
	    (counted && (PUT64(OCCURRENCES, occurrences) ||
			 PUT64(LAST_TIME_NS, last_ns))) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DRIVER_MODULE, f->driver_module) ||
	    (f->chain_len &&
	     (nla_put(msg, EDGEDMA_A_FINDING_CALL_CHAIN,
		      min_t(u32, f->chain_len, EDGEDMA_CHAIN_LEN) * sizeof(u64), f->chain) ||
	      nla_put_string(msg, EDGEDMA_A_FINDING_CALL_CHAIN_NAMES, f->chain_names))))
		return -EMSGSIZE;
#undef PUT64
	return 0;
}

bool edgedma_nl_events_listened(void)
{
	return genl_has_listeners(&edgedma_family, &init_net, EDGEDMA_GROUP_EVENTS);
}

int edgedma_nl_notify_events(u8 cmd, int (*put)(struct sk_buff *msg, const void *arg),
			     const void *arg)
{
	struct sk_buff *msg;
	void *hdr;
	int err = 0;

	if (!edgedma_nl_send_begin())
		return -ESHUTDOWN;
	if (!edgedma_nl_events_listened())
		goto out;
	err = -ENOMEM;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		goto out;
	hdr = genlmsg_put(msg, 0, 0, &edgedma_family, 0, cmd);
	if (!hdr || put(msg, arg)) {
		nlmsg_free(msg);
		goto out;
	}
	genlmsg_end(msg, hdr);
	edgedma_nl_multicast(msg, EDGEDMA_GROUP_EVENTS);
	err = 0;
out:
	edgedma_nl_send_end();
	return err;
}

static int edgedma_nl_put_finding_arg(struct sk_buff *msg, const void *arg)
{
	return edgedma_nl_put_finding(msg, arg);
}

int edgedma_nl_notify_finding(const struct edgedma_finding *f)
{
	return edgedma_nl_notify_events(EDGEDMA_CMD_FINDING, edgedma_nl_put_finding_arg, f);
}

struct edgedma_repeats_msg {
	const struct edgedma_site_repeats *r;
	const char *device, *driver;
};

static int edgedma_nl_put_repeats(struct sk_buff *msg, const void *arg)
{
	const struct edgedma_repeats_msg *m = arg;

	if (edgedma_put_u64(msg, EDGEDMA_A_FINDING_SEQ, m->r->seq, EDGEDMA_A_FINDING_PAD) ||
	    nla_put_u32(msg, EDGEDMA_A_FINDING_KIND, m->r->kind) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DEVICE, m->device) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DRIVER, m->driver) ||
	    edgedma_put_u64(msg, EDGEDMA_A_FINDING_OCCURRENCES, m->r->count,
			    EDGEDMA_A_FINDING_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_FINDING_LAST_TIME_NS, m->r->last_ns,
			    EDGEDMA_A_FINDING_PAD))
		return -EMSGSIZE;
	return 0;
}

int edgedma_nl_notify_repeats(const struct edgedma_site_repeats *r,
			      const char *device, const char *driver)
{
	const struct edgedma_repeats_msg m = { .r = r, .device = device, .driver = driver };

	return edgedma_nl_notify_events(EDGEDMA_CMD_FINDING_REPEATS, edgedma_nl_put_repeats, &m);
}

int edgedma_nl_findings_start(struct netlink_callback *cb)
{
	const struct nlattr *const *attrs = edgedma_nl_dump_attrs(cb);
	int err = edgedma_nl_dump_start(cb);

	if (err)
		return err;
	cb->args[0] = attrs[EDGEDMA_A_FINDING_SEQ] ?
		      nla_get_u64(attrs[EDGEDMA_A_FINDING_SEQ]) : 1;
	return 0;
}

int edgedma_nl_findings_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct edgedma_finding *f;
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	while (edgedma_finding_get(cb->args[0], f)) {
		void *hdr;

		/* Logged moments ago: the work item has not named it yet. */
		edgedma_finding_name(f);
		hdr = edgedma_nl_dump_put(skb, cb, EDGEDMA_CMD_FINDINGS_GET);
		if (!hdr || edgedma_nl_put_finding(skb, f)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = f->seq + 1;
	}
	kfree(f);
	return skb->len;
}
