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
#include "snapshot_record.h"

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
	[EDGEDMA_A_REGISTER_FLAGS] = NLA_POLICY_MAX(NLA_U32, EDGEDMA_REGISTER_READ_CLEARS |
							     EDGEDMA_REGISTER_READ_ON_ERROR),
	[EDGEDMA_A_REGISTER_FIELD] = { .type = NLA_NESTED },
};

static const struct nla_policy edgedma_dfield_policy[EDGEDMA_A_DFIELD_MAX + 1] = {
	[EDGEDMA_A_DFIELD_NAME] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_DFIELD_OFFSET] = NLA_POLICY_MAX(NLA_U32, EDGEDMA_DESC_SIZE_MAX - 1),
	[EDGEDMA_A_DFIELD_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 8),
	[EDGEDMA_A_DFIELD_SHIFT] = NLA_POLICY_MAX(NLA_U32, 63),
	[EDGEDMA_A_DFIELD_BITS] = NLA_POLICY_RANGE(NLA_U32, 1, 64),
	[EDGEDMA_A_DFIELD_ROLE] = NLA_POLICY_RANGE(NLA_U32, EDGEDMA_DESC_ROLE_ADDRESS,
						   EDGEDMA_DESC_ROLE_STATUS),
};

static const struct nla_policy edgedma_chain_policy[EDGEDMA_A_CHAIN_MAX + 1] = {
	[EDGEDMA_A_CHAIN_NAME] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_CHAIN_KIND] = NLA_POLICY_RANGE(NLA_U32, EDGEDMA_CHAIN_RING,
						  EDGEDMA_CHAIN_PL330_PROGRAM),
	[EDGEDMA_A_CHAIN_START_REG] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_CHAIN_START_HI_REG] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_CHAIN_LENGTH_REG] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_CHAIN_ENTRIES] = { .type = NLA_U32 },	/* not 0: below */
	[EDGEDMA_A_CHAIN_HEAD_REG] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_CHAIN_TAIL_REG] = { .type = NLA_NUL_STRING, .len = EDGEDMA_PROFILE_NAME_LEN - 1 },
	[EDGEDMA_A_CHAIN_DESC_SIZE] = NLA_POLICY_RANGE(NLA_U32, EDGEDMA_DESC_SIZE_MIN,
						       EDGEDMA_DESC_SIZE_MAX),
	[EDGEDMA_A_CHAIN_MAX_DESCS] = NLA_POLICY_RANGE(NLA_U32, 1, EDGEDMA_CHAIN_DESCS_MAX),
	[EDGEDMA_A_CHAIN_FLAGS] = NLA_POLICY_MAX(NLA_U32, EDGEDMA_CHAIN_BIG_ENDIAN |
							  EDGEDMA_CHAIN_LENGTH_IN_BYTES),
	[EDGEDMA_A_CHAIN_DFIELD] = { .type = NLA_NESTED },
	[EDGEDMA_A_CHAIN_ALIGN_LOG2] = NLA_POLICY_RANGE(NLA_U32, 1, EDGEDMA_CHAIN_ALIGN_LOG2_MAX),
	/* enum dma_data_direction: DMA_TO_DEVICE (1) or DMA_FROM_DEVICE (2). */
	[EDGEDMA_A_CHAIN_DIRECTION] = NLA_POLICY_RANGE(NLA_U32, 1, 2),
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
	if ((reg->flags & EDGEDMA_REGISTER_READ_ON_ERROR) &&
	    !(reg->flags & EDGEDMA_REGISTER_READ_CLEARS)) {
		edgedma_extack_attr_fmt(extack, attr,
			"READ_ON_ERROR is for a register that clears when read (READ_CLEARS)",
			"register %s: READ_ON_ERROR without READ_CLEARS", reg->name);
		return -EINVAL;
	}
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

