// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma_bench_edu: what one dma_map_single() + dma_unmap_single() pair
 * costs, on QEMU's edu device (PCI 1234:11e8), for `make bench`.
 *
 * The method is the one of the kernel's dma_map_benchmark
 * (kernel/dma/map_benchmark.c): N kernel threads, each mapping and unmapping
 * its own buffer of a given granule (pages) and direction, mean and standard
 * deviation. That benchmark is not in any Debian kernel (it is a built-in
 * bool, off), hence this module. Differences, all for steadier figures under
 * TCG: a fixed number of pairs per thread (or a duration), each thread
 * pinned to a CPU of its own, and the clock read once per batch of pairs
 * instead of around every call (the clock itself costs as much as a bare
 * map under TCG). The spread is that of the per-pair time of each batch.
 *
 * No transfer is ever started: the device is only the struct device the
 * DMA API maps for, with the path (IOMMU or direct) and mask of a real PCI
 * function.
 *
 * Interface: /sys/kernel/debug/edgedma_bench_edu/run. Write
 *   "threads=T pages=P dir=bidirectional|to-device|from-device
 *    offset=O iterations=I | seconds=S"
 * (every key optional: 1 thread, 1 page, bidirectional, offset 0, 10000
 * iterations); offset maps the buffer from byte O on, so that with an
 * alignment policy every map is a finding (make bench's storm case);
 * the write returns when the run is over. Read it back for the result, one
 * line of key=value pairs:
 *   threads pages dir offset pairs batches mean_ns stddev_ns wall_ns
 *   pairs_per_sec errors path
 * pairs is the total over all threads; pairs_per_sec is pairs / wall time
 * (start of the first thread to end of the last), the throughput the
 * 2-thread / 1-thread scaling figure is made of.
 *
 * /sys/kernel/debug/edgedma_bench_edu/primitives: what the machine (under
 * TCG, the emulator) charges for the operations a hook cannot do without,
 * each timed alone in a loop on one CPU. Write "iterations=N" (default
 * 100000); read back one line:
 *   iterations loop_ps call_ps irq_save_restore_ps clock_ps
 *   spin_lock_unlock_ps
 * loop_ps is one pass of the empty loop; every other figure is one
 * operation with the loop's pass taken out, in picoseconds: call, a call
 * of an empty function that is not inlined, and its return; irq_save_restore,
 * local_irq_save() and local_irq_restore(); clock, ktime_get_ns();
 * spin_lock_unlock, raw_spin_lock() and raw_spin_unlock() of an uncontended
 * lock. A return is an indirect jump for the emulator, and turning
 * interrupts back on ends its translation block: both cost far more there
 * than their instruction count says.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/parser.h>
#include <linux/pci.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#define DRV_NAME		"edgedma_bench_edu"
#define BENCH_MAX_THREADS	16
#define BENCH_MAX_PAGES		1024
#define BENCH_MAX_SECONDS	300
/* Pairs between two clock reads. */
#define BENCH_BATCH		16

static unsigned int dma_bits = 32;
module_param(dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits, "DMA mask width (default 32, as dma_map_benchmark)");

struct bench_params {
	unsigned int threads;
	unsigned int pages;
	enum dma_data_direction dir;
	u64 iterations;		/* per thread; 0 when seconds is set */
	unsigned int seconds;
	unsigned int offset;	/* of the mapping in the buffer, bytes */
};

struct bench_thread {
	struct bench_run *run;
	struct task_struct *task;
	void *buf;
	u64 pairs;
	u64 batches;
	u64 sum_ns;		/* of the batches' per-pair times */
	u64 sum_sq_ns;
	u64 errors;
	u64 end_ns;
};

struct bench_run {
	struct bench_dev *bd;
	struct bench_params p;
	struct completion start;
	atomic_t running;
	struct completion done;
	u64 start_ns;
	u64 deadline_ns;
	struct bench_thread threads[BENCH_MAX_THREADS];
};

struct bench_dev {
	struct pci_dev *pdev;
	struct device *dev;
	struct mutex lock;	/* one run at a time; guards result */
	char result[320];
	struct dentry *run_file;
};

static struct dentry *bench_debugfs_root;

#define BENCH_PRIMITIVES_DEFAULT	100000
#define BENCH_PRIMITIVES_MAX		10000000
/* Passes between two chances to reschedule: a few ms under TCG. */
#define BENCH_PRIMITIVES_CHUNK		10000

static DEFINE_MUTEX(bench_primitives_lock);	/* guards the result */
static char bench_primitives_result[192] = "no run yet\n";
static DEFINE_RAW_SPINLOCK(bench_primitive_spinlock);

/* Not inlined, and not optimised away: the call is what is timed. */
static noinline void bench_primitive_empty(unsigned long i)
{
	asm volatile("" : : "r"(i) : "memory");
}

enum bench_primitive {
	BENCH_LOOP,
	BENCH_CALL,
	BENCH_IRQ_SAVE_RESTORE,
	BENCH_CLOCK,
	BENCH_SPIN_LOCK_UNLOCK,
	BENCH_PRIMITIVES
};

static u64 bench_primitive_sink;

/* Nanoseconds that @iterations passes of @op's loop took on this CPU. */
static u64 bench_primitive_time(enum bench_primitive op, u64 iterations)
{
	u64 done = 0, elapsed = 0, sink = 0;

	while (done < iterations) {
		u64 n = min_t(u64, iterations - done, BENCH_PRIMITIVES_CHUNK);
		unsigned long flags;
		u64 i, t0;

		/* One CPU throughout a chunk, and no other task in it. */
		preempt_disable();
		t0 = ktime_get_ns();
		switch (op) {
		case BENCH_LOOP:
			for (i = 0; i < n; i++)
				barrier();
			break;
		case BENCH_CALL:
			for (i = 0; i < n; i++)
				bench_primitive_empty(i);
			break;
		case BENCH_IRQ_SAVE_RESTORE:
			for (i = 0; i < n; i++) {
				local_irq_save(flags);
				local_irq_restore(flags);
				barrier();
			}
			break;
		case BENCH_CLOCK:
			for (i = 0; i < n; i++)
				sink += ktime_get_ns();
			break;
		case BENCH_SPIN_LOCK_UNLOCK:
			for (i = 0; i < n; i++) {
				raw_spin_lock(&bench_primitive_spinlock);
				raw_spin_unlock(&bench_primitive_spinlock);
				barrier();
			}
			break;
		case BENCH_PRIMITIVES:
			break;
		}
		elapsed += ktime_get_ns() - t0;
		preempt_enable();
		done += n;
		cond_resched();
	}
	WRITE_ONCE(bench_primitive_sink, sink);
	return elapsed;
}

/* Picoseconds per operation, the empty loop's pass (@loop_ps) taken out. */
static u64 bench_primitive_ps(enum bench_primitive op, u64 iterations, u64 loop_ps)
{
	u64 ps = div64_u64(bench_primitive_time(op, iterations) * 1000, iterations);

	return ps > loop_ps ? ps - loop_ps : 0;
}

static int bench_primitives_run(u64 iterations)
{
	u64 loop_ps;

	loop_ps = div64_u64(bench_primitive_time(BENCH_LOOP, iterations) * 1000,
			    iterations);
	snprintf(bench_primitives_result, sizeof(bench_primitives_result),
		 "iterations=%llu loop_ps=%llu call_ps=%llu irq_save_restore_ps=%llu clock_ps=%llu spin_lock_unlock_ps=%llu\n",
		 iterations, loop_ps,
		 bench_primitive_ps(BENCH_CALL, iterations, loop_ps),
		 bench_primitive_ps(BENCH_IRQ_SAVE_RESTORE, iterations, loop_ps),
		 bench_primitive_ps(BENCH_CLOCK, iterations, loop_ps),
		 bench_primitive_ps(BENCH_SPIN_LOCK_UNLOCK, iterations, loop_ps));
	return 0;
}

static ssize_t bench_primitives_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	u64 iterations = BENCH_PRIMITIVES_DEFAULT;
	char *line, *opt, *cursor;
	int err = 0;

	if (count > 64)
		return -EINVAL;
	line = memdup_user_nul(ubuf, count);
	if (IS_ERR(line))
		return PTR_ERR(line);
	cursor = line;
	while (!err && (opt = strsep(&cursor, " \t\n")) != NULL) {
		if (!*opt)
			continue;
		if (!str_has_prefix(opt, "iterations=") ||
		    kstrtou64(opt + strlen("iterations="), 0, &iterations) ||
		    !iterations || iterations > BENCH_PRIMITIVES_MAX)
			err = -EINVAL;
	}
	kfree(line);
	if (err)
		return err;
	if (mutex_lock_interruptible(&bench_primitives_lock))
		return -EINTR;
	err = bench_primitives_run(iterations);
	mutex_unlock(&bench_primitives_lock);
	return err ? err : count;
}

