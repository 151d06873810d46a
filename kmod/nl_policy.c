// SPDX-License-Identifier: GPL-2.0
/* POLICY_SET, POLICY_GET (do: in force for a device; dump: the rules), POLICY_DEL. */
#include <linux/cache.h>
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/sizes.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "netlink.h"
#include "policy.h"

/* Exactly one of DEVICE or DRIVER names what a policy command is about. */
static int edgedma_policy_target(struct genl_info *info, const char **name,
				 bool *is_driver)
{
	struct nlattr *dev = info->attrs[EDGEDMA_A_POLICY_DEVICE];
	struct nlattr *drv = info->attrs[EDGEDMA_A_POLICY_DRIVER];

	if (!!dev == !!drv) {
		GENL_SET_ERR_MSG(info, "give exactly one of a device or a driver name");
		return -EINVAL;
	}
	*is_driver = !!drv;
	*name = nla_data(drv ?: dev);
	if (!**name) {
		NL_SET_ERR_MSG_ATTR(info->extack, drv ?: dev, "empty name");
		return -EINVAL;
	}
	return 0;
}

static int edgedma_get_align(struct genl_info *info, int type, u32 *out)
{
	struct nlattr *a = info->attrs[type];

	if (!a)
		return 0;
	*out = nla_get_u32(a);
	if (!*out || !is_power_of_2(*out) || *out > SZ_1G) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "alignment must be a power of two from 1 to 1 GiB");
		return -EINVAL;
	}
	return 1;
}

int edgedma_nl_policy_set(struct sk_buff *skb, struct genl_info *info)
{
	struct edgedma_policy_rule rule = {};
	const char *name;
	int err, got;

	err = edgedma_policy_target(info, &name, &rule.is_driver);
	if (err)
		return err;
	strscpy(rule.name, name, sizeof(rule.name));

	got = edgedma_get_align(info, EDGEDMA_A_POLICY_ADDR_ALIGN, &rule.addr_align);
	if (got < 0)
		return got;
	if (got)
		rule.set |= EDGEDMA_RULE_ADDR_ALIGN;
	got = edgedma_get_align(info, EDGEDMA_A_POLICY_LEN_ALIGN, &rule.len_align);
	if (got < 0)
		return got;
	if (got)
		rule.set |= EDGEDMA_RULE_LEN_ALIGN;
	if (info->attrs[EDGEDMA_A_POLICY_COHERENCY]) {
		rule.coherency = nla_get_u32(info->attrs[EDGEDMA_A_POLICY_COHERENCY]);
		rule.set |= EDGEDMA_RULE_COHERENCY;
	}
	if (info->attrs[EDGEDMA_A_POLICY_CHECKS]) {
		rule.checks = nla_get_u32(info->attrs[EDGEDMA_A_POLICY_CHECKS]);
		if (rule.checks & ~EDGEDMA_CHECKS_ALL) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[EDGEDMA_A_POLICY_CHECKS],
					    "unknown check bits");
			return -EINVAL;
		}
		rule.set |= EDGEDMA_RULE_CHECKS;
	}
	if (info->attrs[EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS]) {
		rule.snapshot_triggers =
			nla_get_u32(info->attrs[EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS]);
		if (rule.snapshot_triggers & ~EDGEDMA_TRIGGERS_ALL) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS],
					    "unknown trigger bits");
			return -EINVAL;
		}
		rule.set |= EDGEDMA_RULE_SNAPSHOT_TRIGGERS;
	}
	if (info->attrs[EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS]) {
		rule.snapshot_findings =
			nla_get_u32(info->attrs[EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS]);
		if (rule.snapshot_findings & ~EDGEDMA_CHECKS_ALL) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS],
					    "unknown finding kind bits");
			return -EINVAL;
		}
		rule.set |= EDGEDMA_RULE_SNAPSHOT_FINDINGS;
	}
	/* Its range is the attribute policy's (-ERANGE with the bounds). */
	if (info->attrs[EDGEDMA_A_POLICY_OWNED_HASH_MAX]) {
		rule.owned_hash_max =
			nla_get_u32(info->attrs[EDGEDMA_A_POLICY_OWNED_HASH_MAX]);
		rule.set |= EDGEDMA_RULE_OWNED_HASH_MAX;
	}
	if (!rule.set) {
		GENL_SET_ERR_MSG(info, "nothing to set: give an alignment, coherency, checks, snapshot triggers or a hash length");
		return -EINVAL;
	}
	err = edgedma_policy_set(&rule);
	if (err == -ENOSPC)
		GENL_SET_ERR_MSG(info, "all policy rules are in use; delete one first");
	return err;
}

