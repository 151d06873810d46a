// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma_snapshot_test: snapshots taken on request (SNAPSHOT_TAKE) hold
 * what the device was doing, are stored and fetched whole (SNAPSHOT_GET),
 * listed (the dump), announced on the events group, rate limited with every
 * refusal counted, and refused with a reason when the request is wrong.
 *
 * The subject is the test driver edgedma_test_edu on the edu device (see
 * edgedma_findings_test for how it is found and loaded): its "leak" mode
 * leaves a known mapping live, its "correct" mode unmaps known ones.
 *
 * Needs root, edgedma.ko loaded and an edu device; skips (exit 4) without
 * the family or the driver.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <linux/edgedma.h>

#include "edu.h"
#include "harness.h"
#include "nl.h"

#define MAX_ITEMS	128
#define NAME_LEN	160

struct snap_mapping {
	__u64 dma_addr, size, time_ns;
	__u32 call, dir;
	char caller_name[NAME_LEN];
};

struct snap_unmapped {
	__u64 dma_addr, size, map_time_ns, unmap_time_ns;
	__u32 call, dir;
	char map_caller_name[NAME_LEN];
	char unmap_caller_name[NAME_LEN];
};

struct snap_page {
	__u64 dma_addr, expected_phys, iommu_phys, phys, cpu_virt, pte, pte_size, pte_pfn;
	__u32 domain, iommu_unmapped, pte_present, pte_writable, pte_executable,
	      pte_memtype, pfn_valid, flags, refcount, swiotlb;
	bool have_expected, have_iommu_phys, have_phys, have_pte, have_flags;
};

struct snap_register {
	char name[32];
	__u64 value;
	__u32 width, skipped, nfields;
	bool have_value;
};

struct snap_sharer {
	__u64 dma_addr, size, cpu_phys;
	char device[64];
};

struct snap_buffer {
	__u32 field, state;
	__u64 addr, length, map_addr, map_size;
	bool have_map;
};

struct snap_desc {
	__u32 index, state, nbytes, owner;	/* owner 0: not given */
	__u64 dma_addr;
	unsigned char bytes[128];		/* the first 128 of nbytes */
	unsigned int n_buffers;
	struct snap_buffer buffers[2];
};

/* A descriptor chain walked (EDGEDMA_A_SNAPSHOT_CHAIN). */
struct snap_chain {
	char name[32];
	__u32 kind, count, walk, skipped, desc_size;
	__u64 start;
	bool have_start, have_count, have_walk, have_skipped;
	unsigned int n_descs, n_fields;
	struct snap_desc descs[16];
};

/* One snapshot as a reply carried it. */
struct snapshot {
	bool have_seq, have_addr, have_hook_mode, have_record_size, have_time;
	__u64 seq, time_ns, real_time_ns, addr, left_out;
	__u32 trigger, cpu, hook_mode, record_size, access, reason;
	__u32 finding_kind;		/* 0: none in the record */
	char device[64], driver[64], release[128], symbol[128];
	unsigned int n_mappings, n_unmapped, n_skipped;
	struct snap_mapping mappings[MAX_ITEMS];
	struct snap_unmapped unmapped[MAX_ITEMS];
	__u32 skip_part[8], skip_reason[8];
	bool truncated;
	__u64 capture_ns;
	bool have_capture_ns;
	__u32 cache_line, coherent;
	bool have_cache_line, have_coherent;
	unsigned int n_pages, n_sharers, n_registers;
	char profile[32];
	struct snap_register registers[16];
	struct snap_page pages[16];
	struct snap_sharer sharers[16];
	unsigned int n_chains;
	struct snap_chain chains[2];
	bool header_after_body;	/* a header attribute came after the body */
	size_t attrs_len;	/* bytes of attributes in the message */
	char bad[256];
};

/* The attributes of one level, in order (several of one type kept). */
#define for_each_attr(a, buf, len)						\
	for (a = (const struct nlattr *)(buf);					\
	     (size_t)((const char *)a - (const char *)(buf)) + NLA_HDRLEN <= (len) && \
	     a->nla_len >= NLA_HDRLEN &&						\
	     (size_t)((const char *)a - (const char *)(buf)) + a->nla_len <= (len); \
	     a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len)))

static void copy_attr_str(const struct nlattr *a, char *dst, size_t n)
{
	const char *s = nl_attr_str(a);

	snprintf(dst, n, "%s", s ? s : "");
}

static void parse_mapping(const struct nlattr *nest, struct snap_mapping *m)
{
	const struct nlattr *tb[EDGEDMA_A_MAPPING_MAX + 1];

	memset(m, 0, sizeof(*m));
	if (nl_parse(nl_attr_data(nest), nl_attr_len(nest), tb, EDGEDMA_A_MAPPING_MAX))
		return;
	nl_attr_u64(tb[EDGEDMA_A_MAPPING_DMA_ADDR], &m->dma_addr);
	nl_attr_u64(tb[EDGEDMA_A_MAPPING_SIZE], &m->size);
	nl_attr_u64(tb[EDGEDMA_A_MAPPING_TIME_NS], &m->time_ns);
	nl_attr_u32(tb[EDGEDMA_A_MAPPING_CALL], &m->call);
	nl_attr_u32(tb[EDGEDMA_A_MAPPING_DIR], &m->dir);
	copy_attr_str(tb[EDGEDMA_A_MAPPING_CALLER_NAME], m->caller_name,
		      sizeof(m->caller_name));
}

static void parse_unmapped(const struct nlattr *nest, struct snap_unmapped *u)
{
	const struct nlattr *tb[EDGEDMA_A_UNMAPPED_MAX + 1];

	memset(u, 0, sizeof(*u));
	if (nl_parse(nl_attr_data(nest), nl_attr_len(nest), tb, EDGEDMA_A_UNMAPPED_MAX))
		return;
	nl_attr_u64(tb[EDGEDMA_A_UNMAPPED_DMA_ADDR], &u->dma_addr);
	nl_attr_u64(tb[EDGEDMA_A_UNMAPPED_SIZE], &u->size);
	nl_attr_u64(tb[EDGEDMA_A_UNMAPPED_MAP_TIME_NS], &u->map_time_ns);
	nl_attr_u64(tb[EDGEDMA_A_UNMAPPED_UNMAP_TIME_NS], &u->unmap_time_ns);
	nl_attr_u32(tb[EDGEDMA_A_UNMAPPED_CALL], &u->call);
	nl_attr_u32(tb[EDGEDMA_A_UNMAPPED_DIR], &u->dir);
	copy_attr_str(tb[EDGEDMA_A_UNMAPPED_MAP_CALLER_NAME], u->map_caller_name,
		      sizeof(u->map_caller_name));
	copy_attr_str(tb[EDGEDMA_A_UNMAPPED_UNMAP_CALLER_NAME], u->unmap_caller_name,
		      sizeof(u->unmap_caller_name));
}

static void parse_page(const struct nlattr *nest, struct snap_page *p)
{
	const struct nlattr *tb[EDGEDMA_A_PAGE_MAX + 1];

	memset(p, 0, sizeof(*p));
	if (nl_parse(nl_attr_data(nest), nl_attr_len(nest), tb, EDGEDMA_A_PAGE_MAX))
		return;
	nl_attr_u64(tb[EDGEDMA_A_PAGE_DMA_ADDR], &p->dma_addr);
	p->have_expected = nl_attr_u64(tb[EDGEDMA_A_PAGE_EXPECTED_PHYS], &p->expected_phys);
	p->have_iommu_phys = nl_attr_u64(tb[EDGEDMA_A_PAGE_IOMMU_PHYS], &p->iommu_phys);
	p->have_phys = nl_attr_u64(tb[EDGEDMA_A_PAGE_PHYS], &p->phys);
	nl_attr_u64(tb[EDGEDMA_A_PAGE_CPU_VIRT], &p->cpu_virt);
	p->have_pte = nl_attr_u64(tb[EDGEDMA_A_PAGE_PTE], &p->pte);
	nl_attr_u64(tb[EDGEDMA_A_PAGE_PTE_SIZE], &p->pte_size);
	nl_attr_u64(tb[EDGEDMA_A_PAGE_PTE_PFN], &p->pte_pfn);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_IOMMU_DOMAIN], &p->domain);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_IOMMU_UNMAPPED], &p->iommu_unmapped);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_PTE_PRESENT], &p->pte_present);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_PTE_WRITABLE], &p->pte_writable);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_PTE_EXECUTABLE], &p->pte_executable);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_PTE_MEMTYPE], &p->pte_memtype);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_PFN_VALID], &p->pfn_valid);
	p->have_flags = nl_attr_u32(tb[EDGEDMA_A_PAGE_FLAGS], &p->flags);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_REFCOUNT], &p->refcount);
	nl_attr_u32(tb[EDGEDMA_A_PAGE_SWIOTLB], &p->swiotlb);
}

static void parse_sharer(const struct nlattr *nest, struct snap_sharer *m)
{
	const struct nlattr *tb[EDGEDMA_A_MAPPING_MAX + 1];

	memset(m, 0, sizeof(*m));
	if (nl_parse(nl_attr_data(nest), nl_attr_len(nest), tb, EDGEDMA_A_MAPPING_MAX))
		return;
	nl_attr_u64(tb[EDGEDMA_A_MAPPING_DMA_ADDR], &m->dma_addr);
	nl_attr_u64(tb[EDGEDMA_A_MAPPING_SIZE], &m->size);
	nl_attr_u64(tb[EDGEDMA_A_MAPPING_CPU_PHYS], &m->cpu_phys);
	copy_attr_str(tb[EDGEDMA_A_MAPPING_DEVICE], m->device, sizeof(m->device));
}

static void parse_register(const struct nlattr *nest, struct snap_register *r)
{
	const struct nlattr *tb[EDGEDMA_A_REGISTER_MAX + 1], *a;

	memset(r, 0, sizeof(*r));
	if (nl_parse(nl_attr_data(nest), nl_attr_len(nest), tb, EDGEDMA_A_REGISTER_MAX))
		return;
	copy_attr_str(tb[EDGEDMA_A_REGISTER_NAME], r->name, sizeof(r->name));
	r->have_value = nl_attr_u64(tb[EDGEDMA_A_REGISTER_VALUE], &r->value);
	nl_attr_u32(tb[EDGEDMA_A_REGISTER_WIDTH], &r->width);
	nl_attr_u32(tb[EDGEDMA_A_REGISTER_SKIPPED], &r->skipped);
	for_each_attr(a, nl_attr_data(nest), nl_attr_len(nest))
		r->nfields += (a->nla_type & NLA_TYPE_MASK) == EDGEDMA_A_REGISTER_FIELD;
}

static void parse_desc(const struct nlattr *nest, struct snap_desc *d)
{
	const struct nlattr *a;

	memset(d, 0, sizeof(*d));
	for_each_attr(a, nl_attr_data(nest), nl_attr_len(nest)) {
		const struct nlattr *tb[EDGEDMA_A_BUFFER_MAX + 1];
		struct snap_buffer *b;

		switch (a->nla_type & NLA_TYPE_MASK) {
		case EDGEDMA_A_DESC_INDEX:
			nl_attr_u32(a, &d->index);
			break;
		case EDGEDMA_A_DESC_DMA_ADDR:
			nl_attr_u64(a, &d->dma_addr);
			break;
		case EDGEDMA_A_DESC_STATE:
			nl_attr_u32(a, &d->state);
			break;
		case EDGEDMA_A_DESC_OWNER:
			nl_attr_u32(a, &d->owner);
			break;
		case EDGEDMA_A_DESC_BYTES:
			d->nbytes = nl_attr_len(a);
			memcpy(d->bytes, nl_attr_data(a),
			       d->nbytes < sizeof(d->bytes) ? d->nbytes : sizeof(d->bytes));
			break;
		case EDGEDMA_A_DESC_BUFFER:
			if (d->n_buffers == 2 ||
			    nl_parse(nl_attr_data(a), nl_attr_len(a), tb, EDGEDMA_A_BUFFER_MAX))
				break;
			b = &d->buffers[d->n_buffers++];
			nl_attr_u32(tb[EDGEDMA_A_BUFFER_FIELD], &b->field);
			nl_attr_u32(tb[EDGEDMA_A_BUFFER_STATE], &b->state);
			nl_attr_u64(tb[EDGEDMA_A_BUFFER_ADDR], &b->addr);
			nl_attr_u64(tb[EDGEDMA_A_BUFFER_LENGTH], &b->length);
			b->have_map = nl_attr_u64(tb[EDGEDMA_A_BUFFER_MAPPING_ADDR], &b->map_addr);
			nl_attr_u64(tb[EDGEDMA_A_BUFFER_MAPPING_SIZE], &b->map_size);
			break;
		}
	}
}

static void parse_chain(const struct nlattr *nest, struct snap_chain *c)
{
	const struct nlattr *a;

	memset(c, 0, sizeof(*c));
	for_each_attr(a, nl_attr_data(nest), nl_attr_len(nest)) {
		switch (a->nla_type & NLA_TYPE_MASK) {
		case EDGEDMA_A_CHAIN_NAME:
			copy_attr_str(a, c->name, sizeof(c->name));
			break;
		case EDGEDMA_A_CHAIN_KIND:
			nl_attr_u32(a, &c->kind);
			break;
		case EDGEDMA_A_CHAIN_DESC_SIZE:
			nl_attr_u32(a, &c->desc_size);
			break;
		case EDGEDMA_A_CHAIN_DFIELD:
			c->n_fields++;
			break;
		case EDGEDMA_A_CHAIN_START:
			c->have_start = nl_attr_u64(a, &c->start);
			break;
		case EDGEDMA_A_CHAIN_COUNT:
			c->have_count = nl_attr_u32(a, &c->count);
			break;
		case EDGEDMA_A_CHAIN_WALK:
			c->have_walk = nl_attr_u32(a, &c->walk);
			break;
		case EDGEDMA_A_CHAIN_SKIPPED:
			c->have_skipped = nl_attr_u32(a, &c->skipped);
			break;
		case EDGEDMA_A_CHAIN_DESCRIPTOR:
			if (c->n_descs < 16)
				parse_desc(a, &c->descs[c->n_descs++]);
			break;
		}
	}
}

static bool is_header_attr(unsigned int type)
{
	return (type >= EDGEDMA_A_SNAPSHOT_SEQ && type <= EDGEDMA_A_SNAPSHOT_DRIVER) ||
	       type == EDGEDMA_A_SNAPSHOT_FINDING_KIND;
}

