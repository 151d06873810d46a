// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping-event stream: every DMA-mapping call, not only the unsafe
 * ones, for `edgedma record`. Off at load; while off the hooks pay one
 * patched-out branch.
 *
 * Each CPU fills a ring of its own, preallocated at load, from hook context
 * with interrupts off, so the producer needs no lock and no atomic. Each CPU
 * also numbers its events, dropped ones included, under a seqcount so that
 * a reader gets the number and the drop count of one moment. A single
 * sender (a delayed work item, or the SET command) empties the rings into
 * "map-events" multicast messages, every period or as soon as a ring is
 * half full (an irq_work brings the work forward: a CPU mapping flat out
 * fills a ring long before the period ends); the rings are single-producer,
 * single-consumer with release/acquire on their indexes. The work item
 * runs on a queue of its own (edgedma_map_events_wq: why, there). An
 * event the sender cannot send (no memory for a message) keeps its seq and
 * counts as dropped.
 *
 * The rings' slots are allocated when the stream is first turned on
 * (process context, under the lock) and kept until the module unloads: a
 * module that is never recorded holds none, and a recording gets rings
 * deep enough to ride out a late sender (the default: 16384 events, 1.25
 * MiB per CPU; at 1024 the x86_64 ingest bench, one CPU mapping flat out,
 * lost 30% of the events to full rings, none at 16384). They are not freed
 * when the stream goes off: on arm64 guests (5.10 and 6.1) a producer
 * still wrote into them after the branch was patched out and an RCU grace
 * period had passed, and found them freed (an oops in about one of four
 * integration runs whose recordings start and stop while a driver maps);
 * why that producer still saw the branch is not known. The seqs and drop
 * counts stay from one recording to the next.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <net/netlink.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "edgedma.h"
#include "map_events.h"
#include "netlink.h"

static unsigned int map_event_buffer = 16384;
module_param(map_event_buffer, uint, 0444);
MODULE_PARM_DESC(map_event_buffer,
		 "Mapping events each CPU buffers while the stream is on (80 bytes each, allocated when it is turned on), 16 to 1048576 (default 16384, rounded up to a power of two)");

/* How often the sender empties the rings while the stream is on. */
#define EDGEDMA_MAP_EVENTS_PERIOD	msecs_to_jiffies(10)

struct edgedma_map_event {
	u64 seq;
	u64 time_ns;
	u64 dma_addr;
	u64 size;
	u64 phys;
	u64 attrs;
	unsigned long caller;
	struct edgedma_devrec *rec;	/* never freed while loaded */
	u32 kind;
	u32 dir;
	u32 nents;
};

struct edgedma_map_event_ring {
	struct edgedma_map_event *slots;	/* from the first recording on */
	unsigned int head;		/* written by this CPU only */
	unsigned int tail;		/* written by the sender only */
	seqcount_t count_seq;		/* guards next_seq and dropped */
	u64 next_seq;
	u64 dropped;			/* ring full */
	u64 unsent;			/* written by the sender only */
};

DEFINE_STATIC_KEY_FALSE(edgedma_map_events_on);

static DEFINE_PER_CPU(struct edgedma_map_event_ring, edgedma_map_event_rings);
static unsigned int edgedma_ring_mask;
static DEFINE_MUTEX(edgedma_map_events_lock);	/* the sender, on/off */
static bool edgedma_map_events_enabled;
static bool edgedma_map_events_slots_held;	/* under the lock */

/*
 * The sender's own queue: unbound (queued from the hook, a bound work item
 * ran on the CPU filling the ring, behind the very thread mapping flat
 * out) and high-priority (at nice 0 it shared its CPU with the consumers
 * it feeds, and fell behind a slow one: x86_64 ingest bench, a plain recv
 * consumer beside the io_uring one).
 */
static struct workqueue_struct *edgedma_map_events_wq;

