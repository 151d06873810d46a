// SPDX-License-Identifier: GPL-2.0
/*
 * PROFILE_SET, PROFILE_GET and PROFILE_DEL: controller profiles from
 * userspace (edgedma profile load compiles them from device-tree source).
 * Everything a request says is checked here, before profiles.c binds it.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "netlink.h"
#include "profiles.h"

static const struct nla_policy edgedma_field_policy[EDGEDMA_A_FIELD_MAX + 1] = {
	[EDGEDMA_A_FIELD_NAME] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_FIELD_SHIFT] = NLA_POLICY_MAX(NLA_U32, 63),
	[EDGEDMA_A_FIELD_BITS] = NLA_POLICY_RANGE(NLA_U32, 1, 64),
};

static const struct nla_policy edgedma_register_policy[EDGEDMA_A_REGISTER_MAX + 1] = {
	[EDGEDMA_A_REGISTER_NAME] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_REGISTER_WINDOW] = NLA_POLICY_MAX(NLA_U32, EDGEDMA_WINDOWS_MAX - 1),
	[EDGEDMA_A_REGISTER_OFFSET] = { .type = NLA_U32 },
	[EDGEDMA_A_REGISTER_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 8),
	[EDGEDMA_A_REGISTER_FLAGS] = NLA_POLICY_MAX(NLA_U32, EDGEDMA_REGISTER_READ_CLEARS),
	[EDGEDMA_A_REGISTER_FIELD] = { .type = NLA_NESTED },
};

static int edgedma_parse_field(const struct nlattr *attr, struct edgedma_profile_reg *reg,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EDGEDMA_A_FIELD_MAX + 1];
	struct edgedma_reg_field *f;
	int err;

	err = nla_parse_nested(tb, EDGEDMA_A_FIELD_MAX, attr, edgedma_field_policy, extack);
	if (err)
		return err;
	if (!tb[EDGEDMA_A_FIELD_NAME] || !tb[EDGEDMA_A_FIELD_SHIFT] || !tb[EDGEDMA_A_FIELD_BITS]) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a field needs NAME, SHIFT and BITS");
		return -EINVAL;
	}
	if (reg->nfields == EDGEDMA_REG_FIELDS_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a register has at most 16 fields");
		return -EINVAL;
	}
	f = &reg->fields[reg->nfields];
	nla_strscpy(f->name, tb[EDGEDMA_A_FIELD_NAME], sizeof(f->name));
	f->shift = nla_get_u32(tb[EDGEDMA_A_FIELD_SHIFT]);
	f->bits = nla_get_u32(tb[EDGEDMA_A_FIELD_BITS]);
	if (f->shift + f->bits > reg->width * 8) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a field runs past its register's width");
		return -EINVAL;
	}
	reg->nfields++;
	return 0;
}

static int edgedma_parse_register(const struct nlattr *attr, struct edgedma_profile_reg *reg,
				  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EDGEDMA_A_REGISTER_MAX + 1];
	const struct nlattr *a;
	int err, rem;

	err = nla_parse_nested(tb, EDGEDMA_A_REGISTER_MAX, attr, edgedma_register_policy, extack);
	if (err)
		return err;
	if (!tb[EDGEDMA_A_REGISTER_NAME] || !tb[EDGEDMA_A_REGISTER_WINDOW] ||
	    !tb[EDGEDMA_A_REGISTER_OFFSET] || !tb[EDGEDMA_A_REGISTER_WIDTH]) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a register needs NAME, WINDOW, OFFSET and WIDTH");
		return -EINVAL;
	}
	memset(reg, 0, sizeof(*reg));
	reg->attr = attr;
	nla_strscpy(reg->name, tb[EDGEDMA_A_REGISTER_NAME], sizeof(reg->name));
	reg->window = nla_get_u32(tb[EDGEDMA_A_REGISTER_WINDOW]);
	reg->offset = nla_get_u32(tb[EDGEDMA_A_REGISTER_OFFSET]);
	reg->width = nla_get_u32(tb[EDGEDMA_A_REGISTER_WIDTH]);
	if (tb[EDGEDMA_A_REGISTER_FLAGS])
		reg->flags = nla_get_u32(tb[EDGEDMA_A_REGISTER_FLAGS]);
	if (!is_power_of_2(reg->width) || reg->offset % reg->width) {
		edgedma_extack_attr_fmt(extack, attr,
			"a register's width must be 1, 2, 4 or 8 and its offset a multiple of it",
			"register %s: width %u at %#x: need 1/2/4/8, offset aligned",
			reg->name, reg->width, reg->offset);
		return -EINVAL;
	}
	nla_for_each_nested(a, attr, rem) {
		if (nla_type(a) != EDGEDMA_A_REGISTER_FIELD)
			continue;
		err = edgedma_parse_field(a, reg, extack);
		if (err)
			return err;
	}
	return 0;
}

int edgedma_nl_profile_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct edgedma_profile *p;
	const struct nlattr *a;
	struct sk_buff *msg;
	unsigned int matches;
	void *hdr;
	int err, rem, bound;

	if (!attrs[EDGEDMA_A_PROFILE_NAME] || !nla_len(attrs[EDGEDMA_A_PROFILE_NAME]) ||
	    !*(char *)nla_data(attrs[EDGEDMA_A_PROFILE_NAME])) {
		GENL_SET_ERR_MSG(info, "name the profile (PROFILE_NAME)");
		return -EINVAL;
	}
	matches = !!attrs[EDGEDMA_A_PROFILE_PCI_ID] + !!attrs[EDGEDMA_A_PROFILE_COMPATIBLE] +
		  !!attrs[EDGEDMA_A_PROFILE_DEVICE];
	if (matches != 1) {
		GENL_SET_ERR_MSG(info, "give exactly one match: a PCI ID, a compatible or a device name");
		return -EINVAL;
	}
	p = kvzalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		GENL_SET_ERR_MSG(info, "no memory for the profile");
		return -ENOMEM;
	}
	nla_strscpy(p->name, attrs[EDGEDMA_A_PROFILE_NAME], sizeof(p->name));
	if (attrs[EDGEDMA_A_PROFILE_PCI_ID]) {
		p->match = EDGEDMA_MATCH_PCI_ID;
		p->pci_id = nla_get_u32(attrs[EDGEDMA_A_PROFILE_PCI_ID]);
	} else if (attrs[EDGEDMA_A_PROFILE_COMPATIBLE]) {
		p->match = EDGEDMA_MATCH_COMPATIBLE;
		nla_strscpy(p->key, attrs[EDGEDMA_A_PROFILE_COMPATIBLE], sizeof(p->key));
	} else {
		p->match = EDGEDMA_MATCH_DEVICE;
		nla_strscpy(p->key, attrs[EDGEDMA_A_PROFILE_DEVICE], sizeof(p->key));
	}
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != EDGEDMA_A_PROFILE_REGISTER)
			continue;
		if (p->nregs == EDGEDMA_PROFILE_REGS_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "a profile has at most 64 registers");
			kvfree(p);
			return -EINVAL;
		}
		err = edgedma_parse_register(a, &p->regs[p->nregs], info->extack);
		if (err) {
			kvfree(p);
			return err;
		}
		p->nregs++;
	}
	if (!p->nregs) {
		GENL_SET_ERR_MSG(info, "a profile needs at least one register (PROFILE_REGISTER)");
		kvfree(p);
		return -EINVAL;
	}

	err = edgedma_profile_install(p, info->extack);
	if (err)
		return err;
	/* Installed: p belongs to the table now, only its summary is read. */
	{
		struct edgedma_profile_summary sum;
		unsigned long slot = 0;
		char name[EDGEDMA_PROFILE_NAME_LEN];

		nla_strscpy(name, attrs[EDGEDMA_A_PROFILE_NAME], sizeof(name));
		bound = 0;
		while (edgedma_profile_next(&slot, &sum))
			if (!strcmp(sum.name, name))
				bound = sum.bound;
	}
	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_PROFILE_SET, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, EDGEDMA_A_PROFILE_BOUND, bound))
		return edgedma_nl_reply_overflow(msg, info);
	return edgedma_nl_reply_send(msg, hdr, info);
}