/* A SNAPSHOT_GET reply, a dump message or a SNAPSHOT notification. */
static int parse_snapshot(const void *attrs, size_t len, struct snapshot *s)
{
	const struct nlattr *a;
	bool body_seen = false;
	size_t seen = 0;

	memset(s, 0, sizeof(*s));
	s->attrs_len = len;
	for_each_attr(a, attrs, len) {
		unsigned int type = a->nla_type & NLA_TYPE_MASK;

		seen = (const char *)a - (const char *)attrs + NLA_ALIGN(a->nla_len);
		if (is_header_attr(type) && body_seen)
			s->header_after_body = true;
		if (!is_header_attr(type) && type != EDGEDMA_A_SNAPSHOT_RECORD_SIZE)
			body_seen = true;
		switch (type) {
		case EDGEDMA_A_SNAPSHOT_SEQ:
			s->have_seq = nl_attr_u64(a, &s->seq);
			break;
		case EDGEDMA_A_SNAPSHOT_TIME_NS:
			s->have_time = nl_attr_u64(a, &s->time_ns);
			break;
		case EDGEDMA_A_SNAPSHOT_REAL_TIME_NS:
			nl_attr_u64(a, &s->real_time_ns);
			break;
		case EDGEDMA_A_SNAPSHOT_CPU:
			nl_attr_u32(a, &s->cpu);
			break;
		case EDGEDMA_A_SNAPSHOT_TRIGGER:
			nl_attr_u32(a, &s->trigger);
			break;
		case EDGEDMA_A_SNAPSHOT_FINDING_KIND:
			nl_attr_u32(a, &s->finding_kind);
			break;
		case EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR:
			s->have_addr = nl_attr_u64(a, &s->addr);
			break;
		case EDGEDMA_A_SNAPSHOT_TRIGGER_ACCESS:
			nl_attr_u32(a, &s->access);
			break;
		case EDGEDMA_A_SNAPSHOT_TRIGGER_REASON:
			nl_attr_u32(a, &s->reason);
			break;
		case EDGEDMA_A_SNAPSHOT_DEVICE:
			copy_attr_str(a, s->device, sizeof(s->device));
			break;
		case EDGEDMA_A_SNAPSHOT_TRIGGER_SYMBOL:
			copy_attr_str(a, s->symbol, sizeof(s->symbol));
			break;
		case EDGEDMA_A_SNAPSHOT_DRIVER:
			copy_attr_str(a, s->driver, sizeof(s->driver));
			break;
		case EDGEDMA_A_SNAPSHOT_KERNEL_RELEASE:
			copy_attr_str(a, s->release, sizeof(s->release));
			break;
		case EDGEDMA_A_SNAPSHOT_HOOK_MODE:
			s->have_hook_mode = nl_attr_u32(a, &s->hook_mode);
			break;
		case EDGEDMA_A_SNAPSHOT_MAPPING:
			if (s->n_mappings < MAX_ITEMS)
				parse_mapping(a, &s->mappings[s->n_mappings++]);
			break;
		case EDGEDMA_A_SNAPSHOT_MAPPINGS_LEFT_OUT:
			nl_attr_u64(a, &s->left_out);
			break;
		case EDGEDMA_A_SNAPSHOT_UNMAPPED:
			if (s->n_unmapped < MAX_ITEMS)
				parse_unmapped(a, &s->unmapped[s->n_unmapped++]);
			break;
		case EDGEDMA_A_SNAPSHOT_SKIPPED: {
			const struct nlattr *tb[EDGEDMA_A_SKIP_MAX + 1];

			if (s->n_skipped < 8 &&
			    !nl_parse(nl_attr_data(a), nl_attr_len(a), tb, EDGEDMA_A_SKIP_MAX)) {
				nl_attr_u32(tb[EDGEDMA_A_SKIP_PART], &s->skip_part[s->n_skipped]);
				nl_attr_u32(tb[EDGEDMA_A_SKIP_REASON], &s->skip_reason[s->n_skipped]);
				s->n_skipped++;
			}
			break;
		}
		case EDGEDMA_A_SNAPSHOT_TRUNCATED:
			s->truncated = true;
			break;
		case EDGEDMA_A_SNAPSHOT_CACHE_LINE:
			s->have_cache_line = nl_attr_u32(a, &s->cache_line);
			break;
		case EDGEDMA_A_SNAPSHOT_COHERENT:
			s->have_coherent = nl_attr_u32(a, &s->coherent);
			break;
		case EDGEDMA_A_SNAPSHOT_PAGE:
			if (s->n_pages < 16)
				parse_page(a, &s->pages[s->n_pages++]);
			break;
		case EDGEDMA_A_SNAPSHOT_CAPTURE_NS:
			s->have_capture_ns = nl_attr_u64(a, &s->capture_ns);
			break;
		case EDGEDMA_A_SNAPSHOT_PROFILE:
			copy_attr_str(a, s->profile, sizeof(s->profile));
			break;
		case EDGEDMA_A_SNAPSHOT_REGISTER:
			if (s->n_registers < 16)
				parse_register(a, &s->registers[s->n_registers++]);
			break;
		case EDGEDMA_A_SNAPSHOT_CHAIN:
			if (s->n_chains < 2)
				parse_chain(a, &s->chains[s->n_chains++]);
			break;
		case EDGEDMA_A_SNAPSHOT_LINE_SHARER:
			if (s->n_sharers < 16)
				parse_sharer(a, &s->sharers[s->n_sharers++]);
			break;
		case EDGEDMA_A_SNAPSHOT_RECORD_SIZE:
			s->have_record_size = nl_attr_u32(a, &s->record_size);
			break;
		}
	}
	if (seen != len) {
		snprintf(s->bad, sizeof(s->bad),
			 "attributes end at byte %zu of %zu: the record does not parse",
			 seen, len);
		return -EBADMSG;
	}
	return 0;
}

/* ---- the fixture ------------------------------------------------------- */

FIXTURE(snapshot) {
	struct nl_sock sk;
	struct genl_family_info fam;
	char buf[512];
};

FIXTURE_SETUP(snapshot)
{
	struct nl_answer ans;

	self->sk.fd = -1;
	ASSERT_EQ(0, nl_open(&self->sk));
	ASSERT_EQ(0, genl_resolve(&self->sk, EDGEDMA_FAMILY_NAME, &self->fam, &ans));
	if (ans.error == -ENOENT)
		SKIP(return, "the edgedma family is not registered: load edgedma.ko");
	ASSERT_EQ(0, ans.error);
}

FIXTURE_TEARDOWN(snapshot)
{
	nl_close(&self->sk);
}

struct reply {
	__u16 family;
	__u8 cmd;
	unsigned int n;
	struct snapshot *s;	/* s[0..max) */
	unsigned int max;
	__u64 u64;		/* TAKE's SEQ; GET_STATS's wanted counter */
	__u16 u64_type;
	char bad[256];
};

static int snapshot_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	struct reply *r = arg;
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const void *attrs;
	size_t len;

	if (nlh->nlmsg_type != r->family)
		return 0;
	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs) {
		snprintf(r->bad, sizeof(r->bad), "a reply too short for its header");
		return -EBADMSG;
	}
	if (g->cmd != r->cmd) {
		snprintf(r->bad, sizeof(r->bad), "a reply of command %u, not %u",
			 g->cmd, r->cmd);
		return -EBADMSG;
	}
	if (r->s) {
		if (r->n >= r->max)
			return 0;
		if (parse_snapshot(attrs, len, &r->s[r->n])) {
			snprintf(r->bad, sizeof(r->bad), "%s", r->s[r->n].bad);
			return -EBADMSG;
		}
		r->n++;
		return 0;
	}
	{
		const struct nlattr *tb[EDGEDMA_A_STATS_MAX + EDGEDMA_A_SNAPSHOT_MAX + 1];

		__u32 v32;

		if (nl_parse(attrs, len, tb, r->u64_type)) {
			snprintf(r->bad, sizeof(r->bad), "a reply does not parse");
			return -EBADMSG;
		}
		if (nl_attr_u32(tb[r->u64_type], &v32))
			r->u64 = v32;
		else if (!nl_attr_u64(tb[r->u64_type], &r->u64)) {
			snprintf(r->bad, sizeof(r->bad), "attribute %u missing", r->u64_type);
			return -EBADMSG;
		}
	}
	r->n++;
	return 0;
}

/* SNAPSHOT_TAKE of @dev (about @addr unless 0); the kernel's answer in @ans. */
static void take(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
		 const char *dev, __u64 addr, __u64 *seq, struct nl_answer *ans)
{
	struct reply r = { .family = self->fam.id, .cmd = EDGEDMA_CMD_SNAPSHOT_TAKE,
			   .u64_type = EDGEDMA_A_SNAPSHOT_SEQ };
	struct nl_msg m;
	int err;

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_SNAPSHOT_TAKE, 1);
	if (dev)
		ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_SNAPSHOT_DEVICE, dev));
	if (addr)
		ASSERT_LE(0, nl_put(&m, EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR, &addr, sizeof(addr)));
	err = nl_transact(&self->sk, &m, snapshot_reply_fn, &r, ans);
	ASSERT_EQ(0, err) TH_LOG("SNAPSHOT_TAKE: %s %s", strerror(-err), r.bad);
	*seq = ans->error ? 0 : r.u64;
	if (!ans->error)
		ASSERT_EQ(1U, r.n) TH_LOG("SNAPSHOT_TAKE gave no SEQ");
}

static __u64 take_ok(struct __test_metadata *_metadata,
		     FIXTURE_DATA(snapshot) *self, const char *dev, __u64 addr)
{
	struct nl_answer ans;
	__u64 seq = 0;
	int tries;

	/* The tests before may have used this second's snapshot_rate up. */
	for (tries = 0; tries < 30; tries++) {
		take(_metadata, self, dev, addr, &seq, &ans);
		if (ans.error != -EBUSY)
			break;
		usleep(100 * 1000);
	}
	EXPECT_EQ(0, ans.error)
		TH_LOG("SNAPSHOT_TAKE %s: %s", dev,
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	return seq;
}

/* SNAPSHOT_GET of @seq into @s; the kernel's answer in @ans. */
static void get(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
		__u64 seq, struct snapshot *s, struct nl_answer *ans)
{
	struct reply r = { .family = self->fam.id, .cmd = EDGEDMA_CMD_SNAPSHOT_GET,
			   .s = s, .max = 1 };
	struct nl_msg m;
	int err;

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_SNAPSHOT_GET, 1);
	ASSERT_LE(0, nl_put(&m, EDGEDMA_A_SNAPSHOT_SEQ, &seq, sizeof(seq)));
	err = nl_transact(&self->sk, &m, snapshot_reply_fn, &r, ans);
	ASSERT_EQ(0, err) TH_LOG("SNAPSHOT_GET %llu: %s %s",
				 (unsigned long long)seq, strerror(-err), r.bad);
	if (!ans->error)
		ASSERT_EQ(1U, r.n) TH_LOG("SNAPSHOT_GET gave no snapshot");
}

static void get_ok(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
		   __u64 seq, struct snapshot *s)
{
	struct nl_answer ans;

	get(_metadata, self, seq, s, &ans);
	ASSERT_EQ(0, ans.error)
		TH_LOG("SNAPSHOT_GET %llu: %s", (unsigned long long)seq,
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_FALSE(s->header_after_body)
		TH_LOG("a header attribute follows the body: the store's header copy would miss it");
}

/* One integer attribute of a GET_STATS or GET_INFO reply. */
static __u64 ask(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
		 __u8 cmd, __u16 type)
{
	struct reply r = { .family = self->fam.id, .cmd = cmd, .u64_type = type };
	struct nl_answer ans;
	int err;

	err = genl_call(&self->sk, self->fam.id, cmd, 0, snapshot_reply_fn, &r, &ans);
	EXPECT_EQ(0, err) TH_LOG("command %u: %s %s", cmd, strerror(-err), r.bad);
	EXPECT_EQ(0, ans.error) TH_LOG("command %u: %s", cmd,
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	return r.u64;
}

static __u64 stat(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
		  __u16 type)
{
	return ask(_metadata, self, EDGEDMA_CMD_GET_STATS, type);
}

struct fault_hooks_reply {
	__u16 family;
	char hooks[256];
	bool have;
};

static int fault_hooks_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_INFO_MAX + 1];
	struct fault_hooks_reply *r = arg;
	const void *attrs;
	size_t len;

	if (nlh->nlmsg_type != r->family)
		return 0;
	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_INFO_MAX))
		return -EBADMSG;
	r->have = tb[EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS];
	copy_attr_str(tb[EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS], r->hooks, sizeof(r->hooks));
	return 0;
}

/*
 * Where the module catches IOMMU faults on this kernel (GET_INFO), ""
 * where nowhere: a kernel without kprobes and trace events (i.MX's) and an
 * IOMMU driver that reports to no one (arm-smmu-v3) leave no place.
 */
static void iommu_fault_hooks(struct __test_metadata *_metadata,
			      FIXTURE_DATA(snapshot) *self, char *out, size_t n)
{
	struct fault_hooks_reply r = { .family = self->fam.id };
	struct nl_answer ans;
	int err;

	err = genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_GET_INFO, 0,
			fault_hooks_reply_fn, &r, &ans);
	ASSERT_EQ(0, err) TH_LOG("GET_INFO: %s", strerror(-err));
	ASSERT_EQ(0, ans.error) TH_LOG("GET_INFO: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	ASSERT_TRUE(r.have) TH_LOG("GET_INFO: no IOMMU_FAULT_HOOKS");
	snprintf(out, n, "%s", r.hooks);
}

/* Run a mode of the test driver; its record of it goes into @rec. */
static void run_mode(struct __test_metadata *_metadata, const char *mode,
		     char *rec, size_t n)
{
	char path[PATH_MAX];
	int err;

	edu_path(path, sizeof(path), "run");
	err = write_file(path, mode);
	ASSERT_EQ(0, err) TH_LOG("%s mode %s: %s", EDU_NAME, mode, strerror(-err));
	edu_path(path, sizeof(path), "last");
	ASSERT_LT(0, read_file(path, rec, n)) TH_LOG("%s: %s", path, strerror(errno));
}

static bool translated(__u32 domain)
{
	return domain == EDGEDMA_IOMMU_DOMAIN_DMA || domain == EDGEDMA_IOMMU_DOMAIN_DMA_FQ;
}

/* Whether the record says @part was left out for @reason. */
static bool skipped(const struct snapshot *s, __u32 part, __u32 reason)
{
	unsigned int i;

	for (i = 0; i < s->n_skipped; i++)
		if (s->skip_part[i] == part && s->skip_reason[i] == reason)
			return true;
	return false;
}