static void edgedma_map_events_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(edgedma_map_events_work, edgedma_map_events_work_fn);

static void edgedma_map_events_kick_fn(struct irq_work *work)
{
	mod_delayed_work(edgedma_map_events_wq, &edgedma_map_events_work, 0);
}

static struct irq_work edgedma_map_events_kick;

/* sg calls: the first mapped segment's address and the segments' total. */
static void edgedma_map_event_sg(const struct edgedma_call *call,
				 struct edgedma_map_event *ev)
{
	int count = call->kind == EDGEDMA_CALL_MAP_SG ? call->mapped_nents : call->nents;
	struct scatterlist *sg;
	int i;

	ev->nents = count > 0 ? count : 0;
	for_each_sg(call->sgl, sg, count, i) {
		if (!sg_dma_len(sg))
			break;
		if (!i)
			ev->dma_addr = sg_dma_address(sg);
		ev->size += sg_dma_len(sg);
	}
}

void __edgedma_map_event_record(const struct edgedma_call *call,
				struct edgedma_devrec *rec, u64 time_ns)
{
	struct edgedma_map_event_ring *ring = this_cpu_ptr(&edgedma_map_event_rings);
	unsigned int head = ring->head;
	/* Pairs with the sender's release: the slots it freed are free. */
	unsigned int used = head - smp_load_acquire(&ring->tail);
	struct edgedma_map_event *ev;
	bool full;

	full = used > edgedma_ring_mask;

	write_seqcount_begin(&ring->count_seq);
	if (full) {
		ring->next_seq++;
		ring->dropped++;
		write_seqcount_end(&ring->count_seq);
		return;
	}
	ev = &ring->slots[head & edgedma_ring_mask];
	*ev = (struct edgedma_map_event) {
		.seq = ring->next_seq++,
		.time_ns = time_ns ?: ktime_get_ns(),
		.dma_addr = call->dma_addr,
		.size = call->size,
		.phys = call->phys,
		.attrs = call->attrs,
		.caller = call->caller,
		.rec = rec,
		.kind = call->kind,
		.dir = call->dir,
	};
	if (call->sgl)
		edgedma_map_event_sg(call, ev);
	/* The sender reads the slot only after it sees the new head. */
	smp_store_release(&ring->head, head + 1);
	write_seqcount_end(&ring->count_seq);
	/* Once per filling: the event that makes the ring half full. */
	if (used + 1 == (edgedma_ring_mask + 1) / 2)
		irq_work_queue(&edgedma_map_events_kick);
}

/*
 * The most one event takes in a message: the nest, seven 64-bit values (each
 * with room for a pad attribute before it), four 32-bit values and the two
 * names.
 */
#define EDGEDMA_MAP_EVENT_ROOM						\
	(nla_total_size(0) + 7 * nla_total_size_64bit(sizeof(u64)) +	\
	 4 * nla_total_size(sizeof(u32)) + 2 * nla_total_size(EDGEDMA_NAME_LEN))

/*
 * The names of the device the last event came from: a message holds many
 * events of one device in a row, and its names are read (a seqcount loop
 * and two copies) and measured once for all of them.
 */
struct edgedma_map_event_names {
	const struct edgedma_devrec *rec;	/* NULL: none read yet */
	char name[EDGEDMA_NAME_LEN], driver[EDGEDMA_NAME_LEN];
	int name_len, driver_len;		/* with the NUL */
};

static void edgedma_map_event_names_of(struct edgedma_map_event_names *names,
				       const struct edgedma_devrec *rec)
{
	if (names->rec == rec)
		return;
	edgedma_devrec_names(rec, names->name, names->driver);
	names->name_len = strlen(names->name) + 1;
	names->driver_len = strlen(names->driver) + 1;
	names->rec = rec;
}

