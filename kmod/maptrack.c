// SPDX-License-Identifier: GPL-2.0
/*
 * The live mapping table and the history of recent unmaps.
 *
 * Mappings live in a hash table keyed by (device, DMA address granule).
 * Each bucket has its own raw spinlock, so two CPUs mapping at once only
 * meet when they hash to the same bucket; there is no table-wide lock. The
 * entries come from a pool allocated at load and handed out through a
 * bitmap, so the hook path never allocates. Unmaps are remembered per CPU,
 * in rings that only that CPU's hooks write, to explain a later double
 * unmap or fault. Each slot of a ring has a sequence count instead of the
 * ring a lock: the writer pays two plain stores, and a reader copies a slot
 * and keeps the copy only if no write began meanwhile. Readers never wait
 * for a writer (a panic may have stopped it): a slot being rewritten as
 * they read it is left out, and a walk says it saw less than the whole.
 *
 * The hook path (add, remove, the searches) runs with interrupts off, which
 * edgedma_track_call() guarantees, so it takes the locks without saving
 * and restoring the interrupt state once more: under emulation each
 * restore ends a translation block. The process-context walks save it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "compat.h"
#include "devices.h"
#include "edgedma.h"
#include "maptrack.h"

static unsigned int pool_size = 32768;
module_param(pool_size, uint, 0444);
MODULE_PARM_DESC(pool_size, "Live mappings edgedma can track, 1 to 16777216 (default 32768)");

static bool track_mappings = true;
module_param(track_mappings, bool, 0444);
MODULE_PARM_DESC(track_mappings, "Keep the table of live mappings (default Y); N leaves out every check that needs it (unmap, sync, leak, cache-line neighbour and device-owned writes) and the mappings view: what make bench measures the table's cost with");
DEFINE_STATIC_KEY_TRUE(edgedma_tracking_mappings);

static unsigned int history_size = 256;
module_param(history_size, uint, 0444);
MODULE_PARM_DESC(history_size, "Recent unmaps remembered per CPU, 0 to 65536 (default 256)");

static unsigned int table_buckets;
module_param(table_buckets, uint, 0444);
MODULE_PARM_DESC(table_buckets, "Buckets of the live-mapping table, a power of two from 1 to 4194304 (32768 on 32-bit); 0 (default): one per two entries of pool_size, at least 16");

/* The position of a walk keeps the bucket above 16 bits of entry number. */
#define EDGEDMA_TABLE_BUCKETS_MAX	(BITS_PER_LONG == 64 ? 1U << 22 : 1U << 15)
static unsigned int edgedma_table_bits __read_mostly;

/*
 * Size classes bound the work of a containment search, which runs with
 * interrupts off: a mapping is filed under the granule of its start in the
 * smallest class whose granule is at least 1/16 of its size, so a search
 * steps back at most 17 granules per class that holds anything. Mappings
 * beyond the last class (over 1 TiB) are searched 32 granules back.
 */
static const u8 edgedma_class_shift[] = { 13, 19, 26, 36 };	/* 8K 512K 64M 64G */
#define EDGEDMA_CLASSES		ARRAY_SIZE(edgedma_class_shift)
#define EDGEDMA_CLASS_SPAN	16
#define EDGEDMA_MAX_STEPS	32

struct edgedma_bucket {
	raw_spinlock_t lock;
	struct hlist_head head;
};

struct edgedma_history_slot {
	seqcount_t seq;
	struct edgedma_unmapped u;
};

struct edgedma_history {
	unsigned int next;		/* this CPU's hooks only */
	struct edgedma_history_slot *ring;
};

static struct edgedma_bucket *edgedma_buckets;
static struct edgedma_mapping *edgedma_pool;
static unsigned long *edgedma_pool_used;
static struct edgedma_history *edgedma_histories;
static struct edgedma_history_slot *edgedma_history_ring;

static DEFINE_PER_CPU(unsigned int, edgedma_pool_hint);

