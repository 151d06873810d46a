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
#include <linux/slab.h>
#include <linux/utsname.h>
#include <linux/dma-map-ops.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "checks.h"
#include "devices.h"
#include "edgedma.h"
#include "findings.h"
#include "map_events.h"
#include "maptrack.h"
#include "netlink.h"
#include "policy.h"
#include "vmalloc_pages.h"

/* genl_ops.internal_flags: the command may be used without CAP_SYS_ADMIN. */
#define EDGEDMA_NL_UNPRIVILEGED	BIT(0)

static atomic64_t edgedma_nl_requests = ATOMIC64_INIT(0);
static atomic64_t edgedma_nl_rejected = ATOMIC64_INIT(0);

/* Neither command takes attributes: all-NLA_UNSPEC policies refuse any. */
static const struct nla_policy edgedma_get_info_policy[EDGEDMA_A_INFO_MAX + 1];
static const struct nla_policy edgedma_get_stats_policy[EDGEDMA_A_STATS_MAX + 1];

static const struct nla_policy edgedma_findings_get_policy[EDGEDMA_A_FINDING_MAX + 1] = {
	[EDGEDMA_A_FINDING_SEQ] = { .type = NLA_U64 },
};

static const struct nla_policy edgedma_mappings_get_policy[EDGEDMA_A_MAPPING_MAX + 1] = {
	[EDGEDMA_A_MAPPING_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
};

static const struct nla_policy edgedma_policy_set_policy[EDGEDMA_A_POLICY_MAX + 1] = {
	[EDGEDMA_A_POLICY_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
	[EDGEDMA_A_POLICY_DRIVER] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
	[EDGEDMA_A_POLICY_ADDR_ALIGN] = { .type = NLA_U32 },
	[EDGEDMA_A_POLICY_LEN_ALIGN] = { .type = NLA_U32 },
	[EDGEDMA_A_POLICY_COHERENCY] = NLA_POLICY_RANGE(NLA_U32, EDGEDMA_COHERENCY_AUTO,
							 EDGEDMA_COHERENCY_NONCOHERENT),
	[EDGEDMA_A_POLICY_CHECKS] = { .type = NLA_U32 },
};

static const struct nla_policy edgedma_policy_name_policy[EDGEDMA_A_POLICY_MAX + 1] = {
	[EDGEDMA_A_POLICY_DEVICE] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
	[EDGEDMA_A_POLICY_DRIVER] = { .type = NLA_NUL_STRING, .len = EDGEDMA_NAME_LEN - 1 },
};

static const struct nla_policy edgedma_map_events_set_policy[EDGEDMA_A_MAP_EVENTS_MAX + 1] = {
	[EDGEDMA_A_MAP_EVENTS_ENABLE] = NLA_POLICY_MAX(NLA_U32, 1),
};

static struct genl_family edgedma_family;

/* Indexes into edgedma_mcgrps. */
enum { EDGEDMA_GROUP_EVENTS, EDGEDMA_GROUP_MAP_EVENTS };

static const struct genl_multicast_group edgedma_mcgrps[] = {
	[EDGEDMA_GROUP_EVENTS] = { .name = EDGEDMA_MCGRP_EVENTS },
	[EDGEDMA_GROUP_MAP_EVENTS] = { .name = EDGEDMA_MCGRP_MAP_EVENTS },
};

static int edgedma_nl_require_admin(const struct sk_buff *skb,
				    struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	atomic64_inc(&edgedma_nl_rejected);
	NL_SET_ERR_MSG(extack, "this command needs CAP_SYS_ADMIN");
	return -EPERM;
}

/*
 * Dumps bypass pre_doit: their start callback checks the same things, or
 * their dumpit does where start cannot report why (compat.h).
 */
static int edgedma_nl_dump_start(struct netlink_callback *cb)
{
	atomic64_inc(&edgedma_nl_requests);
	cb->args[0] = 0;
	if (!EDGEDMA_DUMP_START_HAS_EXTACK)
		return 0;
	return edgedma_nl_require_admin(cb->skb, cb->extack);
}

static int edgedma_nl_dump_refused(struct netlink_callback *cb)
{
	if (EDGEDMA_DUMP_START_HAS_EXTACK)
		return 0;
	return edgedma_nl_require_admin(cb->skb, cb->extack);
}

static int edgedma_nl_pre_doit(const edgedma_genl_ops_t *ops,
			       struct sk_buff *skb, struct genl_info *info)
{
	atomic64_inc(&edgedma_nl_requests);
	if (ops->internal_flags & EDGEDMA_NL_UNPRIVILEGED)
		return 0;
	return edgedma_nl_require_admin(skb, info->extack);
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

static int edgedma_put_u64(struct sk_buff *msg, int type, u64 value, int pad)
{
	return nla_put_u64_64bit(msg, type, value, pad);
}

/* ---- findings -------------------------------------------------------- */

static int edgedma_nl_put_finding(struct sk_buff *msg, const struct edgedma_finding *f)
{
	if (edgedma_put_u64(msg, EDGEDMA_A_FINDING_SEQ, f->seq, EDGEDMA_A_FINDING_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_FINDING_TIME_NS, f->time_ns,
			    EDGEDMA_A_FINDING_PAD) ||
	    nla_put_u32(msg, EDGEDMA_A_FINDING_KIND, f->kind) ||
	    nla_put_u32(msg, EDGEDMA_A_FINDING_CALL, f->call) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DEVICE, f->device) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DRIVER, f->driver) ||
	    edgedma_put_u64(msg, EDGEDMA_A_FINDING_DMA_ADDR, f->dma_addr,
			    EDGEDMA_A_FINDING_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_FINDING_SIZE, f->size, EDGEDMA_A_FINDING_PAD) ||
	    nla_put_u32(msg, EDGEDMA_A_FINDING_DIR, f->dir) ||
	    (f->phys != EDGEDMA_NO_PHYS &&
	     edgedma_put_u64(msg, EDGEDMA_A_FINDING_CPU_PHYS, f->phys,
			     EDGEDMA_A_FINDING_PAD)) ||
	    edgedma_put_u64(msg, EDGEDMA_A_FINDING_CALLER, f->caller,
			    EDGEDMA_A_FINDING_PAD) ||
	    (f->map_caller &&
	     edgedma_put_u64(msg, EDGEDMA_A_FINDING_MAP_CALLER, f->map_caller,
			     EDGEDMA_A_FINDING_PAD)) ||
	    nla_put_string(msg, EDGEDMA_A_FINDING_DETAIL, f->detail))
		return -EMSGSIZE;
	return 0;
}

bool edgedma_nl_events_listened(void)
{
	return genl_has_listeners(&edgedma_family, &init_net, EDGEDMA_GROUP_EVENTS);
}

int edgedma_nl_notify_finding(const struct edgedma_finding *f)
{
	struct sk_buff *msg;
	void *hdr;

	if (!edgedma_nl_events_listened())
		return 0;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, 0, 0, &edgedma_family, 0, EDGEDMA_CMD_FINDING);
	if (!hdr || edgedma_nl_put_finding(msg, f)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&edgedma_family, msg, 0, EDGEDMA_GROUP_EVENTS, GFP_KERNEL);
	return 0;
}

