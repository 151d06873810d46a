// SPDX-License-Identifier: GPL-2.0
/*
 * Controller profiles (see profiles.h).
 *
 * A profile is bound, when it is set, to every matching device present: its
 * register windows are checked against the device's own resources and
 * mapped then, in process context, so that a snapshot in a fault handler
 * or at panic only reads. Profiles are published with RCU: a snapshot
 * finds its device's under rcu_read_lock(), and a profile replaced,
 * removed or unbound from a deleted device is unmapped and released only
 * after every reader is gone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/io.h>
#include <linux/iommu.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "profiles.h"
#include "snapshot_descriptors.h"
#include "snapshot_record.h"
#include "snapshot_views.h"

static struct edgedma_profile __rcu *edgedma_profiles[EDGEDMA_PROFILES_MAX];
static DEFINE_MUTEX(edgedma_profiles_lock);

static bool edgedma_profile_matches(const struct edgedma_profile *p, struct device *dev)
{
	switch (p->match) {
	case EDGEDMA_MATCH_PCI_ID:
		if (!dev_is_pci(dev))
			return false;
		return (to_pci_dev(dev)->vendor << 16 | to_pci_dev(dev)->device) == p->pci_id;
	case EDGEDMA_MATCH_COMPATIBLE:
		return dev->of_node && of_device_is_compatible(dev->of_node, p->key);
	case EDGEDMA_MATCH_DEVICE:
		return !strcmp(dev_name(dev), p->key);
	}
	return false;
}

/* Window @w of @dev: a memory BAR of a PCI device, a platform resource. */
static bool edgedma_window(struct device *dev, u32 w, resource_size_t *start,
			   resource_size_t *len)
{
	if (dev_is_pci(dev)) {
		struct pci_dev *pdev = to_pci_dev(dev);

		if (w >= PCI_STD_NUM_BARS ||
		    !(pci_resource_flags(pdev, w) & IORESOURCE_MEM))
			return false;
		*start = pci_resource_start(pdev, w);
		*len = pci_resource_len(pdev, w);
		return *len;
	}
	if (dev->bus == &platform_bus_type) {
		struct resource *res = platform_get_resource(to_platform_device(dev),
							     IORESOURCE_MEM, w);

		if (!res)
			return false;
		*start = res->start;
		*len = resource_size(res);
		return true;
	}
	return false;
}

static void edgedma_binding_release(struct edgedma_profile_binding *b, struct device *dev)
{
	unsigned int w;

	for (w = 0; w < EDGEDMA_WINDOWS_MAX; w++) {
		if (b->window[w])
			iounmap(b->window[w]);
		b->window[w] = NULL;
	}
	put_device(dev);
}

static void edgedma_profile_release(struct edgedma_profile *p)
{
	unsigned int i;

	for (i = 0; i < p->nbound; i++)
		if (p->bound[i].dev)
			edgedma_binding_release(&p->bound[i], p->bound[i].dev);
	kvfree(p);
}

struct edgedma_bind_ctx {
	struct edgedma_profile *p;
	struct netlink_ext_ack *extack;
	int err;
};

/* Check every register of the profile against @dev's windows, map them. */
static int edgedma_bind(struct device *dev, void *arg)
{
	struct edgedma_bind_ctx *c = arg;
	struct edgedma_profile *p = c->p;
	struct edgedma_profile_binding *b;
	unsigned int i;

	if (!edgedma_profile_matches(p, dev))
		return 0;
	if (p->nbound == EDGEDMA_PROFILE_BOUND_MAX)
		return 0;	/* bound to the first few only */
	b = &p->bound[p->nbound];
	memset(b, 0, sizeof(*b));
	for (i = 0; i < p->nregs; i++) {
		const struct edgedma_profile_reg *reg = &p->regs[i];
		resource_size_t start, len;

		if (!edgedma_window(dev, reg->window, &start, &len)) {
			edgedma_extack_attr_fmt(c->extack, reg->attr,
				"a register's window is not a memory resource of a matching device",
				"register %s: %s has no memory window %u",
				reg->name, dev_name(dev), reg->window);
			c->err = -EINVAL;
			break;
		}
		if ((u64)reg->offset + reg->width > len) {
			edgedma_extack_attr_fmt(c->extack, reg->attr,
				"a register lies outside its window on a matching device",
				"register %s: %#x+%u is past window %u (%llu bytes) of %s",
				reg->name, reg->offset, reg->width, reg->window,
				(unsigned long long)len, dev_name(dev));
			c->err = -EINVAL;
			break;
		}
		if (b->window[reg->window])
			continue;
		b->window[reg->window] = ioremap(start, len);
		b->window_len[reg->window] = len;
		if (!b->window[reg->window]) {
			NL_SET_ERR_MSG(c->extack, "cannot map a register window");
			c->err = -ENOMEM;
			break;
		}
	}
	if (c->err) {
		get_device(dev);
		edgedma_binding_release(b, dev);
		return c->err;
	}
	b->dev = get_device(dev);
	p->nbound++;
	return 0;
}

