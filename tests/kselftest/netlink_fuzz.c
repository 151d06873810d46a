// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma-netlink-fuzz: malformed and mutated generic netlink requests for
 * every command of the loaded edgedma module, as root, as nobody and from a
 * user namespace, checking that each one is answered (an error or a
 * well-formed reply) and that no unprivileged request is ever accepted.
 * A kernel WARN, BUG or oops the requests cause fails the edgedma-vm run
 * around this program (fail closed), so this program checks the answers.
 *
 * usage: edgedma-netlink-fuzz [--messages N] [--seed S] [--pass root|nobody|userns]...
 *
 * The requests come from two generators mixed per message:
 *  - well-formed requests of every command (the uapi header's attributes,
 *    names of real devices and test-driver functions) whose attributes are
 *    each, with a chance that varies per message, dropped, duplicated,
 *    retyped, resized, given edge values or wrapped in nests;
 *  - attribute trees made up from nothing (types 0 to past the highest,
 *    nests up to 40 deep, lengths 0 to 4 KiB).
 * and then, for some, damage to the bytes: flipped bytes, attribute lengths
 * past their message or below a header, truncated family headers, reserved
 * header bits and fields, unknown and out-of-range command numbers, the dump
 * flag on commands without a dump.
 *
 * NLM_F_ACK is always set, so the kernel answers every request it reads
 * (nlmsg_len always equals the datagram's length): a request without an
 * answer within 10 s fails the run. Under root, the test driver does DMA
 * transfers in a loop meanwhile, so the hooks run while the table, policy
 * and profile code is fuzzed.
 *
 * Output: KTAP, one result per pass, and per command the answers counted by
 * errno, including how many errors came without an extack message. The seed
 * is printed; the same seed and count repeat a run exactly.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/edgedma.h>

#include "kselftest.h"
#include "edu.h"
#include "nl.h"
#include "priv.h"

#define FUZZ_MSG_MAX	(64 * 1024)
#define FUZZ_ERRNO_MAX	160
#define FUZZ_DEPTH_MAX	40
#define FUZZ_CMD_SLOTS	256

/* xorshift64*: fast, and the same seed gives the same run. */
struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(struct rng *r, unsigned int n)
{
	return n ? (unsigned int)(rnd(r) % n) : 0;
}

/* True with a chance of @permille in a thousand. */
static bool chance(struct rng *r, unsigned int permille)
{
	return below(r, 1000) < permille;
}

/* Values the module's range checks and arithmetic are most likely to get wrong. */
static const uint64_t edge_values[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 96, 97, 127, 128, 255, 256,
	4095, 4096, 4097, 65535, 65536, 0x7fffffff, 0x80000000, 0xfffffffe,
	0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
	0xfffffffffffff000ULL, 0xffffffffffffffffULL,
};

static uint64_t edge_value(struct rng *r)
{
	if (chance(r, 200))
		return rnd(r);
	if (chance(r, 100))
		return 1ULL << below(r, 64);
	return edge_values[below(r, sizeof(edge_values) / sizeof(edge_values[0]))];
}

/* Names that reach the module's lookups: filled in from the guest. */
#define DICT_MAX	16
struct dict {
	const char *words[DICT_MAX];
	unsigned int n;
};

static char edu_driver_name[] = EDU_NAME;
static struct dict devices = { { edu_dev, "no-such-device", "0000:00:00.0", "" }, 4 };
static struct dict drivers = { { edu_driver_name, "no_such_driver", "pcieport", "" }, 4 };
static struct dict profiles = { { "fuzz-a", "fuzz-b", "edu", "" }, 4 };
static struct dict symbols = { { "edu_controller_error", "no_such_function_edgedma",
				  "edu_controller_error.cold", "" }, 4 };
static struct dict compatibles = { { "qemu,edu", "arm,pl330", "arm,smmu-v3", "" }, 4 };
static struct dict regnames = { { "id", "status", "dma-src", "dma-dst", "dma-count",
				  "cmd", "" }, 7 };

static const char *word(struct rng *r, const struct dict *d)
{
	return d->words[below(r, d->n)];
}

/* A request being generated, with how much to damage it. */
struct gen {
	struct rng *r;
	unsigned char *buf;
	size_t len;
	unsigned int mutate;	/* permille per attribute */
	unsigned int depth;
};

static bool room(struct gen *g, size_t n)
{
	return g->len + NLA_ALIGN(n) <= FUZZ_MSG_MAX;
}

/* Append one attribute exactly as given; returns its offset or -1. */
static long put_raw(struct gen *g, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a;
	long at = g->len;

	if (len > 0xffff - NLA_HDRLEN || !room(g, NLA_HDRLEN + len))
		return -1;
	a = (struct nlattr *)(g->buf + g->len);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(g->buf + g->len + NLA_HDRLEN, data, len);
	memset(g->buf + g->len + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	g->len += NLA_ALIGN(NLA_HDRLEN + len);
	return at;
}

static uint16_t random_type(struct gen *g)
{
	uint16_t t;

	if (chance(g->r, 50))
		t = below(g->r, 0x4000);	/* far past any maxattr */
	else
		t = below(g->r, 45);		/* 0 and past every set's highest */
	if (chance(g->r, 100))
		t |= NLA_F_NESTED;
	if (chance(g->r, 50))
		t |= NLA_F_NET_BYTEORDER;
	return t;
}

/* A payload of a random shape: an int of any width, bytes, a string. */
static size_t random_payload(struct gen *g, unsigned char *p, size_t cap)
{
	static const size_t widths[] = { 0, 1, 2, 3, 4, 5, 8, 12, 16 };
	uint64_t v = edge_value(g->r);
	size_t n;

	switch (below(g->r, 5)) {
	case 0:
	case 1:
		n = widths[below(g->r, sizeof(widths) / sizeof(widths[0]))];
		if (n > 8) {
			memset(p, 0, n);
			memcpy(p, &v, 8);
		} else {
			memcpy(p, &v, n);
		}
		return n;
	case 2:	/* a string: terminated or not, from the names or not */
		{
			const struct dict *d[] = { &devices, &drivers, &profiles,
						   &symbols, &regnames };
			const char *w = word(g->r, d[below(g->r, 5)]);

			n = strlen(w);
			memcpy(p, w, n);
			if (!chance(g->r, 200))
				p[n++] = '\0';
			return n;
		}
	case 3:	/* long: past every name length */
		n = 32 + below(g->r, chance(g->r, 100) ? cap - 32 : 512);
		memset(p, 'A' + below(g->r, 26), n);
		if (chance(g->r, 500))
			p[n - 1] = '\0';
		return n;
	default:
		n = below(g->r, 64);
		for (size_t i = 0; i < n; i++)
			p[i] = rnd(g->r);
		return n;
	}
}

static void random_tree(struct gen *g, unsigned int count);

/* One attribute made up from nothing, maybe a nest of more. */
static void random_attr(struct gen *g)
{
	unsigned char p[4096];
	long at;

	if (g->depth < FUZZ_DEPTH_MAX && chance(g->r, 250)) {
		at = put_raw(g, random_type(g) | NLA_F_NESTED, NULL, 0);
		if (at < 0)
			return;
		g->depth++;
		random_tree(g, chance(g->r, 300) ? 1 : below(g->r, 6));
		g->depth--;
		((struct nlattr *)(g->buf + at))->nla_len = g->len - at;
		return;
	}
	put_raw(g, random_type(g), p, random_payload(g, p, sizeof(p)));
}

static void random_tree(struct gen *g, unsigned int count)
{
	while (count--)
		random_attr(g);
}

/*
 * The attribute a well-formed request has, damaged per g->mutate: left
 * out, retyped, given a payload of another shape, doubled, or followed by
 * attributes made up from nothing.
 */
static void put(struct gen *g, uint16_t type, const void *data, size_t len)
{
	unsigned char p[4096];

	if (chance(g->r, g->mutate)) {
		switch (below(g->r, 6)) {
		case 0:
			return;
		case 1:
			type = random_type(g);
			break;
		case 2:
			len = random_payload(g, p, sizeof(p));
			data = p;
			break;
		case 3:
			put_raw(g, type, data, len);
			break;
		case 4:
			random_attr(g);
			break;
		default:
			type |= NLA_F_NET_BYTEORDER;
		}
	}
	put_raw(g, type, data, len);
}

static void put_u32(struct gen *g, uint16_t type, uint32_t v)
{
	put(g, type, &v, sizeof(v));
}

static void put_u64(struct gen *g, uint16_t type, uint64_t v)
{
	put(g, type, &v, sizeof(v));
}

static void put_str(struct gen *g, uint16_t type, const char *s)
{
	put(g, type, s, strlen(s) + 1);
}

/* A value that is usually sensible for the field, sometimes not. */
static uint64_t value(struct gen *g, uint64_t sensible)
{
	return chance(g->r, g->mutate) ? edge_value(g->r) : sensible;
}

static long nest_start(struct gen *g, uint16_t type)
{
	if (chance(g->r, g->mutate / 2))
		return put_raw(g, chance(g->r, 500) ? type : random_type(g), NULL, 0);
	return put_raw(g, type | NLA_F_NESTED, NULL, 0);
}

static void nest_end(struct gen *g, long at)
{
	if (at >= 0)
		((struct nlattr *)(g->buf + at))->nla_len = g->len - at;
}

static void gen_register(struct gen *g)
{
	long at = nest_start(g, EDGEDMA_A_PROFILE_REGISTER);

	put_str(g, EDGEDMA_A_REGISTER_NAME, word(g->r, &regnames));
	put_u32(g, EDGEDMA_A_REGISTER_WINDOW, value(g, 0));
	put_u32(g, EDGEDMA_A_REGISTER_OFFSET, value(g, 4 * below(g->r, 40)));
	put_u32(g, EDGEDMA_A_REGISTER_WIDTH, value(g, 4));
	if (chance(g->r, 300))
		put_u32(g, EDGEDMA_A_REGISTER_FLAGS, value(g, below(g->r, 4)));
	while (chance(g->r, 300)) {
		long f = nest_start(g, EDGEDMA_A_REGISTER_FIELD);

		put_str(g, EDGEDMA_A_FIELD_NAME, word(g->r, &regnames));
		put_u32(g, EDGEDMA_A_FIELD_SHIFT, value(g, below(g->r, 32)));
		put_u32(g, EDGEDMA_A_FIELD_BITS, value(g, 1 + below(g->r, 8)));
		nest_end(g, f);
	}
	nest_end(g, at);
}

static void gen_chain(struct gen *g)
{
	long at = nest_start(g, EDGEDMA_A_PROFILE_CHAIN);

	put_str(g, EDGEDMA_A_CHAIN_NAME, chance(g->r, 500) ? "ring" : "list");
	put_u32(g, EDGEDMA_A_CHAIN_KIND, value(g, 1 + below(g->r, 3)));
	put_str(g, EDGEDMA_A_CHAIN_START_REG, word(g->r, &regnames));
	if (chance(g->r, 300))
		put_str(g, EDGEDMA_A_CHAIN_START_HI_REG, word(g->r, &regnames));
	if (chance(g->r, 300))
		put_str(g, EDGEDMA_A_CHAIN_LENGTH_REG, word(g->r, &regnames));
	if (chance(g->r, 500))
		put_u32(g, EDGEDMA_A_CHAIN_ENTRIES, value(g, 1 + below(g->r, 64)));
	if (chance(g->r, 300))
		put_str(g, EDGEDMA_A_CHAIN_HEAD_REG, word(g->r, &regnames));
	if (chance(g->r, 300))
		put_str(g, EDGEDMA_A_CHAIN_TAIL_REG, word(g->r, &regnames));
	put_u32(g, EDGEDMA_A_CHAIN_DESC_SIZE, value(g, 16));
	if (chance(g->r, 300))
		put_u32(g, EDGEDMA_A_CHAIN_MAX_DESCS, value(g, 8));
	if (chance(g->r, 300))
		put_u32(g, EDGEDMA_A_CHAIN_FLAGS, value(g, below(g->r, 8)));
	if (chance(g->r, 200))
		put_u32(g, EDGEDMA_A_CHAIN_ALIGN_LOG2, value(g, 1 + below(g->r, 16)));
	if (chance(g->r, 200))
		put_u32(g, EDGEDMA_A_CHAIN_DIRECTION, value(g, 1 + below(g->r, 2)));
	while (chance(g->r, 500)) {
		long f = nest_start(g, EDGEDMA_A_CHAIN_DFIELD);

		put_str(g, EDGEDMA_A_DFIELD_NAME, "addr");
		put_u32(g, EDGEDMA_A_DFIELD_OFFSET, value(g, 4 * below(g->r, 4)));
		put_u32(g, EDGEDMA_A_DFIELD_WIDTH, value(g, chance(g->r, 500) ? 4 : 8));
		if (chance(g->r, 300))
			put_u32(g, EDGEDMA_A_DFIELD_SHIFT, value(g, below(g->r, 32)));
		if (chance(g->r, 300))
			put_u32(g, EDGEDMA_A_DFIELD_BITS, value(g, 1 + below(g->r, 32)));
		put_u32(g, EDGEDMA_A_DFIELD_ROLE, value(g, below(g->r, 8)));
		nest_end(g, f);
	}
	nest_end(g, at);
}

/* A device by name: usually the edu device, else the others of the list. */
static const char *device(struct gen *g)
{
	return chance(g->r, 700) ? edu_dev : word(g->r, &devices);
}

/* The attributes of a well-formed request of @cmd (damaged per g->mutate). */
static void gen_request(struct gen *g, unsigned int cmd)
{
	unsigned int i, n;

	switch (cmd) {
	case EDGEDMA_CMD_FINDINGS_GET:
		if (chance(g->r, 700))
			put_u64(g, EDGEDMA_A_FINDING_SEQ, value(g, below(g->r, 100)));
		break;
	case EDGEDMA_CMD_MAPPINGS_GET:
		if (chance(g->r, 500))
			put_str(g, EDGEDMA_A_MAPPING_DEVICE, device(g));
		break;
	case EDGEDMA_CMD_POLICY_SET:
		if (chance(g->r, 700))
			put_str(g, EDGEDMA_A_POLICY_DEVICE, device(g));
		else
			put_str(g, EDGEDMA_A_POLICY_DRIVER, word(g->r, &drivers));
		if (chance(g->r, 500))
			put_u32(g, EDGEDMA_A_POLICY_ADDR_ALIGN, value(g, 1u << below(g->r, 13)));
		if (chance(g->r, 500))
			put_u32(g, EDGEDMA_A_POLICY_LEN_ALIGN, value(g, 1u << below(g->r, 13)));
		if (chance(g->r, 500))
			put_u32(g, EDGEDMA_A_POLICY_COHERENCY, value(g, below(g->r, 3)));
		if (chance(g->r, 500))
			put_u32(g, EDGEDMA_A_POLICY_CHECKS, value(g, rnd(g->r)));
		if (chance(g->r, 300))
			put_u32(g, EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS, value(g, rnd(g->r)));
		if (chance(g->r, 300))
			put_u32(g, EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS, value(g, rnd(g->r)));
		if (chance(g->r, 300))
			put_u32(g, EDGEDMA_A_POLICY_OWNED_HASH_MAX, value(g, 4096));
		break;
	case EDGEDMA_CMD_POLICY_GET:
	case EDGEDMA_CMD_POLICY_DEL:
		if (chance(g->r, 700))
			put_str(g, EDGEDMA_A_POLICY_DEVICE, device(g));
		else
			put_str(g, EDGEDMA_A_POLICY_DRIVER, word(g->r, &drivers));
		break;
	case EDGEDMA_CMD_MAP_EVENTS_SET:
		if (chance(g->r, 800))
			put_u32(g, EDGEDMA_A_MAP_EVENTS_ENABLE, value(g, below(g->r, 2)));
		break;
	case EDGEDMA_CMD_SNAPSHOT_TAKE:
		put_str(g, EDGEDMA_A_SNAPSHOT_DEVICE, device(g));
		if (chance(g->r, 400))
			put_u64(g, EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR, value(g, rnd(g->r) & 0xfffff000));
		break;
	case EDGEDMA_CMD_SNAPSHOT_GET:
		if (chance(g->r, 700))
			put_u64(g, EDGEDMA_A_SNAPSHOT_SEQ, value(g, below(g->r, 20)));
		break;
	case EDGEDMA_CMD_PROFILE_SET:
		put_str(g, EDGEDMA_A_PROFILE_NAME, word(g->r, &profiles));
		switch (below(g->r, 3)) {
		case 0:
			put_u32(g, EDGEDMA_A_PROFILE_PCI_ID, value(g, 0x123411e8));
			break;
		case 1:
			put_str(g, EDGEDMA_A_PROFILE_COMPATIBLE, word(g->r, &compatibles));
			break;
		default:
			put_str(g, EDGEDMA_A_PROFILE_DEVICE, device(g));
		}
		n = chance(g->r, 20) ? 97 + below(g->r, 40) : below(g->r, 8);
		for (i = 0; i < n; i++)
			gen_register(g);
		n = chance(g->r, 20) ? 9 + below(g->r, 4) : below(g->r, 3);
		for (i = 0; i < n; i++)
			gen_chain(g);
		break;
	case EDGEDMA_CMD_PROFILE_GET:
	case EDGEDMA_CMD_PROFILE_DEL:
		if (chance(g->r, 800))
			put_str(g, EDGEDMA_A_PROFILE_NAME, word(g->r, &profiles));
		break;
	case EDGEDMA_CMD_ERROR_HOOK_SET:
	case EDGEDMA_CMD_ERROR_HOOK_DEL:
		put_str(g, EDGEDMA_A_ERROR_HOOK_SYMBOL, word(g->r, &symbols));
		if (cmd == EDGEDMA_CMD_ERROR_HOOK_SET || chance(g->r, 500))
			put_str(g, EDGEDMA_A_ERROR_HOOK_DEVICE, device(g));
		break;
	case EDGEDMA_CMD_CRASH_RECORDS_GET:
		if (chance(g->r, 500))
			put_u32(g, EDGEDMA_A_CRASH_INDEX, value(g, below(g->r, 4)));
		break;
	case EDGEDMA_CMD_CRASH_RECORDS_CLEAR:
		if (chance(g->r, 500))
			put_u64(g, EDGEDMA_A_CRASH_BOOT_ID, value(g, rnd(g->r)));
		break;
	case EDGEDMA_CMD_UNFOLD_SET:
		if (chance(g->r, 700))
			put_u32(g, EDGEDMA_A_UNFOLD_ENABLE, value(g, below(g->r, 2)));
		break;
	default:	/* commands that take no attributes: give them some */
		if (chance(g->r, g->mutate))
			random_tree(g, 1 + below(g->r, 3));
	}
}

/* What the family offers, from the controller. */
struct family {
	uint16_t id;
	unsigned int n_ops;
	struct genl_op_info ops[NL_MAX_OPS];
};

/*
 * One whole request in @buf: the header (command, flags, version, reserved
 * bits), its attributes, then byte damage. nlmsg_len is always the
 * datagram's length: the kernel answers every such request with NLM_F_ACK.
 */
static size_t gen_message(struct rng *r, const struct family *fam,
			  unsigned char *buf, unsigned int *cmd_out)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *genl = NLMSG_DATA(nlh);
	struct gen g = { .r = r, .buf = buf };
	unsigned int cmd, pick = below(r, 1000);
	bool dump;
	size_t len;

	if (pick < 930) {
		const struct genl_op_info *op = &fam->ops[below(r, fam->n_ops)];

		cmd = op->id;
		dump = (op->flags & GENL_CMD_CAP_DUMP) &&
		       (!(op->flags & GENL_CMD_CAP_DO) || chance(r, 500));
		if (chance(r, 50))
			dump = !dump;
	} else {
		/* Numbers no op has: 0, past the highest, notifications, 255. */
		static const unsigned int odd[] = { 0, EDGEDMA_CMD_FINDING,
			EDGEDMA_CMD_MAP_EVENTS, EDGEDMA_CMD_SNAPSHOT,
			EDGEDMA_CMD_FINDING_REPEATS, EDGEDMA_CMD_MAX + 1, 128, 255 };

		cmd = chance(r, 500) ? odd[below(r, sizeof(odd) / sizeof(odd[0]))]
				     : below(r, 256);
		dump = chance(r, 500);
	}

	memset(buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_type = fam->id;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	if (chance(r, 30))
		nlh->nlmsg_flags |= 1u << (4 + below(r, 12));	/* ECHO, MULTI, reserved */
	genl->cmd = cmd;
	genl->version = chance(r, 30) ? below(r, 256) : EDGEDMA_FAMILY_VERSION;
	if (chance(r, 20))
		genl->reserved = 1 + below(r, 0xffff);
	g.len = NLMSG_HDRLEN + GENL_HDRLEN;

	/* How damaged: 10% well-formed, the rest from light to total. */
	switch (below(r, 10)) {
	case 0:
		g.mutate = 0;
		break;
	case 1:
	case 2:
	case 3:
		g.mutate = 50;
		break;
	case 4:
	case 5:
	case 6:
		g.mutate = 250;
		break;
	default:
		g.mutate = 600;
	}
	if (chance(r, 150))
		random_tree(&g, below(r, 8));
	else
		gen_request(&g, cmd);
	if (chance(r, 30)) {	/* nests within nests, to the bottom */
		unsigned int depth = 2 + below(r, FUZZ_DEPTH_MAX);
		long at[FUZZ_DEPTH_MAX + 2];

		for (unsigned int i = 0; i < depth; i++)
			at[i] = put_raw(&g, below(r, 20) | NLA_F_NESTED, NULL, 0);
		for (unsigned int i = depth; i-- > 0;)
			nest_end(&g, at[i]);
	}
	len = g.len;

	/* Damage to the bytes after the headers. */
	if (len > NLMSG_HDRLEN + GENL_HDRLEN && chance(r, 150)) {
		unsigned int flips = 1 + below(r, 8);

		while (flips--)
			buf[NLMSG_HDRLEN + GENL_HDRLEN +
			    below(r, len - NLMSG_HDRLEN - GENL_HDRLEN)] ^= 1u << below(r, 8);
	}
	if (len > NLMSG_HDRLEN + GENL_HDRLEN && chance(r, 60)) {
		struct nlattr *a = (struct nlattr *)(buf + NLMSG_HDRLEN + GENL_HDRLEN);

		a->nla_len = chance(r, 500) ? below(r, NLA_HDRLEN) : edge_value(r);
	}
	if (chance(r, 30))	/* a request cut short, its family header too */
		len = NLMSG_HDRLEN + below(r, len - NLMSG_HDRLEN + 1);
	nlh->nlmsg_len = len;
	*cmd_out = cmd;
	return len;
}

/* The answers to one command, for the summary. */
struct cmd_stats {
	unsigned long sent;
	unsigned long replies;			/* data messages */
	unsigned long errors[FUZZ_ERRNO_MAX];	/* by -errno; [0]: success */
	unsigned long bare[FUZZ_ERRNO_MAX];	/* errors without an extack message */
};

struct pass {
	const char *name;
	bool privileged;
	unsigned long sent;
	unsigned long accepted;		/* requests answered without error */
	unsigned long failures;
	struct cmd_stats cmds[FUZZ_CMD_SLOTS];
};

static void hexdump(const unsigned char *p, size_t len)
{
	char line[100];
	size_t i, n = 0;

	for (i = 0; i < len && i < 256; i++) {
		n += snprintf(line + n, sizeof(line) - n, "%02x", p[i]);
		if (i % 32 == 31 || i + 1 == len || i == 255) {
			ksft_print_msg("  %s\n", line);
			n = 0;
		}
	}
}

/* Attributes well formed all the way down (nests marked NLA_F_NESTED). */
static bool attrs_valid(const unsigned char *p, size_t len, unsigned int depth)
{
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		size_t step;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return false;
		if ((a->nla_type & NLA_F_NESTED) &&
		    (depth > 8 || !attrs_valid(p + NLA_HDRLEN, a->nla_len - NLA_HDRLEN,
						 depth + 1)))
			return false;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return true;
		p += step;
		len -= step;
	}
	return len == 0;
}

/* A reply message: the family's, a known command, well-formed attributes. */
static const char *reply_problem(const struct nlmsghdr *nlh, uint16_t family)
{
	const struct genlmsghdr *genl = NLMSG_DATA(nlh);

	if (nlh->nlmsg_type != family)
		return "a reply of another family";
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return "a reply without a family header";
	if (genl->cmd == 0 || genl->cmd > EDGEDMA_CMD_MAX)
		return "a reply with an unknown command";
	if (!attrs_valid((const unsigned char *)nlh + NLMSG_HDRLEN + GENL_HDRLEN,
			 nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, 0))
		return "a reply with malformed attributes";
	return NULL;
}

static void fail_request(struct pass *ps, const char *why, const unsigned char *req,
			 size_t len, unsigned long n)
{
	ps->failures++;
	if (ps->failures > 5)
		return;
	ksft_print_msg("%s: request %lu (%zu bytes): %s\n", ps->name, n, len, why);
	hexdump(req, len);
}

/* What the reply messages of one request were checked against. */
struct reply_check {
	uint16_t family;
	const char *problem;	/* the first reply's problem, if any */
};

static int check_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct reply_check *rc = arg;
	const char *problem = reply_problem(nlh, rc->family);

	if (problem && !rc->problem)
		rc->problem = problem;
	return problem ? -EBADMSG : 0;
}

