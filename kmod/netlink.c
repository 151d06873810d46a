// SPDX-License-Identifier: GPL-2.0
/*
 * The "edgedma" generic netlink family: its operations, who may use them,
 * and its lifetime. The commands themselves are served by the nl_*.c files.
 *
 * Requests are validated strictly against a per-command policy, so unknown
 * attributes are refused by the netlink core with an extack message. Every
 * command but GET_INFO needs CAP_SYS_ADMIN: the check is ours (pre_doit),
 * not GENL_ADMIN_PERM, because that one asks for CAP_NET_ADMIN and refuses
 * without saying why. Both multicast groups carry kernel addresses and are
 * for CAP_SYS_ADMIN only (EDGEDMA_MCGRP_ADMIN, compat.h).
 *
 * Lifetime: the family is registered after everything it reports on is up,
 * and unregistered before any of it goes down. genl_unregister_family()
 * waits for requests in flight; the multicast senders (work items) hold
 * edgedma_nl_sender_lock around each send, so once unregistering has
 * started none can send to group numbers the family no longer owns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/rwsem.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "devices.h"
#include "edgedma.h"
#include "netlink.h"
#include "trigger_controller_error.h"

/* genl_ops.internal_flags: the command may be used without CAP_SYS_ADMIN. */
#define EDGEDMA_NL_UNPRIVILEGED	BIT(0)

static atomic64_t edgedma_nl_request_count = ATOMIC64_INIT(0);
static atomic64_t edgedma_nl_rejected_count = ATOMIC64_INIT(0);

static DECLARE_RWSEM(edgedma_nl_sender_lock);
static bool edgedma_nl_registered;

/* Commands without attributes: all-NLA_UNSPEC policies refuse any. */
static const struct nla_policy edgedma_get_info_policy[EDGEDMA_A_INFO_MAX + 1];
static const struct nla_policy edgedma_get_stats_policy[EDGEDMA_A_STATS_MAX + 1];
static const struct nla_policy edgedma_devices_get_policy[EDGEDMA_A_DEVICE_MAX + 1];

static const struct nla_policy edgedma_findings_get_policy[EDGEDMA_A_FINDING_MAX + 1] = {
	[EDGEDMA_A_FINDING_SEQ] = { .type = NLA_U64 },
};