int edgedma_profile_install(struct edgedma_profile *p, struct netlink_ext_ack *extack)
{
	struct edgedma_bind_ctx c = { .p = p, .extack = extack };
	struct edgedma_profile *old = NULL;
	int i, slot = -1;

	p->nbound = 0;
	bus_for_each_dev(&pci_bus_type, NULL, &c, edgedma_bind);
	if (!c.err)
		bus_for_each_dev(&platform_bus_type, NULL, &c, edgedma_bind);
	for (i = 0; i < p->nregs; i++)
		p->regs[i].attr = NULL;
	for (i = 0; i < p->nchains; i++)
		p->chains[i].attr = NULL;
	if (c.err) {
		edgedma_profile_release(p);
		return c.err;
	}

	mutex_lock(&edgedma_profiles_lock);
	for (i = 0; i < EDGEDMA_PROFILES_MAX; i++) {
		struct edgedma_profile *q = rcu_dereference_protected(edgedma_profiles[i],
				lockdep_is_held(&edgedma_profiles_lock));

		if (q && !strcmp(q->name, p->name)) {
			old = q;
			slot = i;
			break;
		}
		if (!q && slot < 0)
			slot = i;
	}
	if (slot < 0) {
		mutex_unlock(&edgedma_profiles_lock);
		NL_SET_ERR_MSG(extack, "all profile slots are in use; delete a profile first");
		edgedma_profile_release(p);
		return -ENOSPC;
	}
	rcu_assign_pointer(edgedma_profiles[slot], p);
	mutex_unlock(&edgedma_profiles_lock);
	if (old) {
		synchronize_rcu();
		edgedma_profile_release(old);
	}
	return 0;
}

int edgedma_profile_remove(const char *name)
{
	struct edgedma_profile *old = NULL;
	int i;

	mutex_lock(&edgedma_profiles_lock);
	for (i = 0; i < EDGEDMA_PROFILES_MAX; i++) {
		struct edgedma_profile *q = rcu_dereference_protected(edgedma_profiles[i],
				lockdep_is_held(&edgedma_profiles_lock));

		if (q && !strcmp(q->name, name)) {
			old = q;
			RCU_INIT_POINTER(edgedma_profiles[i], NULL);
			break;
		}
	}
	mutex_unlock(&edgedma_profiles_lock);
	if (!old)
		return -ENOENT;
	synchronize_rcu();
	edgedma_profile_release(old);
	return 0;
}

bool edgedma_profile_next(unsigned long *slot, struct edgedma_profile_summary *out)
{
	bool found = false;

	rcu_read_lock();
	for (; *slot < EDGEDMA_PROFILES_MAX && !found; (*slot)++) {
		const struct edgedma_profile *p = rcu_dereference(edgedma_profiles[*slot]);
		unsigned int i;

		if (!p)
			continue;
		memcpy(out->name, p->name, sizeof(out->name));
		memcpy(out->key, p->key, sizeof(out->key));
		out->match = p->match;
		out->pci_id = p->pci_id;
		out->nregs = p->nregs;
		out->nchains = p->nchains;
		out->bound = 0;
		for (i = 0; i < p->nbound; i++)
			out->bound += READ_ONCE(p->bound[i].dev) != NULL;
		found = true;
	}
	rcu_read_unlock();
	return found;
}