/*
 * Entries this CPU's hooks freed, kept for its next maps: a driver maps and
 * unmaps on one CPU in bursts, and an entry from here costs a few loads and
 * stores where the bitmap costs a search and an atomic. Their bits stay
 * set: at most EDGEDMA_POOL_CACHE entries per CPU are out of the other
 * CPUs' reach. Hook context only (interrupts off, so one user at a time).
 */
#define EDGEDMA_POOL_CACHE	16
struct edgedma_pool_cache {
	unsigned int count;
	unsigned int idx[EDGEDMA_POOL_CACHE];
};
static DEFINE_PER_CPU(struct edgedma_pool_cache, edgedma_pool_caches);
static DEFINE_PER_CPU(s64, edgedma_live);
static DEFINE_PER_CPU(u64, edgedma_exhausted);
/* Entries dropped because their address was mapped again: unmaps missed. */
static DEFINE_PER_CPU(u64, edgedma_stale);
/* Adds and removes, for dumps to tell whether the table changed under them. */
static DEFINE_PER_CPU(u64, edgedma_changes);
/* Largest mapping seen per class, bounding how far a search looks. */
static u64 edgedma_largest[EDGEDMA_CLASSES];

static unsigned int edgedma_class_of(u64 size)
{
	unsigned int c;

	for (c = 0; c < EDGEDMA_CLASSES - 1; c++)
		if (size <= (u64)EDGEDMA_CLASS_SPAN << edgedma_class_shift[c])
			break;
	return c;
}

static struct edgedma_bucket *edgedma_bucket_of(struct edgedma_devrec *rec,
						unsigned int class, u64 granule)
{
	u64 key = (u64)(unsigned long)rec ^ ((granule * EDGEDMA_CLASSES + class) *
					     GOLDEN_RATIO_64);

	/* hash_64(key, bits) in two steps: one bucket is bits 0, a shift by 64. */
	return &edgedma_buckets[(u64)hash_64(key, 32) >> (32 - edgedma_table_bits)];
}

static struct edgedma_bucket *edgedma_bucket_at(struct edgedma_devrec *rec,
						unsigned int class, u64 dma_addr)
{
	return edgedma_bucket_of(rec, class, dma_addr >> edgedma_class_shift[class]);
}

u64 edgedma_maptrack_generation(void)
{
	return edgedma_percpu_sum(edgedma_changes);
}

static struct edgedma_mapping *edgedma_pool_get(void)
{
	struct edgedma_pool_cache *cache = this_cpu_ptr(&edgedma_pool_caches);
	unsigned int hint;
	unsigned long idx;
	int tries;

	if (cache->count)
		return &edgedma_pool[cache->idx[--cache->count]];
	hint = __this_cpu_read(edgedma_pool_hint);
	for (tries = 0; tries < 4; tries++) {
		idx = find_next_zero_bit(edgedma_pool_used, pool_size, hint);
		if (idx >= pool_size)
			idx = find_first_zero_bit(edgedma_pool_used, pool_size);
		if (idx >= pool_size)
			break;
		if (!test_and_set_bit(idx, edgedma_pool_used)) {
			__this_cpu_write(edgedma_pool_hint, idx + 1);
			return &edgedma_pool[idx];
		}
		hint = idx + 1;
	}
	__this_cpu_inc(edgedma_exhausted);
	return NULL;
}

static void edgedma_pool_put(struct edgedma_mapping *m)
{
	clear_bit(m - edgedma_pool, edgedma_pool_used);
}

/* edgedma_pool_put() from the hooks: into this CPU's cache while it has room. */
static void edgedma_pool_put_hook(struct edgedma_mapping *m)
{
	struct edgedma_pool_cache *cache = this_cpu_ptr(&edgedma_pool_caches);

	if (cache->count < EDGEDMA_POOL_CACHE) {
		cache->idx[cache->count++] = m - edgedma_pool;
		return;
	}
	edgedma_pool_put(m);
}

struct edgedma_mapping *edgedma_maptrack_new(void)
{
	lockdep_assert_irqs_disabled();
	return edgedma_pool_get();
}