/*
 * Send one request and read its whole answer (NLM_F_ACK is set). Returns
 * false when no answer came or the socket failed: the pass cannot go on.
 */
static bool transact(struct nl_sock *s, struct pass *ps, uint16_t family,
		     unsigned char *req, size_t len, unsigned int cmd, unsigned long n)
{
	struct cmd_stats *cs = &ps->cmds[cmd % FUZZ_CMD_SLOTS];
	struct reply_check rc = { .family = family };
	struct nl_answer ans;
	int err;

	err = nl_transact_hdr(s, (struct nlmsghdr *)req, check_reply, &rc, &ans);
	if (rc.problem) {
		fail_request(ps, rc.problem, req, len, n);
	} else if (err) {
		fail_request(ps, err == -ETIMEDOUT ? "no answer within 10 s" : strerror(-err),
			     req, len, n);
		return false;
	}
	cs->sent++;
	ps->sent++;
	cs->replies += ans.replies;
	if (ans.error > 0 || ans.error <= -FUZZ_ERRNO_MAX) {
		fail_request(ps, "an error code out of range", req, len, n);
		return true;
	}
	cs->errors[-ans.error]++;
	if (ans.error && !ans.has_msg) {
		cs->bare[-ans.error]++;
		/*
		 * Only the genetlink core answers without a message: no such
		 * op (or not as a dump / do), or no room for a family header.
		 * Every error of the module's own says why.
		 */
		if (ans.error != -EOPNOTSUPP &&
		    !(ans.error == -EINVAL && len < NLMSG_HDRLEN + GENL_HDRLEN))
			fail_request(ps, "an error without an extack message", req, len, n);
	}
	if (!ans.error || ans.replies)
		ps->accepted++;
	if (!ps->privileged && cmd != EDGEDMA_CMD_GET_INFO && (!ans.error || ans.replies))
		fail_request(ps, "an unprivileged request was accepted", req, len, n);
	return true;
}