/*
 * An event's attributes are written in one pass into the message's
 * tailroom, checked once for the whole event: the bytes nla_put() and
 * nla_put_64bit() would write, padding zeroed and a pad attribute before a
 * 64-bit value the architecture wants aligned, but without a call, a room
 * check and a padding memset per attribute (bench/insn-profile: those were
 * most of the sender's instructions, a dozen attributes per event).
 */
static __always_inline void *edgedma_map_event_attr(u8 **at, int type, int len)
{
	struct nlattr *nla = (struct nlattr *)*at;

	nla->nla_type = type;
	nla->nla_len = nla_attr_size(len);
	*at += nla_total_size(len);
	return nla_data(nla);
}

static __always_inline void edgedma_map_event_u32(u8 **at, int type, u32 value)
{
	memcpy(edgedma_map_event_attr(at, type, sizeof(value)), &value, sizeof(value));
}

static __always_inline void edgedma_map_event_u64(u8 **at, int type, u64 value)
{
	if (!IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS) &&
	    !IS_ALIGNED((unsigned long)*at + NLA_HDRLEN, 8))
		edgedma_map_event_attr(at, EDGEDMA_A_MAP_EVENT_PAD, 0);
	memcpy(edgedma_map_event_attr(at, type, sizeof(value)), &value, sizeof(value));
}

static __always_inline void edgedma_map_event_string(u8 **at, int type,
						     const char *s, int len)
{
	u8 *data = edgedma_map_event_attr(at, type, len);

	memcpy(data, s, len);
	memset(data + len, 0, nla_padlen(len));
}

/* -EMSGSIZE: the message is full, nothing of the event is in it. */
static int edgedma_map_event_put(struct sk_buff *msg, int cpu,
				 const struct edgedma_map_event *ev,
				 struct edgedma_map_event_names *names)
{
	u8 *start = skb_tail_pointer(msg), *at;
	struct nlattr *nest = (struct nlattr *)start;

	if (skb_tailroom(msg) < EDGEDMA_MAP_EVENT_ROOM)
		return -EMSGSIZE;
	edgedma_map_event_names_of(names, ev->rec);
	at = start + NLA_HDRLEN;
	edgedma_map_event_u32(&at, EDGEDMA_A_MAP_EVENT_CPU, cpu);
	edgedma_map_event_u64(&at, EDGEDMA_A_MAP_EVENT_SEQ, ev->seq);
	edgedma_map_event_u64(&at, EDGEDMA_A_MAP_EVENT_TIME_NS, ev->time_ns);
	edgedma_map_event_u32(&at, EDGEDMA_A_MAP_EVENT_CALL, ev->kind);
	edgedma_map_event_string(&at, EDGEDMA_A_MAP_EVENT_DEVICE, names->name,
				 names->name_len);
	edgedma_map_event_string(&at, EDGEDMA_A_MAP_EVENT_DRIVER, names->driver,
				 names->driver_len);
	edgedma_map_event_u64(&at, EDGEDMA_A_MAP_EVENT_DMA_ADDR, ev->dma_addr);
	edgedma_map_event_u64(&at, EDGEDMA_A_MAP_EVENT_SIZE, ev->size);
	edgedma_map_event_u32(&at, EDGEDMA_A_MAP_EVENT_DIR, ev->dir);
	edgedma_map_event_u64(&at, EDGEDMA_A_MAP_EVENT_ATTRS, ev->attrs);
	if (ev->phys != EDGEDMA_NO_PHYS)
		edgedma_map_event_u64(&at, EDGEDMA_A_MAP_EVENT_CPU_PHYS, ev->phys);
	edgedma_map_event_u64(&at, EDGEDMA_A_MAP_EVENT_CALLER, ev->caller);
	if (ev->nents)
		edgedma_map_event_u32(&at, EDGEDMA_A_MAP_EVENT_NENTS, ev->nents);
	nest->nla_type = NLA_F_NESTED | EDGEDMA_A_MAP_EVENTS_EVENT;
	nest->nla_len = at - start;
	__skb_put(msg, at - start);
	return 0;
}

