// SPDX-License-Identifier: GPL-2.0
/* MAP_EVENTS_SET and the "map-events" multicast group (map_events.c fills it). */
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "map_events.h"
#include "netlink.h"

bool edgedma_nl_map_events_listened(void)
{
	return genl_has_listeners(&edgedma_family, &init_net, EDGEDMA_GROUP_MAP_EVENTS);
}

struct sk_buff *edgedma_nl_map_events_new(void **hdr)
{
	struct sk_buff *msg;

	if (!edgedma_nl_send_begin())
		return NULL;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		goto err_end;
	*hdr = genlmsg_put(msg, 0, 0, &edgedma_family, 0, EDGEDMA_CMD_MAP_EVENTS);
	if (!*hdr)
		goto err_free;
	return msg;

err_free:
	nlmsg_free(msg);
err_end:
	edgedma_nl_send_end();
	return NULL;
}

void edgedma_nl_map_events_cancel(struct sk_buff *msg)
{
	nlmsg_free(msg);
	edgedma_nl_send_end();
}

/* A listener whose socket is full misses it and sees the gap in seqs. */
void edgedma_nl_map_events_send(struct sk_buff *msg, void *hdr)
{
	genlmsg_end(msg, hdr);
	edgedma_nl_multicast(msg, EDGEDMA_GROUP_MAP_EVENTS);
	edgedma_nl_send_end();
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

int edgedma_nl_map_events_set(struct sk_buff *skb, struct genl_info *info)
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
	err = edgedma_map_events_set(want, cursors, &was);
	if (err) {
		GENL_SET_ERR_MSG(info, "no memory for the mapping-event rings: load edgedma with a smaller map_event_buffer");
		goto err_free;
	}
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