/* Whether the first mapping a snapshot lists holds @addr. */
static bool first_holds(const struct snapshot *s, __u64 addr)
{
	return s->n_mappings && s->mappings[0].dma_addr <= addr &&
	       addr - s->mappings[0].dma_addr < s->mappings[0].size;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void log_snapshot(struct __test_metadata *_metadata, const struct snapshot *s)
{
	unsigned int i;

	TH_LOG("snapshot %llu: trigger %u, addr %#llx, %s (%s), %u mappings (%llu left out), %u unmapped, %u skipped%s; %zu bytes written in %llu ns",
	       (unsigned long long)s->seq, s->trigger, (unsigned long long)s->addr,
	       s->device, s->driver, s->n_mappings, (unsigned long long)s->left_out,
	       s->n_unmapped, s->n_skipped, s->truncated ? ", truncated" : "",
	       s->attrs_len, (unsigned long long)s->capture_ns);
	for (i = 0; i < s->n_mappings && i < 8; i++)
		TH_LOG("  mapping %#llx +%llu dir %u by %s",
		       (unsigned long long)s->mappings[i].dma_addr,
		       (unsigned long long)s->mappings[i].size, s->mappings[i].dir,
		       s->mappings[i].caller_name);
	for (i = 0; i < s->n_pages && i < 8; i++)
		TH_LOG("  page %#llx: expected %#llx, domain %u, iommu %#llx%s, phys %#llx valid %u flags %#x refs %u swiotlb %u, cpu %#llx pte %#llx size %#llx present %u w %u x %u pfn %#llx memtype %u",
		       (unsigned long long)s->pages[i].dma_addr,
		       (unsigned long long)s->pages[i].expected_phys, s->pages[i].domain,
		       (unsigned long long)s->pages[i].iommu_phys,
		       s->pages[i].iommu_unmapped ? " (unmapped)" : "",
		       (unsigned long long)s->pages[i].phys, s->pages[i].pfn_valid,
		       s->pages[i].flags, s->pages[i].refcount, s->pages[i].swiotlb,
		       (unsigned long long)s->pages[i].cpu_virt,
		       (unsigned long long)s->pages[i].pte,
		       (unsigned long long)s->pages[i].pte_size, s->pages[i].pte_present,
		       s->pages[i].pte_writable, s->pages[i].pte_executable,
		       (unsigned long long)s->pages[i].pte_pfn, s->pages[i].pte_memtype);
	for (i = 0; i < s->n_sharers && i < 8; i++)
		TH_LOG("  shares a line: %s %#llx +%llu phys %#llx", s->sharers[i].device,
		       (unsigned long long)s->sharers[i].dma_addr,
		       (unsigned long long)s->sharers[i].size,
		       (unsigned long long)s->sharers[i].cpu_phys);
	for (i = 0; i < s->n_unmapped && i < 8; i++)
		TH_LOG("  unmapped %#llx +%llu by %s, mapped by %s",
		       (unsigned long long)s->unmapped[i].dma_addr,
		       (unsigned long long)s->unmapped[i].size,
		       s->unmapped[i].unmap_caller_name, s->unmapped[i].map_caller_name);
}

/*
 * A mapping the driver leaves live: the snapshot about its address names
 * it first, with its size, direction and the function that made it, and
 * says who, when, which kernel and which hook mode.
 */
TEST_F(snapshot, live_mapping_first)
{
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	unsigned long long dma = 0;
	unsigned long len = 0;
	struct utsname u;
	const char *p;
	__u64 seq;

	run_mode(_metadata, "leak", rec, sizeof(rec));
	p = strstr(rec, "leaked dma=");
	ASSERT_NE(NULL, p) TH_LOG("no \"leaked dma=\" in the record: %s", rec);
	ASSERT_EQ(2, sscanf(p, "leaked dma=%llx len=%lu", &dma, &len));

	seq = take_ok(_metadata, self, edu_dev, dma);
	ASSERT_NE(0ULL, seq);
	get_ok(_metadata, self, seq, &s);
	log_snapshot(_metadata, &s);

	EXPECT_EQ(seq, s.seq);
	EXPECT_EQ((__u32)EDGEDMA_SNAPSHOT_TRIGGER_MANUAL, s.trigger);
	EXPECT_TRUE(s.have_addr);
	EXPECT_EQ(dma, s.addr);
	EXPECT_STREQ(edu_dev, s.device);
	EXPECT_STREQ(EDU_NAME, s.driver);
	ASSERT_EQ(0, uname(&u));
	EXPECT_STREQ(u.release, s.release);
	EXPECT_TRUE(s.have_time);
	EXPECT_TRUE(s.have_hook_mode);
	EXPECT_EQ(ask(_metadata, self, EDGEDMA_CMD_GET_INFO, EDGEDMA_A_INFO_HOOK_MODE),
		  (__u64)s.hook_mode);
	EXPECT_FALSE(s.truncated);
	ASSERT_LE(1U, s.n_mappings);
	EXPECT_EQ(dma, s.mappings[0].dma_addr);
	EXPECT_EQ(len, s.mappings[0].size);
	EXPECT_EQ(1U, s.mappings[0].dir) TH_LOG("DMA_TO_DEVICE is 1");
	EXPECT_TRUE(starts_with(s.mappings[0].caller_name, "edu_mode_leak+"))
		TH_LOG("the mapping's caller is \"%s\"", s.mappings[0].caller_name);
}

/*
 * Mappings the driver made and removed: the snapshot about an address it
 * unmapped lists first the latest unmap that covered it, with the
 * functions that mapped and unmapped it.
 */
/* The address of the driver's last streaming unmap in @rec: no unmap follows it. */
static bool last_unmap(const char *rec, unsigned long long *dma)
{
	const char *p, *last = NULL;

	for (p = rec; (p = strstr(p, "unmap api=")); p++)
		last = p;
	p = last ? strstr(last, " dma=") : NULL;
	return p && sscanf(p, " dma=%llx", dma) == 1;
}

TEST_F(snapshot, latest_unmap_of_address_first)
{
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	unsigned long long dma = 0;
	unsigned int i;
	__u64 seq;

	run_mode(_metadata, "correct", rec, sizeof(rec));
	ASSERT_TRUE(last_unmap(rec, &dma)) TH_LOG("no unmap with its address in the record: %s", rec);

	seq = take_ok(_metadata, self, edu_dev, dma);
	ASSERT_NE(0ULL, seq);
	get_ok(_metadata, self, seq, &s);
	log_snapshot(_metadata, &s);
	ASSERT_LE(1U, s.n_unmapped);
	EXPECT_LE(s.unmapped[0].dma_addr, dma);
	EXPECT_LT(dma - s.unmapped[0].dma_addr, s.unmapped[0].size);
	EXPECT_TRUE(starts_with(s.unmapped[0].unmap_caller_name, "edu_"))
		TH_LOG("unmapped by \"%s\"", s.unmapped[0].unmap_caller_name);
	EXPECT_TRUE(starts_with(s.unmapped[0].map_caller_name, "edu_"))
		TH_LOG("mapped by \"%s\"", s.unmapped[0].map_caller_name);
	EXPECT_LE(s.unmapped[0].map_time_ns, s.unmapped[0].unmap_time_ns);
	EXPECT_LE(s.unmapped[0].unmap_time_ns, s.time_ns);
	/* Nothing live there any more: the IOMMU translates the page to nothing. */
	ASSERT_LE(1U, s.n_pages);
	if (!first_holds(&s, dma)) {
		EXPECT_FALSE(s.pages[0].have_expected);
		if (translated(s.pages[0].domain))
			EXPECT_EQ(1U, s.pages[0].iommu_unmapped)
				TH_LOG("the IOMMU still translates %#llx", dma);
	}
	for (i = 1; i < s.n_unmapped; i++) {
		const struct snap_unmapped *u = &s.unmapped[i];

		EXPECT_FALSE(u->dma_addr <= dma && dma - u->dma_addr < u->size &&
			     u->unmap_time_ns > s.unmapped[0].unmap_time_ns)
			TH_LOG("unmap %u of %#llx is later than the first listed", i,
			       (unsigned long long)u->dma_addr);
	}
}

/*
 * Turns the mapping-event stream on or off; the state before. Off answers
 * only once every event numbered until then has gone out.
 */
static int map_events_set(struct __test_metadata *_metadata,
			  FIXTURE_DATA(snapshot) *self, int enable)
{
	struct nl_answer ans;
	int was, err;

	err = edgedma_map_events_set(&self->sk, self->fam.id, enable, &was, &ans);
	EXPECT_EQ(0, err) TH_LOG("MAP_EVENTS_SET: %s", strerror(-err));
	EXPECT_EQ(0, ans.error) TH_LOG("MAP_EVENTS_SET enable=%d: %s", enable,
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	return was;
}

/* A socket of its own in @fam's multicast group @name, into *@ev. */
static void join_group(struct __test_metadata *_metadata,
		       const struct genl_family_info *fam, const char *name,
		       struct nl_sock *ev)
{
	__u32 group = genl_group_id(fam, name);

	ASSERT_NE(0U, group) TH_LOG("the family has no group \"%s\"", name);
	ASSERT_EQ(0, nl_open(ev));
	ASSERT_EQ(0, setsockopt(ev->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&group, sizeof(group)));
}

struct heard_event {
	__u64 time_ns, dma_addr;
	__u32 call;
};

/* The events of @dev at @dma_addr among one MAP_EVENTS message's, into @out. */
static void heard_events_of(const struct nlmsghdr *nlh, const char *dev, __u64 dma_addr,
			    struct heard_event *out, unsigned int max, unsigned int *n)
{
	const char *at, *end;
	size_t len = 0;

	at = genl_attrs(nlh, 0, &len);
	for (end = at ? at + len : NULL; at && end - at >= NLA_HDRLEN;) {
		const struct nlattr *a = (const void *)at;
		const struct nlattr *tb[EDGEDMA_A_MAP_EVENT_MAX + 1];
		struct heard_event ev;
		const char *name;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > end - at)
			break;
		at += NLA_ALIGN(a->nla_len);

		if ((a->nla_type & NLA_TYPE_MASK) != EDGEDMA_A_MAP_EVENTS_EVENT ||
		    nl_parse(nl_attr_data(a), nl_attr_len(a), tb, EDGEDMA_A_MAP_EVENT_MAX) ||
		    !nl_attr_u64(tb[EDGEDMA_A_MAP_EVENT_TIME_NS], &ev.time_ns) ||
		    !nl_attr_u64(tb[EDGEDMA_A_MAP_EVENT_DMA_ADDR], &ev.dma_addr) ||
		    !nl_attr_u32(tb[EDGEDMA_A_MAP_EVENT_CALL], &ev.call))
			continue;
		name = nl_attr_str(tb[EDGEDMA_A_MAP_EVENT_DEVICE]);
		if (name && !strcmp(name, dev) && ev.dma_addr == dma_addr && *n < max)
			out[(*n)++] = ev;
	}
}

/*
 * A mapping's time is one reading of the clock, wherever it is shown: the
 * mapping event of its map carries the time the table keeps for the
 * mapping, and the event of its unmap the time the unmap history keeps
 * (the hook reads the clock once for both).
 */
TEST_F(snapshot, map_events_carry_the_tables_times)
{
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	struct heard_event heard[64];
	struct nl_sock ev = { .fd = -1 };
	unsigned long long dma = 0;
	unsigned int i, n = 0;
	bool map_seen = false, unmap_seen = false;
	static char buf[65536];
	__u64 seq;

	join_group(_metadata, &self->fam, EDGEDMA_MCGRP_MAP_EVENTS, &ev);
	if (map_events_set(_metadata, self, 1) != 0) {
		nl_close(&ev);
		SKIP(return, "the mapping-event stream is on already: someone records");
	}
	run_mode(_metadata, "correct", rec, sizeof(rec));
	EXPECT_EQ(1, map_events_set(_metadata, self, 0));
	ASSERT_TRUE(last_unmap(rec, &dma)) TH_LOG("no unmap with its address in the record: %s", rec);

	/* Everything numbered went out before the reply to "off": no wait. */
	for (;;) {
		const struct nlmsghdr *nlh;
		ssize_t got = recv(ev.fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (got <= 0)
			break;
		for (nlh = (const void *)buf; NLMSG_OK(nlh, got); nlh = NLMSG_NEXT(nlh, got))
			if (nlh->nlmsg_type == self->fam.id &&
			    ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd ==
				    EDGEDMA_CMD_MAP_EVENTS)
				heard_events_of(nlh, edu_dev, dma, heard, 64, &n);
	}
	nl_close(&ev);

	seq = take_ok(_metadata, self, edu_dev, dma);
	ASSERT_NE(0ULL, seq);
	get_ok(_metadata, self, seq, &s);
	ASSERT_LE(1U, s.n_unmapped);
	ASSERT_EQ(dma, s.unmapped[0].dma_addr);
	for (i = 0; i < n; i++) {
		TH_LOG("event: call %u at %#llx, %llu ns", heard[i].call,
		       (unsigned long long)heard[i].dma_addr,
		       (unsigned long long)heard[i].time_ns);
		if (heard[i].call == s.unmapped[0].call &&
		    heard[i].time_ns == s.unmapped[0].map_time_ns)
			map_seen = true;
		if (heard[i].call != s.unmapped[0].call &&
		    heard[i].time_ns == s.unmapped[0].unmap_time_ns)
			unmap_seen = true;
	}
	EXPECT_TRUE(map_seen) TH_LOG("no map event at %#llx of %llu ns, the time the unmap history keeps",
				     dma, (unsigned long long)s.unmapped[0].map_time_ns);
	EXPECT_TRUE(unmap_seen) TH_LOG("no unmap event at %#llx of %llu ns, the history's unmap time",
				       dma, (unsigned long long)s.unmapped[0].unmap_time_ns);
}

/* The last line of @rec starting with @prefix, or NULL. */
static const char *last_line(const char *rec, const char *prefix)
{
	const char *p, *last = NULL;

	for (p = rec; (p = strstr(p, prefix)); p++)
		if (p == rec || p[-1] == '\n')
			last = p;
	return last;
}

/*
 * The page of a live kmalloc'd mapping, seen by everyone: where the table
 * says it lies, where the IOMMU translates it now (the same), the kernel
 * page-table entry of its linear-map address (present, writable, never
 * executable, write-back, pointing at that very page) and a slab page.
 */
TEST_F(snapshot, page_views_of_live_mapping)
{
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	unsigned long long dma = 0, phys = 0;
	unsigned long len = 0;
	const struct snap_page *pg;
	char dir[32];
	const char *p;
	__u64 page_size, page_mask, seq;

	page_size = ask(_metadata, self, EDGEDMA_CMD_GET_INFO, EDGEDMA_A_INFO_PAGE_SIZE);
	ASSERT_LT(0ULL, page_size);
	page_mask = ~(page_size - 1);
	run_mode(_metadata, "leak", rec, sizeof(rec));
	p = last_line(rec, "map api=single ");
	ASSERT_NE(NULL, p) TH_LOG("no map line in the record: %s", rec);
	ASSERT_EQ(4, sscanf(p, "map api=single dir=%31s phys=%llx dma=%llx len=%lu",
			    dir, &phys, &dma, &len)) TH_LOG("%.120s", p);

	seq = take_ok(_metadata, self, edu_dev, dma);
	ASSERT_NE(0ULL, seq);
	get_ok(_metadata, self, seq, &s);
	log_snapshot(_metadata, &s);
	ASSERT_LE(1U, s.n_pages);
	pg = &s.pages[0];
	EXPECT_EQ(dma & page_mask, pg->dma_addr);
	ASSERT_TRUE(pg->have_expected);
	EXPECT_EQ(phys & page_mask, pg->expected_phys & page_mask)
		TH_LOG("the table's page %#llx is not the driver's %#llx",
		       (unsigned long long)pg->expected_phys, phys);
	if (translated(pg->domain)) {
		ASSERT_TRUE(pg->have_iommu_phys) TH_LOG("a live mapping the IOMMU does not translate");
		EXPECT_EQ(pg->expected_phys & page_mask, pg->iommu_phys & page_mask);
	} else {
		EXPECT_NE(0U, pg->domain) TH_LOG("no IOMMU domain said");
	}
	EXPECT_EQ(phys & page_mask, pg->phys);
	EXPECT_EQ(1U, pg->pfn_valid);
	EXPECT_TRUE(pg->flags & EDGEDMA_PAGE_SLAB) TH_LOG("a kmalloc buffer's page is not slab: %#x",
							  pg->flags);
	EXPECT_FALSE(pg->flags & EDGEDMA_PAGE_FREE);
	/* A tail page of a higher-order slab (debug kernels) counts nothing. */
	if (!(pg->flags & EDGEDMA_PAGE_COMPOUND) || (pg->flags & EDGEDMA_PAGE_HEAD))
		EXPECT_LT(0U, pg->refcount);
	EXPECT_EQ(0U, pg->swiotlb);
	ASSERT_TRUE(pg->have_pte) TH_LOG("no page-table entry for the linear map");
	EXPECT_EQ(1U, pg->pte_present);
	EXPECT_EQ(1U, pg->pte_writable);
	EXPECT_EQ(0U, pg->pte_executable);
	EXPECT_EQ((__u32)EDGEDMA_MEMTYPE_WRITE_BACK, pg->pte_memtype);
	EXPECT_EQ(phys / page_size, pg->pte_pfn);
	EXPECT_LE(page_size, pg->pte_size);
	EXPECT_TRUE(s.have_cache_line && s.cache_line >= 16);
	EXPECT_TRUE(s.have_coherent);
}

/*
 * Two live mappings in one cache line: a snapshot about either names the
 * other as sharing the line; once they are unmapped, it names none.
 */
TEST_F(snapshot, line_sharers_named)
{
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	unsigned long long dma[2] = { 0, 0 }, phys[2] = { 0, 0 };
	unsigned long len[2] = { 0, 0 };
	unsigned int i, named = 0;
	const char *p;
	__u64 seq;

	run_mode(_metadata, "hold-line-pair", rec, sizeof(rec));
	p = rec;
	for (i = 0; i < 2; i++) {
		p = strstr(p, "held dma=");
		ASSERT_NE(NULL, p) TH_LOG("no held line %u in the record: %s", i, rec);
		ASSERT_EQ(3, sscanf(p, "held dma=%llx len=%lu phys=%llx", &dma[i], &len[i],
				    &phys[i]));
		p++;
	}
	seq = take_ok(_metadata, self, edu_dev, dma[0]);
	get_ok(_metadata, self, seq, &s);
	log_snapshot(_metadata, &s);
	ASSERT_LE(1U, s.n_mappings);
	EXPECT_EQ(dma[0], s.mappings[0].dma_addr);
	for (i = 0; i < s.n_sharers; i++)
		if (s.sharers[i].dma_addr == dma[1] && s.sharers[i].cpu_phys == phys[1] &&
		    !strcmp(s.sharers[i].device, edu_dev))
			named++;
	EXPECT_EQ(1U, named) TH_LOG("the other half of the line (%#llx) is not named once",
				    dma[1]);

	run_mode(_metadata, "release", rec, sizeof(rec));
	seq = take_ok(_metadata, self, edu_dev, dma[0]);
	get_ok(_metadata, self, seq, &s);
	for (i = 0; i < s.n_sharers; i++)
		EXPECT_NE(dma[1], s.sharers[i].dma_addr) TH_LOG("an unmapped half still shares");
}

/* ---- profiles ------------------------------------------------------------ */

struct reg_def {
	const char *name;
	__u32 window, offset, width, flags;
	const char *field;	/* one field, "NAME:SHIFT:BITS", or NULL */
};

/* QEMU edu's registers (hw/misc/edu.c); RAISE is write-only: never read. */
static const struct reg_def edu_regs[] = {
	{ "ID", 0, 0x00, 4 },
	{ "STATUS", 0, 0x20, 4, 0, "COMPUTING:0:1" },
	{ "RAISE", 0, 0x60, 4, EDGEDMA_REGISTER_READ_CLEARS },
	{ "DMA_SRC", 0, 0x80, 8 },
	{ "DMA_DST", 0, 0x88, 8 },
	{ "DMA_CNT", 0, 0x90, 8 },
	{ "DMA_CMD", 0, 0x98, 8, 0, "RUN:0:1" },
};

#define EDU_PROFILE	"selftest-edu"
#define EDU_PCI_ID	(0x1234u << 16 | 0x11e8)

struct dfield_def {
	const char *name;
	__u32 offset, width, role;
};

/* A chain of a profile; 0 and NULL members are left out of the request. */
struct chain_def {
	const char *name;
	__u32 kind;
	const char *start_reg, *length_reg, *head_reg, *tail_reg;
	__u32 entries, desc_size, max_descs, align_log2, direction;
	unsigned int n_fields;
	struct dfield_def fields[4];
};

static void put_chain(struct __test_metadata *_metadata, struct nl_msg *m,
		      const struct chain_def *c)
{
	int chain = nl_nest_start(m, EDGEDMA_A_PROFILE_CHAIN);
	unsigned int i;

	ASSERT_LE(0, chain);
	ASSERT_LE(0, nl_put_str(m, EDGEDMA_A_CHAIN_NAME, c->name));
	ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_CHAIN_KIND, c->kind));
	if (c->start_reg)
		ASSERT_LE(0, nl_put_str(m, EDGEDMA_A_CHAIN_START_REG, c->start_reg));
	if (c->length_reg)
		ASSERT_LE(0, nl_put_str(m, EDGEDMA_A_CHAIN_LENGTH_REG, c->length_reg));
	if (c->head_reg)
		ASSERT_LE(0, nl_put_str(m, EDGEDMA_A_CHAIN_HEAD_REG, c->head_reg));
	if (c->tail_reg)
		ASSERT_LE(0, nl_put_str(m, EDGEDMA_A_CHAIN_TAIL_REG, c->tail_reg));
	if (c->entries)
		ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_CHAIN_ENTRIES, c->entries));
	ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_CHAIN_DESC_SIZE, c->desc_size));
	if (c->max_descs)
		ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_CHAIN_MAX_DESCS, c->max_descs));
	if (c->align_log2)
		ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_CHAIN_ALIGN_LOG2, c->align_log2));
	if (c->direction)
		ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_CHAIN_DIRECTION, c->direction));
	for (i = 0; i < c->n_fields; i++) {
		int f = nl_nest_start(m, EDGEDMA_A_CHAIN_DFIELD);

		ASSERT_LE(0, f);
		ASSERT_LE(0, nl_put_str(m, EDGEDMA_A_DFIELD_NAME, c->fields[i].name));
		ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_DFIELD_OFFSET, c->fields[i].offset));
		ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_DFIELD_WIDTH, c->fields[i].width));
		if (c->fields[i].role)
			ASSERT_LE(0, nl_put_u32(m, EDGEDMA_A_DFIELD_ROLE, c->fields[i].role));
		nl_nest_end(m, f);
	}
	nl_nest_end(m, chain);
}

