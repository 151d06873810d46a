// SPDX-License-Identifier: GPL-2.0
/*
 * Controller profiles in the device tree: each profile-* child of the
 * "edgedma,monitor" node holds a profile in the schema `edgedma profile
 * load` reads (Documentation/profiles.rst, dts/bindings/edgedma.yaml).
 *
 * The node is written out as the PROFILE_SET request userspace would send
 * for it, and that request goes through the same checks and binding as
 * netlink's (edgedma_profile_set_parts()): a profile means the same
 * whichever way it arrives, and there is one set of rules to keep. What
 * those checks refuse is reported with the device-tree node it came from.
 * A property or node the schema does not have refuses the profile, naming
 * it (a misspelt "widht" would otherwise be silently dropped).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/mm.h>
#include <linux/netlink.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <uapi/linux/edgedma.h>

#include "devicetree.h"
#include "profiles.h"
#include "snapshot_record.h"

/* One nest written for a node: an error inside it is reported at the node. */
struct edgedma_dtp_origin {
	u32 start, end;
	struct device_node *np;
};

#define EDGEDMA_DTP_ORIGINS_MAX \
	(EDGEDMA_PROFILE_REGS_MAX + EDGEDMA_PROFILE_CHAINS_MAX * (1 + EDGEDMA_CHAIN_FIELDS_MAX))

struct edgedma_dtp {
	struct device *dev;
	struct edgedma_record r;
	unsigned int norigins;
	struct edgedma_dtp_origin origins[EDGEDMA_DTP_ORIGINS_MAX];
};

static bool edgedma_dtp_in(const char *s, const char *const *names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return true;
	return false;
}

/* Every property and child of @np is one the schema has there. */
static int edgedma_dtp_only(struct edgedma_dtp *t, struct device_node *np,
			    const char *const *props, unsigned int nprops,
			    const char *const *nodes, unsigned int nnodes)
{
	struct device_node *child;
	struct property *pp;

	for_each_property_of_node(np, pp) {
		if (edgedma_dt_pseudo_property(pp) || edgedma_dtp_in(pp->name, props, nprops))
			continue;
		dev_err(t->dev, "%pOF: unknown property '%s' (Documentation/profiles.rst)\n",
			np, pp->name);
		return -EINVAL;
	}
	for_each_child_of_node(np, child) {
		if (edgedma_dtp_in(child->name, nodes, nnodes))
			continue;
		dev_err(t->dev, "%pOF: unknown node (Documentation/profiles.rst)\n", child);
		of_node_put(child);
		return -EINVAL;
	}
	return 0;
}

static int edgedma_dtp_nest(struct edgedma_dtp *t, u16 type, struct device_node *np)
{
	int start = edgedma_record_nest_start(&t->r, type);

	if (start >= 0 && t->norigins < ARRAY_SIZE(t->origins)) {
		t->origins[t->norigins].start = start;
		t->origins[t->norigins].np = np;
		t->norigins++;
	}
	return start;
}

static void edgedma_dtp_nest_end(struct edgedma_dtp *t, int start)
{
	unsigned int i;

	edgedma_record_nest_end(&t->r, start);
	for (i = 0; i < t->norigins; i++)
		if (t->origins[i].start == start)
			t->origins[i].end = t->r.len;
}

/* A u32 property, when there, as attribute @type. */
static int edgedma_dtp_u32(struct edgedma_dtp *t, struct device_node *np, const char *prop,
			   u16 type)
{
	u32 v;

	if (!of_find_property(np, prop, NULL))
		return 0;
	if (of_property_read_u32(np, prop, &v)) {
		dev_err(t->dev, "%pOF: %s: expected one cell\n", np, prop);
		return -EINVAL;
	}
	return edgedma_record_put_u32(&t->r, type, v);
}

/* A string property (or string @index of a list), when there. */
static int edgedma_dtp_str(struct edgedma_dtp *t, struct device_node *np, const char *prop,
			   int index, u16 type)
{
	const char *s;

	if (of_property_read_string_index(np, prop, index, &s))
		return 0;
	return edgedma_record_put_str(&t->r, type, s);
}

