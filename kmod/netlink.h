/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "edgedma" generic netlink family. netlink.c owns the family, its
 * privilege checks and its lifetime; each nl_*.c file serves the commands
 * of one concern. Everything below the first section is for those files.
 */
#ifndef _EDGEDMA_NETLINK_H
#define _EDGEDMA_NETLINK_H

#include <linux/types.h>
#include <net/genetlink.h>

#include "compat.h"

struct edgedma_finding;

/* Registered last at load, unregistered first at unload (main.c). */
int edgedma_netlink_init(void);
void edgedma_netlink_exit(void);

/*
 * Multicast @f to the "events" group; process context. 0 when sent or when
 * nobody listens, -ENOMEM when it could not be built, -ESHUTDOWN once the
 * family is gone (unloading).
 */
int edgedma_nl_notify_finding(const struct edgedma_finding *f);
/*
 * Multicast that the site of the finding @r->seq was found @r->count times
 * so far (FINDING_REPEATS); process context, returns as the above.
 */
struct edgedma_site_repeats;
int edgedma_nl_notify_repeats(const struct edgedma_site_repeats *r,
			      const char *device, const char *driver);
/*
 * Multicast that snapshot @header (the first @len bytes of its record) was
 * stored, the whole record being @record_size bytes; process context,
 * returns as the above.
 */
int edgedma_nl_notify_snapshot(const void *header, u32 len, u32 record_size);
/* Whether anyone subscribed to the "events" group. */
bool edgedma_nl_events_listened(void);

/*
 * The "map-events" group (map_events.c): a message to fill with nested
 * events, then sent, or cancelled if nothing went in; process context.
 * new() returns NULL once the family is gone; every message it returns must
 * be sent or cancelled, which ends the sender's hold on the family.
 */
bool edgedma_nl_map_events_listened(void);
struct sk_buff *edgedma_nl_map_events_new(void **hdr);
void edgedma_nl_map_events_send(struct sk_buff *msg, void *hdr);
void edgedma_nl_map_events_cancel(struct sk_buff *msg);

/* ---- shared by the nl_*.c files ------------------------------------------ */

extern struct genl_family edgedma_family;

/* Indexes into the family's multicast groups. */
enum { EDGEDMA_GROUP_EVENTS, EDGEDMA_GROUP_MAP_EVENTS };

/*
 * Multicast senders run in work items that can outlive the family during
 * unload. Between begin (true) and end the family stays registered; begin
 * returns false once unregistering has started, and nothing may be sent.
 */
bool edgedma_nl_send_begin(void);
void edgedma_nl_send_end(void);
/*
 * Multicast one message of @cmd to the "events" group, its attributes put
 * by @put; nothing is built when nobody listens. Process context.
 */
int edgedma_nl_notify_events(u8 cmd, int (*put)(struct sk_buff *msg, const void *arg),
			     const void *arg);
/* Multicast @msg to @group; only to CAP_SYS_ADMIN listeners (compat.h). */
void edgedma_nl_multicast(struct sk_buff *msg, unsigned int group);

/* Replies to a do request; on failure the helpers say why in extack. */
struct sk_buff *edgedma_nl_reply_new(struct genl_info *info, u8 cmd, void **hdr);
/* The same with room for @size bytes of attributes (a whole record). */
struct sk_buff *edgedma_nl_reply_new_sized(struct genl_info *info, u8 cmd, size_t size,
					   void **hdr);
int edgedma_nl_reply_send(struct sk_buff *msg, void *hdr, struct genl_info *info);
int edgedma_nl_reply_overflow(struct sk_buff *msg, struct genl_info *info);

/* Dumps: start checks privilege where it can say why (compat.h). */
int edgedma_nl_dump_start(struct netlink_callback *cb);
int edgedma_nl_dump_refused(struct netlink_callback *cb);
const struct nlattr *const *edgedma_nl_dump_attrs(struct netlink_callback *cb);
/* One message of a dump, answering @cb's request. */
void *edgedma_nl_dump_put(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd);

static inline int edgedma_put_u64(struct sk_buff *msg, int type, u64 value, int pad)
{
	return nla_put_u64_64bit(msg, type, value, pad);
}

/* Request and rejection counts for GET_STATS. */
u64 edgedma_nl_requests(void);
u64 edgedma_nl_rejected(void);

/* The commands, one file per concern. */
int edgedma_nl_get_info(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_get_stats(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_findings_start(struct netlink_callback *cb);
int edgedma_nl_findings_dump(struct sk_buff *skb, struct netlink_callback *cb);
int edgedma_nl_mappings_start(struct netlink_callback *cb);
int edgedma_nl_mappings_dump(struct sk_buff *skb, struct netlink_callback *cb);
int edgedma_nl_devices_dump(struct sk_buff *skb, struct netlink_callback *cb);
int edgedma_nl_policy_set(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_policy_get(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_policy_dump(struct sk_buff *skb, struct netlink_callback *cb);
int edgedma_nl_policy_del(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_map_events_set(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_snapshot_take(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_snapshot_get(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_snapshot_dump(struct sk_buff *skb, struct netlink_callback *cb);
int edgedma_nl_profile_set(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_profile_del(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_profile_get(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_error_hook_set(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_error_hook_del(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_error_hook_dump(struct sk_buff *skb, struct netlink_callback *cb);
int edgedma_nl_profile_dump(struct sk_buff *skb, struct netlink_callback *cb);
int edgedma_nl_crash_region_get(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_crash_records_get(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_crash_records_dump(struct sk_buff *skb, struct netlink_callback *cb);
int edgedma_nl_crash_records_clear(struct sk_buff *skb, struct genl_info *info);
int edgedma_nl_unfold_set(struct sk_buff *skb, struct genl_info *info);
/* The release notifier that ends a closed socket's UNFOLD_SET request. */
int edgedma_nl_unfold_init(void);
void edgedma_nl_unfold_exit(void);

#endif /* _EDGEDMA_NETLINK_H */