/* ---- the mapping-event stream ------------------------------------------ */

bool edgedma_nl_map_events_listened(void)
{
	return genl_has_listeners(&edgedma_family, &init_net, EDGEDMA_GROUP_MAP_EVENTS);
}

struct sk_buff *edgedma_nl_map_events_new(void **hdr)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &edgedma_family, 0, EDGEDMA_CMD_MAP_EVENTS);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

void edgedma_nl_map_events_cancel(struct sk_buff *msg)
{
	nlmsg_free(msg);
}

/* A listener whose socket is full misses it and sees the gap in seqs. */
void edgedma_nl_map_events_send(struct sk_buff *msg, void *hdr)
{
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&edgedma_family, msg, 0, EDGEDMA_GROUP_MAP_EVENTS, GFP_KERNEL);
}

static int edgedma_nl_put_cursor(struct sk_buff *msg, int cpu,
				 const struct edgedma_map_events_cursor *cursor)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, EDGEDMA_A_MAP_EVENTS_CURSOR);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, EDGEDMA_A_MAP_EVENTS_CPU, cpu) ||
	    edgedma_put_u64(msg, EDGEDMA_A_MAP_EVENTS_NEXT_SEQ, cursor->next_seq,
			    EDGEDMA_A_MAP_EVENTS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_MAP_EVENTS_DROPPED, cursor->dropped,
			    EDGEDMA_A_MAP_EVENTS_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int edgedma_nl_map_events_set(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *enable = info->attrs[EDGEDMA_A_MAP_EVENTS_ENABLE];
	enum edgedma_map_events_want want = EDGEDMA_MAP_EVENTS_KEEP;
	struct edgedma_map_events_cursor *cursors;
	struct sk_buff *msg;
	void *hdr;
	bool was;
	int cpu;
	int err;

	/* Without ENABLE: a reader that did not turn the stream on reads where it stands. */
	if (enable)
		want = nla_get_u32(enable) ? EDGEDMA_MAP_EVENTS_ON : EDGEDMA_MAP_EVENTS_OFF;
	/* Allocated before the state changes: a failure then changes nothing. */
	cursors = kcalloc(nr_cpu_ids, sizeof(*cursors), GFP_KERNEL);
	msg = genlmsg_new(nla_total_size(sizeof(u32)) +
			  num_possible_cpus() * nla_total_size(3 * nla_total_size_64bit(8)),
			  GFP_KERNEL);
	if (!cursors || !msg) {
		GENL_SET_ERR_MSG(info, "no memory for the reply");
		err = -ENOMEM;
		goto err_free;
	}
	hdr = genlmsg_put_reply(msg, info, &edgedma_family, 0, EDGEDMA_CMD_MAP_EVENTS_SET);
	if (!hdr) {
		GENL_SET_ERR_MSG(info, "reply header does not fit");
		err = -EMSGSIZE;
		goto err_free;
	}
	was = edgedma_map_events_set(want, cursors);
	if (nla_put_u32(msg, EDGEDMA_A_MAP_EVENTS_WAS_ENABLED, was))
		goto err_overflow;
	for_each_possible_cpu(cpu)
		if (edgedma_nl_put_cursor(msg, cpu, &cursors[cpu]))
			goto err_overflow;
	kfree(cursors);
	return edgedma_nl_reply_send(msg, hdr, info);

err_overflow:
	kfree(cursors);
	return edgedma_nl_reply_overflow(msg, info);
err_free:
	kfree(cursors);
	nlmsg_free(msg);
	return err;
}

static const struct nlattr *const *edgedma_dump_attrs(struct netlink_callback *cb)
{
	return edgedma_genl_dumpit_attrs(genl_dumpit_info(cb));
}

static int edgedma_nl_findings_start(struct netlink_callback *cb)
{
	const struct nlattr *const *attrs = edgedma_dump_attrs(cb);
	int err = edgedma_nl_dump_start(cb);

	if (err)
		return err;
	cb->args[0] = attrs[EDGEDMA_A_FINDING_SEQ] ?
		      nla_get_u64(attrs[EDGEDMA_A_FINDING_SEQ]) : 1;
	return 0;
}

static int edgedma_nl_findings_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct edgedma_finding *f;
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	while (edgedma_finding_get(cb->args[0], f)) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, &edgedma_family,
					NLM_F_MULTI, EDGEDMA_CMD_FINDINGS_GET);

		if (!hdr || edgedma_nl_put_finding(skb, f)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = f->seq + 1;
	}
	kfree(f);
	return err ?: skb->len;
}