void edgedma_maptrack_insert(struct edgedma_mapping *m, bool addr_unique)
{
	unsigned int class = edgedma_class_of(m->size), c;
	struct edgedma_mapping *old;
	struct hlist_node *next;
	struct edgedma_bucket *b;
	HLIST_HEAD(stale);
	u64 largest;

	lockdep_assert_irqs_disabled();
	INIT_HLIST_NODE(&m->node);

	largest = READ_ONCE(edgedma_largest[class]);
	while (m->size > largest) {
		u64 seen = cmpxchg64(&edgedma_largest[class], largest, m->size);

		if (seen == largest)
			break;
		largest = seen;
	}

	/*
	 * The address is live once only: what the table still holds at it is
	 * a mapping whose unmap the hooks missed. Left in, it would be taken
	 * for this one at its unmap (an unmap looks in the class of its own
	 * size first). Every class that holds anything, one bucket each; the
	 * mapping's own class under the lock it is added under.
	 */
	for (c = 0; addr_unique && c < EDGEDMA_CLASSES; c++) {
		if (c != class && !READ_ONCE(edgedma_largest[c]))
			continue;
		b = edgedma_bucket_at(m->devrec, c, m->dma_addr);
		raw_spin_lock(&b->lock);
		hlist_for_each_entry_safe(old, next, &b->head, node) {
			/*
			 * Two classes' buckets of one address can be one
			 * bucket (the hash's chance, or table_buckets=1): the
			 * entry added in its own class's turn is met again.
			 */
			if (old != m && old->devrec == m->devrec &&
			    old->dma_addr == m->dma_addr) {
				hlist_del(&old->node);
				hlist_add_head(&old->node, &stale);
			}
		}
		if (c == class)
			hlist_add_head(&m->node, &b->head);
		raw_spin_unlock(&b->lock);
	}
	if (!addr_unique) {
		b = edgedma_bucket_at(m->devrec, class, m->dma_addr);
		raw_spin_lock(&b->lock);
		hlist_add_head(&m->node, &b->head);
		raw_spin_unlock(&b->lock);
	}
	__this_cpu_inc(edgedma_live);
	__this_cpu_inc(edgedma_changes);
	edgedma_devrec_count_irqs_off(m->devrec, EDGEDMA_DEV_LIVE, 1);
	hlist_for_each_entry_safe(old, next, &stale, node) {
		hlist_del(&old->node);
		edgedma_pool_put_hook(old);
		__this_cpu_dec(edgedma_live);
		__this_cpu_inc(edgedma_stale);
		edgedma_devrec_count_irqs_off(m->devrec, EDGEDMA_DEV_LIVE, -1);
	}
}

static void edgedma_history_add(const struct edgedma_mapping *m,
				unsigned long unmap_caller, u64 unmap_time_ns)
{
	struct edgedma_history_slot *slot;
	struct edgedma_history *h;
	struct edgedma_unmapped *u;

	if (!history_size)
		return;
	/* Interrupts are off: nothing else on this CPU writes its ring. */
	h = &edgedma_histories[raw_smp_processor_id()];
	slot = &h->ring[h->next];
	/* Not a modulo: a division is dozens of cycles on the cores edgedma runs on. */
	h->next = h->next + 1 < history_size ? h->next + 1 : 0;
	raw_write_seqcount_begin(&slot->seq);
	u = &slot->u;
	u->devrec = m->devrec;
	u->dma_addr = m->dma_addr;
	u->size = m->size;
	u->phys = m->phys;
	u->map_time_ns = m->time_ns;
	u->unmap_time_ns = unmap_time_ns;
	u->map_caller = m->caller;
	u->unmap_caller = unmap_caller;
	u->kind = m->kind;
	u->dir = m->dir;
	raw_write_seqcount_end(&slot->seq);
}

/*
 * Copies @slot into @out unless its writer is in the middle of it; a few
 * tries, never a wait. False: the slot was being rewritten each time.
 */
static bool edgedma_history_read(const struct edgedma_history_slot *slot,
				 struct edgedma_unmapped *out)
{
	unsigned int tries, seq;

	for (tries = 0; tries < 4; tries++) {
		seq = raw_read_seqcount(&slot->seq);
		if (!(seq & 1)) {
			*out = slot->u;
			if (!read_seqcount_retry(&slot->seq, seq))
				return true;
		}
		cpu_relax();
	}
	return false;
}

