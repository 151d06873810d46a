/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_MAP_EVENTS_H
#define _EDGEDMA_MAP_EVENTS_H

#include <linux/jump_label.h>
#include <linux/types.h>

struct edgedma_call;
struct edgedma_devrec;

int edgedma_map_events_init(void);
/* After the hooks are gone. */
void edgedma_map_events_exit(void);

DECLARE_STATIC_KEY_FALSE(edgedma_map_events_on);

void __edgedma_map_event_record(const struct edgedma_call *call,
				struct edgedma_devrec *rec, u64 time_ns);

/*
 * Hook context, interrupts off: costs one patched branch while off.
 * @time_ns: the call's time where the hook read it already (the mapping's,
 * the unmap's), else 0 and the event reads the clock.
 */
static inline void edgedma_map_event_record(const struct edgedma_call *call,
					    struct edgedma_devrec *rec, u64 time_ns)
{
	if (static_branch_unlikely(&edgedma_map_events_on))
		__edgedma_map_event_record(call, rec, time_ns);
}

struct edgedma_map_events_cursor {
	u64 next_seq;	/* every lower seq was sent or dropped */
	u64 dropped;	/* since load */
};

enum edgedma_map_events_want {
	EDGEDMA_MAP_EVENTS_OFF,
	EDGEDMA_MAP_EVENTS_ON,
	EDGEDMA_MAP_EVENTS_KEEP,	/* only send and read the cursors */
};

/*
 * Turn the stream on or off, or leave it (process context), and send every
 * event buffered so far; @cursors (nr_cpu_ids entries, or NULL) gets where
 * each CPU stands once that is done, *@was the state before. -ENOMEM: no
 * memory for the rings to turn it on (nothing changed, nothing sent).
 */
int edgedma_map_events_set(enum edgedma_map_events_want want,
			   struct edgedma_map_events_cursor *cursors, bool *was);
void edgedma_map_events_cursor(int cpu, struct edgedma_map_events_cursor *cursor);

/* Totals over all CPUs, for GET_STATS. */
void edgedma_map_events_totals(u64 *numbered, u64 *dropped);
size_t edgedma_map_events_memory(void);	/* bytes held now */

#endif /* _EDGEDMA_MAP_EVENTS_H */