/* ---- mappings -------------------------------------------------------- */

struct edgedma_mapping_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	const char *device;
};

static bool edgedma_nl_put_mapping(const struct edgedma_mapping *m, void *arg)
{
	struct edgedma_mapping_dump *d = arg;
	struct sk_buff *skb = d->skb;
	void *hdr;

	if (d->device && strcmp(d->device, m->devrec->name))
		return true;
	hdr = genlmsg_put(skb, NETLINK_CB(d->cb->skb).portid, d->cb->nlh->nlmsg_seq,
			  &edgedma_family, NLM_F_MULTI, EDGEDMA_CMD_MAPPINGS_GET);
	if (!hdr)
		return false;
	if (nla_put_string(skb, EDGEDMA_A_MAPPING_DEVICE, m->devrec->name) ||
	    nla_put_string(skb, EDGEDMA_A_MAPPING_DRIVER, m->devrec->driver) ||
	    nla_put_u32(skb, EDGEDMA_A_MAPPING_CALL, m->kind) ||
	    edgedma_put_u64(skb, EDGEDMA_A_MAPPING_DMA_ADDR, m->dma_addr,
			    EDGEDMA_A_MAPPING_PAD) ||
	    edgedma_put_u64(skb, EDGEDMA_A_MAPPING_SIZE, m->size, EDGEDMA_A_MAPPING_PAD) ||
	    nla_put_u32(skb, EDGEDMA_A_MAPPING_DIR, m->dir) ||
	    edgedma_put_u64(skb, EDGEDMA_A_MAPPING_ATTRS, m->attrs, EDGEDMA_A_MAPPING_PAD) ||
	    (m->phys != EDGEDMA_NO_PHYS &&
	     edgedma_put_u64(skb, EDGEDMA_A_MAPPING_CPU_PHYS, m->phys,
			     EDGEDMA_A_MAPPING_PAD)) ||
	    (m->cpu_virt &&
	     edgedma_put_u64(skb, EDGEDMA_A_MAPPING_CPU_VIRT, m->cpu_virt,
			     EDGEDMA_A_MAPPING_PAD)) ||
	    edgedma_put_u64(skb, EDGEDMA_A_MAPPING_CALLER, m->caller,
			    EDGEDMA_A_MAPPING_PAD) ||
	    edgedma_put_u64(skb, EDGEDMA_A_MAPPING_TIME_NS, m->time_ns,
			    EDGEDMA_A_MAPPING_PAD) ||
	    (m->kind == EDGEDMA_CALL_MAP_SG &&
	     (nla_put_u32(skb, EDGEDMA_A_MAPPING_SG_INDEX, m->sg_index) ||
	      nla_put_u32(skb, EDGEDMA_A_MAPPING_SG_COUNT, m->sg_count)))) {
		genlmsg_cancel(skb, hdr);
		return false;
	}
	genlmsg_end(skb, hdr);
	return true;
}