/* <lowest-bit bits> of a field, as @shift_type and @bits_type. */
static int edgedma_dtp_bits(struct edgedma_dtp *t, struct device_node *np, const char *prop,
			    u16 shift_type, u16 bits_type)
{
	u32 bits[2];

	if (of_property_count_u32_elems(np, prop) != 2 ||
	    of_property_read_u32_array(np, prop, bits, 2)) {
		dev_err(t->dev, "%pOF: %s: expected <lowest-bit bits>\n", np, prop);
		return -EINVAL;
	}
	return edgedma_record_put_u32(&t->r, shift_type, bits[0]) ?:
	       edgedma_record_put_u32(&t->r, bits_type, bits[1]);
}

/* A string property naming one of @names (index = attribute value, from 1). */
static int edgedma_dtp_enum(struct edgedma_dtp *t, struct device_node *np, const char *prop,
			    const char *const *names, unsigned int n, u16 type)
{
	const char *s;
	unsigned int i;

	if (of_property_read_string(np, prop, &s))
		return 0;
	for (i = 1; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return edgedma_record_put_u32(&t->r, type, i);
	dev_err(t->dev, "%pOF: %s: '%s' is not one the schema has\n", np, prop, s);
	return -EINVAL;
}

static const char *const edgedma_dtp_register_props[] = {
	"window", "offset", "width", "read-clears", "read-on-error",
};
static const char *const edgedma_dtp_fields_node[] = { "fields" };

static int edgedma_dtp_register(struct edgedma_dtp *t, struct device_node *np)
{
	struct device_node *fields;
	struct property *pp;
	u32 flags = 0;
	int nest, err;

	err = edgedma_dtp_only(t, np, edgedma_dtp_register_props,
			       ARRAY_SIZE(edgedma_dtp_register_props),
			       edgedma_dtp_fields_node, ARRAY_SIZE(edgedma_dtp_fields_node));
	if (err)
		return err;
	nest = edgedma_dtp_nest(t, EDGEDMA_A_PROFILE_REGISTER, np);
	if (nest < 0)
		return nest;
	if (of_property_read_bool(np, "read-clears"))
		flags |= EDGEDMA_REGISTER_READ_CLEARS;
	if (of_property_read_bool(np, "read-on-error"))
		flags |= EDGEDMA_REGISTER_READ_ON_ERROR;
	err = edgedma_record_put_str(&t->r, EDGEDMA_A_REGISTER_NAME, np->name) ?:
	      edgedma_dtp_u32(t, np, "window", EDGEDMA_A_REGISTER_WINDOW) ?:
	      edgedma_dtp_u32(t, np, "offset", EDGEDMA_A_REGISTER_OFFSET) ?:
	      edgedma_dtp_u32(t, np, "width", EDGEDMA_A_REGISTER_WIDTH) ?:
	      (flags ? edgedma_record_put_u32(&t->r, EDGEDMA_A_REGISTER_FLAGS, flags) : 0);
	if (err)
		return err;
	fields = of_get_child_by_name(np, "fields");
	if (fields) {
		struct device_node *child = of_get_next_child(fields, NULL);

		if (child) {
			dev_err(t->dev, "%pOF: unknown node: a register's fields are properties, name = <lowest-bit bits>\n",
				child);
			of_node_put(child);
			err = -EINVAL;
		}
		for_each_property_of_node(fields, pp) {
			int field;

			if (err)
				break;
			if (edgedma_dt_pseudo_property(pp))
				continue;
			field = edgedma_record_nest_start(&t->r, EDGEDMA_A_REGISTER_FIELD);
			err = field < 0 ? field :
			      edgedma_record_put_str(&t->r, EDGEDMA_A_FIELD_NAME, pp->name) ?:
			      edgedma_dtp_bits(t, fields, pp->name, EDGEDMA_A_FIELD_SHIFT,
					       EDGEDMA_A_FIELD_BITS);
			if (!err)
				edgedma_record_nest_end(&t->r, field);
		}
		of_node_put(fields);
		if (err)
			return err;
	}
	edgedma_dtp_nest_end(t, nest);
	return 0;
}

static const char *const edgedma_dtp_kinds[] = {
	[EDGEDMA_CHAIN_RING] = "ring",
	[EDGEDMA_CHAIN_LIST] = "list",
	[EDGEDMA_CHAIN_PL330_PROGRAM] = "pl330-program",
};
static const char *const edgedma_dtp_roles[] = {
	[EDGEDMA_DESC_ROLE_ADDRESS] = "address",
	[EDGEDMA_DESC_ROLE_LENGTH] = "length",
	[EDGEDMA_DESC_ROLE_NEXT] = "next",
	[EDGEDMA_DESC_ROLE_CONTROL] = "control",
	[EDGEDMA_DESC_ROLE_STATUS] = "status",
};
/* enum dma_data_direction's values, as the CHAIN_DIRECTION attribute takes them. */
static const char *const edgedma_dtp_directions[] = {
	[1] = "to-device",
	[2] = "from-device",
};
static const char *const edgedma_dtp_dfield_props[] = { "offset", "width", "bits", "role" };
static const char *const edgedma_dtp_chain_props[] = {
	"kind", "start", "length", "length-in-bytes", "entries", "head", "tail",
	"descriptor-size", "max-descriptors", "big-endian", "align-log2", "direction",
};

static int edgedma_dtp_children(struct edgedma_dtp *t, struct device_node *np, const char *name,
				int (*put)(struct edgedma_dtp *, struct device_node *));

static int edgedma_dtp_dfield(struct edgedma_dtp *t, struct device_node *np)
{
	int nest, err;

	err = edgedma_dtp_only(t, np, edgedma_dtp_dfield_props,
			       ARRAY_SIZE(edgedma_dtp_dfield_props), NULL, 0);
	if (err)
		return err;
	nest = edgedma_dtp_nest(t, EDGEDMA_A_CHAIN_DFIELD, np);
	if (nest < 0)
		return nest;
	err = edgedma_record_put_str(&t->r, EDGEDMA_A_DFIELD_NAME, np->name) ?:
	      edgedma_dtp_u32(t, np, "offset", EDGEDMA_A_DFIELD_OFFSET) ?:
	      edgedma_dtp_u32(t, np, "width", EDGEDMA_A_DFIELD_WIDTH) ?:
	      (of_find_property(np, "bits", NULL) ?
	       edgedma_dtp_bits(t, np, "bits", EDGEDMA_A_DFIELD_SHIFT, EDGEDMA_A_DFIELD_BITS) : 0) ?:
	      edgedma_dtp_enum(t, np, "role", edgedma_dtp_roles, ARRAY_SIZE(edgedma_dtp_roles),
			       EDGEDMA_A_DFIELD_ROLE);
	if (err)
		return err;
	edgedma_dtp_nest_end(t, nest);
	return 0;
}

static int edgedma_dtp_chain(struct edgedma_dtp *t, struct device_node *np)
{
	u32 flags = 0;
	int nest, err;

	err = edgedma_dtp_only(t, np, edgedma_dtp_chain_props,
			       ARRAY_SIZE(edgedma_dtp_chain_props),
			       edgedma_dtp_fields_node, ARRAY_SIZE(edgedma_dtp_fields_node));
	if (err)
		return err;
	if (of_property_count_strings(np, "start") > 2) {
		dev_err(t->dev, "%pOF: start: names the low register and, optionally, the high\n",
			np);
		return -EINVAL;
	}
	nest = edgedma_dtp_nest(t, EDGEDMA_A_PROFILE_CHAIN, np);
	if (nest < 0)
		return nest;
	if (of_property_read_bool(np, "big-endian"))
		flags |= EDGEDMA_CHAIN_BIG_ENDIAN;
	if (of_property_read_bool(np, "length-in-bytes"))
		flags |= EDGEDMA_CHAIN_LENGTH_IN_BYTES;
	err = edgedma_record_put_str(&t->r, EDGEDMA_A_CHAIN_NAME, np->name) ?:
	      edgedma_dtp_enum(t, np, "kind", edgedma_dtp_kinds, ARRAY_SIZE(edgedma_dtp_kinds),
			       EDGEDMA_A_CHAIN_KIND) ?:
	      edgedma_dtp_str(t, np, "start", 0, EDGEDMA_A_CHAIN_START_REG) ?:
	      edgedma_dtp_str(t, np, "start", 1, EDGEDMA_A_CHAIN_START_HI_REG) ?:
	      edgedma_dtp_str(t, np, "length", 0, EDGEDMA_A_CHAIN_LENGTH_REG) ?:
	      edgedma_dtp_str(t, np, "head", 0, EDGEDMA_A_CHAIN_HEAD_REG) ?:
	      edgedma_dtp_str(t, np, "tail", 0, EDGEDMA_A_CHAIN_TAIL_REG) ?:
	      edgedma_dtp_u32(t, np, "entries", EDGEDMA_A_CHAIN_ENTRIES) ?:
	      edgedma_dtp_u32(t, np, "descriptor-size", EDGEDMA_A_CHAIN_DESC_SIZE) ?:
	      edgedma_dtp_u32(t, np, "max-descriptors", EDGEDMA_A_CHAIN_MAX_DESCS) ?:
	      edgedma_dtp_u32(t, np, "align-log2", EDGEDMA_A_CHAIN_ALIGN_LOG2) ?:
	      edgedma_dtp_enum(t, np, "direction", edgedma_dtp_directions,
			       ARRAY_SIZE(edgedma_dtp_directions), EDGEDMA_A_CHAIN_DIRECTION) ?:
	      (flags ? edgedma_record_put_u32(&t->r, EDGEDMA_A_CHAIN_FLAGS, flags) : 0);
	if (err)
		return err;
	err = edgedma_dtp_children(t, np, "fields", edgedma_dtp_dfield);
	if (err)
		return err;
	edgedma_dtp_nest_end(t, nest);
	return 0;
}

/* Each child of @np's node @name, through @put. */
static int edgedma_dtp_children(struct edgedma_dtp *t, struct device_node *np, const char *name,
				int (*put)(struct edgedma_dtp *, struct device_node *))
{
	struct device_node *parent = of_get_child_by_name(np, name), *child;
	struct property *pp;
	int err = 0;

	if (!parent)
		return 0;
	for_each_property_of_node(parent, pp) {
		if (!edgedma_dt_pseudo_property(pp)) {
			dev_err(t->dev, "%pOF: unknown property '%s': only nodes belong here\n",
				parent, pp->name);
			err = -EINVAL;
			goto out;
		}
	}
	for_each_child_of_node(parent, child) {
		err = put(t, child);
		if (err) {
			of_node_put(child);
			break;
		}
	}
out:
	of_node_put(parent);
	return err;
}

/* The node the checks' bad attribute was written for (the innermost). */
static struct device_node *edgedma_dtp_origin(const struct edgedma_dtp *t,
					      const struct nlattr *bad)
{
	struct device_node *np = NULL;
	unsigned int i;
	u32 at;

	if (!bad || (const u8 *)bad < t->r.buf || (const u8 *)bad >= t->r.buf + t->r.len)
		return NULL;
	at = (const u8 *)bad - t->r.buf;
	for (i = 0; i < t->norigins; i++)
		if (at >= t->origins[i].start && at < t->origins[i].end)
			np = t->origins[i].np;
	return np;
}

static const char *const edgedma_dtp_profile_props[] = {
	"compatible", "profile-name", "match-pci-id", "match-compatible", "match-device",
};
static const char *const edgedma_dtp_profile_nodes[] = { "registers", "descriptors" };

/* The name, match and parts of profile node @np into @p and @t. */
static int edgedma_dtp_profile(struct edgedma_dtp *t, struct device_node *np,
			       struct edgedma_profile *p)
{
	const char *name = np->name + strlen("profile-"), *s;
	unsigned int matches = 0;
	u32 id[2];
	int err;

	err = edgedma_dtp_only(t, np, edgedma_dtp_profile_props,
			       ARRAY_SIZE(edgedma_dtp_profile_props),
			       edgedma_dtp_profile_nodes, ARRAY_SIZE(edgedma_dtp_profile_nodes));
	if (err)
		return err;
	if (!of_property_read_string(np, "compatible", &s) && strcmp(s, "edgedma,profile-v1")) {
		dev_err(t->dev, "%pOF: compatible: '%s' is not \"edgedma,profile-v1\"\n", np, s);
		return -EINVAL;
	}
	of_property_read_string(np, "profile-name", &name);
	if (!*name || strscpy(p->name, name, sizeof(p->name)) < 0) {
		dev_err(t->dev, "%pOF: profile-name: 1 to %zu characters\n", np,
			sizeof(p->name) - 1);
		return -EINVAL;
	}
	matches = !!of_find_property(np, "match-pci-id", NULL) +
		  !!of_find_property(np, "match-compatible", NULL) +
		  !!of_find_property(np, "match-device", NULL);
	if (matches != 1) {
		dev_err(t->dev, "%pOF: give exactly one of match-pci-id, match-compatible and match-device\n",
			np);
		return -EINVAL;
	}
	if (of_find_property(np, "match-pci-id", NULL)) {
		if (of_property_count_u32_elems(np, "match-pci-id") != 2 ||
		    of_property_read_u32_array(np, "match-pci-id", id, 2) ||
		    id[0] > 0xffff || id[1] > 0xffff) {
			dev_err(t->dev, "%pOF: match-pci-id: expected <vendor device>, each 16 bits\n",
				np);
			return -EINVAL;
		}
		p->match = EDGEDMA_MATCH_PCI_ID;
		p->pci_id = id[0] << 16 | id[1];
	} else {
		const char *prop = of_find_property(np, "match-device", NULL) ?
				   "match-device" : "match-compatible";

		p->match = strcmp(prop, "match-device") ? EDGEDMA_MATCH_COMPATIBLE :
							  EDGEDMA_MATCH_DEVICE;
		if (of_property_read_string(np, prop, &s) || !*s ||
		    strscpy(p->key, s, sizeof(p->key)) < 0) {
			dev_err(t->dev, "%pOF: %s: a string of 1 to %zu characters\n", np, prop,
				sizeof(p->key) - 1);
			return -EINVAL;
		}
	}
	err = edgedma_dtp_children(t, np, "registers", edgedma_dtp_register) ?:
	      edgedma_dtp_children(t, np, "descriptors", edgedma_dtp_chain);
	if (err == -EMSGSIZE)
		dev_err(t->dev, "%pOF: larger than any profile the module takes\n", np);
	return err;
}

int edgedma_dt_profile(struct device *dev, struct device_node *np)
{
	struct netlink_ext_ack extack = {};
	struct edgedma_profile *p;
	struct edgedma_dtp *t;
	void *buf;
	int err;

	t = kvzalloc(sizeof(*t), GFP_KERNEL);
	buf = kvmalloc(EDGEDMA_PROFILE_DEFINITION_MAX, GFP_KERNEL);
	p = kvzalloc(sizeof(*p), GFP_KERNEL);
	if (!t || !buf || !p) {
		dev_err(dev, "%pOF: no memory to read the profile\n", np);
		err = -ENOMEM;
		goto out;
	}
	t->dev = dev;
	edgedma_record_init(&t->r, buf, EDGEDMA_PROFILE_DEFINITION_MAX);
	err = edgedma_dtp_profile(t, np, p);
	if (err)
		goto out;
	err = edgedma_profile_set_parts(p, buf, t->r.len, &extack);
	p = NULL;	/* set_parts took it */
	if (err < 0) {
		struct device_node *at = edgedma_dtp_origin(t, extack.bad_attr);

		if (at)
			dev_err(dev, "%pOF: %s\n", at, extack._msg ?: "refused");
		else
			dev_err(dev, "%pOF: %s\n", np, extack._msg ?: "refused");
		goto out;
	}
	dev_info(dev, "%pOF: profile bound to %d device%s\n", np, err, err == 1 ? "" : "s");
	err = 0;
out:
	kvfree(p);
	kvfree(buf);
	kvfree(t);
	return err;
}