static void profile_set_chain(struct __test_metadata *_metadata,
			      FIXTURE_DATA(snapshot) *self, const char *name,
			      const struct reg_def *regs, unsigned int n,
			      const struct chain_def *chain, __u32 *bound,
			      struct nl_answer *ans);

/* PROFILE_SET of @regs matched by PCI ID; the answer in @ans, BOUND in *bound. */
static void profile_set(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
			const char *name, const struct reg_def *regs, unsigned int n,
			__u32 *bound, struct nl_answer *ans)
{
	profile_set_chain(_metadata, self, name, regs, n, NULL, bound, ans);
}

static void profile_set_chain(struct __test_metadata *_metadata,
			      FIXTURE_DATA(snapshot) *self, const char *name,
			      const struct reg_def *regs, unsigned int n,
			      const struct chain_def *chain, __u32 *bound,
			      struct nl_answer *ans)
{
	struct reply r = { .family = self->fam.id, .cmd = EDGEDMA_CMD_PROFILE_SET,
			   .u64_type = EDGEDMA_A_PROFILE_BOUND };
	static struct nl_msg m;
	unsigned int i;
	int err;

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_PROFILE_SET, 1);
	ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_PROFILE_NAME, name));
	ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_PROFILE_PCI_ID, EDU_PCI_ID));
	for (i = 0; i < n; i++) {
		int reg = nl_nest_start(&m, EDGEDMA_A_PROFILE_REGISTER);

		ASSERT_LE(0, reg);
		ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_REGISTER_NAME, regs[i].name));
		ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_REGISTER_WINDOW, regs[i].window));
		ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_REGISTER_OFFSET, regs[i].offset));
		ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_REGISTER_WIDTH, regs[i].width));
		if (regs[i].flags)
			ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_REGISTER_FLAGS, regs[i].flags));
		if (regs[i].field) {
			char fname[32];
			unsigned int shift, bits;
			int field = nl_nest_start(&m, EDGEDMA_A_REGISTER_FIELD);

			ASSERT_EQ(3, sscanf(regs[i].field, "%31[^:]:%u:%u", fname, &shift, &bits));
			ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_FIELD_NAME, fname));
			ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_FIELD_SHIFT, shift));
			ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_FIELD_BITS, bits));
			nl_nest_end(&m, field);
		}
		nl_nest_end(&m, reg);
	}
	if (chain)
		put_chain(_metadata, &m, chain);
	err = nl_transact(&self->sk, &m, snapshot_reply_fn, &r, ans);
	ASSERT_EQ(0, err) TH_LOG("PROFILE_SET: %s %s", strerror(-err), r.bad);
	*bound = ans->error ? 0 : (__u32)r.u64;
}

static void profile_del(FIXTURE_DATA(snapshot) *self, const char *name,
			struct nl_answer *ans)
{
	struct nl_msg m;

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_PROFILE_DEL, 1);
	nl_put_str(&m, EDGEDMA_A_PROFILE_NAME, name);
	nl_transact(&self->sk, &m, NULL, NULL, ans);
}

static const struct snap_register *find_register(const struct snapshot *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n_registers; i++)
		if (!strcmp(s->registers[i].name, name))
			return &s->registers[i];
	return NULL;
}

/*
 * A profile of edu's registers binds to the edu device; a snapshot then
 * holds every register's value (edu's ID reads 0x010000ed), the field
 * definitions, and leaves the write-only register unread; after
 * PROFILE_DEL the snapshot says no profile describes the device.
 */
TEST_F(snapshot, profile_registers_read)
{
	static struct snapshot s;
	const struct snap_register *reg;
	struct nl_answer ans;
	__u32 bound = 0;
	__u64 seq;

	profile_set(_metadata, self, EDU_PROFILE, edu_regs, ARRAY_SIZE(edu_regs), &bound, &ans);
	ASSERT_EQ(0, ans.error) TH_LOG("PROFILE_SET: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_LE(1U, bound);
	seq = take_ok(_metadata, self, edu_dev, 0);
	get_ok(_metadata, self, seq, &s);
	EXPECT_STREQ(EDU_PROFILE, s.profile);
	EXPECT_EQ(ARRAY_SIZE(edu_regs), s.n_registers);
	reg = find_register(&s, "ID");
	ASSERT_NE(NULL, reg);
	EXPECT_TRUE(reg->have_value);
	EXPECT_EQ(0x010000edULL, reg->value);
	reg = find_register(&s, "RAISE");
	ASSERT_NE(NULL, reg);
	EXPECT_FALSE(reg->have_value);
	EXPECT_EQ((__u32)EDGEDMA_SKIP_READ_CLEARS, reg->skipped);
	reg = find_register(&s, "STATUS");
	ASSERT_NE(NULL, reg);
	EXPECT_EQ(1U, reg->nfields);

	profile_del(self, EDU_PROFILE, &ans);
	EXPECT_EQ(0, ans.error);
	seq = take_ok(_metadata, self, edu_dev, 0);
	get_ok(_metadata, self, seq, &s);
	EXPECT_EQ(0U, s.n_registers);
	EXPECT_TRUE(skipped(&s, EDGEDMA_SNAPSHOT_PART_REGISTERS, EDGEDMA_SKIP_NO_PROFILE));
}

/* Profiles that do not fit the device, or say too little, are refused. */
TEST_F(snapshot, profile_refusals_say_why)
{
	static const struct reg_def past_bar[] = { { "FAR", 0, 0x100000, 4 } };
	static const struct reg_def no_window[] = { { "NOWHERE", 3, 0, 4 } };
	static const struct reg_def odd_width[] = { { "ODD", 0, 0, 3 } };
	static const struct reg_def misaligned[] = { { "MISALIGNED", 0, 0x82, 8 } };
	static const struct {
		const char *what;
		const struct reg_def *regs;
		const char *name;	/* in the message where the kernel can say it */
	} cases[] = {
		{ "a register past the end of BAR 0 (1 MiB)", past_bar, "FAR" },
		{ "a register in a BAR edu does not have", no_window, "NOWHERE" },
		{ "a width of 3 bytes", odd_width, NULL },
		{ "an 8-byte register at 0x82", misaligned, "MISALIGNED" },
	};
	struct nl_answer ans;
	unsigned int i;
	__u32 bound;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		profile_set(_metadata, self, "selftest-bad", cases[i].regs, 1, &bound, &ans);
		EXPECT_EQ(-EINVAL, ans.error) TH_LOG("%s: %s", cases[i].what,
				nl_answer_str(&ans, self->buf, sizeof(self->buf)));
		EXPECT_TRUE(ans.has_msg) TH_LOG("%s: no message", cases[i].what);
		TH_LOG("%s: %s", cases[i].what, ans.msg);
		/* 6.2 on: a message naming it; before, the offset of its attribute. */
		if (cases[i].name && starts_with(ans.msg, "register ")) {
			EXPECT_NE(NULL, strstr(ans.msg, cases[i].name));
		} else if (cases[i].name) {
			EXPECT_TRUE(ans.has_offs) TH_LOG("%s: the bad register is not pointed at",
							 cases[i].what);
		}
	}
	profile_del(self, "selftest-bad", &ans);
	EXPECT_EQ(-ENOENT, ans.error) TH_LOG("a refused profile was kept");
	EXPECT_TRUE(ans.has_msg);
}

/*
 * The attributes of a reply of the edgedma family: 1 with them in
 * *@attrs/*@len, 0 for another family's message (the ack), -EBADMSG for
 * one too short for its header.
 */
static int family_attrs(const struct nlmsghdr *nlh, __u16 family, const void **attrs,
			size_t *len)
{
	if (nlh->nlmsg_type != family)
		return 0;
	*attrs = genl_attrs(nlh, 0, len);
	return *attrs ? 1 : -EBADMSG;
}

/* ---- descriptor chains ---------------------------------------------------- */

/* The test driver's list ("hold-chain"): 24-byte descriptors. */
static const struct reg_def chain_regs[] = {
	{ "DMA_SRC", 0, 0x80, 8 },
	/* A ring's head and tail, as hold-chain sets them. */
	{ "DMA_DST", 0, 0x88, 8 },
	{ "DMA_CNT", 0, 0x90, 8 },
};

#define EDU_CHAIN_LIST(max)							\
	{ .name = "test-list", .kind = EDGEDMA_CHAIN_LIST, .start_reg = "DMA_SRC",	\
	  .desc_size = 24, .max_descs = (max), .n_fields = 4,			\
	  .fields = { { "addr", 0, 8, EDGEDMA_DESC_ROLE_ADDRESS },		\
		      { "next", 8, 8, EDGEDMA_DESC_ROLE_NEXT },			\
		      { "len", 16, 4, EDGEDMA_DESC_ROLE_LENGTH },		\
		      { "ctrl", 20, 4, EDGEDMA_DESC_ROLE_CONTROL } } }

/* What "hold-chain" says it built. */
struct held_chain {
	unsigned long long chain, live[4], gone, unknown;
	unsigned long long phys;	/* the list's page */
	int vmalloc;			/* its CPU address is a vmap */
};

static void hold_chain(struct __test_metadata *_metadata, const char *mode,
		       struct held_chain *h)
{
	static char rec[EDU_RECORD_SIZE + 1];
	unsigned int i;
	const char *p;

