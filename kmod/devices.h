/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_DEVICES_H
#define _EDGEDMA_DEVICES_H

#include <linux/atomic.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "snapshot_store.h"

struct device;

#define EDGEDMA_NAME_LEN	48

/*
 * What edgedma keeps of a device that made DMA-mapping calls. Records are
 * claimed from a fixed table the first time a device is seen and never
 * freed, so mappings and findings can name a device without touching its
 * struct device again (it may be gone by the time a dump reads them).
 *
 * The names change when a driver binds or the slot is reused: writers hold
 * names_lock, readers copy them with edgedma_devrec_names(), which retries
 * until it got both without a writer in between.
 */
struct edgedma_devrec {
	struct device *dev;		/* NULL: slot free */
	const char *kobj_name;		/* identifies this incarnation of dev */
	raw_spinlock_t names_lock;
	seqcount_raw_spinlock_t names_seq;
	char name[EDGEDMA_NAME_LEN];
	char driver[EDGEDMA_NAME_LEN];
	const void *driver_seen;	/* the struct device_driver named above */
	/*
	 * Every mapping the device holds was made while the hooks watched: its
	 * driver bound (or unbound) after they were armed. A device already
	 * driven at load may unmap and sync what edgedma never saw mapped, so
	 * unmap-unknown and sync-unknown wait for this.
	 */
	bool complete;
	/*
	 * edgedma turned off the DMA core's sync skipping for this device
	 * (dev->dma_skip_sync, 6.11+; sync_visible.c).
	 */
	bool sync_kept;
	/*
	 * The device was deleted (BUS_NOTIFY_DEL_DEVICE): dev must not be
	 * followed any more by code that looks for a device by other keys.
	 */
	bool gone;
	/* Snapshots of this device in the current second (snapshot_rate). */
	struct edgedma_snapshot_rate snapshots;
	atomic_t ready;
	/*
	 * Its index in the table, set at load: the hooks count per device
	 * several times a call, and a pointer difference divides by the
	 * record's size.
	 */
	unsigned int slot;
};

/* Per-device counters (per CPU, summed when read). */
enum edgedma_devrec_counter {
	EDGEDMA_DEV_CALLS,
	EDGEDMA_DEV_LIVE,		/* maps minus unmaps: may dip below 0 per CPU */
	EDGEDMA_DEV_FINDINGS,
	EDGEDMA_DEV_COUNTERS
};

int edgedma_devices_init(void);
void edgedma_devices_exit(void);

/* The record of @dev, claimed if needed; NULL when the table is full. */
struct edgedma_devrec *edgedma_devrec_get(struct device *dev);
/* The record of @dev if it has one; never claims a slot. */
struct edgedma_devrec *edgedma_devrec_find(struct device *dev);
/* Copy the driver name of @dev into its record if it changed. */
void edgedma_devrec_refresh_driver(struct edgedma_devrec *rec, struct device *dev);
/* Consistent copies of the record's names; either buffer may be NULL. */
void edgedma_devrec_names(const struct edgedma_devrec *rec,
			  char name[EDGEDMA_NAME_LEN], char driver[EDGEDMA_NAME_LEN]);
/* The table and its counters: read through the helpers below. */
extern struct edgedma_devrec *edgedma_devrecs;
extern s64 __percpu *edgedma_dev_counters;

static inline unsigned int edgedma_devrec_slot(const struct edgedma_devrec *rec)
{
	return rec->slot;
}

/* The per-CPU counter @counter of @rec. */
static inline s64 __percpu *edgedma_devrec_counter(const struct edgedma_devrec *rec,
						    enum edgedma_devrec_counter counter)
{
	return edgedma_dev_counters + edgedma_devrec_slot(rec) * EDGEDMA_DEV_COUNTERS + counter;
}

/*
 * Any context; @delta may be negative for EDGEDMA_DEV_LIVE. Inline: the
 * hooks count several times per call.
 */
static inline void edgedma_devrec_count(const struct edgedma_devrec *rec,
					enum edgedma_devrec_counter counter, long delta)
{
	this_cpu_add(*edgedma_devrec_counter(rec, counter), delta);
}

/*
 * edgedma_devrec_count() with interrupts off, as the hooks run: nothing can
 * come between the read and the write on this CPU, so a plain add does,
 * where this_cpu_add() is an exclusive load/store loop on arm64.
 */
static inline void edgedma_devrec_count_irqs_off(const struct edgedma_devrec *rec,
						 enum edgedma_devrec_counter counter, long delta)
{
	lockdep_assert_irqs_disabled();
	__this_cpu_add(*edgedma_devrec_counter(rec, counter), delta);
}
u64 edgedma_devices_untracked(void);
size_t edgedma_devices_memory(void);	/* bytes preallocated at load */
/* The driver of @dev binds or has unbound; process context. */
void edgedma_devrec_view_starts(struct device *dev);
/*
 * The first watched device that @match accepts, or NULL: for fault
 * handlers, which know a device only by a bus number (a PCI requester ID,
 * an IOMMU stream ID). Lock-free, any context but NMI; devices deleted
 * since they were seen are passed over.
 */
struct device *edgedma_devrec_search(bool (*match)(struct device *dev, const void *key),
				     const void *key);
/*
 * Call @fn for each watched device that holds live mappings; returns how
 * many. Lock-free, any context but NMI (panic included).
 */
unsigned int edgedma_devrec_for_each_mapping(void (*fn)(struct device *dev, void *arg),
					     void *arg);
/* @dev is being deleted; process context (the bus notifier). */
void edgedma_devrec_device_gone(struct device *dev);
/* A PCI or platform device by dev_name(), with a reference; process context. */
struct device *edgedma_find_device_by_name(const char *name);

/* One device as DEVICES_GET reports it. */
struct edgedma_device_info {
	char name[EDGEDMA_NAME_LEN];
	char driver[EDGEDMA_NAME_LEN];
	u64 calls;
	u64 mappings_live;
	u64 findings;
	bool complete;
	bool sync_kept;
};

/* The first claimed slot at or after *@slot; advances *@slot past it. */
bool edgedma_device_info_next(unsigned long *slot, struct edgedma_device_info *out);

#endif /* _EDGEDMA_DEVICES_H */