int edgedma_nl_policy_del(struct sk_buff *skb, struct genl_info *info)
{
	const char *name;
	bool is_driver;
	int err;

	err = edgedma_policy_target(info, &name, &is_driver);
	if (err)
		return err;
	err = edgedma_policy_del(name, is_driver);
	if (err)
		GENL_SET_ERR_MSG(info, "no policy set for that name");
	return err;
}

static int edgedma_put_rule(struct sk_buff *msg, const struct edgedma_policy_rule *r)
{
	if (nla_put_string(msg, r->is_driver ? EDGEDMA_A_POLICY_DRIVER :
			   EDGEDMA_A_POLICY_DEVICE, r->name) ||
	    ((r->set & EDGEDMA_RULE_ADDR_ALIGN) &&
	     nla_put_u32(msg, EDGEDMA_A_POLICY_ADDR_ALIGN, r->addr_align)) ||
	    ((r->set & EDGEDMA_RULE_LEN_ALIGN) &&
	     nla_put_u32(msg, EDGEDMA_A_POLICY_LEN_ALIGN, r->len_align)) ||
	    ((r->set & EDGEDMA_RULE_COHERENCY) &&
	     nla_put_u32(msg, EDGEDMA_A_POLICY_COHERENCY, r->coherency)) ||
	    ((r->set & EDGEDMA_RULE_CHECKS) &&
	     nla_put_u32(msg, EDGEDMA_A_POLICY_CHECKS, r->checks)) ||
	    ((r->set & EDGEDMA_RULE_SNAPSHOT_TRIGGERS) &&
	     nla_put_u32(msg, EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS, r->snapshot_triggers)) ||
	    ((r->set & EDGEDMA_RULE_SNAPSHOT_FINDINGS) &&
	     nla_put_u32(msg, EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS, r->snapshot_findings)) ||
	    ((r->set & EDGEDMA_RULE_OWNED_HASH_MAX) &&
	     nla_put_u32(msg, EDGEDMA_A_POLICY_OWNED_HASH_MAX, r->owned_hash_max)))
		return -EMSGSIZE;
	return 0;
}

int edgedma_nl_policy_get(struct sk_buff *skb, struct genl_info *info)
{
	struct edgedma_policy effective;
	struct device *dev;
	struct sk_buff *msg;
	const char *name;
	bool is_driver;
	void *hdr;
	int err;

	err = edgedma_policy_target(info, &name, &is_driver);
	if (err)
		return err;
	if (is_driver) {
		GENL_SET_ERR_MSG(info, "the policy in force is per device: name a device, or dump for driver rules");
		return -EINVAL;
	}
	dev = edgedma_find_device_by_name(name);
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[EDGEDMA_A_POLICY_DEVICE],
				    "no device of that name on the PCI or platform bus");
		return -ENODEV;
	}
	edgedma_policy_resolve(dev, &effective);
	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_POLICY_GET, &hdr);
	if (!msg) {
		put_device(dev);
		return -ENOMEM;
	}
	err = nla_put_string(msg, EDGEDMA_A_POLICY_DEVICE, dev_name(dev)) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_ADDR_ALIGN, effective.addr_align) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_LEN_ALIGN, effective.len_align) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_COHERENCY,
			  !effective.coherent_overridden ? EDGEDMA_COHERENCY_AUTO :
			  effective.coherent ? EDGEDMA_COHERENCY_COHERENT :
			  EDGEDMA_COHERENCY_NONCOHERENT) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_CHECKS, effective.checks) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS, effective.snapshot_triggers) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS, effective.snapshot_findings) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_OWNED_HASH_MAX, effective.owned_hash_max) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_DEV_COHERENT, dev_is_dma_coherent(dev)) ||
	      edgedma_put_u64(msg, EDGEDMA_A_POLICY_DMA_MASK,
			      dev->dma_mask ? *dev->dma_mask : 0, EDGEDMA_A_POLICY_PAD) ||
	      edgedma_put_u64(msg, EDGEDMA_A_POLICY_SEG_BOUNDARY,
			      dma_get_seg_boundary(dev), EDGEDMA_A_POLICY_PAD) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_MAX_SEG_SIZE, dma_get_max_seg_size(dev)) ||
	      nla_put_u32(msg, EDGEDMA_A_POLICY_CACHE_LINE, cache_line_size());
	put_device(dev);
	if (err)
		return edgedma_nl_reply_overflow(msg, info);
	return edgedma_nl_reply_send(msg, hdr, info);
}

int edgedma_nl_policy_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct edgedma_policy_rule r;
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	while (edgedma_policy_rule_get(cb->args[0], &r)) {
		void *hdr = edgedma_nl_dump_put(skb, cb, EDGEDMA_CMD_POLICY_GET);

		if (!hdr || edgedma_put_rule(skb, &r)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0]++;
	}
	return skb->len;
}
