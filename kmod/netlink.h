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

#endif /* _EDGEDMA_NETLINK_H */
