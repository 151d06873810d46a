// SPDX-License-Identifier: GPL-2.0
/*
 * Oops and panic as snapshot triggers (see trigger_crash.h).
 *
 * The die notifier runs in the oopsing context; the panic notifiers run
 * with interrupts off after the other CPUs were stopped, possibly holding
 * any lock. The capture therefore only tries locks (a part whose lock is
 * held is left out, and the record says so), claims store slots without
 * waiting, and skips the rate limit: there is no later. It happens once
 * per kind: the first oops is snapshotted and written to the crash region,
 * and so is a later panic (the kernel survived the oops), which writes the
 * region again; an oops that becomes a panic (oops=panic: the same task
 * panics) is not snapshotted twice, and an oops inside the capture cannot
 * recurse into it. From the panic on, the hooks record nothing (checks.c):
 * a console's DMA while the panic prints (netconsole) must not wait for a
 * lock a stopped CPU holds.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "crash_region.h"
#include "devices.h"
#include "snapshot_capture.h"
#include "trigger_crash.h"

static atomic_t edgedma_oops_taken = ATOMIC_INIT(0);
static atomic_t edgedma_panic_taken = ATOMIC_INIT(0);
/* The task whose oops was snapshotted, told from a later one at its address. */
static const struct task_struct *edgedma_oops_task;
static u64 edgedma_oops_task_start;
bool edgedma_panicking;

static void edgedma_crash_snapshot(struct device *dev, void *arg)
{
	const char *why = arg;
	struct edgedma_snapshot_summary sum;
	struct edgedma_snapshot_request t = {
		.kind = !strcmp(why, "panic") ? EDGEDMA_SNAPSHOT_TRIGGER_PANIC
					      : EDGEDMA_SNAPSHOT_TRIGGER_OOPS,
		.atomic = true, .panic = true, .summary = &sum,
	};
	const struct device_driver *drv = READ_ONCE(dev->driver);
	u64 seq;
	int err;

	err = edgedma_snapshot_take(dev, &t, &seq);
	if (err == -EPERM)
		return;		/* the device's policy says no */
	if (err) {
		pr_emerg("no snapshot of %s at %s: every slot was being written\n",
			 dev_name(dev), why);
		return;
	}
	pr_emerg("snapshot %llu at %s: %s (%s): %u registers, %u live mappings, %u recent unmaps, %u bytes%s\n",
		 seq, why, dev_name(dev), drv ? drv->name : "no driver", sum.registers,
		 sum.mappings, sum.unmapped, sum.len, sum.truncated ? ", truncated" : "");
}

static void edgedma_crash_snapshots(const char *why)
{
	unsigned int n;

	n = edgedma_devrec_for_each_mapping(edgedma_crash_snapshot, (void *)why);
	if (!n)
		pr_emerg("no snapshot at %s: no device holds DMA mappings\n", why);
}

static int edgedma_die_event(struct notifier_block *nb, unsigned long action, void *data)
{
	if (action != DIE_OOPS || atomic_xchg(&edgedma_oops_taken, 1))
		return NOTIFY_DONE;
	edgedma_oops_task = current;
	edgedma_oops_task_start = current->start_time;
	edgedma_crash_snapshots("oops");
	/* The ones just taken and those before, for the next boot. */
	edgedma_crash_region_write(false);
	return NOTIFY_DONE;
}

/* First of the panic notifiers: the hooks stand aside before anything prints. */
static int edgedma_panic_event(struct notifier_block *nb, unsigned long action, void *data)
{
	WRITE_ONCE(edgedma_panicking, true);
	if (atomic_xchg(&edgedma_panic_taken, 1))
		return NOTIFY_DONE;
	/* The oops just snapshotted, ending in a panic: its snapshots stand. */
	if (edgedma_oops_task != current ||
	    edgedma_oops_task_start != current->start_time)
		edgedma_crash_snapshots("panic");
	edgedma_crash_region_write(true);
	return NOTIFY_DONE;
}

static struct notifier_block edgedma_die_nb = {
	.notifier_call = edgedma_die_event,
};

static struct notifier_block edgedma_panic_nb = {
	.notifier_call = edgedma_panic_event,
	.priority = INT_MAX,
};

static bool edgedma_die_registered;

int edgedma_crash_triggers_start(void)
{
	int err = register_die_notifier(&edgedma_die_nb);

	if (err)
		pr_warn("no snapshots at oops: register_die_notifier: %d\n", err);
	edgedma_die_registered = !err;
	atomic_notifier_chain_register(&panic_notifier_list, &edgedma_panic_nb);
	return 0;
}

void edgedma_crash_triggers_stop(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &edgedma_panic_nb);
	if (edgedma_die_registered)
		unregister_die_notifier(&edgedma_die_nb);
	edgedma_die_registered = false;
}
