// SPDX-License-Identifier: GPL-2.0
/*
 * UNFOLD_SET: a listener or a recorder asks for every occurrence of every
 * finding, for as long as its socket stays open.
 *
 * Folding at the sites is what keeps a finding storm cheap, so it is only
 * turned off on request, and the request dies with the socket that made it:
 * a recorder killed with SIGKILL cannot leave the module logging storms in
 * full. The requesting sockets are kept in a small table, keyed by network
 * namespace and port id; the netlink core's release notifier drops a
 * socket's entry when it closes. Process context only (requests and the
 * notifier), so a mutex; the hooks read only the number of holders.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/stringify.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <uapi/linux/edgedma.h>

#include "finding_sites.h"
#include "netlink.h"

struct edgedma_unfold_holder {
	const struct net *net;	/* compared only, never dereferenced */
	u32 portid;		/* 0: a free slot */
};

/* The number of holders is kept where the hooks read it (finding_sites.c). */
static struct edgedma_unfold_holder edgedma_unfold_holders[EDGEDMA_UNFOLD_HOLDERS_MAX];
static DEFINE_MUTEX(edgedma_unfold_lock);

static struct edgedma_unfold_holder *edgedma_unfold_find(const struct net *net, u32 portid)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(edgedma_unfold_holders); i++)
		if (edgedma_unfold_holders[i].portid == portid &&
		    edgedma_unfold_holders[i].net == net)
			return &edgedma_unfold_holders[i];
	return NULL;
}

/* With edgedma_unfold_lock held. */
static int edgedma_unfold_hold(const struct net *net, u32 portid,
			       struct netlink_ext_ack *extack)
{
	struct edgedma_unfold_holder *slot;

	if (edgedma_unfold_find(net, portid))
		return 0;
	slot = edgedma_unfold_find(NULL, 0);
	if (!slot) {
		NL_SET_ERR_MSG(extack, __stringify(EDGEDMA_UNFOLD_HOLDERS_MAX)
			       " sockets already ask for every occurrence; close one first");
		return -EBUSY;
	}
	slot->net = net;
	slot->portid = portid;
	edgedma_sites_set_unfold_holders(edgedma_sites_unfold_holders() + 1);
	return 0;
}

/* With edgedma_unfold_lock held. */
static void edgedma_unfold_release(const struct net *net, u32 portid)
{
	struct edgedma_unfold_holder *slot = edgedma_unfold_find(net, portid);

	if (!slot)
		return;
	slot->net = NULL;
	slot->portid = 0;
	edgedma_sites_set_unfold_holders(edgedma_sites_unfold_holders() - 1);
}

int edgedma_nl_unfold_set(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *enable = info->attrs[EDGEDMA_A_UNFOLD_ENABLE];
	const struct net *net = genl_info_net(info);
	struct sk_buff *msg;
	void *hdr;
	int err = 0;

	if (!info->snd_portid) {
		GENL_SET_ERR_MSG(info, "a request from the kernel cannot hold the findings unfolded");
		return -EINVAL;
	}
	mutex_lock(&edgedma_unfold_lock);
	if (enable && nla_get_u32(enable))
		err = edgedma_unfold_hold(net, info->snd_portid, info->extack);
	else if (enable)
		edgedma_unfold_release(net, info->snd_portid);
	mutex_unlock(&edgedma_unfold_lock);
	if (err)
		return err;

	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_UNFOLD_SET, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, EDGEDMA_A_UNFOLD_HOLDERS, edgedma_sites_unfold_holders()) ||
	    nla_put_u32(msg, EDGEDMA_A_UNFOLD_FOLDING, edgedma_sites_folding()))
		return edgedma_nl_reply_overflow(msg, info);
	return edgedma_nl_reply_send(msg, hdr, info);
}

/* A socket closed: whatever it asked for ends with it. */
static int edgedma_unfold_socket_released(struct notifier_block *nb,
					  unsigned long event, void *data)
{
	const struct netlink_notify *n = data;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC || !n->portid)
		return NOTIFY_DONE;
	/*
	 * Every generic netlink socket of the system passes here. A socket
	 * being released has no request of its own in flight, so a count of
	 * none cannot be about to become one for it.
	 */
	if (!edgedma_sites_unfold_holders())
		return NOTIFY_DONE;
	mutex_lock(&edgedma_unfold_lock);
	edgedma_unfold_release(n->net, n->portid);
	mutex_unlock(&edgedma_unfold_lock);
	return NOTIFY_DONE;
}

static struct notifier_block edgedma_unfold_notifier = {
	.notifier_call = edgedma_unfold_socket_released,
};

int edgedma_nl_unfold_init(void)
{
	return netlink_register_notifier(&edgedma_unfold_notifier);
}

/* After the family is gone: no request can add a holder any more. */
void edgedma_nl_unfold_exit(void)
{
	netlink_unregister_notifier(&edgedma_unfold_notifier);
	mutex_lock(&edgedma_unfold_lock);
	memset(edgedma_unfold_holders, 0, sizeof(edgedma_unfold_holders));
	edgedma_sites_set_unfold_holders(0);
	mutex_unlock(&edgedma_unfold_lock);
}
