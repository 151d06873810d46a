// SPDX-License-Identifier: GPL-2.0
/*
 * The "edgedma" generic netlink family: the module's whole control surface.
 *
 * Commands, attributes and their rules are defined in
 * include/uapi/linux/edgedma.h. Requests are validated strictly against a
 * per-command policy, so unknown attributes are refused by the netlink core
 * with an extack message. Every command but GET_INFO needs CAP_SYS_ADMIN:
 * the check is ours (pre_doit), not GENL_ADMIN_PERM, because that one asks
 * for CAP_NET_ADMIN and refuses without saying why.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/capability.h>
#include <linux/dma-mapping.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "edgedma.h"

/* genl_ops.internal_flags: the command may be used without CAP_SYS_ADMIN. */
#define EDGEDMA_NL_UNPRIVILEGED	BIT(0)

static atomic64_t edgedma_nl_requests = ATOMIC64_INIT(0);
static atomic64_t edgedma_nl_rejected = ATOMIC64_INIT(0);

/* Neither command takes attributes: all-NLA_UNSPEC policies refuse any. */
static const struct nla_policy edgedma_get_info_policy[EDGEDMA_A_INFO_MAX + 1];
static const struct nla_policy edgedma_get_stats_policy[EDGEDMA_A_STATS_MAX + 1];

static struct genl_family edgedma_family;

static int edgedma_nl_pre_doit(const edgedma_genl_ops_t *ops,
			       struct sk_buff *skb, struct genl_info *info)
{
	atomic64_inc(&edgedma_nl_requests);
	if (!(ops->internal_flags & EDGEDMA_NL_UNPRIVILEGED) &&
	    !netlink_capable(skb, CAP_SYS_ADMIN)) {
		atomic64_inc(&edgedma_nl_rejected);
		GENL_SET_ERR_MSG(info, "this command needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	return 0;
}

/* Start a reply to the request in @info; on failure say why in extack. */
static struct sk_buff *edgedma_nl_reply_new(struct genl_info *info, u8 cmd,
					    void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		GENL_SET_ERR_MSG(info, "no memory for the reply");
		return NULL;
	}
	*hdr = genlmsg_put_reply(msg, info, &edgedma_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		GENL_SET_ERR_MSG(info, "reply header does not fit");
		return NULL;
	}
	return msg;
}

static int edgedma_nl_reply_send(struct sk_buff *msg, void *hdr,
				 struct genl_info *info)
{
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int edgedma_nl_reply_overflow(struct sk_buff *msg,
				     struct genl_info *info)
{
	nlmsg_free(msg);
	GENL_SET_ERR_MSG(info, "reply does not fit in one message");
	return -EMSGSIZE;
}

static int edgedma_nl_get_info(struct sk_buff *skb, struct genl_info *info)
{
	struct new_utsname *uts = utsname();
	struct sk_buff *msg;
	void *hdr;

	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_GET_INFO, &hdr);
	if (!msg)
		return -ENOMEM;

	if (nla_put_string(msg, EDGEDMA_A_INFO_MODULE_VERSION, EDGEDMA_VERSION) ||
	    nla_put_string(msg, EDGEDMA_A_INFO_KERNEL_RELEASE, uts->release) ||
	    nla_put_string(msg, EDGEDMA_A_INFO_ARCH, uts->machine) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_RECORD_FORMAT,
			EDGEDMA_RECORD_FORMAT_VERSION) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_HOOK_MODES,
			edgedma_hook_modes_available()) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_PAGE_SIZE, PAGE_SIZE) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_CACHE_LINE, cache_line_size()) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_DMA_ALIGNMENT,
			dma_get_cache_alignment()))
		return edgedma_nl_reply_overflow(msg, info);

	return edgedma_nl_reply_send(msg, hdr, info);
}

static int edgedma_nl_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_GET_STATS, &hdr);
	if (!msg)
		return -ENOMEM;

	if (nla_put_u64_64bit(msg, EDGEDMA_A_STATS_REQUESTS,
			      atomic64_read(&edgedma_nl_requests),
			      EDGEDMA_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, EDGEDMA_A_STATS_REJECTED,
			      atomic64_read(&edgedma_nl_rejected),
			      EDGEDMA_A_STATS_PAD))
		return edgedma_nl_reply_overflow(msg, info);

	return edgedma_nl_reply_send(msg, hdr, info);
}

static const struct genl_ops edgedma_nl_ops[] = {
	{
		.cmd = EDGEDMA_CMD_GET_INFO,
		.doit = edgedma_nl_get_info,
		.policy = edgedma_get_info_policy,
		.maxattr = EDGEDMA_A_INFO_MAX,
		.internal_flags = EDGEDMA_NL_UNPRIVILEGED,
	},
	{
		.cmd = EDGEDMA_CMD_GET_STATS,
		.doit = edgedma_nl_get_stats,
		.policy = edgedma_get_stats_policy,
		.maxattr = EDGEDMA_A_STATS_MAX,
	},
};

static struct genl_family edgedma_family __ro_after_init = {
	.name = EDGEDMA_FAMILY_NAME,
	.version = EDGEDMA_FAMILY_VERSION,
	.module = THIS_MODULE,
	.ops = edgedma_nl_ops,
	.n_ops = ARRAY_SIZE(edgedma_nl_ops),
	.pre_doit = edgedma_nl_pre_doit,
	.parallel_ops = true,
};

int __init edgedma_netlink_init(void)
{
	return genl_register_family(&edgedma_family);
}

void edgedma_netlink_exit(void)
{
	genl_unregister_family(&edgedma_family);
}