static const char *cmd_name(unsigned int cmd)
{
	static const char *const names[] = {
		[EDGEDMA_CMD_GET_INFO] = "GET_INFO",
		[EDGEDMA_CMD_GET_STATS] = "GET_STATS",
		[EDGEDMA_CMD_FINDINGS_GET] = "FINDINGS_GET",
		[EDGEDMA_CMD_FINDING] = "FINDING",
		[EDGEDMA_CMD_MAPPINGS_GET] = "MAPPINGS_GET",
		[EDGEDMA_CMD_POLICY_SET] = "POLICY_SET",
		[EDGEDMA_CMD_POLICY_GET] = "POLICY_GET",
		[EDGEDMA_CMD_POLICY_DEL] = "POLICY_DEL",
		[EDGEDMA_CMD_MAP_EVENTS_SET] = "MAP_EVENTS_SET",
		[EDGEDMA_CMD_MAP_EVENTS] = "MAP_EVENTS",
		[EDGEDMA_CMD_DEVICES_GET] = "DEVICES_GET",
		[EDGEDMA_CMD_FINDING_REPEATS] = "FINDING_REPEATS",
		[EDGEDMA_CMD_SNAPSHOT_TAKE] = "SNAPSHOT_TAKE",
		[EDGEDMA_CMD_SNAPSHOT_GET] = "SNAPSHOT_GET",
		[EDGEDMA_CMD_SNAPSHOT] = "SNAPSHOT",
		[EDGEDMA_CMD_PROFILE_SET] = "PROFILE_SET",
		[EDGEDMA_CMD_PROFILE_GET] = "PROFILE_GET",
		[EDGEDMA_CMD_PROFILE_DEL] = "PROFILE_DEL",
		[EDGEDMA_CMD_ERROR_HOOK_SET] = "ERROR_HOOK_SET",
		[EDGEDMA_CMD_ERROR_HOOK_GET] = "ERROR_HOOK_GET",
		[EDGEDMA_CMD_ERROR_HOOK_DEL] = "ERROR_HOOK_DEL",
		[EDGEDMA_CMD_CRASH_REGION_GET] = "CRASH_REGION_GET",
		[EDGEDMA_CMD_CRASH_RECORDS_GET] = "CRASH_RECORDS_GET",
		[EDGEDMA_CMD_CRASH_RECORDS_CLEAR] = "CRASH_RECORDS_CLEAR",
		[EDGEDMA_CMD_UNFOLD_SET] = "UNFOLD_SET",
	};

	return cmd < sizeof(names) / sizeof(names[0]) && names[cmd] ? names[cmd] : NULL;
}