void edgedma_profiles_device_gone(struct device *dev)
{
	struct edgedma_profile_binding *gone[EDGEDMA_PROFILES_MAX];
	unsigned int n = 0, i, j;

	mutex_lock(&edgedma_profiles_lock);
	for (i = 0; i < EDGEDMA_PROFILES_MAX; i++) {
		struct edgedma_profile *p = rcu_dereference_protected(edgedma_profiles[i],
				lockdep_is_held(&edgedma_profiles_lock));

		for (j = 0; p && j < p->nbound; j++) {
			if (p->bound[j].dev != dev)
				continue;
			WRITE_ONCE(p->bound[j].dev, NULL);
			gone[n++] = &p->bound[j];
		}
	}
	if (n) {
		/* Readers that found the binding finish before it is unmapped. */
		synchronize_rcu();
		for (i = 0; i < n; i++)
			edgedma_binding_release(gone[i], dev);
	}
	mutex_unlock(&edgedma_profiles_lock);
}

/* ---- definitions (PROFILE_GET) and snapshots ----------------------------- */

u64 edgedma_profile_read_register(const struct edgedma_profile_binding *b,
				  const struct edgedma_profile_reg *reg)
{
	void __iomem *at = b->window[reg->window] + reg->offset;

	switch (reg->width) {
	case 1:
		return readb(at);
	case 2:
		return readw(at);
	case 4:
		return readl(at);
	default:
		return readq(at);
	}
}

bool edgedma_profile_put_register(struct edgedma_record *r, u16 type,
				  const struct edgedma_profile_binding *b,
				  const struct edgedma_profile_reg *reg, bool on_error)
{
	u32 unreadable = EDGEDMA_REGISTER_READ_CLEARS;
	int nest = edgedma_record_nest_start(r, type);
	unsigned int i;

	if (nest < 0)
		return false;
#define PUT32(attr, v) edgedma_record_put_u32(r, EDGEDMA_A_REGISTER_##attr, v)
	if (edgedma_record_put_str(r, EDGEDMA_A_REGISTER_NAME, reg->name) ||
	    PUT32(WINDOW, reg->window) || PUT32(OFFSET, reg->offset) ||
	    PUT32(WIDTH, reg->width) || (reg->flags && PUT32(FLAGS, reg->flags)))
		goto cancel;
	for (i = 0; i < reg->nfields; i++) {
		int field = edgedma_record_nest_start(r, EDGEDMA_A_REGISTER_FIELD);

		if (field < 0 ||
		    edgedma_record_put_str(r, EDGEDMA_A_FIELD_NAME, reg->fields[i].name) ||
		    edgedma_record_put_u32(r, EDGEDMA_A_FIELD_SHIFT, reg->fields[i].shift) ||
		    edgedma_record_put_u32(r, EDGEDMA_A_FIELD_BITS, reg->fields[i].bits))
			goto cancel;
		edgedma_record_nest_end(r, field);
	}
	/* In its error handler the driver reads it anyway: so may we. */
	if (on_error && (reg->flags & EDGEDMA_REGISTER_READ_ON_ERROR))
		unreadable = 0;
	if (!b) {
		/* A definition: no value. */
	} else if (reg->flags & unreadable) {
		if (PUT32(SKIPPED, EDGEDMA_SKIP_READ_CLEARS))
			goto cancel;
	} else if (edgedma_record_put_u64(r, EDGEDMA_A_REGISTER_VALUE,
					  edgedma_profile_read_register(b, reg))) {
		goto cancel;
	}
#undef PUT32
	edgedma_record_nest_end(r, nest);
	return true;
cancel:
	edgedma_record_nest_cancel(r, nest);
	return false;
}

static int edgedma_put_reg_name(struct edgedma_record *r, u16 type,
				const struct edgedma_profile *p, u8 reg)
{
	if (reg == EDGEDMA_NO_REG)
		return 0;
	return edgedma_record_put_str(r, type, p->regs[reg].name);
}