/* How well @m fits an unmap described by @want: size, direction, kind. */
static int edgedma_unmap_fit(const struct edgedma_mapping *m,
			     const struct edgedma_unmap_want *want)
{
	return (!want->size || m->size == want->size) +
	       (m->dir == want->dir) + (m->kind == want->kind);
}

struct edgedma_mapping *edgedma_maptrack_take(struct edgedma_devrec *rec, u64 dma_addr,
					      const struct edgedma_unmap_want *want,
					      unsigned long unmap_caller, u64 unmap_time_ns)
{
	/* The class the unmap's size points at first, then the others. */
	unsigned int first = edgedma_class_of(want->size), i;
	struct edgedma_mapping *m, *found = NULL;

	lockdep_assert_irqs_disabled();
	for (i = 0; i < EDGEDMA_CLASSES && !found; i++) {
		unsigned int class = i ? i - (i <= first) : first;
		struct edgedma_bucket *b;
		int best = -1;

		if (i && !READ_ONCE(edgedma_largest[class]))
			continue;
		b = edgedma_bucket_at(rec, class, dma_addr);
		raw_spin_lock(&b->lock);
		hlist_for_each_entry(m, &b->head, node) {
			int fit;

			if (m->devrec != rec || m->dma_addr != dma_addr)
				continue;
			fit = edgedma_unmap_fit(m, want);
			if (fit > best) {
				best = fit;
				found = m;
			}
			if (fit == 3)
				break;
		}
		if (found)
			hlist_del(&found->node);
		raw_spin_unlock(&b->lock);
	}
	if (!found)
		return NULL;
	__this_cpu_dec(edgedma_live);
	__this_cpu_inc(edgedma_changes);
	edgedma_devrec_count_irqs_off(rec, EDGEDMA_DEV_LIVE, -1);
	/* Remembered now: a snapshot of a finding about the unmap shows it. */
	edgedma_history_add(found, unmap_caller, unmap_time_ns);
	return found;
}

void edgedma_maptrack_release(struct edgedma_mapping *m)
{
	lockdep_assert_irqs_disabled();
	edgedma_pool_put_hook(m);
}

/* Run @update on @rec's mapping at @dma_addr of @size, under its bucket's lock. */
/* Inlined: each caller's @update is a direct call, not one through a pointer. */
static __always_inline void
edgedma_maptrack_update(struct edgedma_devrec *rec, u64 dma_addr, u64 size,
			void (*update)(struct edgedma_mapping *m, const u64 *v), const u64 *v)
{
	struct edgedma_bucket *b;
	struct edgedma_mapping *m;

	lockdep_assert_irqs_disabled();
	b = edgedma_bucket_at(rec, edgedma_class_of(size), dma_addr);
	raw_spin_lock(&b->lock);
	hlist_for_each_entry(m, &b->head, node) {
		if (m->devrec == rec && m->dma_addr == dma_addr && m->size == size) {
			update(m, v);
			break;
		}
	}
	raw_spin_unlock(&b->lock);
}

static void edgedma_update_neighbours(struct edgedma_mapping *m, const u64 *v)
{
	m->neighbours = v[0];
	m->neighbours_ns = v[1];
}

void edgedma_maptrack_set_neighbours(struct edgedma_devrec *rec, u64 dma_addr,
				     u64 size, u64 sum, u64 time_ns)
{
	const u64 v[] = { sum, time_ns };

	edgedma_maptrack_update(rec, dma_addr, size, edgedma_update_neighbours, v);
}

static void edgedma_update_content(struct edgedma_mapping *m, const u64 *v)
{
	m->content.hash = v[0];
	m->content.parts = v[1];
	m->content.len = v[2];
	m->content_ns = v[3];
}

void edgedma_maptrack_set_content(struct edgedma_devrec *rec, u64 dma_addr, u64 size,
				  const struct edgedma_owned_bytes *content, u64 time_ns)
{
	const u64 v[] = {
		content ? content->hash : 0,
		content ? content->parts : 0,
		content ? content->len : 0,
		time_ns,
	};

	edgedma_maptrack_update(rec, dma_addr, size, edgedma_update_content, v);
}