static void print_summary(const struct pass *ps)
{
	unsigned long other_sent = 0, other_bad = 0;

	for (unsigned int c = 0; c < FUZZ_CMD_SLOTS; c++) {
		const struct cmd_stats *cs = &ps->cmds[c];
		char line[1024];
		size_t n;

		if (!cs->sent)
			continue;
		if (!cmd_name(c)) {
			other_sent += cs->sent;
			other_bad += cs->sent - cs->errors[EOPNOTSUPP] - cs->errors[EINVAL];
			continue;
		}
		n = snprintf(line, sizeof(line), "%s: %-19s %7lu sent, %lu replies;", ps->name,
			     cmd_name(c), cs->sent, cs->replies);
		for (unsigned int e = 0; e < FUZZ_ERRNO_MAX && n < sizeof(line); e++) {
			if (!cs->errors[e])
				continue;
			n += snprintf(line + n, sizeof(line) - n, " %s %lu",
				      e ? strerrorname_np(e) ?: "E?" : "ok", cs->errors[e]);
			if (cs->bare[e] && n < sizeof(line))
				n += snprintf(line + n, sizeof(line) - n, " (%lu without extack)",
					      cs->bare[e]);
		}
		ksft_print_msg("%s\n", line);
	}
	if (other_sent)
		ksft_print_msg("%s: commands no op has: %lu sent, %lu answered other than EOPNOTSUPP/EINVAL\n",
			       ps->name, other_sent, other_bad);
}