static ssize_t bench_primitives_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_primitives_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, bench_primitives_result,
				      strlen(bench_primitives_result));
	mutex_unlock(&bench_primitives_lock);
	return ret;
}

static const struct file_operations bench_primitives_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = bench_primitives_read,
	.write = bench_primitives_write,
	.llseek = default_llseek,
};

static const char *const bench_dir_names[] = {
	[DMA_BIDIRECTIONAL] = "bidirectional",
	[DMA_TO_DEVICE] = "to-device",
	[DMA_FROM_DEVICE] = "from-device",
};

static bool bench_path_direct(struct device *dev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dev);

	return !domain || domain->type == IOMMU_DOMAIN_IDENTITY;
}

static int bench_thread_fn(void *data)
{
	struct bench_thread *t = data;
	struct bench_run *run = t->run;
	struct device *dev = run->bd->dev;
	size_t size = (size_t)run->p.pages * PAGE_SIZE - run->p.offset;
	void *cpu = t->buf + run->p.offset;
	u64 t0, t1, per_pair;
	unsigned int i;

	wait_for_completion(&run->start);
	for (;;) {
		if (run->p.iterations && t->pairs >= run->p.iterations)
			break;
		t0 = ktime_get_ns();
		if (!run->p.iterations && t0 >= run->deadline_ns)
			break;
		for (i = 0; i < BENCH_BATCH; i++) {
			dma_addr_t addr = dma_map_single(dev, cpu, size,
							 run->p.dir);

			/* DMA-API debug insists on the check, as it should. */
			if (unlikely(dma_mapping_error(dev, addr))) {
				t->errors++;
				continue;
			}
			dma_unmap_single(dev, addr, size, run->p.dir);
		}
		t1 = ktime_get_ns();
		per_pair = div_u64(t1 - t0, BENCH_BATCH);
		t->pairs += BENCH_BATCH;
		t->batches++;
		t->sum_ns += per_pair;
		t->sum_sq_ns += per_pair * per_pair;
		cond_resched();
	}
	t->end_ns = ktime_get_ns();
	if (atomic_dec_and_test(&run->running))
		complete(&run->done);
	return 0;
}