int edgedma_nl_profile_del(struct sk_buff *skb, struct genl_info *info)
{
	char name[EDGEDMA_PROFILE_NAME_LEN];
	int err;

	if (!info->attrs[EDGEDMA_A_PROFILE_NAME]) {
		GENL_SET_ERR_MSG(info, "name the profile to delete (PROFILE_NAME)");
		return -EINVAL;
	}
	nla_strscpy(name, info->attrs[EDGEDMA_A_PROFILE_NAME], sizeof(name));
	err = edgedma_profile_remove(name);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[EDGEDMA_A_PROFILE_NAME],
				    "no profile by that name");
	return err;
}

/* cb->args[0]: the next profile slot. */
int edgedma_nl_profile_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct edgedma_profile_summary sum;
	unsigned long slot = cb->args[0];
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	for (;;) {
		unsigned long at = slot;
		void *hdr;

		if (!edgedma_profile_next(&slot, &sum))
			break;
		hdr = edgedma_nl_dump_put(skb, cb, EDGEDMA_CMD_PROFILE_GET);
		if (!hdr ||
		    nla_put_string(skb, EDGEDMA_A_PROFILE_NAME, sum.name) ||
		    (sum.match == EDGEDMA_MATCH_PCI_ID &&
		     nla_put_u32(skb, EDGEDMA_A_PROFILE_PCI_ID, sum.pci_id)) ||
		    (sum.match == EDGEDMA_MATCH_COMPATIBLE &&
		     nla_put_string(skb, EDGEDMA_A_PROFILE_COMPATIBLE, sum.key)) ||
		    (sum.match == EDGEDMA_MATCH_DEVICE &&
		     nla_put_string(skb, EDGEDMA_A_PROFILE_DEVICE, sum.key)) ||
		    nla_put_u32(skb, EDGEDMA_A_PROFILE_BOUND, sum.bound) ||
		    nla_put_u32(skb, EDGEDMA_A_PROFILE_REGISTERS, sum.nregs)) {
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