/* Run one pass in this process; returns true when it passed. */
static bool run_pass(struct pass *ps, const struct family *fam, uint64_t seed,
		     unsigned long messages)
{
	static unsigned char req[FUZZ_MSG_MAX];
	struct rng r = { seed ? seed : 1 };
	struct timespec t0, t1;
	struct nl_sock s;
	double secs;
	int err;

	err = nl_open(&s);
	if (err) {
		ksft_print_msg("%s: netlink socket: %s\n", ps->name, strerror(-err));
		return false;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned long n = 0; n < messages; n++) {
		unsigned int cmd;
		size_t len = gen_message(&r, fam, req, &cmd);

		if (!transact(&s, ps, fam->id, req, len, cmd, n))
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	nl_close(&s);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_summary(ps);
	ksft_print_msg("%s: %lu of %lu requests sent and answered in %.1f s (%.0f/s), %lu accepted, %lu failures\n",
		       ps->name, ps->sent, messages, secs, secs > 0 ? ps->sent / secs : 0.0,
		       ps->accepted, ps->failures);
	return ps->sent == messages && !ps->failures;
}

/*
 * A pass in a child process (privileges dropped for good there); the
 * child's exit status says whether it passed.
 */
static bool run_pass_in_child(const char *name, int (*drop)(void),
			      const struct family *fam, uint64_t seed,
			      unsigned long messages)
{
	int status, err;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		ksft_print_msg("%s: fork: %s\n", name, strerror(errno));
		return false;
	}
	if (pid == 0) {
		static struct pass ps;

		ps.name = name;
		if (drop()) {
			ksft_print_msg("%s: cannot drop privileges\n", name);
			_exit(1);
		}
		if (priv_has_cap(CAP_SYS_ADMIN) && drop != priv_enter_userns) {
			ksft_print_msg("%s: still has CAP_SYS_ADMIN\n", name);
			_exit(1);
		}
		ps.privileged = false;
		err = run_pass(&ps, fam, seed, messages) ? 0 : 1;
		fflush(stdout);	/* _exit() does not */
		_exit(err);
	}
	if (waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The test driver's correct transfers in a loop, until killed. */
static pid_t start_traffic(void)
{
	char run[PATH_MAX];
	pid_t pid;

	edu_path(run, sizeof(run), "run");
	pid = fork();
	if (pid != 0)
		return pid;
	for (;;) {
		int err = write_file(run, "correct");

		if (err) {
			ksft_print_msg("traffic: %s: %s\n", run, strerror(-err));
			fflush(stdout);
			_exit(1);
		}
	}
}

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [--messages N] [--seed S] [--pass root|nobody|userns]...\n"
		"  --messages N  requests per pass (default 20000)\n"
		"  --seed S      the generator's seed (default: from the clock; printed)\n"
		"  --pass P      run only these passes (default: root, nobody, userns)\n",
		argv0);
	exit(2);
}