/* Search one class's granules downwards from @addr. */
static bool edgedma_search_class(struct edgedma_devrec *rec, unsigned int class,
				 u64 addr, u64 size, bool contain, bool trylock,
				 struct edgedma_mapping *out)
{
	unsigned int shift = edgedma_class_shift[class];
	u64 largest = READ_ONCE(edgedma_largest[class]);
	u64 granule = addr >> shift;
	u64 steps, i;

	if (!largest)
		return false;
	steps = min_t(u64, (largest >> shift) + 1, EDGEDMA_MAX_STEPS);
	for (i = 0; i <= steps && i <= granule; i++) {
		struct edgedma_bucket *b = edgedma_bucket_of(rec, class, granule - i);
		struct edgedma_mapping *m;
		bool hit = false;

		if (!trylock)
			raw_spin_lock(&b->lock);
		else if (!raw_spin_trylock(&b->lock))
			continue;	/* the caller may be the CPU holding it */
		hlist_for_each_entry(m, &b->head, node) {
			if (m->devrec != rec || addr < m->dma_addr ||
			    addr >= m->dma_addr + m->size)
				continue;
			if (contain && addr + size > m->dma_addr + m->size)
				continue;
			*out = *m;
			hit = true;
			break;
		}
		raw_spin_unlock(&b->lock);
		if (hit)
			return true;
	}
	return false;
}

static bool edgedma_search(struct edgedma_devrec *rec, u64 addr, u64 size,
			   bool contain, bool trylock, struct edgedma_mapping *out)
{
	unsigned int class;

	lockdep_assert_irqs_disabled();
	for (class = 0; class < EDGEDMA_CLASSES; class++)
		if (edgedma_search_class(rec, class, addr, size, contain,
					 trylock, out))
			return true;
	return false;
}

bool edgedma_maptrack_find_containing(struct edgedma_devrec *rec, u64 addr,
				      u64 size, struct edgedma_mapping *out)
{
	return edgedma_search(rec, addr, size, true, false, out);
}

bool edgedma_maptrack_find_overlapping(struct edgedma_devrec *rec, u64 addr,
				       struct edgedma_mapping *out)
{
	return edgedma_search(rec, addr, 1, false, false, out);
}

bool edgedma_maptrack_find_overlapping_try(struct edgedma_devrec *rec, u64 addr,
					   bool trylock, struct edgedma_mapping *out)
{
	unsigned long flags;
	bool found;

	local_irq_save(flags);
	found = edgedma_search(rec, addr, 1, false, trylock, out);
	local_irq_restore(flags);
	return found;
}

bool edgedma_maptrack_history_find(struct edgedma_devrec *rec, u64 dma_addr,
				   struct edgedma_unmapped *out)
{
	bool found = false;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct edgedma_history *h = &edgedma_histories[cpu];
		unsigned int i;

		for (i = 0; i < history_size; i++) {
			struct edgedma_unmapped copy;

			/* A first look without the copy: most slots are other addresses. */
			if (data_race(h->ring[i].u.dma_addr) != dma_addr ||
			    !edgedma_history_read(&h->ring[i], &copy) ||
			    copy.devrec != rec || copy.dma_addr != dma_addr)
				continue;
			if (!found || copy.unmap_time_ns > out->unmap_time_ns) {
				*out = copy;
				found = true;
			}
		}
	}
	return found;
}

/* *pos: bucket index in the high bits, entry number in the low 16. */
void edgedma_maptrack_walk(unsigned long *pos, edgedma_mapping_fn fn, void *arg)
{
	unsigned long bucket = *pos >> 16, skip = *pos & 0xffff;

	for (; bucket < (1UL << edgedma_table_bits); bucket++, skip = 0) {
		struct edgedma_bucket *b = &edgedma_buckets[bucket];
		struct edgedma_mapping *m, copy;
		unsigned long n = 0, flags;

		for (;;) {
			bool have = false;

			raw_spin_lock_irqsave(&b->lock, flags);
			n = 0;
			hlist_for_each_entry(m, &b->head, node) {
				if (n++ == skip) {
					copy = *m;
					have = true;
					break;
				}
			}
			raw_spin_unlock_irqrestore(&b->lock, flags);
			if (!have)
				break;
			if (!fn(&copy, arg)) {
				*pos = (bucket << 16) | skip;
				return;
			}
			skip++;
		}
	}
	*pos = bucket << 16;
}