static int bench_parse(char *line, struct bench_params *p)
{
	char *opt;

	*p = (struct bench_params) { .threads = 1, .pages = 1,
				     .dir = DMA_BIDIRECTIONAL,
				     .iterations = 10000 };
	while ((opt = strsep(&line, " \t\n")) != NULL) {
		char *val;
		int i;

		if (!*opt)
			continue;
		val = strchr(opt, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(opt, "threads")) {
			if (kstrtouint(val, 0, &p->threads) || !p->threads ||
			    p->threads > BENCH_MAX_THREADS)
				return -EINVAL;
		} else if (!strcmp(opt, "pages")) {
			if (kstrtouint(val, 0, &p->pages) || !p->pages ||
			    p->pages > BENCH_MAX_PAGES)
				return -EINVAL;
		} else if (!strcmp(opt, "dir")) {
			i = match_string(bench_dir_names,
					 ARRAY_SIZE(bench_dir_names), val);
			if (i < 0)
				return -EINVAL;
			p->dir = i;
		} else if (!strcmp(opt, "iterations")) {
			if (kstrtou64(val, 0, &p->iterations) ||
			    !p->iterations)
				return -EINVAL;
			p->seconds = 0;
		} else if (!strcmp(opt, "offset")) {
			if (kstrtouint(val, 0, &p->offset) || p->offset >= PAGE_SIZE)
				return -EINVAL;
		} else if (!strcmp(opt, "seconds")) {
			if (kstrtouint(val, 0, &p->seconds) || !p->seconds ||
			    p->seconds > BENCH_MAX_SECONDS)
				return -EINVAL;
			p->iterations = 0;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

/* Folds the threads' sums into the result line. */
static void bench_summarise(struct bench_dev *bd, struct bench_run *run)
{
	u64 pairs = 0, batches = 0, sum = 0, sum_sq = 0, errors = 0;
	u64 end = run->start_ns, mean = 0, var = 0, wall, rate = 0;
	unsigned int i;

	for (i = 0; i < run->p.threads; i++) {
		struct bench_thread *t = &run->threads[i];

		pairs += t->pairs;
		batches += t->batches;
		sum += t->sum_ns;
		sum_sq += t->sum_sq_ns;
		errors += t->errors;
		end = max(end, t->end_ns);
	}
	if (batches) {
		mean = div64_u64(sum, batches);
		var = div64_u64(sum_sq, batches);
		var = var > mean * mean ? var - mean * mean : 0;
	}
	wall = end - run->start_ns;
	if (wall)
		rate = div64_u64(pairs * NSEC_PER_SEC, wall);
	snprintf(bd->result, sizeof(bd->result),
		 "threads=%u pages=%u dir=%s offset=%u pairs=%llu batches=%llu mean_ns=%llu stddev_ns=%llu wall_ns=%llu pairs_per_sec=%llu errors=%llu path=%s\n",
		 run->p.threads, run->p.pages, bench_dir_names[run->p.dir],
		 run->p.offset, pairs, batches, mean, (u64)int_sqrt64(var), wall, rate,
		 errors, bench_path_direct(bd->dev) ? "direct" : "iommu");
}

static int bench_run(struct bench_dev *bd, const struct bench_params *p)
{
	struct bench_run *run;
	unsigned int i, started = 0;
	int cpu = -1, err = 0;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	run->bd = bd;
	run->p = *p;
	init_completion(&run->start);
	init_completion(&run->done);
	atomic_set(&run->running, p->threads);

	for (i = 0; i < p->threads; i++) {
		struct bench_thread *t = &run->threads[i];

		t->run = run;
		t->buf = alloc_pages_exact((size_t)p->pages * PAGE_SIZE,
					   GFP_KERNEL);
		if (!t->buf) {
			err = -ENOMEM;
			goto out_stop;
		}
		t->task = kthread_create(bench_thread_fn, t, DRV_NAME "/%u", i);
		if (IS_ERR(t->task)) {
			err = PTR_ERR(t->task);
			t->task = NULL;
			goto out_stop;
		}
		/* One CPU per thread, round robin: no two share one by chance. */
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		kthread_bind(t->task, cpu);
		get_task_struct(t->task);
		wake_up_process(t->task);
		started++;
	}

	run->start_ns = ktime_get_ns();
	run->deadline_ns = run->start_ns + (u64)p->seconds * NSEC_PER_SEC;
	complete_all(&run->start);
	wait_for_completion(&run->done);
	bench_summarise(bd, run);

out_stop:
	if (err) {
		/*
		 * Threads already started wait on start: let them through with
		 * a deadline in the past and nothing to do.
		 */
		run->p.iterations = 0;
		run->deadline_ns = 0;
		atomic_sub(p->threads - started, &run->running);
		complete_all(&run->start);
		if (started)
			wait_for_completion(&run->done);
	}
	for (i = 0; i < p->threads; i++) {
		struct bench_thread *t = &run->threads[i];

		if (t->task) {
			kthread_stop(t->task);
			put_task_struct(t->task);
		}
		if (t->buf)
			free_pages_exact(t->buf, (size_t)p->pages * PAGE_SIZE);
	}
	kfree(run);
	return err;
}

static ssize_t bench_run_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct bench_dev *bd = file->private_data;
	struct bench_params p;
	char *line;
	int err;

	if (count > 256)
		return -EINVAL;
	line = memdup_user_nul(ubuf, count);
	if (IS_ERR(line))
		return PTR_ERR(line);
	err = bench_parse(line, &p);
	kfree(line);
	if (err)
		return err;

	if (mutex_lock_interruptible(&bd->lock))
		return -EINTR;
	err = bench_run(bd, &p);
	mutex_unlock(&bd->lock);
	return err ? err : count;
}

static ssize_t bench_run_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct bench_dev *bd = file->private_data;
	ssize_t ret;

	mutex_lock(&bd->lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, bd->result,
				      strlen(bd->result));
	mutex_unlock(&bd->lock);
	return ret;
}

static const struct file_operations bench_run_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = bench_run_read,
	.write = bench_run_write,
	.llseek = default_llseek,
};