/* Send what one CPU's ring holds, as many events per message as fit. */
static void edgedma_map_events_send_cpu(int cpu, bool listened)
{
	struct edgedma_map_event_ring *ring = per_cpu_ptr(&edgedma_map_event_rings, cpu);
	unsigned int tail = ring->tail;
	unsigned int head = smp_load_acquire(&ring->head);
	struct edgedma_map_event_names names = { .rec = NULL };

	while (tail != head) {
		unsigned int first = tail;
		struct sk_buff *msg = NULL;
		void *hdr = NULL;

		/* Nobody listens: nothing is lost to anyone. */
		if (!listened) {
			tail = head;
			break;
		}
		msg = edgedma_nl_map_events_new(&hdr);
		while (msg && tail != head &&
		       !edgedma_map_event_put(msg, cpu, &ring->slots[tail & edgedma_ring_mask],
					       &names))
			tail++;
		if (!msg || tail == first) {
			if (msg)
				edgedma_nl_map_events_cancel(msg);
			WRITE_ONCE(ring->unsent, ring->unsent + (head - tail));
			tail = head;
			break;
		}
		edgedma_nl_map_events_send(msg, hdr);
	}
	smp_store_release(&ring->tail, tail);
}

/*
 * With @cursors (indexed by CPU), each CPU's cursor is taken just before
 * its ring is emptied, so every seq below it is sent or dropped on return.
 */
static void edgedma_map_events_send_all(struct edgedma_map_events_cursor *cursors)
{
	bool listened = edgedma_nl_map_events_listened();
	int cpu;

	lockdep_assert_held(&edgedma_map_events_lock);
	for_each_possible_cpu(cpu) {
		struct edgedma_map_event_ring *ring =
			per_cpu_ptr(&edgedma_map_event_rings, cpu);
		u64 unsent = ring->unsent;

		if (cursors)
			edgedma_map_events_cursor(cpu, &cursors[cpu]);
		edgedma_map_events_send_cpu(cpu, listened);
		/* Events below the cursor that could not be sent. */
		if (cursors)
			cursors[cpu].dropped += ring->unsent - unsent;
		cond_resched();
	}
}

static void edgedma_map_events_work_fn(struct work_struct *work)
{
	mutex_lock(&edgedma_map_events_lock);
	edgedma_map_events_send_all(NULL);
	if (edgedma_map_events_enabled)
		queue_delayed_work(edgedma_map_events_wq, &edgedma_map_events_work,
				   EDGEDMA_MAP_EVENTS_PERIOD);
	mutex_unlock(&edgedma_map_events_lock);
}

static void edgedma_map_events_free_slots(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct edgedma_map_event_ring *ring =
			per_cpu_ptr(&edgedma_map_event_rings, cpu);

		kvfree(ring->slots);
		ring->slots = NULL;
	}
}

static int edgedma_map_events_alloc_slots(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct edgedma_map_event_ring *ring =
			per_cpu_ptr(&edgedma_map_event_rings, cpu);

		ring->slots = kvcalloc(edgedma_ring_mask + 1, sizeof(*ring->slots),
				       GFP_KERNEL);
		if (!ring->slots) {
			edgedma_map_events_free_slots();
			return -ENOMEM;
		}
	}
	return 0;
}

int edgedma_map_events_set(enum edgedma_map_events_want want,
			   struct edgedma_map_events_cursor *cursors, bool *was)
{
	bool on;
	int err;