/*
 * The next entry of @rec in bucket @b after the first @skip of them, copied
 * into @out under the bucket's lock. -EBUSY: @trylock and the lock was held.
 */
static int edgedma_bucket_nth(struct edgedma_bucket *b,
			      const struct edgedma_devrec *rec,
			      unsigned long skip, bool trylock,
			      struct edgedma_mapping *out)
{
	struct edgedma_mapping *m;
	unsigned long n = 0, flags;
	int found = -ENOENT;

	if (trylock) {
		if (!raw_spin_trylock_irqsave(&b->lock, flags))
			return -EBUSY;
	} else {
		raw_spin_lock_irqsave(&b->lock, flags);
	}
	hlist_for_each_entry(m, &b->head, node) {
		if ((rec && m->devrec != rec) || n++ != skip)
			continue;
		*out = *m;
		found = 0;
		break;
	}
	raw_spin_unlock_irqrestore(&b->lock, flags);
	return found;
}

bool edgedma_maptrack_walk_device(const struct edgedma_devrec *rec, bool trylock,
				  edgedma_mapping_fn fn, void *arg)
{
	bool whole = true;
	unsigned long i;

	for (i = 0; i < (1UL << edgedma_table_bits); i++) {
		struct edgedma_mapping copy;
		unsigned long skip;
		int err;

		for (skip = 0;; skip++) {
			err = edgedma_bucket_nth(&edgedma_buckets[i], rec, skip,
						 trylock, &copy);
			if (err)
				break;
			if (!fn(&copy, arg))
				return whole;
		}
		if (err == -EBUSY)
			whole = false;
	}
	return whole;
}

bool edgedma_maptrack_history_walk(const struct edgedma_devrec *rec,
				   bool (*fn)(const struct edgedma_unmapped *u,
					      void *arg),
				   void *arg)
{
	bool whole = true;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct edgedma_history *h = &edgedma_histories[cpu];
		unsigned int i;

		for (i = 0; i < history_size; i++) {
			struct edgedma_unmapped copy;
			bool mine;

			if (!edgedma_history_read(&h->ring[i], &copy)) {
				whole = false;
				continue;
			}
			mine = copy.devrec == rec && copy.unmap_time_ns;
			if (mine && !fn(&copy, arg))
				return whole;
		}
	}
	return whole;
}

bool edgedma_maptrack_history_kept(void)
{
	return history_size;
}

/*
 * Matching entries leave their bucket under its lock and are handed to @fn
 * after it is dropped, with interrupts on: @fn may ask an IOMMU driver for a
 * translation, and on PREEMPT_RT that may sleep.
 */
void edgedma_maptrack_drain(bool (*match)(const struct edgedma_mapping *m,
					  const void *key),
			    const void *key,
			    void (*fn)(const struct edgedma_mapping *m))
{
	unsigned long i;

	might_sleep_if(fn);
	for (i = 0; i < (1UL << edgedma_table_bits); i++) {
		struct edgedma_bucket *b = &edgedma_buckets[i];
		struct edgedma_mapping *m;
		struct hlist_node *tmp;
		HLIST_HEAD(drained);
		unsigned long flags;

		raw_spin_lock_irqsave(&b->lock, flags);
		hlist_for_each_entry_safe(m, tmp, &b->head, node) {
			if (!match(m, key))
				continue;
			hlist_del(&m->node);
			hlist_add_head(&m->node, &drained);
		}
		raw_spin_unlock_irqrestore(&b->lock, flags);

		hlist_for_each_entry_safe(m, tmp, &drained, node) {
			hlist_del(&m->node);
			if (fn)
				fn(m);
			edgedma_devrec_count(m->devrec, EDGEDMA_DEV_LIVE, -1);
			edgedma_pool_put(m);
			this_cpu_dec(edgedma_live);
			this_cpu_inc(edgedma_changes);
		}
	}
}