int main(int argc, char **argv)
{
	static struct pass root = { .name = "root", .privileged = true };
	bool want[3] = { false, false, false }, any = false, traffic_ok = true;
	static const char *const pass_names[] = { "root", "nobody", "userns" };
	unsigned long messages = 20000;
	struct genl_family_info info;
	struct family fam = { 0 };
	uint64_t seed = 0;
	struct nl_answer ans;
	struct nl_sock s;
	pid_t traffic;
	int err, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--messages") && i + 1 < argc) {
			messages = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--pass") && i + 1 < argc) {
			int p;

			i++;
			for (p = 0; p < 3 && strcmp(argv[i], pass_names[p]); p++)
				;
			if (p == 3)
				usage(argv[0]);
			want[p] = any = true;
		} else {
			usage(argv[0]);
		}
	}
	if (!any)
		want[0] = want[1] = want[2] = true;
	if (!seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ ts.tv_nsec;
	}

	ksft_print_header();
	ksft_set_plan(want[0] + want[1] + want[2]);
	ksft_print_msg("seed %llu, %lu requests per pass (again: %s --seed %llu --messages %lu)\n",
		       (unsigned long long)seed, messages, argv[0],
		       (unsigned long long)seed, messages);

	err = nl_open(&s);
	if (err)
		ksft_exit_fail_msg("netlink socket: %s\n", strerror(-err));
	err = genl_resolve(&s, EDGEDMA_FAMILY_NAME, &info, &ans);
	nl_close(&s);
	if (err || ans.error)
		ksft_exit_fail_msg("resolving %s: %s\n", EDGEDMA_FAMILY_NAME,
				   strerror(-(err ? err : ans.error)));
	fam.id = info.id;
	fam.n_ops = info.n_ops;
	memcpy(fam.ops, info.ops, sizeof(fam.ops));
	if (!fam.n_ops)
		ksft_exit_fail_msg("the family lists no ops\n");

	setup_edu_driver();
	find_edu_device();
	ksft_print_msg("edu device %s; the family has %u ops\n", edu_dev, fam.n_ops);

	if (want[0]) {
		int status;

		traffic = start_traffic();
		if (traffic < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (run_pass(&root, &fam, seed, messages) && traffic > 0) {
			/* The traffic must still have been running: it exits only on error. */
			traffic_ok = waitpid(traffic, &status, WNOHANG) == 0;
		}
		if (traffic > 0) {
			kill(traffic, SIGKILL);
			waitpid(traffic, &status, 0);
		}
		if (!traffic_ok)
			ksft_print_msg("root: the test driver's transfers failed during the pass\n");
		ksft_test_result(root.sent == messages && !root.failures && traffic_ok,
				 "root\n");
	}
	if (want[1])
		ksft_test_result(run_pass_in_child("nobody", priv_drop, &fam, seed + 1, messages),
				 "nobody\n");
	if (want[2])
		ksft_test_result(run_pass_in_child("userns", priv_enter_userns, &fam, seed + 2,
						   messages), "userns\n");
	ksft_finished();
}