	run_mode(_metadata, mode, rec, sizeof(rec));
	p = strstr(rec, "chain dma=");
	ASSERT_NE(NULL, p) TH_LOG("no chain in the record: %s", rec);
	ASSERT_EQ(3, sscanf(p, "chain dma=%llx descs=%*u desc_size=%*u vmalloc=%d phys=%llx",
			    &h->chain, &h->vmalloc, &h->phys)) TH_LOG("%.120s", p);
	for (i = 0; i < 4; i++) {
		char want[32];

		snprintf(want, sizeof(want), "desc %u live dma=", i);
		p = strstr(rec, want);
		ASSERT_NE(NULL, p) TH_LOG("no %s in the record: %s", want, rec);
		ASSERT_EQ(1, sscanf(p + strlen(want), "%llx", &h->live[i]));
	}
	p = strstr(rec, "desc 4 unmapped dma=");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(p, "desc 4 unmapped dma=%llx", &h->gone));
	p = strstr(rec, "desc 5 unknown dma=");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(p, "desc 5 unknown dma=%llx", &h->unknown));
}

/* A snapshot of edu with the chain profile set; the chain in *c. */
static void snapshot_chain(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
			   const struct chain_def *def, struct snapshot *s)
{
	struct nl_answer ans;
	__u32 bound = 0;
	__u64 seq;

	profile_set_chain(_metadata, self, EDU_PROFILE, chain_regs, ARRAY_SIZE(chain_regs),
			  def, &bound, &ans);
	ASSERT_EQ(0, ans.error) TH_LOG("PROFILE_SET: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	ASSERT_LE(1U, bound);
	seq = take_ok(_metadata, self, edu_dev, 0);
	get_ok(_metadata, self, seq, s);
	ASSERT_EQ(1U, s->n_chains) TH_LOG("the snapshot holds no chain");
	TH_LOG("chain %s: start %#llx walk %#x, %u descriptors", s->chains[0].name,
	       (unsigned long long)s->chains[0].start, s->chains[0].walk, s->chains[0].n_descs);
}

/*
 * A list of six descriptors whose start edu's DMA_SRC register holds: the
 * snapshot walks it from the register, reads each descriptor through the
 * coherent mapping holding it, and resolves each buffer: four live (their
 * mappings named), one unmapped before (the unmap named), one never
 * mapped. The list ends at its NULL next: no walk flag.
 */
TEST_F(snapshot, chain_list_buffers_resolved)
{
	const __u64 page_mask = ~((__u64)getpagesize() - 1);
	static const struct chain_def def = EDU_CHAIN_LIST(0);
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	const struct snap_chain *c;
	struct held_chain h;
	struct nl_answer ans;
	unsigned int i;

	hold_chain(_metadata, "hold-chain", &h);
	snapshot_chain(_metadata, self, &def, &s);
	run_mode(_metadata, "release", rec, sizeof(rec));
	profile_del(self, EDU_PROFILE, &ans);
	c = &s.chains[0];
	EXPECT_STREQ("test-list", c->name);
	EXPECT_EQ((__u32)EDGEDMA_CHAIN_LIST, c->kind);
	EXPECT_EQ(4U, c->n_fields);
	ASSERT_TRUE(c->have_start);
	EXPECT_EQ(h.chain, c->start);
	ASSERT_TRUE(c->have_walk);
	EXPECT_EQ(0U, c->walk);
	ASSERT_EQ(6U, c->n_descs);
	for (i = 0; i < 6; i++) {
		const struct snap_desc *d = &c->descs[i];

		EXPECT_EQ(i, d->index);
		EXPECT_EQ(h.chain + 24 * i, d->dma_addr);
		EXPECT_EQ((__u32)EDGEDMA_DESC_READ, d->state) TH_LOG("descriptor %u", i);
		EXPECT_EQ(24U, d->nbytes);
		ASSERT_EQ(1U, d->n_buffers) TH_LOG("descriptor %u", i);
		EXPECT_EQ(0U, d->buffers[0].field);
	}
	for (i = 0; i < 4; i++) {
		const struct snap_buffer *b = &c->descs[i].buffers[0];

		EXPECT_EQ(h.live[i], b->addr);
		EXPECT_EQ(256U, b->length);
		EXPECT_EQ((__u32)EDGEDMA_BUFFER_LIVE, b->state) TH_LOG("buffer %u", i);
		EXPECT_TRUE(b->have_map);
		EXPECT_EQ(h.live[i], b->map_addr);
		EXPECT_EQ(256U, b->map_size);
	}
	EXPECT_EQ(h.gone, c->descs[4].buffers[0].addr);
	EXPECT_EQ((__u32)EDGEDMA_BUFFER_UNMAPPED, c->descs[4].buffers[0].state)
		TH_LOG("the buffer unmapped before is not named so");
	EXPECT_EQ(h.gone, c->descs[4].buffers[0].map_addr);
	EXPECT_EQ(h.unknown, c->descs[5].buffers[0].addr);
	EXPECT_EQ((__u32)EDGEDMA_BUFFER_UNKNOWN, c->descs[5].buffers[0].state)
		TH_LOG("the address never mapped is not named so");
	EXPECT_FALSE(c->descs[5].buffers[0].have_map);

	/*
	 * The snapshot is about no address, so every page it views is a
	 * buffer's: the wrong ones first (the unmapped buffer's page, then
	 * the never-mapped one's, which no mapping expects anything of), then
	 * the live buffers' pages, each expecting its mapping's memory.
	 */
	ASSERT_LE(3U, s.n_pages) TH_LOG("the buffers' pages are not viewed");
	EXPECT_EQ(h.gone & page_mask, s.pages[0].dma_addr);
	EXPECT_EQ(h.unknown & page_mask, s.pages[1].dma_addr);
	EXPECT_FALSE(s.pages[1].have_expected);
	for (i = 2; i < s.n_pages; i++) {
		EXPECT_TRUE(s.pages[i].have_expected) TH_LOG("page %#llx",
			(unsigned long long)s.pages[i].dma_addr);
		EXPECT_TRUE(s.pages[i].dma_addr == (h.live[0] & page_mask) ||
			    s.pages[i].dma_addr == (h.live[1] & page_mask) ||
			    s.pages[i].dma_addr == (h.live[2] & page_mask) ||
			    s.pages[i].dma_addr == (h.live[3] & page_mask));
	}
}

/*
 * The page of a coherent allocation, seen through the CPU address its
 * driver was given: behind an IOMMU, dma_alloc_coherent() vmaps the pages
 * (iommu_dma_alloc_remap()) and the view is that vmalloc address's own
 * page-table entry, mapping one page, pointing at the allocation's real
 * page (where a guess through the linear map would point elsewhere);
 * without one, its linear-map entry. Either way present, writable, never
 * executable, the right PFN, and cached exactly when the device is
 * coherent.
 */
TEST_F(snapshot, page_views_of_coherent_memory)
{
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	const struct snap_page *pg;
	struct held_chain h;
	__u64 page_size, seq;

	page_size = ask(_metadata, self, EDGEDMA_CMD_GET_INFO, EDGEDMA_A_INFO_PAGE_SIZE);
	ASSERT_LT(0ULL, page_size);
	hold_chain(_metadata, "hold-chain", &h);
	seq = take_ok(_metadata, self, edu_dev, h.chain);
	get_ok(_metadata, self, seq, &s);
	run_mode(_metadata, "release", rec, sizeof(rec));
	TH_LOG("coherent list at %#llx, page %#llx, %s", h.chain, h.phys,
	       h.vmalloc ? "vmapped" : "in the linear map");
	ASSERT_LE(1U, s.n_pages);
	pg = &s.pages[0];
	EXPECT_EQ(h.chain & ~(page_size - 1), pg->dma_addr);
	EXPECT_NE(0ULL, pg->cpu_virt) TH_LOG("no CPU address viewed");
	ASSERT_TRUE(pg->have_pte) TH_LOG("no page-table entry for the CPU address");
	EXPECT_EQ(1U, pg->pte_present);
	EXPECT_EQ(1U, pg->pte_writable);
	EXPECT_EQ(0U, pg->pte_executable);
	EXPECT_EQ(h.phys / page_size, pg->pte_pfn)
		TH_LOG("the entry maps pfn %#llx, the allocation is at %#llx",
		       (unsigned long long)pg->pte_pfn, h.phys / page_size);
	if (h.vmalloc) {
		EXPECT_EQ(page_size, pg->pte_size) TH_LOG("a vmap is mapped page by page");
	}
	ASSERT_TRUE(s.have_coherent);
	EXPECT_EQ(!!s.coherent, pg->pte_memtype == EDGEDMA_MEMTYPE_WRITE_BACK)
		TH_LOG("coherent %u, memtype %u", s.coherent, pg->pte_memtype);
}

/*
 * The same memory as a ring of six: every slot read from slot 0, and no
 * owner without head and tail registers; with DMA_DST as its head (4) and
 * DMA_CNT as its tail (1), walked from slot 4 on, slots 4, 5 and 0 the
 * device's, the rest the driver's, so the device owns the descriptor
 * whose buffer was unmapped; with a
 * bound of three, three and the bound flag; as a list whose last
 * descriptor points back at the third, each descriptor once and the loop
 * flag; once the driver freed the list (the register still holding its
 * address), one descriptor in no mapping, not read.
 */
TEST_F(snapshot, chain_ring_bound_loop_unmapped)
{
	static const struct chain_def ring = {
		.name = "test-ring", .kind = EDGEDMA_CHAIN_RING, .start_reg = "DMA_SRC",
		.entries = 6, .desc_size = 24, .n_fields = 1,
		.fields = { { "addr", 0, 8, EDGEDMA_DESC_ROLE_ADDRESS } },
	};
	static const struct chain_def headed = {
		.name = "test-ring", .kind = EDGEDMA_CHAIN_RING, .start_reg = "DMA_SRC",
		.head_reg = "DMA_DST", .tail_reg = "DMA_CNT",
		.entries = 6, .desc_size = 24, .n_fields = 1,
		.fields = { { "addr", 0, 8, EDGEDMA_DESC_ROLE_ADDRESS } },
	};
	static const __u32 slot_order[] = { 4, 5, 0, 1, 2, 3 };
	static const struct chain_def bounded = EDU_CHAIN_LIST(3);
	static const struct chain_def list = EDU_CHAIN_LIST(0);
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	const struct snap_chain *c = &s.chains[0];
	struct held_chain h;
	struct nl_answer ans;
	unsigned int i, j;

	hold_chain(_metadata, "hold-chain", &h);
	snapshot_chain(_metadata, self, &ring, &s);
	EXPECT_EQ((__u32)EDGEDMA_CHAIN_RING, c->kind);
	EXPECT_TRUE(c->have_count);
	EXPECT_EQ(6U, c->count);
	EXPECT_EQ(0U, c->walk);
	EXPECT_EQ(6U, c->n_descs);
	for (i = 0; i < c->n_descs; i++) {
		EXPECT_EQ(i, c->descs[i].index);
		EXPECT_EQ((__u32)EDGEDMA_DESC_READ, c->descs[i].state);
		EXPECT_EQ(0U, c->descs[i].owner) TH_LOG("an owner without head and tail");
	}

	snapshot_chain(_metadata, self, &headed, &s);
	ASSERT_EQ(6U, c->n_descs);
	for (i = 0; i < c->n_descs; i++) {
		EXPECT_EQ(slot_order[i], c->descs[i].index) TH_LOG("the walk starts at the head");
		EXPECT_EQ((__u32)(i < 3 ? EDGEDMA_OWNER_DEVICE : EDGEDMA_OWNER_DRIVER),
			  c->descs[i].owner) TH_LOG("slot %u's owner", c->descs[i].index);
	}
	ASSERT_EQ(1U, c->descs[0].n_buffers);
	EXPECT_EQ((__u32)EDGEDMA_BUFFER_UNMAPPED, c->descs[0].buffers[0].state)
		TH_LOG("the device's slot 4 does not point at the unmapped buffer");

	snapshot_chain(_metadata, self, &bounded, &s);
	EXPECT_EQ((__u32)EDGEDMA_WALK_BOUND, c->walk);
	EXPECT_EQ(3U, c->n_descs);
	run_mode(_metadata, "release", rec, sizeof(rec));

	hold_chain(_metadata, "hold-chain-loop", &h);
	snapshot_chain(_metadata, self, &list, &s);
	EXPECT_EQ((__u32)EDGEDMA_WALK_LOOP, c->walk) TH_LOG("the loop is not flagged");
	EXPECT_EQ(6U, c->n_descs) TH_LOG("a descriptor was listed twice or left out");
	for (i = 0; i < c->n_descs; i++)
		for (j = i + 1; j < c->n_descs; j++)
			EXPECT_NE(c->descs[i].dma_addr, c->descs[j].dma_addr);
	run_mode(_metadata, "release", rec, sizeof(rec));

	snapshot_chain(_metadata, self, &list, &s);
	profile_del(self, EDU_PROFILE, &ans);
	EXPECT_EQ(h.chain, c->start);
	EXPECT_EQ((__u32)EDGEDMA_WALK_NO_MAPPING, c->walk);
	ASSERT_EQ(1U, c->n_descs);
	EXPECT_EQ((__u32)EDGEDMA_DESC_NO_MAPPING, c->descs[0].state);
	EXPECT_EQ(0U, c->descs[0].nbytes) TH_LOG("a descriptor in no mapping was read");
}

struct profile_reply {
	__u16 family;
	unsigned int chains, registers, bound_devices;
	__u32 chain_align_log2;		/* 0: none given */
	__u32 chain_direction;		/* 0: none given */
	char chain_name[32], device[64];
};

static int profile_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	struct profile_reply *r = arg;
	const struct nlattr *a;
	const void *attrs;
	size_t len;
	int ours = family_attrs(nlh, r->family, &attrs, &len);

	if (ours <= 0)
		return ours;
	for_each_attr(a, attrs, len) {
		const struct nlattr *tb[EDGEDMA_A_CHAIN_MAX + 1];

		switch (a->nla_type & NLA_TYPE_MASK) {
		case EDGEDMA_A_PROFILE_CHAIN:
			r->chains++;
			if (nl_parse(nl_attr_data(a), nl_attr_len(a), tb, EDGEDMA_A_CHAIN_MAX))
				break;
			copy_attr_str(tb[EDGEDMA_A_CHAIN_NAME], r->chain_name,
				      sizeof(r->chain_name));
			if (tb[EDGEDMA_A_CHAIN_ALIGN_LOG2])
				nl_attr_u32(tb[EDGEDMA_A_CHAIN_ALIGN_LOG2], &r->chain_align_log2);
			if (tb[EDGEDMA_A_CHAIN_DIRECTION])
				nl_attr_u32(tb[EDGEDMA_A_CHAIN_DIRECTION], &r->chain_direction);
			break;
		case EDGEDMA_A_PROFILE_REGISTER:
			r->registers++;
			break;
		case EDGEDMA_A_PROFILE_BOUND_DEVICE:
			r->bound_devices++;
			copy_attr_str(a, r->device, sizeof(r->device));
			break;
		}
	}
	return 0;
}

/*
 * PROFILE_GET of one name gives the profile as it was set, with the
 * devices it is bound to, with the alignment rule and direction given;
 * chains that name a register the profile lacks, an alignment over 64 KiB,
 * a direction other than to-device (1) or from-device (2),
 * a list without a next field, a ring without a size or a field past the
 * descriptor are refused with a message.
 */
/*
 * A PL330 channel's program (the test driver's "hold-program": DMAMOV
 * CCR, SAR at a live buffer, DAR at an unmapped one, a load/store loop,
 * DMAEND) in the coherent page, edu's DMA_SRC standing in for the
 * channel's CPC, 20 bytes in. The snapshot reads the 256-byte microcode
 * buffer the CPC is in, from its start, through the coherent mapping:
 * two blocks of 128 bytes, the instructions where the driver wrote them.
 */
