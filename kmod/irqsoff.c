// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks' interrupts-off sections, timed (irqsoff.h).
 *
 * Per-CPU counts in power-of-two buckets of nanoseconds: recording is two
 * per-CPU writes, no atomics, and reading sums the CPUs. Bucket b holds
 * sections of [2^b, 2^(b+1)) ns (bucket 0 also 0 ns); the last one holds
 * everything from 2^(EDGEDMA_IRQSOFF_BUCKETS-1) ns up (about 9 minutes).
 */
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "edgedma.h"
#include "irqsoff.h"

#define EDGEDMA_IRQSOFF_BUCKETS	40

static DEFINE_PER_CPU(u64, edgedma_irqsoff_max);
static DEFINE_PER_CPU(u64 [EDGEDMA_IRQSOFF_BUCKETS], edgedma_irqsoff_counts);

void edgedma_irqsoff_record(u64 ns)
{
	unsigned int bucket = min_t(unsigned int, ns ? fls64(ns) - 1 : 0,
				    EDGEDMA_IRQSOFF_BUCKETS - 1);

	__this_cpu_inc(edgedma_irqsoff_counts[bucket]);
	if (ns > __this_cpu_read(edgedma_irqsoff_max))
		__this_cpu_write(edgedma_irqsoff_max, ns);
}

u64 edgedma_irqsoff_max_ns(void)
{
	u64 max = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		max = max(max, READ_ONCE(per_cpu(edgedma_irqsoff_max, cpu)));
	return max;
}

/* The upper end of the bucket holding the @permille-th section. */
static u64 edgedma_irqsoff_quantile(const u64 *counts, u64 total,
				    unsigned int permille)
{
	u64 want = div_u64(total * permille + 999, 1000), seen = 0;
	unsigned int b;

	for (b = 0; b < EDGEDMA_IRQSOFF_BUCKETS; b++) {
		seen += counts[b];
		if (seen >= want)
			return 2ULL << b;
	}
	return 0;
}

static int edgedma_irqsoff_show(struct seq_file *m, void *unused)
{
	u64 counts[EDGEDMA_IRQSOFF_BUCKETS] = {}, total = 0, running = 0;
	unsigned int b;
	int cpu;

	for_each_possible_cpu(cpu)
		for (b = 0; b < EDGEDMA_IRQSOFF_BUCKETS; b++)
			counts[b] += READ_ONCE(per_cpu(edgedma_irqsoff_counts, cpu)[b]);
	for (b = 0; b < EDGEDMA_IRQSOFF_BUCKETS; b++)
		total += counts[b];

	seq_printf(m, "# hooks' interrupts-off sections: %llu timed (measure_irqsoff=1), longest %llu ns\n",
		   total, edgedma_irqsoff_max_ns());
	if (total)
		seq_printf(m, "# p50 < %llu ns, p99 < %llu ns, p99.9 < %llu ns\n",
			   edgedma_irqsoff_quantile(counts, total, 500),
			   edgedma_irqsoff_quantile(counts, total, 990),
			   edgedma_irqsoff_quantile(counts, total, 999));
	seq_puts(m, "# from_ns to_ns count cumulative_permille\n");
	for (b = 0; b < EDGEDMA_IRQSOFF_BUCKETS; b++) {
		if (!counts[b])
			continue;
		running += counts[b];
		seq_printf(m, "%llu %llu %llu %llu\n", b ? 1ULL << b : 0, 2ULL << b,
			   counts[b], div64_u64(running * 1000, total));
	}
	return 0;
}

static int edgedma_irqsoff_open(struct inode *inode, struct file *file)
{
	return single_open(file, edgedma_irqsoff_show, NULL);
}

/*
 * Any write clears the histogram and the longest section, to time a
 * window of one's own. A CPU recording meanwhile may keep one count from
 * before: the figures are for people, not for accounting.
 */
static ssize_t edgedma_irqsoff_write(struct file *file, const char __user *buf,
				     size_t len, loff_t *pos)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		memset(per_cpu_ptr(&edgedma_irqsoff_counts, cpu), 0,
		       sizeof(edgedma_irqsoff_counts));
		WRITE_ONCE(per_cpu(edgedma_irqsoff_max, cpu), 0);
	}
	return len;
}

static const struct file_operations edgedma_irqsoff_fops = {
	.owner = THIS_MODULE,
	.open = edgedma_irqsoff_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = edgedma_irqsoff_write,
	.release = single_release,
};

void edgedma_irqsoff_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("irqsoff", 0600, dir, NULL, &edgedma_irqsoff_fops);
}