static int edgedma_parse_dfield(const struct nlattr *attr, struct edgedma_profile_chain *c,
				struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EDGEDMA_A_DFIELD_MAX + 1];
	struct edgedma_desc_field *f;
	int err;

	err = nla_parse_nested(tb, EDGEDMA_A_DFIELD_MAX, attr, edgedma_dfield_policy, extack);
	if (err)
		return err;
	if (!tb[EDGEDMA_A_DFIELD_NAME] || !tb[EDGEDMA_A_DFIELD_OFFSET] ||
	    !tb[EDGEDMA_A_DFIELD_WIDTH]) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a descriptor field needs NAME, OFFSET and WIDTH");
		return -EINVAL;
	}
	if (c->nfields == EDGEDMA_CHAIN_FIELDS_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a chain has at most 16 descriptor fields");
		return -EINVAL;
	}
	f = &c->fields[c->nfields];
	nla_strscpy(f->name, tb[EDGEDMA_A_DFIELD_NAME], sizeof(f->name));
	f->offset = nla_get_u32(tb[EDGEDMA_A_DFIELD_OFFSET]);
	f->width = nla_get_u32(tb[EDGEDMA_A_DFIELD_WIDTH]);
	if (tb[EDGEDMA_A_DFIELD_SHIFT])
		f->shift = nla_get_u32(tb[EDGEDMA_A_DFIELD_SHIFT]);
	if (tb[EDGEDMA_A_DFIELD_BITS])
		f->bits = nla_get_u32(tb[EDGEDMA_A_DFIELD_BITS]);
	if (tb[EDGEDMA_A_DFIELD_ROLE])
		f->role = nla_get_u32(tb[EDGEDMA_A_DFIELD_ROLE]);
	if (!is_power_of_2(f->width) || f->offset + f->width > c->desc_size ||
	    f->shift + (f->bits ?: 1) > f->width * 8) {
		edgedma_extack_attr_fmt(extack, attr,
			"a descriptor field must be 1, 2, 4 or 8 bytes inside the descriptor, its bits inside those",
			"chain %s, field %s: %u bytes at %u, bits %u+%u: need 1/2/4/8 bytes within %u, bits within them",
			c->name, f->name, f->width, f->offset, f->shift, f->bits, c->desc_size);
		return -EINVAL;
	}
	c->nfields++;
	return 0;
}

/* The profile's register named by @attr (absent: EDGEDMA_NO_REG). */
static int edgedma_chain_reg_index(const struct edgedma_profile *p,
				   const struct edgedma_profile_chain *c,
				   const struct nlattr *attr, const char *what, u8 *index,
				   struct netlink_ext_ack *extack)
{
	unsigned int i;

	*index = EDGEDMA_NO_REG;
	if (!attr)
		return 0;
	for (i = 0; i < p->nregs; i++) {
		if (strcmp(p->regs[i].name, nla_data(attr)))
			continue;
		if (p->regs[i].flags & EDGEDMA_REGISTER_READ_CLEARS) {
			edgedma_extack_attr_fmt(extack, attr,
				"a chain's register clears when read: snapshots cannot read it",
				"chain %s: its %s register %s clears when read",
				c->name, what, p->regs[i].name);
			return -EINVAL;
		}
		*index = i;
		return 0;
	}
	edgedma_extack_attr_fmt(extack, attr,
		"a chain names a register the profile does not have",
		"chain %s: its %s register %s is not among the profile's registers",
		c->name, what, (const char *)nla_data(attr));
	return -EINVAL;
}

