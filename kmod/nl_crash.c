// SPDX-License-Identifier: GPL-2.0
/*
 * CRASH_REGION_GET, CRASH_RECORDS_GET and CRASH_RECORDS_CLEAR: what an
 * earlier boot's oops or panic left in the crash region (crash_region.c).
 * An intact record is sent as SNAPSHOT_GET sends a live one: its bytes
 * after the generic netlink header, as they were written.
 */
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "crash_region.h"
#include "netlink.h"

int edgedma_nl_crash_region_get(struct sk_buff *skb, struct genl_info *info)
{
	struct edgedma_crash_summary s;
	struct sk_buff *msg;
	void *hdr;

	edgedma_crash_region_summary(&s);
	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_CRASH_REGION_GET, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, EDGEDMA_A_CRASH_REGION_STATE, s.state))
		return edgedma_nl_reply_overflow(msg, info);
	if (s.state != EDGEDMA_CRASH_REGION_OFF &&
	    (edgedma_put_u64(msg, EDGEDMA_A_CRASH_REGION_PHYS, s.phys, EDGEDMA_A_CRASH_PAD) ||
	     edgedma_put_u64(msg, EDGEDMA_A_CRASH_REGION_SIZE, s.size, EDGEDMA_A_CRASH_PAD)))
		return edgedma_nl_reply_overflow(msg, info);
	if (s.state == EDGEDMA_CRASH_REGION_VALID &&
	    (edgedma_put_u64(msg, EDGEDMA_A_CRASH_BOOT_ID, s.boot_id, EDGEDMA_A_CRASH_PAD) ||
	     edgedma_put_u64(msg, EDGEDMA_A_CRASH_WRITTEN_NS, s.written_ns, EDGEDMA_A_CRASH_PAD) ||
	     nla_put_u32(msg, EDGEDMA_A_CRASH_RECORDS, s.records) ||
	     nla_put_u32(msg, EDGEDMA_A_CRASH_INTACT, s.intact) ||
	     nla_put_u32(msg, EDGEDMA_A_CRASH_CORRUPT, s.corrupt)))
		return edgedma_nl_reply_overflow(msg, info);
	if (s.reason[0] && nla_put_string(msg, EDGEDMA_A_CRASH_REASON, s.reason))
		return edgedma_nl_reply_overflow(msg, info);
	return edgedma_nl_reply_send(msg, hdr, info);
}

static int edgedma_nl_put_crash_entry(struct sk_buff *msg, const struct edgedma_crash_entry *e)
{
	if (nla_put_u32(msg, EDGEDMA_A_CRASH_INDEX, e->index) ||
	    edgedma_put_u64(msg, EDGEDMA_A_CRASH_SEQ, e->seq, EDGEDMA_A_CRASH_PAD) ||
	    nla_put_u32(msg, EDGEDMA_A_CRASH_RECORD_STATE,
			e->intact ? EDGEDMA_CRASH_RECORD_INTACT : EDGEDMA_CRASH_RECORD_CORRUPT) ||
	    nla_put_u32(msg, EDGEDMA_A_CRASH_LENGTH, e->length))
		return -EMSGSIZE;
	if (!e->intact && nla_put_string(msg, EDGEDMA_A_CRASH_REASON, e->reason))
		return -EMSGSIZE;
	return 0;
}

/* cb->args[0]: the next index to send. */
int edgedma_nl_crash_records_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct edgedma_crash_entry e;
	int err = edgedma_nl_dump_refused(cb);
	u32 i = cb->args[0];

	if (err)
		return err;
	for (; !edgedma_crash_record_info(i, &e); i++) {
		void *hdr = edgedma_nl_dump_put(skb, cb, EDGEDMA_CMD_CRASH_RECORDS_GET);

		if (!hdr)
			break;
		if (edgedma_nl_put_crash_entry(skb, &e)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = i;
	return skb->len;
}

int edgedma_nl_crash_records_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *index = info->attrs[EDGEDMA_A_CRASH_INDEX];
	struct edgedma_crash_entry e;
	struct sk_buff *msg;
	void *hdr;
	int len;

	if (!index) {
		GENL_SET_ERR_MSG(info, "give the record's INDEX, or dump for the list");
		return -EINVAL;
	}
	if (edgedma_crash_record_info(nla_get_u32(index), &e)) {
		NL_SET_ERR_MSG_ATTR(info->extack, index,
				    "no such record in the crash region (dump CRASH_RECORDS_GET for them)");
		return -ENOENT;
	}
	if (!e.intact) {
		NL_SET_ERR_MSG_ATTR(info->extack, index, "that record is corrupt (its REASON says how)");
		return -EBADMSG;
	}
	msg = edgedma_nl_reply_new_sized(info, EDGEDMA_CMD_CRASH_RECORDS_GET, e.length, &hdr);
	if (!msg)
		return -ENOMEM;
	len = edgedma_crash_record_copy(e.index, skb_tail_pointer(msg), skb_tailroom(msg));
	if (len < 0) {
		nlmsg_free(msg);
		if (len == -EBADMSG)
			GENL_SET_ERR_MSG(info, "that record is corrupt");
		else
			GENL_SET_ERR_MSG(info, "the crash region changed while it was read (an oops wrote it): ask again");
		return len == -EMSGSIZE ? -EAGAIN : len;
	}
	skb_put(msg, len);
	return edgedma_nl_reply_send(msg, hdr, info);
}

int edgedma_nl_crash_records_clear(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *boot = info->attrs[EDGEDMA_A_CRASH_BOOT_ID];
	u64 boot_id;
	int err;

	if (boot)
		boot_id = nla_get_u64(boot);
	err = edgedma_crash_records_clear(boot ? &boot_id : NULL);
	if (err == -ENODEV)
		GENL_SET_ERR_MSG(info, "no crash region: load edgedma with crash_region=SIZE@PHYS");
	else if (err == -ESTALE)
		NL_SET_ERR_MSG_ATTR(info->extack, boot,
				    "the crash region no longer holds what that load wrote: not cleared");
	return err;
}