static int bench_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct bench_dev *bd;
	int err;

	if (dma_bits < 24 || dma_bits > 64)
		return -EINVAL;
	bd = devm_kzalloc(&pdev->dev, sizeof(*bd), GFP_KERNEL);
	if (!bd)
		return -ENOMEM;
	bd->pdev = pdev;
	bd->dev = &pdev->dev;
	mutex_init(&bd->lock);
	strscpy(bd->result, "no run yet\n", sizeof(bd->result));

	err = pcim_enable_device(pdev);
	if (err)
		return err;
	err = dma_set_mask_and_coherent(bd->dev, DMA_BIT_MASK(dma_bits));
	if (err) {
		dev_err(bd->dev, "cannot set a %u-bit DMA mask: %d\n",
			dma_bits, err);
		return err;
	}
	pci_set_drvdata(pdev, bd);
	/* Only one edu is expected; a second gets no debugfs file. */
	bd->run_file = debugfs_create_file("run", 0600, bench_debugfs_root, bd,
				      &bench_run_fops);
	dev_info(bd->dev, "%s path, %u-bit mask\n",
		 bench_path_direct(bd->dev) ? "direct" : "iommu", dma_bits);
	return 0;
}

static void bench_remove(struct pci_dev *pdev)
{
	struct bench_dev *bd = pci_get_drvdata(pdev);

	/* Waits for a run in progress: it holds the file. */
	debugfs_remove(bd->run_file);
}

static const struct pci_device_id bench_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },
	{ }
};
MODULE_DEVICE_TABLE(pci, bench_ids);

static struct pci_driver bench_driver = {
	.name = DRV_NAME,
	.id_table = bench_ids,
	.probe = bench_probe,
	.remove = bench_remove,
};

static int __init bench_init(void)
{
	int err;

	bench_debugfs_root = debugfs_create_dir(DRV_NAME, NULL);
	debugfs_create_file("primitives", 0600, bench_debugfs_root, NULL,
			    &bench_primitives_fops);
	err = pci_register_driver(&bench_driver);
	if (err)
		debugfs_remove_recursive(bench_debugfs_root);
	return err;
}

static void __exit bench_exit(void)
{
	pci_unregister_driver(&bench_driver);
	debugfs_remove_recursive(bench_debugfs_root);
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("edgedma benchmark: dma_map_single/dma_unmap_single pairs on QEMU's edu");