static int edgedma_parse_chain(const struct nlattr *attr, const struct edgedma_profile *p,
			       struct edgedma_profile_chain *c, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EDGEDMA_A_CHAIN_MAX + 1];
	const struct nlattr *a;
	int err, rem, nexts;
	unsigned int i;

	err = nla_parse_nested(tb, EDGEDMA_A_CHAIN_MAX, attr, edgedma_chain_policy, extack);
	if (err)
		return err;
	if (!tb[EDGEDMA_A_CHAIN_NAME] || !tb[EDGEDMA_A_CHAIN_KIND] ||
	    !tb[EDGEDMA_A_CHAIN_START_REG] || !tb[EDGEDMA_A_CHAIN_DESC_SIZE]) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a chain needs NAME, KIND, START_REG and DESC_SIZE");
		return -EINVAL;
	}
	memset(c, 0, sizeof(*c));
	c->attr = attr;
	nla_strscpy(c->name, tb[EDGEDMA_A_CHAIN_NAME], sizeof(c->name));
	c->kind = nla_get_u32(tb[EDGEDMA_A_CHAIN_KIND]);
	c->desc_size = nla_get_u32(tb[EDGEDMA_A_CHAIN_DESC_SIZE]);
	if (tb[EDGEDMA_A_CHAIN_ENTRIES]) {
		c->entries = nla_get_u32(tb[EDGEDMA_A_CHAIN_ENTRIES]);
		if (!c->entries) {
			NL_SET_ERR_MSG_ATTR(extack, tb[EDGEDMA_A_CHAIN_ENTRIES],
					    "a ring has at least one entry");
			return -EINVAL;
		}
	}
	if (tb[EDGEDMA_A_CHAIN_MAX_DESCS])
		c->max_descs = nla_get_u32(tb[EDGEDMA_A_CHAIN_MAX_DESCS]);
	if (tb[EDGEDMA_A_CHAIN_FLAGS])
		c->flags = nla_get_u32(tb[EDGEDMA_A_CHAIN_FLAGS]);
	if (tb[EDGEDMA_A_CHAIN_ALIGN_LOG2])
		c->align_log2 = nla_get_u32(tb[EDGEDMA_A_CHAIN_ALIGN_LOG2]);
	if (tb[EDGEDMA_A_CHAIN_DIRECTION])
		c->direction = nla_get_u32(tb[EDGEDMA_A_CHAIN_DIRECTION]);
	err = edgedma_chain_reg_index(p, c, tb[EDGEDMA_A_CHAIN_START_REG], "start",
				      &c->start_reg, extack) ?:
	      edgedma_chain_reg_index(p, c, tb[EDGEDMA_A_CHAIN_START_HI_REG], "start-hi",
				      &c->start_hi_reg, extack) ?:
	      edgedma_chain_reg_index(p, c, tb[EDGEDMA_A_CHAIN_LENGTH_REG], "length",
				      &c->length_reg, extack) ?:
	      edgedma_chain_reg_index(p, c, tb[EDGEDMA_A_CHAIN_HEAD_REG], "head",
				      &c->head_reg, extack) ?:
	      edgedma_chain_reg_index(p, c, tb[EDGEDMA_A_CHAIN_TAIL_REG], "tail",
				      &c->tail_reg, extack);
	if (err)
		return err;
	if (c->kind == EDGEDMA_CHAIN_RING &&
	    !!tb[EDGEDMA_A_CHAIN_LENGTH_REG] == !!tb[EDGEDMA_A_CHAIN_ENTRIES]) {
		edgedma_extack_attr_fmt(extack, attr,
			"a ring needs its size: LENGTH_REG or ENTRIES, not both",
			"chain %s: a ring needs LENGTH_REG or ENTRIES, not both", c->name);
		return -EINVAL;
	}
	if (c->kind == EDGEDMA_CHAIN_PL330_PROGRAM &&
	    (tb[EDGEDMA_A_CHAIN_LENGTH_REG] || !c->entries || c->entries > 64 ||
	     tb[EDGEDMA_A_CHAIN_HEAD_REG] || tb[EDGEDMA_A_CHAIN_TAIL_REG] || c->flags ||
	     !is_power_of_2(c->entries * c->desc_size))) {
		edgedma_extack_attr_fmt(extack, attr,
			"a program is ENTRIES blocks of DESC_SIZE bytes, a power of two in all, and no size, head, tail or flags",
			"chain %s: a program needs ENTRIES (1 to 64) blocks of DESC_SIZE bytes, a power of two in all, and takes no LENGTH_REG, HEAD_REG, TAIL_REG or FLAGS",
			c->name);
		return -EINVAL;
	}
	if (c->kind == EDGEDMA_CHAIN_LIST &&
	    (tb[EDGEDMA_A_CHAIN_LENGTH_REG] || tb[EDGEDMA_A_CHAIN_ENTRIES] ||
	     tb[EDGEDMA_A_CHAIN_HEAD_REG] || tb[EDGEDMA_A_CHAIN_TAIL_REG] ||
	     (c->flags & EDGEDMA_CHAIN_LENGTH_IN_BYTES))) {
		edgedma_extack_attr_fmt(extack, attr,
			"a list has no size, head or tail: it ends where its next field says",
			"chain %s: a list takes no LENGTH_REG, ENTRIES, HEAD_REG or TAIL_REG",
			c->name);
		return -EINVAL;
	}
	nla_for_each_nested(a, attr, rem) {
		if (nla_type(a) != EDGEDMA_A_CHAIN_DFIELD)
			continue;
		err = edgedma_parse_dfield(a, c, extack);
		if (err)
			return err;
	}
	for (i = 0, nexts = 0; i < c->nfields; i++)
		nexts += c->fields[i].role == EDGEDMA_DESC_ROLE_NEXT;
	if (c->kind == EDGEDMA_CHAIN_PL330_PROGRAM && c->nfields) {
		edgedma_extack_attr_fmt(extack, attr,
			"a program has no descriptor fields: its instructions are decoded",
			"chain %s: a program takes no fields (DFIELD)", c->name);
		return -EINVAL;
	}
	if (c->kind == EDGEDMA_CHAIN_LIST ? nexts != 1 : nexts != 0) {
		edgedma_extack_attr_fmt(extack, attr,
			"a list needs one field of ROLE next, a ring none",
			"chain %s: %d fields of role next; a list needs one, a ring none",
			c->name, nexts);
		return -EINVAL;
	}
	return 0;
}

