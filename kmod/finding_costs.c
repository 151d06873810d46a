// SPDX-License-Identifier: GPL-2.0
/*
 * The finding path timed part by part (finding_costs.h).
 *
 * Measuring is off by default: a finding storm is the case that matters,
 * and two clock reads per part would add to what is measured. Counts and
 * sums are atomics, not per-CPU: only findings and folded repeats pay them,
 * and only while measuring. debugfs shows them; a write there clears them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>

#include "finding_costs.h"
#include "irqsoff.h"

bool edgedma_measure_findings;
module_param_named(measure_findings, edgedma_measure_findings, bool, 0644);
MODULE_PARM_DESC(measure_findings,
		 "Time each part of the finding path (debugfs edgedma/finding_costs); default off");

/* A word per part for programs, and what it covers for people. */
static const struct {
	const char *key;
	const char *what;
} edgedma_cost_names[EDGEDMA_COST_COUNT] = {
	[EDGEDMA_COST_SITE_REPEAT] = { "site-repeat", "hook: site lookup that folded a repeat" },
	[EDGEDMA_COST_SITE_FIRST] = { "site-first", "hook: site lookup that let a finding through" },
	[EDGEDMA_COST_FACTS] = { "facts", "hook: finding cleared and filled, device names" },
	[EDGEDMA_COST_CHAIN] = { "chain", "hook: call chain (stack trace)" },
	[EDGEDMA_COST_SENTENCE_ARGS] = { "sentence-args", "hook: sentence arguments (vbin_printf)" },
	[EDGEDMA_COST_LOG] = { "log", "hook: log copy under its lock, irq_work queued" },
	[EDGEDMA_COST_DELAY] = { "delay", "logged until the work item took it (latency)" },
	[EDGEDMA_COST_SENTENCE] = { "sentence", "work: sentence made (bstr_printf)" },
	[EDGEDMA_COST_SYMBOLS] = { "symbols", "work: caller, map caller and chain named" },
	[EDGEDMA_COST_STORE_NAMES] = { "store-names", "work: names copied into the log entry" },
	[EDGEDMA_COST_PRINTK] = { "printk", "work: kernel log line (ratelimited)" },
	[EDGEDMA_COST_NETLINK] = { "netlink", "work: FINDING built and multicast (listened only)" },
};

static atomic64_t edgedma_cost_count[EDGEDMA_COST_COUNT];
static atomic64_t edgedma_cost_ns[EDGEDMA_COST_COUNT];
static struct dentry *edgedma_debugfs_dir;

void edgedma_cost_add_ns(enum edgedma_finding_cost part, u64 ns)
{
	atomic64_inc(&edgedma_cost_count[part]);
	atomic64_add(ns, &edgedma_cost_ns[part]);
}

static int edgedma_costs_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	seq_printf(m, "# measure_findings=%d\n# part count total_ns mean_ns  what\n",
		   READ_ONCE(edgedma_measure_findings));
	for (i = 0; i < EDGEDMA_COST_COUNT; i++) {
		u64 count = atomic64_read(&edgedma_cost_count[i]);
		u64 ns = atomic64_read(&edgedma_cost_ns[i]);

		seq_printf(m, "%-13s %llu %llu %llu  %s\n", edgedma_cost_names[i].key,
			   count, ns, count ? div64_u64(ns, count) : 0,
			   edgedma_cost_names[i].what);
	}
	return 0;
}

static int edgedma_costs_open(struct inode *inode, struct file *file)
{
	return single_open(file, edgedma_costs_show, NULL);
}

/* Any write clears the counts. */
static ssize_t edgedma_costs_write(struct file *file, const char __user *buf,
				   size_t len, loff_t *pos)
{
	unsigned int i;

	for (i = 0; i < EDGEDMA_COST_COUNT; i++) {
		atomic64_set(&edgedma_cost_count[i], 0);
		atomic64_set(&edgedma_cost_ns[i], 0);
	}
	return len;
}

static const struct file_operations edgedma_costs_fops = {
	.owner = THIS_MODULE,
	.open = edgedma_costs_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = edgedma_costs_write,
	.release = single_release,
};

/* Without debugfs the counts are kept and nobody reads them: not an error. */
int edgedma_finding_costs_init(void)
{
	struct dentry *dir = debugfs_create_dir(KBUILD_MODNAME, NULL);

	if (IS_ERR_OR_NULL(dir))
		return 0;
	edgedma_debugfs_dir = dir;
	debugfs_create_file("finding_costs", 0600, dir, NULL, &edgedma_costs_fops);
	/* The module's one folder holds the hooks' interrupts-off times too. */
	edgedma_irqsoff_debugfs_init(dir);
	return 0;
}

void edgedma_finding_costs_exit(void)
{
	debugfs_remove_recursive(edgedma_debugfs_dir);
	edgedma_debugfs_dir = NULL;
}