TEST_F(snapshot, chain_pl330_program_read_around_cpc)
{
	static const struct chain_def def = {
		.name = "ch0-program", .kind = EDGEDMA_CHAIN_PL330_PROGRAM,
		.start_reg = "DMA_SRC", .entries = 2, .desc_size = 128,
	};
	static char rec[EDU_RECORD_SIZE + 1];
	static struct snapshot s;
	unsigned long long prog, cpc, sar, dar;
	const struct snap_chain *c;
	struct nl_answer ans;
	const unsigned char *b;
	const char *p;

	run_mode(_metadata, "hold-program", rec, sizeof(rec));
	p = strstr(rec, "program dma=");
	ASSERT_NE(NULL, p) TH_LOG("no program in the record: %s", rec);
	ASSERT_EQ(4, sscanf(p, "program dma=%llx len=%*u cpc=%llx sar=%llx dar=%llx",
			    &prog, &cpc, &sar, &dar)) TH_LOG("%.120s", p);
	snapshot_chain(_metadata, self, &def, &s);
	run_mode(_metadata, "release", rec, sizeof(rec));
	profile_del(self, EDU_PROFILE, &ans);
	c = &s.chains[0];
	EXPECT_EQ((__u32)EDGEDMA_CHAIN_PL330_PROGRAM, c->kind);
	ASSERT_TRUE(c->have_start);
	EXPECT_EQ(cpc, c->start) TH_LOG("the chain's start is not the CPC read");
	EXPECT_EQ(0U, c->walk);
	ASSERT_EQ(2U, c->n_descs);
	EXPECT_EQ(prog, c->descs[0].dma_addr) TH_LOG("not read from the program's start");
	EXPECT_EQ(prog + 128, c->descs[1].dma_addr);
	ASSERT_EQ((__u32)EDGEDMA_DESC_READ, c->descs[0].state);
	ASSERT_EQ(128U, c->descs[0].nbytes);
	EXPECT_EQ(0U, c->descs[0].n_buffers) TH_LOG("a program has no buffer fields");
	b = c->descs[0].bytes;
	/* DMAMOV SAR, then DMAMOV DAR, their 32-bit immediates little-endian. */
	EXPECT_EQ(0xbc, b[6]);
	EXPECT_EQ(0, b[7]);
	EXPECT_EQ((__u32)sar, b[8] | b[9] << 8 | b[10] << 16 | (__u32)b[11] << 24);
	EXPECT_EQ(0xbc, b[12]);
	EXPECT_EQ(2, b[13]);
	EXPECT_EQ((__u32)dar, b[14] | b[15] << 8 | b[16] << 16 | (__u32)b[17] << 24);
	EXPECT_EQ(0x04, b[cpc - prog]) TH_LOG("the CPC's instruction is not the loop's DMALD");
}

/*
 * Programs are refused without a size, with one that is no power of two,
 * with fields, or with a ring's registers.
 */
TEST_F(snapshot, chain_pl330_program_checked)
{
	static const struct chain_def good = {
		.name = "ch0-program", .kind = EDGEDMA_CHAIN_PL330_PROGRAM,
		.start_reg = "DMA_SRC", .entries = 2, .desc_size = 128,
	};
	static struct chain_def bad[4];
	struct nl_answer ans;
	unsigned int i;
	__u32 bound;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		bad[i] = good;
	bad[0].entries = 0;
	bad[1].entries = 3;					/* 384 bytes */
	bad[2].n_fields = 1;
	bad[2].fields[0] = (struct dfield_def){ "op", 0, 1, 0 };
	bad[3].head_reg = "DMA_DST";
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		profile_set_chain(_metadata, self, "selftest-bad", chain_regs,
				  ARRAY_SIZE(chain_regs), &bad[i], &bound, &ans);
		EXPECT_EQ(-EINVAL, ans.error) TH_LOG("bad program %u accepted", i);
		EXPECT_TRUE(ans.has_msg) TH_LOG("bad program %u: no message", i);
		TH_LOG("bad program %u: %s", i, ans.msg);
	}
	profile_set_chain(_metadata, self, "selftest-good", chain_regs, ARRAY_SIZE(chain_regs),
			  &good, &bound, &ans);
	EXPECT_EQ(0, ans.error) TH_LOG("PROFILE_SET: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	profile_del(self, "selftest-good", &ans);
	EXPECT_EQ(0, ans.error);
}

TEST_F(snapshot, chain_definitions_checked)
{
	static const struct chain_def list = EDU_CHAIN_LIST(0);
	static struct chain_def aligned;
	static const struct reg_def clearing[] = {
		{ "DMA_SRC", 0, 0x80, 8, EDGEDMA_REGISTER_READ_CLEARS },
	};
	static struct chain_def bad[7];
	struct profile_reply pr = { .family = self->fam.id };
	struct nl_answer ans;
	struct nl_msg m;
	unsigned int i;
	__u32 bound;
	int err;

	/* The controller's alignment rule comes back as it was given. */
	aligned = list;
	aligned.align_log2 = 6;
	aligned.direction = 2;		/* DMA_FROM_DEVICE */
	profile_set_chain(_metadata, self, EDU_PROFILE, chain_regs, ARRAY_SIZE(chain_regs),
			  &aligned, &bound, &ans);
	ASSERT_EQ(0, ans.error) TH_LOG("PROFILE_SET: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_PROFILE_GET, 1);
	ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_PROFILE_NAME, EDU_PROFILE));
	err = nl_transact(&self->sk, &m, profile_reply_fn, &pr, &ans);
	ASSERT_EQ(0, err);
	EXPECT_EQ(0, ans.error) TH_LOG("PROFILE_GET: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(1U, pr.chains);
	EXPECT_STREQ("test-list", pr.chain_name);
	EXPECT_EQ(6U, pr.chain_align_log2);
	EXPECT_EQ(2U, pr.chain_direction);
	EXPECT_EQ(ARRAY_SIZE(chain_regs), pr.registers);
	EXPECT_EQ(bound, pr.bound_devices);
	EXPECT_STREQ(edu_dev, pr.device);
	profile_del(self, EDU_PROFILE, &ans);
	EXPECT_EQ(0, ans.error);

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_PROFILE_GET, 1);
	ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_PROFILE_NAME, EDU_PROFILE));
	err = nl_transact(&self->sk, &m, profile_reply_fn, &pr, &ans);
	EXPECT_EQ(-ENOENT, ans.error) TH_LOG("PROFILE_GET of a deleted profile");
	EXPECT_TRUE(ans.has_msg);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		bad[i] = list;
	bad[0].start_reg = "NO_SUCH_REG";
	bad[1].fields[1].role = EDGEDMA_DESC_ROLE_CONTROL;	/* no next */
	bad[2].kind = EDGEDMA_CHAIN_RING;			/* a ring of no size */
	bad[2].fields[1].role = 0;
	bad[3].fields[3].offset = 22;				/* 22 + 4 > 24 */
	bad[4].align_log2 = 17;					/* over 64 KiB */
	bad[5].direction = 3;					/* DMA_NONE */
	bad[6].direction = 0xffffffff;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		profile_set_chain(_metadata, self, "selftest-bad", chain_regs,
				  ARRAY_SIZE(chain_regs), &bad[i], &bound, &ans);
		/* The netlink policy's range check answers -ERANGE. */
		EXPECT_EQ(i >= 4 ? -ERANGE : -EINVAL, ans.error) TH_LOG("bad chain %u accepted", i);
		EXPECT_TRUE(ans.has_msg) TH_LOG("bad chain %u: no message", i);
		TH_LOG("bad chain %u: %s", i, ans.msg);
	}
	profile_set_chain(_metadata, self, "selftest-bad", clearing, 1, &list, &bound, &ans);
	EXPECT_EQ(-EINVAL, ans.error) TH_LOG("a chain starting at a read-clears register");
	EXPECT_TRUE(ans.has_msg);
	profile_del(self, "selftest-bad", &ans);
	EXPECT_EQ(-ENOENT, ans.error) TH_LOG("a refused profile was kept");
}

/* ---- devcoredump ------------------------------------------------------------ */

#define DEVCD "/sys/class/devcoredump"

struct raw_reply {
	__u16 family;
	unsigned char buf[1 << 20];
	size_t len;
};

static int raw_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	struct raw_reply *r = arg;
	const void *attrs;
	size_t len;
	int ours = family_attrs(nlh, r->family, &attrs, &len);

	if (ours <= 0)
		return ours;
	if (len > sizeof(r->buf))
		return -EBADMSG;
	memcpy(r->buf, attrs, len);
	r->len = len;
	return 0;
}

/*
 * The devcoredump of @dev pending now, its folder in @dir; false when none.
 * Its failing_device link ends in the device's name.
 */
static bool devcd_of(const char *dev, char *dir, size_t n)
{
	struct dirent *e;
	bool found = false;
	DIR *d = opendir(DEVCD);

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char link[PATH_MAX], target[PATH_MAX];
		ssize_t len;

		if (strncmp(e->d_name, "devcd", 5))
			continue;
		snprintf(link, sizeof(link), DEVCD "/%s/failing_device", e->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		len = strlen(target) - strlen(dev);
		if (len > 0 && target[len - 1] == '/' && !strcmp(target + len, dev)) {
			snprintf(dir, n, DEVCD "/%s", e->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* Free a pending devcoredump of @dev (a write to its data does). */
static void devcd_free(const char *dev)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	int tries;

	for (tries = 0; tries < 50 && devcd_of(dev, dir, sizeof(dir)); tries++) {
		snprintf(path, sizeof(path), "%s/data", dir);
		write_file(path, "1");
		usleep(20 * 1000);
	}
}

/*
 * Each snapshot is published as a devcoredump of its device, and the dump
 * holds exactly the record's bytes: what SNAPSHOT_GET gives.
 */
TEST_F(snapshot, devcoredump_holds_the_record)
{
	static struct raw_reply r;
	static unsigned char data[1 << 20];
	char dir[PATH_MAX], path[PATH_MAX + 8], disabled[8] = "";
	struct nl_answer ans;
	struct nl_msg m;
	size_t got = 0;
	ssize_t n;
	__u64 seq, published;
	int fd, tries, err;

	if (access(DEVCD, F_OK))
		SKIP(return, "this kernel has no devcoredump (CONFIG_DEV_COREDUMP)");
	if (read_file(DEVCD "/disabled", disabled, sizeof(disabled)) > 0 && disabled[0] == '1')
		SKIP(return, "devcoredump is disabled (" DEVCD "/disabled)");
	/* Earlier tests' snapshots: the core keeps one dump per device. */
	devcd_free(edu_dev);
	ASSERT_FALSE(devcd_of(edu_dev, dir, sizeof(dir))) TH_LOG("a dump of %s stays", edu_dev);

	published = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOT_DEVCOREDUMPS);
	seq = take_ok(_metadata, self, edu_dev, 0);
	for (tries = 0; tries < 100 && !devcd_of(edu_dev, dir, sizeof(dir)); tries++)
		usleep(20 * 1000);
	ASSERT_TRUE(devcd_of(edu_dev, dir, sizeof(dir)))
		TH_LOG("no devcoredump of %s 2 s after snapshot %llu", edu_dev,
		       (unsigned long long)seq);
	snprintf(path, sizeof(path), "%s/data", dir);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", path, strerror(errno));
	while ((n = read(fd, data + got, sizeof(data) - got)) > 0)
		got += n;
	close(fd);

	r.family = self->fam.id;
	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_SNAPSHOT_GET, 1);
	ASSERT_LE(0, nl_put(&m, EDGEDMA_A_SNAPSHOT_SEQ, &seq, sizeof(seq)));
	err = nl_transact(&self->sk, &m, raw_reply_fn, &r, &ans);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, ans.error);
	TH_LOG("%s: %zu bytes; SNAPSHOT_GET %llu: %zu bytes", path, got,
	       (unsigned long long)seq, r.len);
	EXPECT_EQ(r.len, got);
	EXPECT_EQ(0, memcmp(r.buf, data, got < r.len ? got : r.len))
		TH_LOG("the devcoredump is not the record's bytes");
	EXPECT_LT(published, stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOT_DEVCOREDUMPS))
		TH_LOG("GET_STATS snapshot-devcoredumps did not count it");
	devcd_free(edu_dev);
}

/* ---- trigger policy ---------------------------------------------------------- */

#define FOLD_PARAM	"/sys/module/edgedma/parameters/fold_findings"

struct trigger_reply {
	__u16 family;
	__u64 fired[8], taken[8], off[8];
};

static int trigger_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	struct trigger_reply *r = arg;
	const struct nlattr *a;
	const void *attrs;
	size_t len;
	int ours = family_attrs(nlh, r->family, &attrs, &len);

	if (ours <= 0)
		return ours;
	for_each_attr(a, attrs, len) {
		const struct nlattr *tb[EDGEDMA_A_TRIGGER_COUNT_MAX + 1];
		__u32 kind = 0;

		if ((a->nla_type & NLA_TYPE_MASK) != EDGEDMA_A_STATS_TRIGGER ||
		    nl_parse(nl_attr_data(a), nl_attr_len(a), tb, EDGEDMA_A_TRIGGER_COUNT_MAX) ||
		    !nl_attr_u32(tb[EDGEDMA_A_TRIGGER_COUNT_KIND], &kind) || kind >= 8)
			continue;
		nl_attr_u64(tb[EDGEDMA_A_TRIGGER_COUNT_FIRED], &r->fired[kind]);
		nl_attr_u64(tb[EDGEDMA_A_TRIGGER_COUNT_TAKEN], &r->taken[kind]);
		nl_attr_u64(tb[EDGEDMA_A_TRIGGER_COUNT_OFF], &r->off[kind]);
	}
	return 0;
}

static void trigger_counts(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
			   struct trigger_reply *r)
{
	struct nl_answer ans;

	memset(r, 0, sizeof(*r));
	r->family = self->fam.id;
	ASSERT_EQ(0, genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_GET_STATS, 0,
			       trigger_reply_fn, r, &ans));
	ASSERT_EQ(0, ans.error);
}

/* POLICY_SET of edu's snapshot triggers and findings. */
static void snapshot_policy(struct __test_metadata *_metadata, FIXTURE_DATA(snapshot) *self,
			    __u32 triggers, __u32 findings)
{
	struct nl_answer ans;
	struct nl_msg m;

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_POLICY_SET, 1);
	ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_POLICY_DEVICE, edu_dev));
	ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS, triggers));
	ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS, findings));
	ASSERT_EQ(0, nl_transact(&self->sk, &m, NULL, NULL, &ans));
	ASSERT_EQ(0, ans.error) TH_LOG("POLICY_SET: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
}

static void snapshot_policy_del(FIXTURE_DATA(snapshot) *self)
{
	struct nl_answer ans;
	struct nl_msg m;

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_POLICY_DEL, 1);
	nl_put_str(&m, EDGEDMA_A_POLICY_DEVICE, edu_dev);
	nl_transact(&self->sk, &m, NULL, NULL, &ans);
}

static unsigned int list_snapshots(struct __test_metadata *_metadata,
				   FIXTURE_DATA(snapshot) *self, struct snapshot *list,
				   unsigned int max);

/*
 * With the device's policy asking for snapshots at unmap-mismatch
 * findings, the test driver's unmap-mismatch makes one: trigger finding,
 * the finding's seq and kind, about its address. With the finding trigger off in
 * the policy, the same finding makes none and the refusal is counted; a
 * request still snapshots the device.
 */
