// SPDX-License-Identifier: GPL-2.0
/*
 * SNAPSHOT_TAKE, SNAPSHOT_GET and the SNAPSHOT notification. A snapshot's
 * record is already a stream of netlink attributes (snapshot_record.c): it
 * is copied after the generic netlink header as it is, so every carrier
 * holds the same bytes.
 */
#include <linux/device.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "netlink.h"
#include "snapshot_capture.h"
#include "snapshot_store.h"

int edgedma_nl_snapshot_take(struct sk_buff *skb, struct genl_info *info)
{
	struct edgedma_snapshot_request t = { .kind = EDGEDMA_SNAPSHOT_TRIGGER_MANUAL };
	struct nlattr *name = info->attrs[EDGEDMA_A_SNAPSHOT_DEVICE];
	struct nlattr *addr = info->attrs[EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR];
	struct sk_buff *msg;
	struct device *dev;
	void *hdr;
	u64 seq;
	int err;

	if (!name) {
		GENL_SET_ERR_MSG(info, "name the device to snapshot (SNAPSHOT_DEVICE)");
		return -EINVAL;
	}
	dev = edgedma_find_device_by_name(nla_data(name));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, name, "no PCI or platform device by that name");
		return -ENODEV;
	}
	if (addr) {
		t.has_addr = true;
		t.addr = nla_get_u64(addr);
	}
	err = edgedma_snapshot_take(dev, &t, &seq);
	put_device(dev);
	if (err == -EBUSY) {
		GENL_SET_ERR_MSG(info, "snapshot not taken: the device's snapshots are rate limited (snapshot_rate) or every slot is being written; GET_STATS counts both");
		return err;
	}
	if (err) {
		GENL_SET_ERR_MSG(info, "snapshot not taken");
		return err;
	}

	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_SNAPSHOT_TAKE, &hdr);
	if (!msg)
		return -ENOMEM;
	if (edgedma_put_u64(msg, EDGEDMA_A_SNAPSHOT_SEQ, seq, EDGEDMA_A_SNAPSHOT_PAD))
		return edgedma_nl_reply_overflow(msg, info);
	return edgedma_nl_reply_send(msg, hdr, info);
}

int edgedma_nl_snapshot_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *seq_attr = info->attrs[EDGEDMA_A_SNAPSHOT_SEQ];
	struct sk_buff *msg;
	u32 record_size;
	void *hdr;
	int len;

	if (!seq_attr) {
		GENL_SET_ERR_MSG(info, "give the snapshot's SEQ, or dump for the list");
		return -EINVAL;
	}
	/*
	 * A reply the size of this record, not of the largest one: a socket
	 * whose buffer holds the record but not snapshot_size would lose the
	 * ack. A record written into the slot since is refused below.
	 */
	record_size = edgedma_snapshot_size(nla_get_u64(seq_attr));
	msg = edgedma_nl_reply_new_sized(info, EDGEDMA_CMD_SNAPSHOT_GET,
					 record_size ?: edgedma_snapshot_max_size(), &hdr);
	if (!msg)
		return -ENOMEM;
	len = edgedma_snapshot_copy(nla_get_u64(seq_attr), skb_tail_pointer(msg),
				    skb_tailroom(msg), false, NULL);
	if (len < 0) {
		nlmsg_free(msg);
		if (len == -ENOENT)
			NL_SET_ERR_MSG_ATTR(info->extack, seq_attr,
					    "no such snapshot stored: never taken, or its slot was reused (snapshot_slots)");
		else
			GENL_SET_ERR_MSG(info, "the snapshot's slot was rewritten while it was read: ask again");
		return len == -EMSGSIZE ? -EAGAIN : len;
	}
	skb_put(msg, len);
	return edgedma_nl_reply_send(msg, hdr, info);
}

/* The header of snapshot @seq and its size, after a message header. */
static int edgedma_nl_put_snapshot_header(struct sk_buff *msg, u64 seq)
{
	u32 record_size;
	int len;

	len = edgedma_snapshot_copy(seq, skb_tail_pointer(msg),
				    min_t(u32, skb_tailroom(msg), EDGEDMA_SNAPSHOT_HEADER_MAX),
				    true, &record_size);
	if (len < 0)
		return len;
	skb_put(msg, len);
	if (nla_put_u32(msg, EDGEDMA_A_SNAPSHOT_RECORD_SIZE, record_size))
		return -EMSGSIZE;
	return 0;
}

/* cb->args[0]: the next seq to send. */
int edgedma_nl_snapshot_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	u64 seq = max_t(u64, cb->args[0], edgedma_snapshot_oldest());
	u64 newest = edgedma_snapshot_newest();
	int err = edgedma_nl_dump_refused(cb);

	if (err)
		return err;
	for (; seq <= newest; seq++) {
		void *hdr = edgedma_nl_dump_put(skb, cb, EDGEDMA_CMD_SNAPSHOT_GET);

		if (!hdr)
			break;
		err = edgedma_nl_put_snapshot_header(skb, seq);
		if (err == -ENOENT) {	/* dropped, being written, or reused */
			genlmsg_cancel(skb, hdr);
			continue;
		}
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = seq;
	return skb->len;
}

struct edgedma_snapshot_note {
	const void *header;
	u32 len;
	u32 record_size;
};

static int edgedma_nl_put_snapshot_note(struct sk_buff *msg, const void *arg)
{
	const struct edgedma_snapshot_note *n = arg;

	if (skb_tailroom(msg) < n->len)
		return -EMSGSIZE;
	skb_put_data(msg, n->header, n->len);
	return nla_put_u32(msg, EDGEDMA_A_SNAPSHOT_RECORD_SIZE, n->record_size);
}

int edgedma_nl_notify_snapshot(const void *header, u32 len, u32 record_size)
{
	struct edgedma_snapshot_note n = {
		.header = header, .len = len, .record_size = record_size,
	};

	return edgedma_nl_notify_events(EDGEDMA_CMD_SNAPSHOT,
					edgedma_nl_put_snapshot_note, &n);
}