static const struct nla_policy edgedma_mappings_get_policy[EDGEDMA_A_MAPPING_MAX + 1] = {
	[EDGEDMA_A_MAPPING_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
};

/*
 * Above NLA_POLICY_RANGE's s16 bounds. Not const: before 6.2 the policy's
 * pointer to it is not either (it is never written).
 */
static struct netlink_range_validation edgedma_owned_hash_range = {
	.min = EDGEDMA_OWNED_HASH_MIN,
	.max = EDGEDMA_OWNED_HASH_MAX,
};

static const struct nla_policy edgedma_policy_set_policy[EDGEDMA_A_POLICY_MAX + 1] = {
	[EDGEDMA_A_POLICY_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
	[EDGEDMA_A_POLICY_DRIVER] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
	[EDGEDMA_A_POLICY_ADDR_ALIGN] = { .type = NLA_U32 },
	[EDGEDMA_A_POLICY_LEN_ALIGN] = { .type = NLA_U32 },
	[EDGEDMA_A_POLICY_COHERENCY] = NLA_POLICY_RANGE(NLA_U32, EDGEDMA_COHERENCY_AUTO,
							 EDGEDMA_COHERENCY_NONCOHERENT),
	[EDGEDMA_A_POLICY_CHECKS] = { .type = NLA_U32 },
	[EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS] = { .type = NLA_U32 },
	[EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS] = { .type = NLA_U32 },
	[EDGEDMA_A_POLICY_OWNED_HASH_MAX] = NLA_POLICY_FULL_RANGE(NLA_U32, &edgedma_owned_hash_range),
};

static const struct nla_policy edgedma_policy_name_policy[EDGEDMA_A_POLICY_MAX + 1] = {
	[EDGEDMA_A_POLICY_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
	[EDGEDMA_A_POLICY_DRIVER] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
};

static const struct nla_policy edgedma_map_events_set_policy[EDGEDMA_A_MAP_EVENTS_MAX + 1] = {
	[EDGEDMA_A_MAP_EVENTS_ENABLE] = NLA_POLICY_MAX(NLA_U32, 1),
};

static const struct nla_policy edgedma_snapshot_take_policy[EDGEDMA_A_SNAPSHOT_MAX + 1] = {
	[EDGEDMA_A_SNAPSHOT_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
	[EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR] = { .type = NLA_U64 },
};

static const struct nla_policy edgedma_snapshot_get_policy[EDGEDMA_A_SNAPSHOT_MAX + 1] = {
	[EDGEDMA_A_SNAPSHOT_SEQ] = { .type = NLA_U64 },
};

static const struct nla_policy edgedma_profile_set_policy[EDGEDMA_A_PROFILE_MAX + 1] = {
	[EDGEDMA_A_PROFILE_NAME] = { .type = NLA_NUL_STRING, .len = 31 },
	[EDGEDMA_A_PROFILE_PCI_ID] = { .type = NLA_U32 },
	[EDGEDMA_A_PROFILE_COMPATIBLE] = { .type = NLA_NUL_STRING, .len = 63 },
	[EDGEDMA_A_PROFILE_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
	[EDGEDMA_A_PROFILE_REGISTER] = { .type = NLA_NESTED },
	[EDGEDMA_A_PROFILE_CHAIN] = { .type = NLA_NESTED },
};

static const struct nla_policy edgedma_profile_name_policy[EDGEDMA_A_PROFILE_MAX + 1] = {
	[EDGEDMA_A_PROFILE_NAME] = { .type = NLA_NUL_STRING, .len = 31 },
};

static const struct nla_policy edgedma_error_hook_policy[EDGEDMA_A_ERROR_HOOK_MAX + 1] = {
	[EDGEDMA_A_ERROR_HOOK_SYMBOL] = { .type = NLA_NUL_STRING,
					  .len = EDGEDMA_ERROR_SYMBOL_LEN - 1 },
	[EDGEDMA_A_ERROR_HOOK_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
};

static const struct nla_policy edgedma_crash_region_get_policy[EDGEDMA_A_CRASH_MAX + 1];

static const struct nla_policy edgedma_crash_records_get_policy[EDGEDMA_A_CRASH_MAX + 1] = {
	[EDGEDMA_A_CRASH_INDEX] = { .type = NLA_U32 },
};

static const struct nla_policy edgedma_crash_records_clear_policy[EDGEDMA_A_CRASH_MAX + 1] = {
	[EDGEDMA_A_CRASH_BOOT_ID] = { .type = NLA_U64 },
};

static const struct nla_policy edgedma_unfold_set_policy[EDGEDMA_A_UNFOLD_MAX + 1] = {
	[EDGEDMA_A_UNFOLD_ENABLE] = NLA_POLICY_MAX(NLA_U32, 1),
};

static const struct genl_multicast_group edgedma_mcgrps[] = {
	[EDGEDMA_GROUP_EVENTS] = {
		.name = EDGEDMA_MCGRP_EVENTS,
		EDGEDMA_MCGRP_ADMIN,
	},
	[EDGEDMA_GROUP_MAP_EVENTS] = {
		.name = EDGEDMA_MCGRP_MAP_EVENTS,
		EDGEDMA_MCGRP_ADMIN,
	},
};

u64 edgedma_nl_requests(void)
{
	return atomic64_read(&edgedma_nl_request_count);
}

u64 edgedma_nl_rejected(void)
{
	return atomic64_read(&edgedma_nl_rejected_count);
}

static int edgedma_nl_require_admin(const struct sk_buff *skb,
				    struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	atomic64_inc(&edgedma_nl_rejected_count);
	NL_SET_ERR_MSG(extack, "this command needs CAP_SYS_ADMIN");
	return -EPERM;
}

/*
 * Dumps bypass pre_doit: their start callback checks the same things, or
 * their dumpit does where start cannot report why (compat.h).
 */
int edgedma_nl_dump_start(struct netlink_callback *cb)
{
	atomic64_inc(&edgedma_nl_request_count);
	cb->args[0] = 0;
	if (!EDGEDMA_DUMP_START_HAS_EXTACK)
		return 0;
	return edgedma_nl_require_admin(cb->skb, cb->extack);
}

int edgedma_nl_dump_refused(struct netlink_callback *cb)
{
	if (EDGEDMA_DUMP_START_HAS_EXTACK)
		return 0;
	return edgedma_nl_require_admin(cb->skb, cb->extack);
}

const struct nlattr *const *edgedma_nl_dump_attrs(struct netlink_callback *cb)
{
	return edgedma_genl_dumpit_attrs(genl_dumpit_info(cb));
}

void *edgedma_nl_dump_put(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &edgedma_family, NLM_F_MULTI, cmd);
}

static int edgedma_nl_pre_doit(const edgedma_genl_ops_t *ops,
			       struct sk_buff *skb, struct genl_info *info)
{
	atomic64_inc(&edgedma_nl_request_count);
	if (ops->internal_flags & EDGEDMA_NL_UNPRIVILEGED)
		return 0;
	return edgedma_nl_require_admin(skb, info->extack);
}

struct sk_buff *edgedma_nl_reply_new(struct genl_info *info, u8 cmd, void **hdr)
{
	return edgedma_nl_reply_new_sized(info, cmd, NLMSG_DEFAULT_SIZE, hdr);
}

struct sk_buff *edgedma_nl_reply_new_sized(struct genl_info *info, u8 cmd, size_t size,
					   void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(size, GFP_KERNEL);
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

int edgedma_nl_reply_send(struct sk_buff *msg, void *hdr, struct genl_info *info)
{
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int edgedma_nl_reply_overflow(struct sk_buff *msg, struct genl_info *info)
{
	nlmsg_free(msg);
	GENL_SET_ERR_MSG(info, "reply does not fit in one message");
	return -EMSGSIZE;
}

bool edgedma_nl_send_begin(void)
{
	down_read(&edgedma_nl_sender_lock);
	if (READ_ONCE(edgedma_nl_registered))
		return true;
	up_read(&edgedma_nl_sender_lock);
	return false;
}

void edgedma_nl_send_end(void)
{
	up_read(&edgedma_nl_sender_lock);
}

void edgedma_nl_multicast(struct sk_buff *msg, unsigned int group)
{
	edgedma_compat_multicast_admin(&edgedma_family, msg, group);
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
	{
		.cmd = EDGEDMA_CMD_FINDINGS_GET,
		.start = edgedma_nl_findings_start,
		.dumpit = edgedma_nl_findings_dump,
		.policy = edgedma_findings_get_policy,
		.maxattr = EDGEDMA_A_FINDING_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_MAPPINGS_GET,
		.start = edgedma_nl_mappings_start,
		.dumpit = edgedma_nl_mappings_dump,
		.policy = edgedma_mappings_get_policy,
		.maxattr = EDGEDMA_A_MAPPING_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_POLICY_SET,
		.doit = edgedma_nl_policy_set,
		.policy = edgedma_policy_set_policy,
		.maxattr = EDGEDMA_A_POLICY_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_POLICY_GET,
		.doit = edgedma_nl_policy_get,
		.start = edgedma_nl_dump_start,
		.dumpit = edgedma_nl_policy_dump,
		.policy = edgedma_policy_name_policy,
		.maxattr = EDGEDMA_A_POLICY_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_POLICY_DEL,
		.doit = edgedma_nl_policy_del,
		.policy = edgedma_policy_name_policy,
		.maxattr = EDGEDMA_A_POLICY_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_MAP_EVENTS_SET,
		.doit = edgedma_nl_map_events_set,
		.policy = edgedma_map_events_set_policy,
		.maxattr = EDGEDMA_A_MAP_EVENTS_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_DEVICES_GET,
		.start = edgedma_nl_dump_start,
		.dumpit = edgedma_nl_devices_dump,
		.policy = edgedma_devices_get_policy,
		.maxattr = EDGEDMA_A_DEVICE_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_SNAPSHOT_TAKE,
		.doit = edgedma_nl_snapshot_take,
		.policy = edgedma_snapshot_take_policy,
		.maxattr = EDGEDMA_A_SNAPSHOT_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_SNAPSHOT_GET,
		.doit = edgedma_nl_snapshot_get,
		.start = edgedma_nl_dump_start,
		.dumpit = edgedma_nl_snapshot_dump,
		.policy = edgedma_snapshot_get_policy,
		.maxattr = EDGEDMA_A_SNAPSHOT_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_PROFILE_SET,
		.doit = edgedma_nl_profile_set,
		.policy = edgedma_profile_set_policy,
		.maxattr = EDGEDMA_A_PROFILE_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_PROFILE_GET,
		.doit = edgedma_nl_profile_get,
		.start = edgedma_nl_dump_start,
		.dumpit = edgedma_nl_profile_dump,
		.policy = edgedma_profile_name_policy,
		.maxattr = EDGEDMA_A_PROFILE_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_PROFILE_DEL,
		.doit = edgedma_nl_profile_del,
		.policy = edgedma_profile_name_policy,
		.maxattr = EDGEDMA_A_PROFILE_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_ERROR_HOOK_SET,
		.doit = edgedma_nl_error_hook_set,
		.policy = edgedma_error_hook_policy,
		.maxattr = EDGEDMA_A_ERROR_HOOK_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_ERROR_HOOK_GET,
		.start = edgedma_nl_dump_start,
		.dumpit = edgedma_nl_error_hook_dump,
		.policy = edgedma_error_hook_policy,
		.maxattr = EDGEDMA_A_ERROR_HOOK_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_ERROR_HOOK_DEL,
		.doit = edgedma_nl_error_hook_del,
		.policy = edgedma_error_hook_policy,
		.maxattr = EDGEDMA_A_ERROR_HOOK_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_CRASH_REGION_GET,
		.doit = edgedma_nl_crash_region_get,
		.policy = edgedma_crash_region_get_policy,
		.maxattr = EDGEDMA_A_CRASH_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_CRASH_RECORDS_GET,
		.doit = edgedma_nl_crash_records_get,
		.start = edgedma_nl_dump_start,
		.dumpit = edgedma_nl_crash_records_dump,
		.policy = edgedma_crash_records_get_policy,
		.maxattr = EDGEDMA_A_CRASH_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_CRASH_RECORDS_CLEAR,
		.doit = edgedma_nl_crash_records_clear,
		.policy = edgedma_crash_records_clear_policy,
		.maxattr = EDGEDMA_A_CRASH_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_UNFOLD_SET,
		.doit = edgedma_nl_unfold_set,
		.policy = edgedma_unfold_set_policy,
		.maxattr = EDGEDMA_A_UNFOLD_MAX,
	},
};

struct genl_family edgedma_family __ro_after_init = {
	.name = EDGEDMA_FAMILY_NAME,
	.version = EDGEDMA_FAMILY_VERSION,
	.module = THIS_MODULE,
	.ops = edgedma_nl_ops,
	.n_ops = ARRAY_SIZE(edgedma_nl_ops),
	.pre_doit = edgedma_nl_pre_doit,
	.mcgrps = edgedma_mcgrps,
	.n_mcgrps = ARRAY_SIZE(edgedma_mcgrps),
	.parallel_ops = true,
};

int __init edgedma_netlink_init(void)
{
	int err = edgedma_nl_unfold_init();

	if (err)
		return err;
	err = genl_register_family(&edgedma_family);
	if (err) {
		edgedma_nl_unfold_exit();
		return err;
	}
	down_write(&edgedma_nl_sender_lock);
	WRITE_ONCE(edgedma_nl_registered, true);
	up_write(&edgedma_nl_sender_lock);
	return 0;
}

void edgedma_netlink_exit(void)
{
	/* Waits for a sender in the middle of a multicast. */
	down_write(&edgedma_nl_sender_lock);
	WRITE_ONCE(edgedma_nl_registered, false);
	up_write(&edgedma_nl_sender_lock);
	genl_unregister_family(&edgedma_family);
	edgedma_nl_unfold_exit();
}