int edgedma_profile_set_parts(struct edgedma_profile *p, const struct nlattr *attrs, int len,
			      struct netlink_ext_ack *extack)
{
	struct edgedma_profile_summary sum;
	const struct nlattr *a;
	unsigned long slot = 0;
	char name[EDGEDMA_PROFILE_NAME_LEN];
	int err, rem, bound = 0;

	nla_for_each_attr(a, attrs, len, rem) {
		if (nla_type(a) != EDGEDMA_A_PROFILE_REGISTER)
			continue;
		if (p->nregs == EDGEDMA_PROFILE_REGS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a, "a profile has at most 96 registers");
			err = -EINVAL;
			goto refused;
		}
		err = edgedma_parse_register(a, &p->regs[p->nregs], extack);
		if (err)
			goto refused;
		p->nregs++;
	}
	if (!p->nregs) {
		NL_SET_ERR_MSG(extack, "a profile needs at least one register (PROFILE_REGISTER)");
		err = -EINVAL;
		goto refused;
	}
	/* After the registers: chains name them. */
	nla_for_each_attr(a, attrs, len, rem) {
		if (nla_type(a) != EDGEDMA_A_PROFILE_CHAIN)
			continue;
		if (p->nchains == EDGEDMA_PROFILE_CHAINS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a, "a profile has at most 8 chains");
			err = -EINVAL;
			goto refused;
		}
		err = edgedma_parse_chain(a, p, &p->chains[p->nchains], extack);
		if (err)
			goto refused;
		p->nchains++;
	}

	strscpy(name, p->name, sizeof(name));
	err = edgedma_profile_install(p, extack);
	if (err)
		return err;
	/* Installed: p belongs to the table now, only its summary is read. */
	while (edgedma_profile_next(&slot, &sum))
		if (!strcmp(sum.name, name))
			bound = sum.bound;
	return bound;

refused:
	kvfree(p);
	return err;
}

int edgedma_nl_profile_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct edgedma_profile *p;
	struct sk_buff *msg;
	unsigned int matches;
	void *hdr;
	int bound;

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
	bound = edgedma_profile_set_parts(p, nlmsg_attrdata(info->nlhdr, GENL_HDRLEN),
					  nlmsg_attrlen(info->nlhdr, GENL_HDRLEN), info->extack);
	if (bound < 0)
		return bound;
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

int edgedma_nl_profile_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[EDGEDMA_A_PROFILE_NAME];
	char name[EDGEDMA_PROFILE_NAME_LEN];
	struct edgedma_record r;
	struct sk_buff *msg;
	void *buf, *hdr;
	int err;

	if (!name_attr) {
		GENL_SET_ERR_MSG(info, "name the profile (PROFILE_NAME), or dump for the list");
		return -EINVAL;
	}
	nla_strscpy(name, name_attr, sizeof(name));
	/* Written once into a buffer, then into a reply of its size. */
	buf = kvmalloc(EDGEDMA_PROFILE_DEFINITION_MAX, GFP_KERNEL);
	if (!buf) {
		GENL_SET_ERR_MSG(info, "no memory for the reply");
		return -ENOMEM;
	}
	edgedma_record_init(&r, buf, EDGEDMA_PROFILE_DEFINITION_MAX);
	err = edgedma_profile_put_definition(&r, name);
	if (err) {
		kvfree(buf);
		if (err == -ENOENT)
			NL_SET_ERR_MSG_ATTR(info->extack, name_attr, "no profile by that name");
		else
			GENL_SET_ERR_MSG(info, "the profile does not fit a reply");
		return err;
	}
	msg = genlmsg_new(r.len, GFP_KERNEL);
	if (!msg) {
		kvfree(buf);
		GENL_SET_ERR_MSG(info, "no memory for the reply");
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(msg, info, &edgedma_family, 0, EDGEDMA_CMD_PROFILE_GET);
	if (!hdr) {
		kvfree(buf);
		nlmsg_free(msg);
		GENL_SET_ERR_MSG(info, "reply header does not fit");
		return -EMSGSIZE;
	}
	skb_put_data(msg, buf, r.len);
	kvfree(buf);
	return edgedma_nl_reply_send(msg, hdr, info);
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
		    nla_put_u32(skb, EDGEDMA_A_PROFILE_REGISTERS, sum.nregs) ||
		    nla_put_u32(skb, EDGEDMA_A_PROFILE_CHAINS, sum.nchains)) {
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
