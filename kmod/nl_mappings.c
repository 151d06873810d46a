// SPDX-License-Identifier: GPL-2.0
/*
 * MAPPINGS_GET: the live table. A dump takes several messages, and the
 * table changes between them; each message carries the table's change
 * count in cb->seq, so the netlink core marks a reply whose table changed
 * mid-dump with NLM_F_DUMP_INTR and the reader knows to read again.
 */
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "edgedma.h"
#include "maptrack.h"
#include "netlink.h"

struct edgedma_mapping_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	const char *device;
};

static bool edgedma_nl_put_mapping(const struct edgedma_mapping *m, void *arg)
{
	struct edgedma_mapping_dump *d = arg;
	struct sk_buff *skb = d->skb;
	char name[EDGEDMA_NAME_LEN], driver[EDGEDMA_NAME_LEN];
	void *hdr;

	edgedma_devrec_names(m->devrec, name, driver);
	if (d->device && strcmp(d->device, name))
		return true;
	hdr = edgedma_nl_dump_put(skb, d->cb, EDGEDMA_CMD_MAPPINGS_GET);
	if (!hdr)
		return false;
	/* 0 means "no sequence" to the netlink core. */
	d->cb->seq = (u32)edgedma_maptrack_generation() ?: 1;
	genl_dump_check_consistent(d->cb, hdr);
#define PUT64(attr, value) \
	edgedma_put_u64(skb, EDGEDMA_A_MAPPING_##attr, value, EDGEDMA_A_MAPPING_PAD)
	if (nla_put_string(skb, EDGEDMA_A_MAPPING_DEVICE, name) ||
	    nla_put_string(skb, EDGEDMA_A_MAPPING_DRIVER, driver) ||
	    nla_put_u32(skb, EDGEDMA_A_MAPPING_CALL, m->kind) ||
	    PUT64(DMA_ADDR, m->dma_addr) ||
	    PUT64(SIZE, m->size) ||
	    nla_put_u32(skb, EDGEDMA_A_MAPPING_DIR, m->dir) ||
	    PUT64(ATTRS, m->attrs) ||
	    (m->phys != EDGEDMA_NO_PHYS && PUT64(CPU_PHYS, m->phys)) ||
	    (m->cpu_virt && PUT64(CPU_VIRT, m->cpu_virt)) ||
	    PUT64(CALLER, m->caller) ||
	    PUT64(TIME_NS, m->time_ns) ||
	    (m->kind == EDGEDMA_CALL_MAP_SG &&
	     (nla_put_u32(skb, EDGEDMA_A_MAPPING_SG_INDEX, m->sg_index) ||
	      nla_put_u32(skb, EDGEDMA_A_MAPPING_SG_COUNT, m->sg_count)))) {
		genlmsg_cancel(skb, hdr);
		return false;
	}
#undef PUT64
	genlmsg_end(skb, hdr);
	return true;
}

int edgedma_nl_mappings_start(struct netlink_callback *cb)
{
	return edgedma_nl_dump_start(cb);
}

int edgedma_nl_mappings_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct nlattr *const *attrs = edgedma_nl_dump_attrs(cb);
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