int edgedma_profile_put_chain_layout(struct edgedma_record *r,
				     const struct edgedma_profile *p,
				     const struct edgedma_profile_chain *c)
{
	unsigned int i;

#define PUT32(attr, v) edgedma_record_put_u32(r, EDGEDMA_A_CHAIN_##attr, v)
#define PUTREG(attr, reg) edgedma_put_reg_name(r, EDGEDMA_A_CHAIN_##attr, p, reg)
	if (edgedma_record_put_str(r, EDGEDMA_A_CHAIN_NAME, c->name) ||
	    PUT32(KIND, c->kind) || PUTREG(START_REG, c->start_reg) ||
	    PUTREG(START_HI_REG, c->start_hi_reg) ||
	    PUTREG(LENGTH_REG, c->length_reg) ||
	    (c->entries && PUT32(ENTRIES, c->entries)) ||
	    PUTREG(HEAD_REG, c->head_reg) || PUTREG(TAIL_REG, c->tail_reg) ||
	    PUT32(DESC_SIZE, c->desc_size) ||
	    (c->max_descs && PUT32(MAX_DESCS, c->max_descs)) ||
	    (c->flags && PUT32(FLAGS, c->flags)) ||
	    (c->align_log2 && PUT32(ALIGN_LOG2, c->align_log2)) ||
	    (c->direction && PUT32(DIRECTION, c->direction)))
		return -EMSGSIZE;
#undef PUT32
#undef PUTREG
	for (i = 0; i < c->nfields; i++) {
		const struct edgedma_desc_field *f = &c->fields[i];
		int nest = edgedma_record_nest_start(r, EDGEDMA_A_CHAIN_DFIELD);

#define PUT32(attr, v) edgedma_record_put_u32(r, EDGEDMA_A_DFIELD_##attr, v)
		if (nest < 0 ||
		    edgedma_record_put_str(r, EDGEDMA_A_DFIELD_NAME, f->name) ||
		    PUT32(OFFSET, f->offset) || PUT32(WIDTH, f->width) ||
		    (f->shift && PUT32(SHIFT, f->shift)) ||
		    (f->bits && PUT32(BITS, f->bits)) ||
		    (f->role && PUT32(ROLE, f->role))) {
			if (nest >= 0)
				edgedma_record_nest_cancel(r, nest);
			return -EMSGSIZE;
		}
#undef PUT32
		edgedma_record_nest_end(r, nest);
	}
	return 0;
}

int edgedma_profile_put_definition(struct edgedma_record *r, const char *name)
{
	const struct edgedma_profile *p = NULL;
	unsigned int i;
	int err = 0;

	/* The lock keeps the profile and its bindings while they are written. */
	mutex_lock(&edgedma_profiles_lock);
	for (i = 0; i < EDGEDMA_PROFILES_MAX && !p; i++) {
		const struct edgedma_profile *q = rcu_dereference_protected(edgedma_profiles[i],
				lockdep_is_held(&edgedma_profiles_lock));

		if (q && !strcmp(q->name, name))
			p = q;
	}
	if (!p) {
		err = -ENOENT;
		goto out;
	}
	if (edgedma_record_put_str(r, EDGEDMA_A_PROFILE_NAME, p->name) ||
	    (p->match == EDGEDMA_MATCH_PCI_ID &&
	     edgedma_record_put_u32(r, EDGEDMA_A_PROFILE_PCI_ID, p->pci_id)) ||
	    (p->match == EDGEDMA_MATCH_COMPATIBLE &&
	     edgedma_record_put_str(r, EDGEDMA_A_PROFILE_COMPATIBLE, p->key)) ||
	    (p->match == EDGEDMA_MATCH_DEVICE &&
	     edgedma_record_put_str(r, EDGEDMA_A_PROFILE_DEVICE, p->key)))
		goto too_big;
	{
		u32 bound = 0;

		for (i = 0; i < p->nbound; i++)
			bound += p->bound[i].dev != NULL;
		if (edgedma_record_put_u32(r, EDGEDMA_A_PROFILE_BOUND, bound))
			goto too_big;
	}
	for (i = 0; i < p->nbound; i++)
		if (p->bound[i].dev &&
		    edgedma_record_put_str(r, EDGEDMA_A_PROFILE_BOUND_DEVICE,
					   dev_name(p->bound[i].dev)))
			goto too_big;
	for (i = 0; i < p->nregs; i++)
		if (!edgedma_profile_put_register(r, EDGEDMA_A_PROFILE_REGISTER, NULL,
						  &p->regs[i], false))
			goto too_big;
	for (i = 0; i < p->nchains; i++) {
		int nest = edgedma_record_nest_start(r, EDGEDMA_A_PROFILE_CHAIN);

		if (nest < 0 || edgedma_profile_put_chain_layout(r, p, &p->chains[i]))
			goto too_big;
		edgedma_record_nest_end(r, nest);
	}
	goto out;
too_big:
	err = -EMSGSIZE;
out:
	mutex_unlock(&edgedma_profiles_lock);
	return err;
}