	mutex_lock(&edgedma_map_events_lock);
	*was = edgedma_map_events_enabled;
	on = want == EDGEDMA_MAP_EVENTS_KEEP ? *was : want == EDGEDMA_MAP_EVENTS_ON;
	if (on && !*was) {
		if (!edgedma_map_events_slots_held) {
			err = edgedma_map_events_alloc_slots();
			if (err) {
				mutex_unlock(&edgedma_map_events_lock);
				return err;
			}
			/*
			 * Every CPU past a full barrier before the branch
			 * that lets it at the new slots is patched in: a
			 * patched instruction orders no data. Kept slots were
			 * published by an earlier recording.
			 */
			synchronize_rcu();
			WRITE_ONCE(edgedma_map_events_slots_held, true);
		}
		static_branch_enable(&edgedma_map_events_on);
		WRITE_ONCE(edgedma_map_events_enabled, true);
		queue_delayed_work(edgedma_map_events_wq, &edgedma_map_events_work,
				   EDGEDMA_MAP_EVENTS_PERIOD);
	} else if (!on && *was) {
		static_branch_disable(&edgedma_map_events_on);
		WRITE_ONCE(edgedma_map_events_enabled, false);
		/* Producers run with interrupts off: wait until none is inside. */
		synchronize_rcu();
	}
	edgedma_map_events_send_all(cursors);
	mutex_unlock(&edgedma_map_events_lock);
	if (!on && *was) {
		/* A kick still pending would queue the work again. */
		irq_work_sync(&edgedma_map_events_kick);
		cancel_delayed_work_sync(&edgedma_map_events_work);
	}
	return 0;
}

void edgedma_map_events_cursor(int cpu, struct edgedma_map_events_cursor *cursor)
{
	struct edgedma_map_event_ring *ring = per_cpu_ptr(&edgedma_map_event_rings, cpu);
	unsigned int start;

	do {
		start = read_seqcount_begin(&ring->count_seq);
		cursor->next_seq = ring->next_seq;
		cursor->dropped = ring->dropped;
	} while (read_seqcount_retry(&ring->count_seq, start));
	cursor->dropped += READ_ONCE(ring->unsent);
}

void edgedma_map_events_totals(u64 *numbered, u64 *dropped)
{
	struct edgedma_map_events_cursor cursor;
	int cpu;

	*numbered = 0;
	*dropped = 0;
	for_each_possible_cpu(cpu) {
		edgedma_map_events_cursor(cpu, &cursor);
		*numbered += cursor.next_seq - 1;
		*dropped += cursor.dropped;
	}
}

/* The per-CPU state, and the rings' slots once a recording allocated them. */
size_t edgedma_map_events_memory(void)
{
	size_t slots = READ_ONCE(edgedma_map_events_slots_held) ?
		map_event_buffer * sizeof_field(struct edgedma_map_event_ring, slots[0]) : 0;

	return num_possible_cpus() * (slots + sizeof(struct edgedma_map_event_ring));
}

int __init edgedma_map_events_init(void)
{
	unsigned int size;
	int cpu, err;

	err = edgedma_param_check("map_event_buffer", map_event_buffer, 16, 1U << 20);
	if (err)
		return err;
	size = roundup_pow_of_two(map_event_buffer);
	map_event_buffer = size;
	edgedma_ring_mask = size - 1;
	edgedma_map_events_wq = alloc_workqueue("edgedma_map_events",
						WQ_UNBOUND | WQ_HIGHPRI, 1);
	if (!edgedma_map_events_wq)
		return -ENOMEM;
	init_irq_work(&edgedma_map_events_kick, edgedma_map_events_kick_fn);
	for_each_possible_cpu(cpu) {
		struct edgedma_map_event_ring *ring =
			per_cpu_ptr(&edgedma_map_event_rings, cpu);

		seqcount_init(&ring->count_seq);
		ring->next_seq = 1;
	}
	return 0;
}

void edgedma_map_events_exit(void)
{
	bool was;

	/* Turning off cannot fail. The hooks are gone: no producer is left. */
	edgedma_map_events_set(EDGEDMA_MAP_EVENTS_OFF, NULL, &was);
	destroy_workqueue(edgedma_map_events_wq);
	if (edgedma_map_events_slots_held)
		edgedma_map_events_free_slots();
}