u64 edgedma_maptrack_live(void)
{
	s64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(edgedma_live, cpu);
	return sum > 0 ? sum : 0;
}

u64 edgedma_maptrack_pool_size(void)
{
	return pool_size;
}

u64 edgedma_maptrack_exhausted(void)
{
	return edgedma_percpu_sum(edgedma_exhausted);
}

u64 edgedma_maptrack_stale(void)
{
	return edgedma_percpu_sum(edgedma_stale);
}

size_t edgedma_maptrack_memory(void)
{
	unsigned int pool = max(pool_size, 1U);

	return (1UL << edgedma_table_bits) * sizeof(*edgedma_buckets) +
	       pool * sizeof(*edgedma_pool) +
	       BITS_TO_LONGS(pool) * sizeof(unsigned long) +
	       nr_cpu_ids * sizeof(*edgedma_histories) +
	       (size_t)nr_cpu_ids * max(history_size, 1U) *
	       sizeof(*edgedma_history_ring);
}

int __init edgedma_maptrack_init(void)
{
	unsigned long i;
	int cpu, err;

	err = edgedma_param_check("pool_size", pool_size, 1, 1U << 24) ?:
	      edgedma_param_check("history_size", history_size, 0, 65536) ?:
	      edgedma_param_check("table_buckets", table_buckets, 0,
				  EDGEDMA_TABLE_BUCKETS_MAX);
	if (err)
		return err;
	if (table_buckets && !is_power_of_2(table_buckets)) {
		pr_err("table_buckets=%u is not a power of two\n", table_buckets);
		return -EINVAL;
	}
	edgedma_table_bits = ilog2(table_buckets ?:
		min_t(unsigned long, roundup_pow_of_two(max(pool_size / 2, 16U)),
		      EDGEDMA_TABLE_BUCKETS_MAX));

	edgedma_buckets = kvcalloc(1UL << edgedma_table_bits,
				   sizeof(*edgedma_buckets), GFP_KERNEL);
	edgedma_pool = kvcalloc(max(pool_size, 1U), sizeof(*edgedma_pool),
				GFP_KERNEL);
	edgedma_pool_used = bitmap_zalloc(max(pool_size, 1U), GFP_KERNEL);
	edgedma_histories = kvcalloc(nr_cpu_ids, sizeof(*edgedma_histories),
				     GFP_KERNEL);
	edgedma_history_ring = kvcalloc((size_t)nr_cpu_ids * max(history_size, 1U),
					sizeof(*edgedma_history_ring), GFP_KERNEL);
	if (!edgedma_buckets || !edgedma_pool || !edgedma_pool_used ||
	    !edgedma_histories || !edgedma_history_ring) {
		edgedma_maptrack_exit();
		return -ENOMEM;
	}
	for (i = 0; i < (1UL << edgedma_table_bits); i++) {
		raw_spin_lock_init(&edgedma_buckets[i].lock);
		INIT_HLIST_HEAD(&edgedma_buckets[i].head);
	}
	for (i = 0; i < (size_t)nr_cpu_ids * max(history_size, 1U); i++)
		seqcount_init(&edgedma_history_ring[i].seq);
	for_each_possible_cpu(cpu)
		edgedma_histories[cpu].ring =
			&edgedma_history_ring[(size_t)cpu * max(history_size, 1U)];
	if (!track_mappings) {
		static_branch_disable(&edgedma_tracking_mappings);
		pr_info("track_mappings=N: no table of live mappings; the unmap, sync, leak, neighbour-write and device-owned-write checks are off\n");
	}
	return 0;
}

void edgedma_maptrack_exit(void)
{
	kvfree(edgedma_history_ring);
	kvfree(edgedma_histories);
	bitmap_free(edgedma_pool_used);
	kvfree(edgedma_pool);
	kvfree(edgedma_buckets);
	edgedma_history_ring = NULL;
	edgedma_histories = NULL;
	edgedma_pool_used = NULL;
	edgedma_pool = NULL;
	edgedma_buckets = NULL;
}