TEST_F(snapshot, finding_snapshot_by_policy)
{
	static struct snapshot list[64];
	static char rec[EDU_RECORD_SIZE + 1];
	const __u32 kind = EDGEDMA_FINDING_UNMAP_MISMATCH;
	const __u32 finding = EDGEDMA_SNAPSHOT_TRIGGER_FINDING;
	struct trigger_reply before, after;
	__u64 newest, findings;
	unsigned int n;

	/* Every occurrence a finding: the site may be known from earlier tests. */
	ASSERT_EQ(0, write_file(FOLD_PARAM, "N"));
	snapshot_policy(_metadata, self, (1u << finding) - 1, 1u << (kind - 1));
	trigger_counts(_metadata, self, &before);
	usleep(1100 * 1000);	/* a fresh second of snapshot_rate */
	run_mode(_metadata, "unmap-mismatch", rec, sizeof(rec));
	findings = stat(_metadata, self, EDGEDMA_A_STATS_FINDINGS);
	trigger_counts(_metadata, self, &after);
	EXPECT_LT(before.fired[finding], after.fired[finding]);
	EXPECT_EQ(before.taken[finding] + 1, after.taken[finding])
		TH_LOG("the finding took %llu snapshots, not 1",
		       (unsigned long long)(after.taken[finding] - before.taken[finding]));
	n = list_snapshots(_metadata, self, list, 64);
	ASSERT_LT(0U, n);
	newest = list[n - 1].seq;
	log_snapshot(_metadata, &list[n - 1]);
	EXPECT_EQ(finding, list[n - 1].trigger);
	EXPECT_EQ(kind, list[n - 1].finding_kind) TH_LOG("the header does not name the finding's kind");
	EXPECT_STREQ(edu_dev, list[n - 1].device);

	snapshot_policy(_metadata, self, (1u << (finding - 1)) - 1, 1u << (kind - 1));
	trigger_counts(_metadata, self, &before);
	usleep(1100 * 1000);
	run_mode(_metadata, "unmap-mismatch", rec, sizeof(rec));
	trigger_counts(_metadata, self, &after);
	EXPECT_LT(findings, stat(_metadata, self, EDGEDMA_A_STATS_FINDINGS));
	EXPECT_EQ(before.taken[finding], after.taken[finding])
		TH_LOG("a trigger the policy turned off took a snapshot");
	EXPECT_LT(before.off[finding], after.off[finding]) TH_LOG("the refusal is not counted");
	n = list_snapshots(_metadata, self, list, 64);
	ASSERT_LT(0U, n);
	EXPECT_EQ(newest, list[n - 1].seq);

	snapshot_policy(_metadata, self, 0, 0);
	EXPECT_LT(newest, take_ok(_metadata, self, edu_dev, 0))
		TH_LOG("a request was refused by a policy with every trigger off");
	snapshot_policy_del(self);
	EXPECT_EQ(0, write_file(FOLD_PARAM, "Y"));
}

/* ---- controller error handlers ----------------------------------------------- */

#define EDU_ERROR_FN	"edu_controller_error"

/* ERROR_HOOK_SET or _DEL of @symbol for @dev (NULL: left out). */
static void error_hook(FIXTURE_DATA(snapshot) *self, __u8 cmd, const char *symbol,
		       const char *dev, struct nl_answer *ans)
{
	struct nl_msg m;

	genl_msg_init(&m, self->fam.id, 0, cmd, 1);
	if (symbol)
		nl_put_str(&m, EDGEDMA_A_ERROR_HOOK_SYMBOL, symbol);
	if (dev)
		nl_put_str(&m, EDGEDMA_A_ERROR_HOOK_DEVICE, dev);
	nl_transact(&self->sk, &m, NULL, NULL, ans);
}

struct hook_reply {
	__u16 family;
	unsigned int n;
	char symbol[128], device[64];
	__u64 hits;
};

static int hook_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	struct hook_reply *r = arg;
	const struct nlattr *tb[EDGEDMA_A_ERROR_HOOK_MAX + 1];
	const void *attrs;
	size_t len;
	int ours = family_attrs(nlh, r->family, &attrs, &len);

	if (ours <= 0)
		return ours;
	if (nl_parse(attrs, len, tb, EDGEDMA_A_ERROR_HOOK_MAX))
		return -EBADMSG;
	r->n++;
	copy_attr_str(tb[EDGEDMA_A_ERROR_HOOK_SYMBOL], r->symbol, sizeof(r->symbol));
	copy_attr_str(tb[EDGEDMA_A_ERROR_HOOK_DEVICE], r->device, sizeof(r->device));
	nl_attr_u64(tb[EDGEDMA_A_ERROR_HOOK_HITS], &r->hits);
	return 0;
}

/*
 * An error hook on the test driver's edu_controller_error(): each entry
 * snapshots edu, trigger controller-error with the function's name; the
 * dump lists the hook with its hits; once removed, entering it takes
 * nothing. A function that does not exist and a device that does not are
 * refused with a message. A read-clears register marked read-on-error is
 * read by that snapshot and by no manual one; one only read-clears by
 * neither; read-on-error alone is refused.
 */