/* The binding of @dev and its profile in *@pp; NULL when none. Under RCU. */
static const struct edgedma_profile_binding *
edgedma_binding_of(struct device *dev, const struct edgedma_profile **pp)
{
	const struct edgedma_profile *p;
	unsigned int i, j;

	for (i = 0; i < EDGEDMA_PROFILES_MAX; i++) {
		p = rcu_dereference(edgedma_profiles[i]);
		for (j = 0; p && j < p->nbound; j++) {
			if (READ_ONCE(p->bound[j].dev) == dev) {
				*pp = p;
				return &p->bound[j];
			}
		}
	}
	return NULL;
}

/*
 * The hardware device of the IOMMU translating for @dev: the parent of the
 * IOMMU's sysfs device (iommu_device_sysfs_add() makes that a child of the
 * device passed in, the SMMU's or a Rockchip IOMMU's platform device);
 * NULL without an IOMMU or without such a device (VT-d's DMAR units have
 * none).
 */
static struct device *edgedma_iommu_device_of(struct device *dev)
{
#ifdef CONFIG_IOMMU_API
	struct dev_iommu *param = READ_ONCE(dev->iommu);
	struct iommu_device *iommu = param ? READ_ONCE(param->iommu_dev) : NULL;

	if (iommu && iommu->dev)
		return iommu->dev->parent;
#endif
	return NULL;
}

void edgedma_profile_put_iommu(struct edgedma_record *r, struct device *dev)
{
	const struct edgedma_profile_binding *b;
	const struct edgedma_profile *p = NULL;
	struct device *iommu = edgedma_iommu_device_of(dev);
	unsigned int i;
	int nest;

	if (!iommu)
		return;
	nest = edgedma_record_nest_start(r, EDGEDMA_A_SNAPSHOT_IOMMU);
	if (nest < 0)
		return;
	if (edgedma_record_put_str(r, EDGEDMA_A_SNAP_IOMMU_DEVICE, dev_name(iommu)))
		goto cancel;
	rcu_read_lock();
	b = edgedma_binding_of(iommu, &p);
	if (b && !edgedma_record_put_str(r, EDGEDMA_A_SNAP_IOMMU_PROFILE, p->name))
		for (i = 0; i < p->nregs; i++)
			if (!edgedma_profile_put_register(r, EDGEDMA_A_SNAP_IOMMU_REGISTER, b,
							  &p->regs[i], false))
				break;
	rcu_read_unlock();
	/* What fit is whole: the record's TRUNCATED says the rest is missing. */
	edgedma_record_nest_end(r, nest);
	return;
cancel:
	edgedma_record_nest_cancel(r, nest);
}

void edgedma_profile_put(struct edgedma_record *r, struct device *dev,
			 struct edgedma_devrec *rec, bool trylock, bool on_error,
			 struct edgedma_buffer_pages *pages)
{
	const struct edgedma_profile_binding *b;
	const struct edgedma_profile *p = NULL;
	unsigned int i;

	rcu_read_lock();
	b = edgedma_binding_of(dev, &p);
	if (!b) {
		rcu_read_unlock();
		edgedma_put_skipped(r, EDGEDMA_SNAPSHOT_PART_REGISTERS,
				    EDGEDMA_SKIP_NO_PROFILE);
		return;
	}
	if (edgedma_record_put_str(r, EDGEDMA_A_SNAPSHOT_PROFILE, p->name))
		goto out;
	for (i = 0; i < p->nregs; i++)
		if (!edgedma_profile_put_register(r, EDGEDMA_A_SNAPSHOT_REGISTER, b,
						  &p->regs[i], on_error))
			goto out;
	for (i = 0; i < p->nchains; i++)
		edgedma_snapshot_put_chain(r, rec, trylock, p, b, &p->chains[i], pages);
out:
	rcu_read_unlock();
}

/* After the family is gone: nothing sets or reads profiles any more. */
void edgedma_profiles_exit(void)
{
	int i;

	for (i = 0; i < EDGEDMA_PROFILES_MAX; i++) {
		struct edgedma_profile *p = rcu_dereference_protected(edgedma_profiles[i], true);

		RCU_INIT_POINTER(edgedma_profiles[i], NULL);
		if (p) {
			synchronize_rcu();
			edgedma_profile_release(p);
		}
	}
}
