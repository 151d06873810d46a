/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_NETLINK_H
#define _EDGEDMA_NETLINK_H

#include <linux/types.h>

struct edgedma_finding;

int edgedma_netlink_init(void);
void edgedma_netlink_exit(void);

/*
 * Multicast @f to the "events" group; process context. 0 when sent or when
 * nobody listens, -ENOMEM when it could not be built.
 */
int edgedma_nl_notify_finding(const struct edgedma_finding *f);
/* Whether anyone subscribed to the "events" group. */
bool edgedma_nl_events_listened(void);

/*
 * The "map-events" group (map_events.c): a message to fill with nested
 * events, then sent, or cancelled if nothing went in; process context.
 */
struct sk_buff;
bool edgedma_nl_map_events_listened(void);
struct sk_buff *edgedma_nl_map_events_new(void **hdr);
void edgedma_nl_map_events_send(struct sk_buff *msg, void *hdr);
void edgedma_nl_map_events_cancel(struct sk_buff *msg);

#endif /* _EDGEDMA_NETLINK_H */