TEST_F(snapshot, controller_error_handler_snapshots)
{
	/* Stand-ins for an interrupt cause register: edu's ID, harmless to read. */
	static const struct reg_def cause_regs[] = {
		{ "CAUSE_ON_ERROR", 0, 0x00, 4,
		  EDGEDMA_REGISTER_READ_CLEARS | EDGEDMA_REGISTER_READ_ON_ERROR, NULL },
		{ "CAUSE", 0, 0x00, 4, EDGEDMA_REGISTER_READ_CLEARS, NULL },
	};
	static const struct reg_def lone[] = {
		{ "ID", 0, 0x00, 4, EDGEDMA_REGISTER_READ_ON_ERROR, NULL },
	};
	static struct snapshot list[64], s, manual;
	const struct snap_register *reg;
	__u32 bound = 0;
	static char rec[EDU_RECORD_SIZE + 1];
	const __u32 kind = EDGEDMA_SNAPSHOT_TRIGGER_CONTROLLER_ERROR;
	struct hook_reply hr = { .family = self->fam.id };
	struct trigger_reply before, after;
	struct nl_answer ans;
	unsigned int n;
	__u64 newest;

	error_hook(self, EDGEDMA_CMD_ERROR_HOOK_SET, EDU_ERROR_FN, edu_dev, &ans);
	if (ans.error == -EOPNOTSUPP) {
		/* The module says why: the refusal must carry its message. */
		ASSERT_TRUE(ans.has_msg) TH_LOG("ERROR_HOOK_SET refused with no message");
		SKIP(return, "%s: %s", _metadata->name,
		     nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	}
	ASSERT_EQ(0, ans.error) TH_LOG("ERROR_HOOK_SET: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	error_hook(self, EDGEDMA_CMD_ERROR_HOOK_SET, EDU_ERROR_FN, edu_dev, &ans);
	EXPECT_EQ(-EEXIST, ans.error) TH_LOG("the same hook set twice");
	profile_set(_metadata, self, EDU_PROFILE, lone, ARRAY_SIZE(lone), &bound, &ans);
	EXPECT_EQ(-EINVAL, ans.error) TH_LOG("read-on-error without read-clears was taken");
	EXPECT_TRUE(ans.has_msg);
	profile_set(_metadata, self, EDU_PROFILE, cause_regs, ARRAY_SIZE(cause_regs), &bound,
		    &ans);
	ASSERT_EQ(0, ans.error) TH_LOG("PROFILE_SET: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	trigger_counts(_metadata, self, &before);
	usleep(1100 * 1000);	/* a fresh second of snapshot_rate */
	run_mode(_metadata, "controller-error", rec, sizeof(rec));
	trigger_counts(_metadata, self, &after);
	EXPECT_EQ(before.fired[kind] + 1, after.fired[kind]);
	EXPECT_EQ(before.taken[kind] + 1, after.taken[kind]);
	n = list_snapshots(_metadata, self, list, 64);
	ASSERT_LT(0U, n);
	newest = list[n - 1].seq;
	get_ok(_metadata, self, newest, &s);
	log_snapshot(_metadata, &s);
	EXPECT_EQ(kind, s.trigger);
	EXPECT_STREQ(EDU_ERROR_FN, s.symbol);
	EXPECT_STREQ(edu_dev, s.device);
	reg = find_register(&s, "CAUSE_ON_ERROR");
	ASSERT_NE(NULL, reg);
	EXPECT_TRUE(reg->have_value) TH_LOG("the error handler's snapshot left it unread");
	EXPECT_EQ(0x010000edULL, reg->value);
	reg = find_register(&s, "CAUSE");
	ASSERT_NE(NULL, reg);
	EXPECT_FALSE(reg->have_value) TH_LOG("a read-clears register was read");
	EXPECT_EQ((__u32)EDGEDMA_SKIP_READ_CLEARS, reg->skipped);
	/* The newest now, for the removed hook's check below. */
	newest = take_ok(_metadata, self, edu_dev, 0);
	get_ok(_metadata, self, newest, &manual);
	profile_del(self, EDU_PROFILE, &ans);
	EXPECT_EQ(0, ans.error);
	reg = find_register(&manual, "CAUSE_ON_ERROR");
	ASSERT_NE(NULL, reg);
	EXPECT_FALSE(reg->have_value) TH_LOG("a manual snapshot read it");
	EXPECT_EQ((__u32)EDGEDMA_SKIP_READ_CLEARS, reg->skipped);
	EXPECT_EQ(0, genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_ERROR_HOOK_GET, NLM_F_DUMP,
			       hook_reply_fn, &hr, &ans));
	EXPECT_EQ(0, ans.error);
	EXPECT_EQ(1U, hr.n);
	EXPECT_STREQ(EDU_ERROR_FN, hr.symbol);
	EXPECT_STREQ(edu_dev, hr.device);
	EXPECT_EQ(1U, hr.hits);

	error_hook(self, EDGEDMA_CMD_ERROR_HOOK_DEL, EDU_ERROR_FN, NULL, &ans);
	EXPECT_EQ(0, ans.error);
	usleep(1100 * 1000);
	run_mode(_metadata, "controller-error", rec, sizeof(rec));
	n = list_snapshots(_metadata, self, list, 64);
	ASSERT_LT(0U, n);
	EXPECT_EQ(newest, list[n - 1].seq) TH_LOG("a removed hook still snapshots");
	error_hook(self, EDGEDMA_CMD_ERROR_HOOK_DEL, EDU_ERROR_FN, NULL, &ans);
	EXPECT_EQ(-ENOENT, ans.error);
	EXPECT_TRUE(ans.has_msg);

	error_hook(self, EDGEDMA_CMD_ERROR_HOOK_SET, "edgedma_no_such_function", edu_dev, &ans);
	EXPECT_NE(0, ans.error) TH_LOG("a function that does not exist was hooked");
	EXPECT_TRUE(ans.has_msg);
	TH_LOG("no such function: %s", ans.msg);
	error_hook(self, EDGEDMA_CMD_ERROR_HOOK_SET, EDU_ERROR_FN, "0000:ff:1f.7", &ans);
	EXPECT_EQ(-ENODEV, ans.error);
	EXPECT_TRUE(ans.has_msg);
	error_hook(self, EDGEDMA_CMD_ERROR_HOOK_SET, EDU_ERROR_FN, NULL, &ans);
	EXPECT_EQ(-EINVAL, ans.error);
	EXPECT_TRUE(ans.has_msg);
}

/* The stored snapshots' headers, oldest first; returns how many. */
static unsigned int list_snapshots(struct __test_metadata *_metadata,
				   FIXTURE_DATA(snapshot) *self, struct snapshot *list,
				   unsigned int max)
{
	struct reply r = { .family = self->fam.id, .cmd = EDGEDMA_CMD_SNAPSHOT_GET,
			   .s = list, .max = max };
	struct nl_answer ans;
	int err;

	err = genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_SNAPSHOT_GET, NLM_F_DUMP,
			snapshot_reply_fn, &r, &ans);
	EXPECT_EQ(0, err) TH_LOG("dump: %s %s", strerror(-err), r.bad);
	EXPECT_EQ(0, ans.error) TH_LOG("dump: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	return r.n;
}

/*
 * The device reads a buffer its driver already unmapped: the IOMMU refuses
 * the read, and edgedma snapshots the device at that moment, about the
 * faulting address: a read, the unmap that removed the mapping first
 * (with the function that did it), and the IOMMU translating the page to
 * nothing.
 */
TEST_F(snapshot, iommu_fault_use_after_unmap)
{
	static struct snapshot list[64], s;
	static char rec[EDU_RECORD_SIZE + 1];
	char info[2048], path[PATH_MAX], hooks[256];
	unsigned long long dma = 0;
	unsigned long len = 0;
	unsigned int i, n;
	__u64 newest = 0, faults, page_mask, seq = 0;
	const struct snap_register *src, *cnt;
	struct nl_answer del;
	const char *p;
	struct timespec until;

	edu_path(path, sizeof(path), "info");
	ASSERT_LT(0, read_file(path, info, sizeof(info)));
	if (!strstr(info, "path=iommu"))
		SKIP(return, "the edu device is not behind an IOMMU here");
	iommu_fault_hooks(_metadata, self, hooks, sizeof(hooks));
	if (!hooks[0])
		SKIP(return, "%s: this kernel leaves edgedma nowhere to catch IOMMU faults (no kprobes, no iommu trace events, and its IOMMU driver reports to no handler)",
		     _metadata->name);
	page_mask = ~(ask(_metadata, self, EDGEDMA_CMD_GET_INFO, EDGEDMA_A_INFO_PAGE_SIZE) - 1);
	n = list_snapshots(_metadata, self, list, 64);
	if (n)
		newest = list[n - 1].seq;
	faults = stat(_metadata, self, EDGEDMA_A_STATS_IOMMU_FAULTS);
	{
		struct nl_answer ans;
		__u32 bound = 0;

		profile_set(_metadata, self, EDU_PROFILE, edu_regs, ARRAY_SIZE(edu_regs),
			    &bound, &ans);
		ASSERT_EQ(0, ans.error) TH_LOG("PROFILE_SET: %s",
					       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	}
	/* A second of its own: the tests before used the device's snapshot_rate. */
	sleep(1);

	run_mode(_metadata, "use-after-unmap", rec, sizeof(rec));
	p = strstr(rec, "use-after-unmap dma=");
	ASSERT_NE(NULL, p) TH_LOG("no use-after-unmap line in the record: %s", rec);
	ASSERT_EQ(2, sscanf(p, "use-after-unmap dma=%llx len=%lu", &dma, &len));

	/* The fault is reported by an interrupt (arm64: its thread): wait for it. */
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += 10;
	for (;;) {
		struct timespec now;

		n = list_snapshots(_metadata, self, list, 64);
		for (i = 0; i < n && !seq; i++)
			if (list[i].seq > newest &&
			    list[i].trigger == EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT &&
			    !strcmp(list[i].device, edu_dev))
				seq = list[i].seq;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (seq || now.tv_sec > until.tv_sec)
			break;
		usleep(100 * 1000);
	}
	TH_LOG("IOMMU faults seen: %llu -> %llu", (unsigned long long)faults,
	       (unsigned long long)stat(_metadata, self, EDGEDMA_A_STATS_IOMMU_FAULTS));
	ASSERT_NE(0ULL, seq) TH_LOG("no IOMMU-fault snapshot of %s within 10 s", edu_dev);
	EXPECT_LT(faults, stat(_metadata, self, EDGEDMA_A_STATS_IOMMU_FAULTS));

	get_ok(_metadata, self, seq, &s);
	log_snapshot(_metadata, &s);
	EXPECT_EQ((__u32)EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT, s.trigger);
	ASSERT_TRUE(s.have_addr);
	EXPECT_EQ(dma & page_mask, s.addr & page_mask)
		TH_LOG("the fault's address %#llx is not the unmapped buffer's %#llx",
		       (unsigned long long)s.addr, dma);
	EXPECT_EQ((__u32)EDGEDMA_ACCESS_READ, s.access);
	EXPECT_NE(0U, s.reason);
	ASSERT_LE(1U, s.n_unmapped);
	EXPECT_EQ(dma, s.unmapped[0].dma_addr);
	EXPECT_EQ(len, s.unmapped[0].size);
	EXPECT_TRUE(starts_with(s.unmapped[0].unmap_caller_name, "edu_mode_use_after_unmap+"))
		TH_LOG("unmapped by \"%s\"", s.unmapped[0].unmap_caller_name);
	EXPECT_LE(s.unmapped[0].unmap_time_ns, s.time_ns);
	/* What the controller was told to read: the unmapped buffer. */
	src = find_register(&s, "DMA_SRC");
	cnt = find_register(&s, "DMA_CNT");
	profile_del(self, EDU_PROFILE, &del);
	ASSERT_NE(NULL, src) TH_LOG("no DMA_SRC register in the fault's snapshot");
	EXPECT_EQ(dma, src->value);
	ASSERT_NE(NULL, cnt);
	EXPECT_EQ(len, cnt->value);
	ASSERT_LE(1U, s.n_pages);
	EXPECT_FALSE(s.pages[0].have_expected);
	if (skipped(&s, EDGEDMA_SNAPSHOT_PART_IOMMU_VIEW, EDGEDMA_SKIP_MAY_SLEEP))
		TH_LOG("the IOMMU view was left out: its driver's lookup may sleep in a fault handler on this kernel (PREEMPT_RT)");
	else
		EXPECT_EQ(1U, s.pages[0].iommu_unmapped);
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Every record says how long it took to write, the last attribute but
 * TRUNCATED; GET_STATS keeps the longest. Logs the median and the worst of
 * a dozen snapshots of the edu device with its profile bound, about a live
 * mapping (the figures in the closing notes).
 */
TEST_F(snapshot, capture_time_recorded)
{
	static struct snapshot s;
	static char rec[EDU_RECORD_SIZE + 1];
	unsigned long long dma = 0;
	unsigned long len = 0;
	__u64 took[12], max_ns, bytes = 0;
	struct nl_answer ans;
	const char *p;
	unsigned int i;
	__u32 bound;

	profile_set(_metadata, self, EDU_PROFILE, edu_regs, ARRAY_SIZE(edu_regs), &bound, &ans);
	ASSERT_EQ(0, ans.error);
	run_mode(_metadata, "leak", rec, sizeof(rec));
	p = strstr(rec, "leaked dma=");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(2, sscanf(p, "leaked dma=%llx len=%lu", &dma, &len));
	for (i = 0; i < ARRAY_SIZE(took); i++) {
		__u64 seq = take_ok(_metadata, self, edu_dev, dma);

		get_ok(_metadata, self, seq, &s);
		ASSERT_TRUE(s.have_capture_ns) TH_LOG("snapshot %llu says not how long it took",
						      (unsigned long long)seq);
		EXPECT_LT(0ULL, s.capture_ns);
		took[i] = s.capture_ns;
		bytes = s.attrs_len;
	}
	profile_del(self, EDU_PROFILE, &ans);
	max_ns = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOT_CAPTURE_MAX_NS);
	qsort(took, ARRAY_SIZE(took), sizeof(took[0]), cmp_u64);
	TH_LOG("capture of %llu bytes (%u registers, %u mappings, %u unmaps, %u pages): median %llu ns, worst %llu ns; the longest since load %llu ns",
	       (unsigned long long)bytes, s.n_registers, s.n_mappings, s.n_unmapped, s.n_pages,
	       (unsigned long long)took[ARRAY_SIZE(took) / 2],
	       (unsigned long long)took[ARRAY_SIZE(took) - 1], (unsigned long long)max_ns);
	EXPECT_LE(took[ARRAY_SIZE(took) - 1], max_ns);
}

/* A device that never called the DMA API: the parts it lacks say why. */
TEST_F(snapshot, device_never_seen_says_so)
{
	static struct snapshot s;
	const char *bridge = "0000:00:00.0";
	char path[PATH_MAX];
	unsigned int i, unseen = 0;
	__u64 seq;

	snprintf(path, sizeof(path), "%s/%s", PCI_DEVICES, bridge);
	if (!path_exists(path))
		SKIP(return, "no PCI device %s in this guest", bridge);
	seq = take_ok(_metadata, self, bridge, 0);
	ASSERT_NE(0ULL, seq);
	get_ok(_metadata, self, seq, &s);
	log_snapshot(_metadata, &s);
	EXPECT_STREQ(bridge, s.device);
	EXPECT_FALSE(s.have_addr);
	EXPECT_EQ(0U, s.n_mappings);
	for (i = 0; i < s.n_skipped; i++)
		unseen += s.skip_reason[i] == EDGEDMA_SKIP_DEVICE_UNSEEN;
	EXPECT_EQ(2U, unseen) TH_LOG("mappings and unmaps should both say device-unseen");
}

/* The dump lists every stored snapshot's header and size, oldest first. */
TEST_F(snapshot, dump_lists_headers)
{
	static struct snapshot list[64], whole;
	struct reply r = { .family = self->fam.id, .cmd = EDGEDMA_CMD_SNAPSHOT_GET,
			   .s = list, .max = 64 };
	struct nl_answer ans;
	unsigned int i;
	__u64 seq;
	int err;

	seq = take_ok(_metadata, self, edu_dev, 0);
	ASSERT_NE(0ULL, seq);
	err = genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_SNAPSHOT_GET, NLM_F_DUMP,
			snapshot_reply_fn, &r, &ans);
	ASSERT_EQ(0, err) TH_LOG("dump: %s %s", strerror(-err), r.bad);
	ASSERT_EQ(0, ans.error) TH_LOG("dump: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	ASSERT_LE(1U, r.n);
	for (i = 1; i < r.n; i++)
		EXPECT_LT(list[i - 1].seq, list[i].seq);
	EXPECT_EQ(seq, list[r.n - 1].seq);
	for (i = 0; i < r.n; i++) {
		EXPECT_TRUE(list[i].have_record_size);
		EXPECT_EQ(0U, list[i].n_mappings + list[i].n_unmapped)
			TH_LOG("the dump carries headers only");
	}
	get_ok(_metadata, self, seq, &whole);
	EXPECT_EQ(whole.attrs_len, list[r.n - 1].record_size);
	EXPECT_STREQ(edu_dev, list[r.n - 1].device);
	EXPECT_EQ(whole.time_ns, list[r.n - 1].time_ns);
}

/* Listeners of the events group hear of each snapshot, with its size. */
TEST_F(snapshot, announced_on_events_group)
{
	static struct snapshot heard, whole;
	struct nl_sock ev = { .fd = -1 };
	char buf[16384];
	time_t end;
	__u64 seq;
	bool got = false;

	join_group(_metadata, &self->fam, EDGEDMA_MCGRP_EVENTS, &ev);
	seq = take_ok(_metadata, self, edu_dev, 0);
	ASSERT_NE(0ULL, seq);
	for (end = time(NULL) + 10; !got && time(NULL) < end;) {
		struct pollfd pfd = { .fd = ev.fd, .events = POLLIN };
		const struct nlmsghdr *nlh;
		ssize_t n;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		n = recv(ev.fd, buf, sizeof(buf), 0);
		for (nlh = (const void *)buf; n > 0 && NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			const struct genlmsghdr *g = NLMSG_DATA(nlh);
			const void *attrs;
			size_t len;

			if (nlh->nlmsg_type != self->fam.id || g->cmd != EDGEDMA_CMD_SNAPSHOT)
				continue;
			attrs = genl_attrs(nlh, 0, &len);
			ASSERT_NE(NULL, attrs);
			ASSERT_EQ(0, parse_snapshot(attrs, len, &heard)) TH_LOG("%s", heard.bad);
			if (heard.seq == seq)
				got = true;
		}
	}
	nl_close(&ev);
	ASSERT_TRUE(got) TH_LOG("no SNAPSHOT message for %llu within 10 s",
				(unsigned long long)seq);
	get_ok(_metadata, self, seq, &whole);
	EXPECT_STREQ(edu_dev, heard.device);
	EXPECT_TRUE(heard.have_record_size);
	EXPECT_EQ(whole.attrs_len, heard.record_size);
	EXPECT_EQ(0U, heard.n_mappings + heard.n_unmapped);
}

/*
 * Requests far above snapshot_rate: some are taken, the rest refused with
 * -EBUSY and a reason, and GET_STATS counts every refusal.
 */
TEST_F(snapshot, rate_limit_counts_every_refusal)
{
	const __u32 manual = EDGEDMA_SNAPSHOT_TRIGGER_MANUAL;
	unsigned int i, taken = 0, refused = 0, rate = 0;
	struct trigger_reply counts0, counts1;
	__u64 before, after;
	char line[32];
	struct timespec t0, t1;
	double seconds;

	ASSERT_EQ(0, read_line("/sys/module/edgedma/parameters/snapshot_rate", line,
			       sizeof(line)));
	rate = strtoul(line, NULL, 10);
	ASSERT_LT(0U, rate);
	before = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED);
	trigger_counts(_metadata, self, &counts0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 1000; i++) {
		struct nl_answer ans;
		__u64 seq;

		take(_metadata, self, edu_dev, 0, &seq, &ans);
		if (!ans.error) {
			taken++;
			continue;
		}
		ASSERT_EQ(-EBUSY, ans.error)
			TH_LOG("%s", nl_answer_str(&ans, self->buf, sizeof(self->buf)));
		ASSERT_TRUE(ans.has_msg);
		ASSERT_NE(NULL, strstr(ans.msg, "rate limited"));
		refused++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	after = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED);
	trigger_counts(_metadata, self, &counts1);
	seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	TH_LOG("%u taken, %u refused in %.2f s at snapshot_rate=%u", taken, refused,
	       seconds, rate);
	EXPECT_EQ((__u64)refused, after - before);
	EXPECT_EQ(1000U, counts1.fired[manual] - counts0.fired[manual]);
	EXPECT_EQ((__u64)taken, counts1.taken[manual] - counts0.taken[manual]);
	/* Each started second allows rate more. */
	EXPECT_GE(rate * ((unsigned int)seconds + 2), taken);
	EXPECT_LT(0U, refused);
}

/*
 * A storm of IOMMU faults (the device reading freed buffers, over and
 * over) snapshots the device at most snapshot_rate times a second; every
 * fault of it that took no snapshot is counted as suppressed or dropped,
 * none is lost.
 */
TEST_F(snapshot, iommu_fault_storm_rate_limited)
{
	static char rec[EDU_RECORD_SIZE + 1];
	const __u32 fault = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	struct trigger_reply c0, c1;
	__u64 suppressed0, dropped0, suppressed1, dropped1, fired, taken;
	char info[2048], path[PATH_MAX], line[32], hooks[256];
	struct timespec t0, t1;
	unsigned int i, rate;
	double seconds;

	edu_path(path, sizeof(path), "info");
	ASSERT_LT(0, read_file(path, info, sizeof(info)));
	if (!strstr(info, "path=iommu"))
		SKIP(return, "the edu device is not behind an IOMMU here");
	iommu_fault_hooks(_metadata, self, hooks, sizeof(hooks));
	if (!hooks[0])
		SKIP(return, "%s: this kernel leaves edgedma nowhere to catch IOMMU faults (no kprobes, no iommu trace events, and its IOMMU driver reports to no handler)",
		     _metadata->name);
	ASSERT_EQ(0, read_line("/sys/module/edgedma/parameters/snapshot_rate", line,
			       sizeof(line)));
	rate = strtoul(line, NULL, 10);
	suppressed0 = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED);
	dropped0 = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS_DROPPED);
	trigger_counts(_metadata, self, &c0);
	usleep(1100 * 1000);	/* a fresh second of snapshot_rate */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 12; i++)
		run_mode(_metadata, "use-after-unmap", rec, sizeof(rec));
	usleep(200 * 1000);	/* the last fault's interrupt */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/*
	 * The counters come in three requests: read them until two readings
	 * agree, so that no late fault lands between them (its count in one,
	 * its refusal in the next).
	 */
	for (i = 0; i < 20; i++) {
		struct trigger_reply again;

		trigger_counts(_metadata, self, &c1);
		suppressed1 = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED);
		dropped1 = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS_DROPPED);
		trigger_counts(_metadata, self, &again);
		if (again.fired[fault] == c1.fired[fault] &&
		    suppressed1 == stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED) &&
		    dropped1 == stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS_DROPPED))
			break;
		usleep(100 * 1000);
	}
	seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	fired = c1.fired[fault] - c0.fired[fault];
	taken = c1.taken[fault] - c0.taken[fault];
	TH_LOG("12 uses after unmap in %.2f s: %llu faults, %llu snapshots, %llu suppressed, %llu dropped (snapshot_rate=%u)",
	       seconds, (unsigned long long)fired, (unsigned long long)taken,
	       (unsigned long long)(suppressed1 - suppressed0),
	       (unsigned long long)(dropped1 - dropped0), rate);
	/*
	 * One fault or more per use; arm-smmu-v3 on 6.12 is seen through its
	 * own report, which it ratelimits to 10 in 5 s.
	 */
	EXPECT_LE(10U, fired) TH_LOG("faults of the storm were not seen");
	EXPECT_GE((__u64)rate * ((unsigned int)seconds + 2), taken);
	EXPECT_LT(0U, taken);
	EXPECT_EQ(fired, taken + (c1.off[fault] - c0.off[fault]) +
			 (suppressed1 - suppressed0) + (dropped1 - dropped0))
		TH_LOG("faults neither snapshotted nor counted as refused");
}

/* Wrong requests are refused with a reason, and nothing is taken. */
TEST_F(snapshot, refusals_say_why)
{
	static struct snapshot s;
	struct nl_answer ans;
	__u64 seq, stored;

	stored = stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS);
	take(_metadata, self, "no-such-device", 0, &seq, &ans);
	EXPECT_EQ(-ENODEV, ans.error);
	EXPECT_TRUE(ans.has_msg);
	take(_metadata, self, NULL, 0, &seq, &ans);
	EXPECT_EQ(-EINVAL, ans.error);
	EXPECT_TRUE(ans.has_msg) TH_LOG("no message when the device is missing");
	EXPECT_EQ(stored, stat(_metadata, self, EDGEDMA_A_STATS_SNAPSHOTS));

	get(_metadata, self, ~0ULL >> 1, &s, &ans);
	EXPECT_EQ(-ENOENT, ans.error);
	EXPECT_TRUE(ans.has_msg);
}

int main(int argc, char **argv)
{
	ksft_print_header();
	setup_edu_driver();
	find_edu_device();
	return test_harness_run(argc, argv);
}