static int edgedma_nl_mappings_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct nlattr *const *attrs = edgedma_dump_attrs(cb);
	struct edgedma_mapping_dump d = { .skb = skb, .cb = cb };
	unsigned long pos = cb->args[0];
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	if (attrs[EDGEDMA_A_MAPPING_DEVICE])
		d.device = nla_data(attrs[EDGEDMA_A_MAPPING_DEVICE]);
	edgedma_maptrack_walk(&pos, edgedma_nl_put_mapping, &d);
	if (pos == cb->args[0] && skb->len == 0 && pos >> 16 < (1UL << 14))
		return -EMSGSIZE;	/* one record larger than a whole message */
	cb->args[0] = pos;
	return skb->len;
}

/* ---- policy ---------------------------------------------------------- */

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

static int edgedma_nl_policy_set(struct sk_buff *skb, struct genl_info *info)
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
	if (!rule.set) {
		GENL_SET_ERR_MSG(info, "nothing to set: give an alignment, coherency or checks");
		return -EINVAL;
	}
	err = edgedma_policy_set(&rule);
	if (err == -ENOSPC)
		GENL_SET_ERR_MSG(info, "all policy rules are in use; delete one first");
	return err;
}

static int edgedma_nl_policy_del(struct sk_buff *skb, struct genl_info *info)
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
	     nla_put_u32(msg, EDGEDMA_A_POLICY_CHECKS, r->checks)))
		return -EMSGSIZE;
	return 0;
}

static int edgedma_nl_policy_get(struct sk_buff *skb, struct genl_info *info)
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

static int edgedma_nl_policy_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct edgedma_policy_rule r;
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	while (edgedma_policy_rule_get(cb->args[0], &r)) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, &edgedma_family,
					NLM_F_MULTI, EDGEDMA_CMD_POLICY_GET);

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
			dma_get_cache_alignment()) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_HOOK_MODE, edgedma_hook_mode_active()))
		return edgedma_nl_reply_overflow(msg, info);

	return edgedma_nl_reply_send(msg, hdr, info);
}

/* What the module holds, all of it preallocated at load (GET_STATS). */
static u64 edgedma_memory_held(void)
{
	return edgedma_devices_memory() + edgedma_maptrack_memory() +
	       edgedma_findings_memory() + edgedma_map_events_memory() +
	       edgedma_hook_memory() + edgedma_vmalloc_pages_memory();
}

static int edgedma_nl_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	u64 map_events, map_events_dropped;
	struct sk_buff *msg;
	void *hdr;

	edgedma_map_events_totals(&map_events, &map_events_dropped);
	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_GET_STATS, &hdr);
	if (!msg)
		return -ENOMEM;

	if (edgedma_put_u64(msg, EDGEDMA_A_STATS_REQUESTS,
			    atomic64_read(&edgedma_nl_requests), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_REJECTED,
			    atomic64_read(&edgedma_nl_rejected), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_CALLS, edgedma_checks_calls(),
			    EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_MAPPINGS_LIVE,
			    edgedma_maptrack_live(), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_POOL_SIZE,
			    edgedma_maptrack_pool_size(), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_POOL_EXHAUSTED,
			    edgedma_maptrack_exhausted(), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_FINDINGS,
			    edgedma_findings_last_seq(), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_EVENTS_DROPPED,
			    edgedma_findings_events_dropped(), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_UNTRACKED_DEVICES,
			    edgedma_devices_untracked(), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_HOOK_MISSED,
			    edgedma_hook_missed(), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_UNSEEN_MAPPINGS,
			    edgedma_checks_unseen(), EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_MAP_EVENTS, map_events,
			    EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_MAP_EVENTS_DROPPED, map_events_dropped,
			    EDGEDMA_A_STATS_PAD) ||
	    edgedma_put_u64(msg, EDGEDMA_A_STATS_MEMORY, edgedma_memory_held(),
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
	{
		.cmd = EDGEDMA_CMD_FINDINGS_GET,
		.start = edgedma_nl_findings_start,
		.dumpit = edgedma_nl_findings_dump,
		.policy = edgedma_findings_get_policy,
		.maxattr = EDGEDMA_A_FINDING_MAX,
	},
	{
		.cmd = EDGEDMA_CMD_MAPPINGS_GET,
		.start = edgedma_nl_dump_start,
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
};

static struct genl_family edgedma_family __ro_after_init = {
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
	return genl_register_family(&edgedma_family);
}

void edgedma_netlink_exit(void)
{
	genl_unregister_family(&edgedma_family);
}
