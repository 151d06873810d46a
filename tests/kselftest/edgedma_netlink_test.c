// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma_netlink_test: the "edgedma" generic netlink family as the loaded
 * module serves it, checked over raw netlink sockets (see nl.h).
 *
 * Needs edgedma.ko loaded; run as root (tests that need an unprivileged
 * caller drop privileges themselves, inside the child the harness forks for
 * every test). Without the module, family_registered fails with a hint and
 * every other test skips.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/edgedma.h>

#include "harness.h"
#include "nl.h"
#include "priv.h"

#define EDGEDMA_HOOK_MODES_KNOWN \
	(EDGEDMA_HOOK_MODE_TRACEPOINT | EDGEDMA_HOOK_MODE_KPROBE | \
	 EDGEDMA_HOOK_MODE_OPS)

#define NOT_LOADED_HINT \
	"generic netlink family \"" EDGEDMA_FAMILY_NAME "\" is not " \
	"registered: load edgedma.ko first"

static const char * const info_attr_name[EDGEDMA_A_INFO_MAX + 1] = {
	[EDGEDMA_A_INFO_MODULE_VERSION]	= "MODULE_VERSION",
	[EDGEDMA_A_INFO_KERNEL_RELEASE]	= "KERNEL_RELEASE",
	[EDGEDMA_A_INFO_ARCH]		= "ARCH",
	[EDGEDMA_A_INFO_RECORD_FORMAT]	= "RECORD_FORMAT",
	[EDGEDMA_A_INFO_HOOK_MODES]	= "HOOK_MODES",
	[EDGEDMA_A_INFO_PAGE_SIZE]	= "PAGE_SIZE",
	[EDGEDMA_A_INFO_CACHE_LINE]	= "CACHE_LINE",
	[EDGEDMA_A_INFO_DMA_ALIGNMENT]	= "DMA_ALIGNMENT",
};

static const char *info_name(int type)
{
	if (type < 1 || type > EDGEDMA_A_INFO_MAX || !info_attr_name[type])
		return "?";
	return info_attr_name[type];
}

/* A GET_INFO reply, copied out of the receive buffer. */
struct info_reply {
	__u16 family;
	bool have[EDGEDMA_A_INFO_MAX + 1];
	char module_version[128];
	char kernel_release[128];
	char arch[128];
	__u32 record_format;
	__u32 hook_modes;
	__u32 page_size;
	__u32 cache_line;
	__u32 dma_alignment;
	char bad[160];		/* why the reply is malformed, if it is */
};

/* A GET_STATS reply. */
struct stats_reply {
	__u16 family;
	bool have_requests;
	bool have_rejected;
	__u64 requests;
	__u64 rejected;
	char bad[160];
};

static int reply_bad(char *bad, size_t n, const char *fmt, const char *what)
{
	snprintf(bad, n, fmt, what);
	return -EBADMSG;
}

static int info_str(struct info_reply *r, const struct nlattr **tb, int type,
		    char *dst, size_t n)
{
	const char *s;

	if (!tb[type])
		return 0;
	s = nl_attr_str(tb[type]);
	if (!s)
		return reply_bad(r->bad, sizeof(r->bad),
				 "%s is not a NUL-terminated string",
				 info_name(type));
	snprintf(dst, n, "%s", s);
	return 0;
}

static int info_u32(struct info_reply *r, const struct nlattr **tb, int type,
		    __u32 *dst)
{
	if (tb[type] && !nl_attr_u32(tb[type], dst))
		return reply_bad(r->bad, sizeof(r->bad),
				 "%s is not a u32", info_name(type));
	return 0;
}

static int info_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_INFO_MAX + 1];
	struct info_reply *r = arg;
	const void *attrs;
	size_t len;
	int type;

	if (nlh->nlmsg_type != r->family)
		return reply_bad(r->bad, sizeof(r->bad), "%s",
				 "reply from another family");
	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_INFO_MAX))
		return reply_bad(r->bad, sizeof(r->bad), "%s",
				 "reply attributes do not parse");

	for (type = 1; type <= EDGEDMA_A_INFO_MAX; type++)
		r->have[type] = tb[type];

	return info_str(r, tb, EDGEDMA_A_INFO_MODULE_VERSION,
			r->module_version, sizeof(r->module_version)) ?:
	       info_str(r, tb, EDGEDMA_A_INFO_KERNEL_RELEASE,
			r->kernel_release, sizeof(r->kernel_release)) ?:
	       info_str(r, tb, EDGEDMA_A_INFO_ARCH, r->arch, sizeof(r->arch)) ?:
	       info_u32(r, tb, EDGEDMA_A_INFO_RECORD_FORMAT,
			&r->record_format) ?:
	       info_u32(r, tb, EDGEDMA_A_INFO_HOOK_MODES, &r->hook_modes) ?:
	       info_u32(r, tb, EDGEDMA_A_INFO_PAGE_SIZE, &r->page_size) ?:
	       info_u32(r, tb, EDGEDMA_A_INFO_CACHE_LINE, &r->cache_line) ?:
	       info_u32(r, tb, EDGEDMA_A_INFO_DMA_ALIGNMENT, &r->dma_alignment);
}

static int stats_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_STATS_MAX + 1];
	struct stats_reply *r = arg;
	const void *attrs;
	size_t len;

	if (nlh->nlmsg_type != r->family)
		return reply_bad(r->bad, sizeof(r->bad), "%s",
				 "reply from another family");
	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_STATS_MAX))
		return reply_bad(r->bad, sizeof(r->bad), "%s",
				 "reply attributes do not parse");

	r->have_requests = tb[EDGEDMA_A_STATS_REQUESTS];
	r->have_rejected = tb[EDGEDMA_A_STATS_REJECTED];
	if ((r->have_requests &&
	     !nl_attr_u64(tb[EDGEDMA_A_STATS_REQUESTS], &r->requests)) ||
	    (r->have_rejected &&
	     !nl_attr_u64(tb[EDGEDMA_A_STATS_REJECTED], &r->rejected)))
		return reply_bad(r->bad, sizeof(r->bad), "%s",
				 "a counter is not a u64");
	return 0;
}

static const struct genl_op_info *find_op(const struct genl_family_info *fam,
					  __u32 cmd)
{
	unsigned int i;

	for (i = 0; i < fam->n_ops; i++)
		if (fam->ops[i].id == cmd)
			return &fam->ops[i];
	return NULL;
}

FIXTURE(edgedma) {
	struct nl_sock sk;
	struct genl_family_info fam;
	struct nl_answer resolved;	/* how CTRL_CMD_GETFAMILY answered */
	bool present;
	char buf[512];			/* for nl_answer_str() */
};

FIXTURE_SETUP(edgedma)
{
	int err;

	self->sk.fd = -1;
	err = nl_open(&self->sk);
	ASSERT_EQ(0, err)
		TH_LOG("NETLINK_GENERIC socket: %s", strerror(-err));

	err = genl_resolve(&self->sk, EDGEDMA_FAMILY_NAME, &self->fam,
			   &self->resolved);
	ASSERT_EQ(0, err)
		TH_LOG("CTRL_CMD_GETFAMILY: %s", strerror(-err));
	ASSERT_TRUE(self->resolved.error == 0 ||
		    self->resolved.error == -ENOENT)
		TH_LOG("CTRL_CMD_GETFAMILY: %s",
		       nl_answer_str(&self->resolved, self->buf,
				     sizeof(self->buf)));
	self->present = self->resolved.error == 0;
}

FIXTURE_TEARDOWN(edgedma)
{
	nl_close(&self->sk);
}

/* Every test but family_registered needs the family: skip without it. */
#define REQUIRE_EDGEDMA() do { \
	if (!self->present) \
		SKIP(return, "%s: " NOT_LOADED_HINT, _metadata->name); \
} while (0)

/* Send GET_INFO on @sk and check the answer is one well-formed reply. */
static void get_info(struct __test_metadata *_metadata, struct nl_sock *sk,
		     __u16 family, struct info_reply *r)
{
	struct nl_answer ans;
	char buf[512];
	int err;

	memset(r, 0, sizeof(*r));
	r->family = family;
	err = genl_call(sk, family, EDGEDMA_CMD_GET_INFO, 0, info_reply_fn,
			r, &ans);
	ASSERT_EQ(0, err)
		TH_LOG("GET_INFO: %s%s%s", strerror(-err),
		       r->bad[0] ? ": " : "", r->bad);
	ASSERT_EQ(0, ans.error)
		TH_LOG("GET_INFO: %s", nl_answer_str(&ans, buf, sizeof(buf)));
	ASSERT_EQ(1U, ans.replies);
}

/*
 * The ops an unprivileged caller must be refused: every op the family
 * lists except GET_INFO. Returns how many; GET_STATS must be among them.
 */
static unsigned int privileged_ops(const struct genl_family_info *fam,
				   struct genl_op_info *ops)
{
	unsigned int i, n = 0;

	for (i = 0; i < fam->n_ops; i++)
		if (fam->ops[i].id != EDGEDMA_CMD_GET_INFO)
			ops[n++] = fam->ops[i];
	return n;
}

/*
 * Send every privileged op on @sk (as a do and/or a dump, as the family
 * lists it) and require -EPERM with an extack message naming
 * CAP_SYS_ADMIN, and no data before the refusal.
 */
static void check_refused(struct __test_metadata *_metadata,
			  struct nl_sock *sk,
			  const struct genl_family_info *fam, const char *who)
{
	static const struct {
		__u32 cap;
		__u16 flags;
		const char *name;
	} modes[] = {
		{ GENL_CMD_CAP_DO,	0,		"do" },
		{ GENL_CMD_CAP_DUMP,	NLM_F_DUMP,	"dump" },
	};
	struct genl_op_info ops[NL_MAX_OPS];
	unsigned int i, j, n, sent = 0;
	struct nl_answer ans;
	char buf[512];
	int err;

	n = privileged_ops(fam, ops);
	ASSERT_LE(1U, n)
		TH_LOG("the family lists no op but GET_INFO: nothing to refuse");
	ASSERT_NE(NULL, find_op(fam, EDGEDMA_CMD_GET_STATS))
		TH_LOG("the family does not list GET_STATS");

	for (i = 0; i < n; i++) {
		if (ops[i].flags & GENL_ADMIN_PERM)
			TH_LOG("op %u has GENL_ADMIN_PERM: the genetlink core refuses it (CAP_NET_ADMIN, no extack) before the module's own check",
			       ops[i].id);
		for (j = 0; j < ARRAY_SIZE(modes); j++) {
			if (!(ops[i].flags & modes[j].cap))
				continue;
			err = genl_call(sk, fam->id, ops[i].id, modes[j].flags,
					NULL, NULL, &ans);
			ASSERT_EQ(0, err)
				TH_LOG("op %u (%s): %s", ops[i].id,
				       modes[j].name, strerror(-err));
			nl_answer_str(&ans, buf, sizeof(buf));
			TH_LOG("op %u (%s) %s: %s", ops[i].id, modes[j].name,
			       who, buf);
			EXPECT_EQ(-EPERM, ans.error);
			EXPECT_TRUE(ans.has_msg &&
				    strstr(ans.msg, "CAP_SYS_ADMIN"))
				TH_LOG("op %u (%s): the refusal must name CAP_SYS_ADMIN in its extack message",
				       ops[i].id, modes[j].name);
			EXPECT_EQ(0U, ans.replies)
				TH_LOG("op %u (%s): data came before the refusal",
				       ops[i].id, modes[j].name);
			sent++;
		}
	}
	ASSERT_LE(n, sent)
		TH_LOG("an op lists neither GENL_CMD_CAP_DO nor GENL_CMD_CAP_DUMP");
}

TEST_F(edgedma, family_registered)
{
	const struct genl_op_info *op;
	struct stat st;

	ASSERT_TRUE(self->present)
		TH_LOG(NOT_LOADED_HINT " (%s)",
		       nl_answer_str(&self->resolved, self->buf,
				     sizeof(self->buf)));
	TH_LOG("family id %u, version %u, maxattr %u, %u ops",
	       self->fam.id, self->fam.version, self->fam.maxattr,
	       self->fam.n_ops);

	EXPECT_EQ((__u32)EDGEDMA_FAMILY_VERSION, self->fam.version);
	EXPECT_EQ(0U, self->fam.hdrsize)
		TH_LOG("the family has a fixed header; its rules allow attributes only");

	op = find_op(&self->fam, EDGEDMA_CMD_GET_INFO);
	ASSERT_NE(NULL, op)
		TH_LOG("the family does not list GET_INFO");
	EXPECT_NE(0U, op->flags & GENL_CMD_CAP_DO);

	EXPECT_EQ(0, stat("/sys/module/edgedma", &st))
		TH_LOG("/sys/module/edgedma: %s", strerror(errno));
}

TEST_F(edgedma, get_info_answers)
{
	struct info_reply r;
	struct utsname u;
	bool has_kprobes;
	long page_size;
	int type;

	REQUIRE_EDGEDMA();
	get_info(_metadata, &self->sk, self->fam.id, &r);

	/* The DT_* ones only when a device-tree node configured the module. */
	for (type = 1; type < EDGEDMA_A_INFO_DT_NODE; type++)
		EXPECT_TRUE(r.have[type])
			TH_LOG("EDGEDMA_A_INFO_%s missing from the reply",
			       info_name(type));
	EXPECT_TRUE(r.have[EDGEDMA_A_INFO_DT_NODE] == r.have[EDGEDMA_A_INFO_DT_POLICIES] &&
		    r.have[EDGEDMA_A_INFO_DT_NODE] == r.have[EDGEDMA_A_INFO_DT_REFUSED] &&
		    r.have[EDGEDMA_A_INFO_DT_NODE] == r.have[EDGEDMA_A_INFO_DT_PROFILES])
		TH_LOG("DT_NODE, DT_POLICIES, DT_REFUSED and DT_PROFILES come together or not at all");

	TH_LOG("module %s, kernel %s, arch %s, record format %u, hook modes %#x, page size %u, cache line %u, DMA alignment %u",
	       r.module_version, r.kernel_release, r.arch, r.record_format,
	       r.hook_modes, r.page_size, r.cache_line, r.dma_alignment);

	EXPECT_NE(0U, strlen(r.module_version));

	ASSERT_EQ(0, uname(&u));
	EXPECT_STREQ(u.release, r.kernel_release);
	EXPECT_STREQ(u.machine, r.arch);

	EXPECT_EQ((__u32)EDGEDMA_RECORD_FORMAT_VERSION, r.record_format);

	page_size = sysconf(_SC_PAGESIZE);
	ASSERT_LT(0L, page_size);
	EXPECT_EQ((__u32)page_size, r.page_size);

	/* Every CPU the guests run has a cache line of 32 bytes or more. */
	EXPECT_TRUE(r.cache_line >= 32 && !(r.cache_line & (r.cache_line - 1)))
		TH_LOG("cache line %u is not a power of two >= 32", r.cache_line);
	EXPECT_GE(r.page_size, r.cache_line);
	/*
	 * dma_get_cache_alignment() is a power of two. Architectures whose
	 * DMA is cache-coherent (x86) define no ARCH_DMA_MINALIGN and get 1
	 * ("no constraint"); on arm64 it is a cache line or more.
	 */
	EXPECT_TRUE(r.dma_alignment &&
		    !(r.dma_alignment & (r.dma_alignment - 1)))
		TH_LOG("DMA alignment %u is not a power of two", r.dma_alignment);
	if (!strcmp(u.machine, "aarch64"))
		EXPECT_GE(r.dma_alignment, r.cache_line);
	EXPECT_GE(r.page_size, r.dma_alignment);

	EXPECT_EQ(0U, r.hook_modes & ~(__u32)EDGEDMA_HOOK_MODES_KNOWN)
		TH_LOG("unknown hook mode bits %#x", r.hook_modes);
	EXPECT_NE(0U, r.hook_modes);
	/*
	 * Kprobe mode is offered exactly where the kernel has kprobes, which
	 * debugfs shows (the vendor-like kernels have none).
	 */
	has_kprobes = !access("/sys/kernel/debug/kprobes/list", F_OK);
	EXPECT_EQ(has_kprobes, !!(r.hook_modes & EDGEDMA_HOOK_MODE_KPROBE))
		TH_LOG("hook modes %#x on a kernel %s kprobes", r.hook_modes,
		       has_kprobes ? "with" : "without");
}

TEST_F(edgedma, get_info_rejects_attributes)
{
	__u16 above = self->fam.maxattr;
	struct {
		__u16 type;
		const char *what;
	} cases[3];
	unsigned int i;

	REQUIRE_EDGEDMA();

	if (above < EDGEDMA_A_INFO_MAX)
		above = EDGEDMA_A_INFO_MAX;
	if (above < EDGEDMA_A_STATS_MAX)
		above = EDGEDMA_A_STATS_MAX;
	above++;

	cases[0].type = EDGEDMA_A_INFO_MODULE_VERSION;
	cases[0].what = "a known attribute GET_INFO does not take";
	cases[1].type = above;
	cases[1].what = "an attribute above the family's highest";
	cases[2].type = 0;
	cases[2].what = "attribute 0";

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct nl_answer ans;
		struct nl_msg m;
		int off, err;

		genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_GET_INFO, 1);
		off = nl_put_u32(&m, cases[i].type, 0);
		ASSERT_LE(0, off);

		err = nl_transact(&self->sk, &m, NULL, NULL, &ans);
		ASSERT_EQ(0, err)
			TH_LOG("GET_INFO: %s", strerror(-err));
		TH_LOG("attribute %u (%s): %s", cases[i].type, cases[i].what,
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
		EXPECT_EQ(-EINVAL, ans.error);
		EXPECT_TRUE(ans.has_msg)
			TH_LOG("attribute %u: no extack message",
			       cases[i].type);
		EXPECT_TRUE(ans.has_offs && ans.offs == (__u32)off)
			TH_LOG("attribute %u is at offset %d: NLMSGERR_ATTR_OFFS must point at it",
			       cases[i].type, off);
		EXPECT_EQ(0U, ans.replies);
	}
}

TEST_F(edgedma, unknown_command_rejected)
{
	static const struct {
		__u8 cmd;
		__u16 flags;
	} probes[] = {
		{ 200, 0 },
		{ 200, NLM_F_DUMP },
		{ 0, 0 },
		{ 255, 0 },
	};
	unsigned int i;

	REQUIRE_EDGEDMA();

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		struct nl_answer ans;
		int err;

		if (find_op(&self->fam, probes[i].cmd)) {
			TH_LOG("command %u is one of the family's: not checked",
			       probes[i].cmd);
			continue;
		}
		err = genl_call(&self->sk, self->fam.id, probes[i].cmd,
				probes[i].flags, NULL, NULL, &ans);
		ASSERT_EQ(0, err)
			TH_LOG("command %u: %s", probes[i].cmd, strerror(-err));
		/* 6.1's genetlink core attaches no message here: report only. */
		TH_LOG("command %u%s: %s", probes[i].cmd,
		       probes[i].flags ? " (dump)" : "",
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
		EXPECT_EQ(-EOPNOTSUPP, ans.error);
		EXPECT_EQ(0U, ans.replies);
	}
}

TEST_F(edgedma, reserved_header_rejected)
{
	struct nl_answer ans;
	struct nl_msg m;
	int err;

	REQUIRE_EDGEDMA();

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_GET_INFO, 1);
	genl_msg_hdr(&m)->reserved = 1;
	err = nl_transact(&self->sk, &m, NULL, NULL, &ans);
	ASSERT_EQ(0, err)
		TH_LOG("GET_INFO: %s", strerror(-err));
	TH_LOG("genlmsghdr.reserved = 1: %s",
	       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	if (!ans.error)
		SKIP(return,
		     "%s: genlmsghdr.reserved is not validated for GET_INFO (kernel before 6.1, or the family's resv_start_op is above GET_INFO)",
		     _metadata->name);
	EXPECT_EQ(-EINVAL, ans.error);
	EXPECT_TRUE(ans.has_msg);

	/* The same check covers nlmsg_flags bits a request cannot carry. */
	genl_msg_init(&m, self->fam.id, NLM_F_APPEND, EDGEDMA_CMD_GET_INFO, 1);
	err = nl_transact(&self->sk, &m, NULL, NULL, &ans);
	ASSERT_EQ(0, err)
		TH_LOG("GET_INFO: %s", strerror(-err));
	TH_LOG("NLM_F_APPEND: %s",
	       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(-EINVAL, ans.error);
	EXPECT_TRUE(ans.has_msg);
}

TEST_F(edgedma, get_info_unprivileged)
{
	struct genl_family_info fam;
	struct nl_answer ans;
	struct info_reply r;
	struct nl_sock sk;
	int err;

	REQUIRE_EDGEDMA();

	/* This test runs in its own forked child: drop privileges for good. */
	err = priv_drop();
	ASSERT_EQ(0, err)
		TH_LOG("dropping to uid/gid %d: %s", PRIV_NOBODY,
		       strerror(-err));
	ASSERT_TRUE(priv_no_caps());

	sk.fd = -1;
	err = nl_open(&sk);
	ASSERT_EQ(0, err)
		TH_LOG("NETLINK_GENERIC socket: %s", strerror(-err));

	err = genl_resolve(&sk, EDGEDMA_FAMILY_NAME, &fam, &ans);
	ASSERT_EQ(0, err)
		TH_LOG("CTRL_CMD_GETFAMILY: %s", strerror(-err));
	ASSERT_EQ(0, ans.error)
		TH_LOG("CTRL_CMD_GETFAMILY: %s",
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(self->fam.id, fam.id);

	get_info(_metadata, &sk, fam.id, &r);
	EXPECT_TRUE(r.have[EDGEDMA_A_INFO_RECORD_FORMAT]);
	EXPECT_EQ((__u32)EDGEDMA_RECORD_FORMAT_VERSION, r.record_format);
	nl_close(&sk);
}

TEST_F(edgedma, privileged_commands_refused)
{
	struct stats_reply stats;
	struct nl_answer ans;
	struct nl_sock sk;
	int err;

	REQUIRE_EDGEDMA();
	if (!priv_has_cap(CAP_SYS_ADMIN))
		SKIP(return,
		     "%s: needs root: GET_STATS must work for root before its refusal to others means anything",
		     _metadata->name);

	/* As root, GET_STATS answers: the refusals below are about privilege. */
	memset(&stats, 0, sizeof(stats));
	stats.family = self->fam.id;
	err = genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_GET_STATS, 0,
			stats_reply_fn, &stats, &ans);
	ASSERT_EQ(0, err)
		TH_LOG("GET_STATS: %s%s%s", strerror(-err),
		       stats.bad[0] ? ": " : "", stats.bad);
	ASSERT_EQ(0, ans.error)
		TH_LOG("GET_STATS as root: %s",
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	ASSERT_EQ(1U, ans.replies);
	EXPECT_TRUE(stats.have_requests);
	EXPECT_TRUE(stats.have_rejected);
	TH_LOG("GET_STATS as root: requests %llu, rejected %llu",
	       (unsigned long long)stats.requests,
	       (unsigned long long)stats.rejected);

	/* This test runs in its own forked child: drop privileges for good. */
	err = priv_drop();
	ASSERT_EQ(0, err)
		TH_LOG("dropping to uid/gid %d: %s", PRIV_NOBODY,
		       strerror(-err));
	ASSERT_TRUE(priv_no_caps());

	sk.fd = -1;
	err = nl_open(&sk);
	ASSERT_EQ(0, err)
		TH_LOG("NETLINK_GENERIC socket: %s", strerror(-err));
	check_refused(_metadata, &sk, &self->fam, "as uid 65534");
	nl_close(&sk);
}

/*
 * A new user namespace grants every capability inside it but none over
 * the network namespace we stay in: the module must check CAP_SYS_ADMIN
 * against the network namespace's owner, not the caller's namespace.
 */
TEST_F(edgedma, privileged_commands_refused_in_user_namespace)
{
	struct nl_sock sk;
	int err;

	REQUIRE_EDGEDMA();

	err = priv_enter_userns();
	if (err)
		SKIP(return, "%s: cannot create a user namespace: %s",
		     _metadata->name, strerror(-err));
	ASSERT_TRUE(priv_has_cap(CAP_SYS_ADMIN))
		TH_LOG("no CAP_SYS_ADMIN inside the new user namespace");

	sk.fd = -1;
	err = nl_open(&sk);
	ASSERT_EQ(0, err)
		TH_LOG("NETLINK_GENERIC socket: %s", strerror(-err));
	check_refused(_metadata, &sk, &self->fam,
		      "with CAP_SYS_ADMIN in a child user namespace");
	nl_close(&sk);
}

/*
 * A socket opened without privileges stays unprivileged even when a
 * privileged process writes to it: the check must be netlink_capable()
 * (opener and sender), not capable() (sender only), or a setuid program
 * handed such a socket as its stdout would do privileged work for its
 * caller (CVE-2014-0181). nl_transact() uses send() without an address,
 * like write(2), so the kernel does check the opener.
 */
TEST_F(edgedma, privileged_commands_refused_on_socket_opened_unprivileged)
{
	struct nl_sock sk;
	int err;

	REQUIRE_EDGEDMA();
	if (!priv_has_cap(CAP_SYS_ADMIN) || geteuid() != 0)
		SKIP(return, "%s: needs root", _metadata->name);

	err = priv_drop_effective();
	ASSERT_EQ(0, err)
		TH_LOG("seteuid(%d): %s", PRIV_NOBODY, strerror(-err));
	sk.fd = -1;
	err = nl_open(&sk);
	ASSERT_EQ(0, priv_restore());
	ASSERT_EQ(0, err)
		TH_LOG("NETLINK_GENERIC socket: %s", strerror(-err));
	ASSERT_TRUE(priv_has_cap(CAP_SYS_ADMIN));

	check_refused(_metadata, &sk, &self->fam,
		      "by root on a socket uid 65534 opened");
	nl_close(&sk);
}

/*
 * Join @group on a fresh socket; 0 or the negative errno of the join.
 * NETLINK_ADD_MEMBERSHIP is checked against the process joining, with
 * the same rules bind() applies to its groups.
 */
static int join_group(__u32 group)
{
	struct nl_sock sk;
	int err;

	sk.fd = -1;
	err = nl_open(&sk);
	if (err)
		return err;
	err = setsockopt(sk.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group,
			 sizeof(group)) ? -errno : 0;
	nl_close(&sk);
	return err;
}

/* Both groups carry kernel addresses: EPERM for anyone but CAP_SYS_ADMIN. */
static void check_groups_refused(struct __test_metadata *_metadata,
				 const struct genl_family_info *fam,
				 const char *who)
{
	static const char *const want[] = { EDGEDMA_MCGRP_EVENTS,
					    EDGEDMA_MCGRP_MAP_EVENTS };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct genl_group_info *g = NULL;
		int err;

		for (j = 0; j < fam->n_groups; j++)
			if (!strcmp(fam->groups[j].name, want[i]))
				g = &fam->groups[j];
		ASSERT_NE(NULL, g)
			TH_LOG("the family lists no \"%s\" multicast group", want[i]);
		err = join_group(g->id);
		TH_LOG("joining \"%s\" (%u) %s: %s", g->name, g->id, who,
		       err ? strerror(-err) : "joined");
		EXPECT_EQ(-EPERM, err)
			TH_LOG("\"%s\" must be refused %s: it carries kernel addresses",
			       g->name, who);
	}
}

TEST_F(edgedma, multicast_groups_need_cap_sys_admin)
{
	unsigned int i;
	int err;

	REQUIRE_EDGEDMA();
	if (!priv_has_cap(CAP_SYS_ADMIN))
		SKIP(return, "%s: needs root: the join must work for root before its refusal to others means anything",
		     _metadata->name);
	ASSERT_LE(2U, self->fam.n_groups)
		TH_LOG("the family lists %u multicast groups, want 2", self->fam.n_groups);
	for (i = 0; i < self->fam.n_groups; i++) {
		err = join_group(self->fam.groups[i].id);
		ASSERT_EQ(0, err)
			TH_LOG("root joining \"%s\": %s", self->fam.groups[i].name,
			       strerror(-err));
	}
	err = priv_drop();
	ASSERT_EQ(0, err)
		TH_LOG("dropping to uid/gid %d: %s", PRIV_NOBODY, strerror(-err));
	ASSERT_TRUE(priv_no_caps());
	check_groups_refused(_metadata, &self->fam, "as uid 65534");
}

TEST_F(edgedma, multicast_groups_refused_in_user_namespace)
{
	int err;

	REQUIRE_EDGEDMA();
	err = priv_enter_userns();
	if (err)
		SKIP(return, "%s: cannot create a user namespace: %s",
		     _metadata->name, strerror(-err));
	ASSERT_TRUE(priv_has_cap(CAP_SYS_ADMIN))
		TH_LOG("no CAP_SYS_ADMIN inside the new user namespace");
	check_groups_refused(_metadata, &self->fam,
			     "with CAP_SYS_ADMIN in a child user namespace");
}

/*
 * MAP_EVENTS_SET with ENABLE = @enable (0 or 1), or without it when
 * @enable is -1; the state before, as WAS_ENABLED says.
 */
static int map_events_set(struct __test_metadata *_metadata,
			  FIXTURE_DATA(edgedma) *self, int enable)
{
	struct nl_answer ans;
	int was, err;

	err = edgedma_map_events_set(&self->sk, self->fam.id, enable, &was, &ans);
	EXPECT_EQ(0, err)
		TH_LOG("MAP_EVENTS_SET: %s", strerror(-err));
	EXPECT_EQ(0, ans.error)
		TH_LOG("MAP_EVENTS_SET enable=%d: %s", enable,
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(1U, ans.replies);
	return was;
}

/*
 * A reader that did not turn the stream on reads its cursors without
 * ENABLE: that must leave the stream as it is, on or off.
 */
TEST_F(edgedma, map_events_set_without_enable_keeps_state)
{
	int initial;

	REQUIRE_EDGEDMA();
	if (!priv_has_cap(CAP_SYS_ADMIN))
		SKIP(return, "%s: needs CAP_SYS_ADMIN", _metadata->name);

	initial = map_events_set(_metadata, self, -1);
	ASSERT_TRUE(initial == 0 || initial == 1)
		TH_LOG("WAS_ENABLED is %d", initial);
	EXPECT_EQ(initial, map_events_set(_metadata, self, 1));
	EXPECT_EQ(1, map_events_set(_metadata, self, -1));
	EXPECT_EQ(1, map_events_set(_metadata, self, -1));
	EXPECT_EQ(1, map_events_set(_metadata, self, 0));
	EXPECT_EQ(0, map_events_set(_metadata, self, -1));
	EXPECT_EQ(0, map_events_set(_metadata, self, -1));
	/* As found. */
	EXPECT_EQ(0, map_events_set(_metadata, self, initial));
}

/* STATS_MEMORY of a GET_STATS reply into *(__u64 *)arg. */
static int stats_memory(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_STATS_MAX + 1];
	const void *attrs;
	size_t len;

	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_STATS_MAX) ||
	    !nl_attr_u64(tb[EDGEDMA_A_STATS_MEMORY], arg))
		return -EBADMSG;
	return 0;
}

static __u64 memory_held(struct __test_metadata *_metadata, FIXTURE_DATA(edgedma) *self)
{
	struct nl_answer ans;
	struct nl_msg m;
	__u64 bytes = 0;
	int err;

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_GET_STATS, 1);
	err = nl_transact(&self->sk, &m, stats_memory, &bytes, &ans);
	EXPECT_EQ(0, err)
		TH_LOG("GET_STATS: %s", strerror(-err));
	EXPECT_EQ(0, ans.error)
		TH_LOG("GET_STATS: %s", nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(1U, ans.replies);
	return bytes;
}

/* A number from a sysfs file: a module parameter, or a CPU range's last. */
static long sysfs_number(const char *path, bool last_of_range)
{
	char text[64], *at;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	at = last_of_range && strrchr(text, '-') ? strrchr(text, '-') + 1 : text;
	return strtol(at, NULL, 10);
}

/*
 * The module's parameters are readable by anyone, except crash_region: it
 * names a physical address, which /proc/iomem shows only to root.
 */
TEST_F(edgedma, crash_region_parameter_readable_by_root_only)
{
	const char *path = "/sys/module/edgedma/parameters/crash_region";
	struct stat st;

	if (stat(path, &st))
		SKIP(return, "%s: %s", path, strerror(errno));
	EXPECT_EQ(0u, st.st_mode & 0077)
		TH_LOG("%s has mode %o", path, st.st_mode & 07777);
	EXPECT_EQ(0400u, st.st_mode & 0700);
}

/*
 * The mapping-event rings are allocated by the first recording and kept:
 * turning the stream on adds at least map_event_buffer events' worth per
 * possible CPU to what the module says it holds, unless an earlier
 * recording allocated them (then it adds nothing), and turning it off
 * gives nothing back (a producer that still takes the branch after it is
 * patched out must find them: see map_events.c).
 */
TEST_F(edgedma, map_events_rings_kept_from_the_first_recording)
{
	long buffer, cpus;
	__u64 before, on, after;

	REQUIRE_EDGEDMA();
	if (!priv_has_cap(CAP_SYS_ADMIN))
		SKIP(return, "%s: needs CAP_SYS_ADMIN", _metadata->name);
	buffer = sysfs_number("/sys/module/edgedma/parameters/map_event_buffer", false);
	cpus = sysfs_number("/sys/devices/system/cpu/possible", true) + 1;
	ASSERT_LT(0, buffer);
	ASSERT_LT(0, cpus);
	ASSERT_EQ(0, map_events_set(_metadata, self, -1))
		TH_LOG("the stream is on already: someone records");

	before = memory_held(_metadata, self);
	ASSERT_EQ(0, map_events_set(_metadata, self, 1));
	on = memory_held(_metadata, self);
	EXPECT_EQ(1, map_events_set(_metadata, self, 0));
	after = memory_held(_metadata, self);
	TH_LOG("held %llu bytes before, %llu on, %llu after (%ld CPUs, %ld events each)",
	       (unsigned long long)before, (unsigned long long)on,
	       (unsigned long long)after, cpus, buffer);
	/* seq, time, address, size, phys, attrs, caller, device: 64 bytes at least. */
	if (on != before)
		EXPECT_LE(before + (__u64)buffer * cpus * 64, on);
	EXPECT_EQ(on, after);
}

TEST_F(edgedma, map_events_set_rejects_enable_above_1)
{
	struct nl_answer ans;
	struct nl_msg m;
	int off, err;

	REQUIRE_EDGEDMA();
	if (!priv_has_cap(CAP_SYS_ADMIN))
		SKIP(return, "%s: needs CAP_SYS_ADMIN", _metadata->name);

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_MAP_EVENTS_SET, 1);
	off = nl_put_u32(&m, EDGEDMA_A_MAP_EVENTS_ENABLE, 2);
	ASSERT_LE(0, off);
	err = nl_transact(&self->sk, &m, NULL, NULL, &ans);
	ASSERT_EQ(0, err)
		TH_LOG("MAP_EVENTS_SET: %s", strerror(-err));
	TH_LOG("ENABLE=2: %s", nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	/* The policy's range check answers for the module: -ERANGE. */
	EXPECT_EQ(-ERANGE, ans.error);
	EXPECT_TRUE(ans.has_msg);
	EXPECT_TRUE(ans.has_offs && ans.offs == (__u32)off);
	EXPECT_EQ(0U, ans.replies);
}

/*
 * A driver rule's OWNED_HASH_MAX: 64 bytes to 1 MiB; outside, the policy's
 * range check answers -ERANGE pointing at the attribute, and nothing is
 * set (the rule's delete then finds nothing).
 */
TEST_F(edgedma, policy_owned_hash_max_bounded)
{
	static const struct {
		__u32 bytes;
		int error;
	} cases[] = {
		{ EDGEDMA_OWNED_HASH_MIN - 1, -ERANGE },
		{ EDGEDMA_OWNED_HASH_MAX + 1, -ERANGE },
		{ 0xffffffff, -ERANGE },
		{ EDGEDMA_OWNED_HASH_MIN, 0 },
		{ EDGEDMA_OWNED_HASH_MAX, 0 },
	};
	const char *driver = "edgedma_nl_test_no_such_driver";
	struct nl_answer ans;
	struct nl_msg m;
	unsigned int i;
	int off, err;

	REQUIRE_EDGEDMA();
	if (!priv_has_cap(CAP_SYS_ADMIN))
		SKIP(return, "%s: needs CAP_SYS_ADMIN", _metadata->name);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_POLICY_SET, 1);
		ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_POLICY_DRIVER, driver));
		off = nl_put_u32(&m, EDGEDMA_A_POLICY_OWNED_HASH_MAX, cases[i].bytes);
		ASSERT_LE(0, off);
		err = nl_transact(&self->sk, &m, NULL, NULL, &ans);
		ASSERT_EQ(0, err)
			TH_LOG("POLICY_SET: %s", strerror(-err));
		TH_LOG("OWNED_HASH_MAX=%u: %s", cases[i].bytes,
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
		EXPECT_EQ(cases[i].error, ans.error);
		if (cases[i].error) {
			EXPECT_TRUE(ans.has_msg);
			EXPECT_TRUE(ans.has_offs && ans.offs == (__u32)off);
		}

		genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_POLICY_DEL, 1);
		ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_POLICY_DRIVER, driver));
		err = nl_transact(&self->sk, &m, NULL, NULL, &ans);
		ASSERT_EQ(0, err);
		/* A refused value set nothing: no rule to delete. */
		EXPECT_EQ(cases[i].error ? -ENOENT : 0, ans.error)
			TH_LOG("POLICY_DEL after OWNED_HASH_MAX=%u: %s", cases[i].bytes,
			       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	}
}

/* ---- the crash region, on a module loaded without one ---------------------- */

struct crash_reply {
	__u16 family;
	unsigned int replies;
	__u32 state;
	bool has_state, has_phys, has_size, has_boot_id;
	char bad[128];
};

static int crash_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_CRASH_MAX + 1];
	struct crash_reply *r = arg;
	const void *attrs;
	size_t len;

	if (nlh->nlmsg_type != r->family)
		return reply_bad(r->bad, sizeof(r->bad), "%s", "reply from another family");
	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_CRASH_MAX))
		return reply_bad(r->bad, sizeof(r->bad), "%s", "reply attributes do not parse");
	r->replies++;
	r->has_state = tb[EDGEDMA_A_CRASH_REGION_STATE] &&
		       nl_attr_u32(tb[EDGEDMA_A_CRASH_REGION_STATE], &r->state);
	r->has_phys = tb[EDGEDMA_A_CRASH_REGION_PHYS];
	r->has_size = tb[EDGEDMA_A_CRASH_REGION_SIZE];
	r->has_boot_id = tb[EDGEDMA_A_CRASH_BOOT_ID];
	return 0;
}

/* CRASH_REGION_GET's state; skips the test when the module has a region. */
static bool crash_region_off(struct __test_metadata *_metadata,
			     FIXTURE_DATA(edgedma) *self)
{
	struct crash_reply r = { .family = self->fam.id };
	struct nl_answer ans;
	int err;

	err = genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_CRASH_REGION_GET, 0,
			crash_reply_fn, &r, &ans);
	if (err || ans.error || r.bad[0] || r.replies != 1 || !r.has_state) {
		TH_LOG("CRASH_REGION_GET: %s, %s, %u replies, %s", strerror(-err),
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)), r.replies,
		       r.has_state ? "a state" : "no state");
		return false;
	}
	EXPECT_TRUE(r.state >= EDGEDMA_CRASH_REGION_OFF && r.state <= EDGEDMA_CRASH_REGION_CORRUPT)
		TH_LOG("REGION_STATE %u is no enum edgedma_crash_region_state", r.state);
	if (r.state == EDGEDMA_CRASH_REGION_OFF) {
		EXPECT_FALSE(r.has_phys || r.has_size || r.has_boot_id)
			TH_LOG("a module without a region told where or whose it is");
	}
	return r.state == EDGEDMA_CRASH_REGION_OFF;
}

/*
 * Without a crash_region parameter: the region reads "off", no record is
 * listed or given, clearing is refused with -ENODEV and a message, and an
 * attribute a command does not take is rejected, pointing at it.
 */
TEST_F(edgedma, crash_commands_without_a_region)
{
	struct crash_reply r = { .family = self->fam.id };
	struct nl_answer ans;
	struct nl_msg m;
	__u64 seq = 1;
	int off, err;

	REQUIRE_EDGEDMA();
	if (!priv_has_cap(CAP_SYS_ADMIN))
		SKIP(return, "%s: needs CAP_SYS_ADMIN", _metadata->name);
	ASSERT_TRUE(find_op(&self->fam, EDGEDMA_CMD_CRASH_REGION_GET) &&
		    find_op(&self->fam, EDGEDMA_CMD_CRASH_RECORDS_GET) &&
		    find_op(&self->fam, EDGEDMA_CMD_CRASH_RECORDS_CLEAR))
		TH_LOG("the family does not list the CRASH_* commands");
	if (!crash_region_off(_metadata, self))
		SKIP(return, "%s: the module was loaded with a crash region", _metadata->name);

	err = genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_CRASH_RECORDS_GET, NLM_F_DUMP,
			crash_reply_fn, &r, &ans);
	ASSERT_EQ(0, err);
	EXPECT_EQ(0, ans.error) TH_LOG("CRASH_RECORDS_GET dump: %s",
				       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(0U, ans.replies) TH_LOG("records listed without a region");

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_CRASH_RECORDS_GET, 1);
	off = nl_put_u32(&m, EDGEDMA_A_CRASH_INDEX, 0);
	ASSERT_LE(0, off);
	ASSERT_EQ(0, nl_transact(&self->sk, &m, NULL, NULL, &ans));
	TH_LOG("CRASH_RECORDS_GET index 0: %s", nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(-ENOENT, ans.error);
	EXPECT_TRUE(ans.has_msg && ans.has_offs && ans.offs == (__u32)off);
	EXPECT_EQ(0U, ans.replies);

	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_CRASH_RECORDS_GET, 1);
	ASSERT_EQ(0, nl_transact(&self->sk, &m, NULL, NULL, &ans));
	TH_LOG("CRASH_RECORDS_GET without an index: %s",
	       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(-EINVAL, ans.error);
	EXPECT_TRUE(ans.has_msg);

	err = genl_call(&self->sk, self->fam.id, EDGEDMA_CMD_CRASH_RECORDS_CLEAR, 0,
			NULL, NULL, &ans);
	ASSERT_EQ(0, err);
	TH_LOG("CRASH_RECORDS_CLEAR: %s", nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(-ENODEV, ans.error);
	EXPECT_TRUE(ans.has_msg && strstr(ans.msg, "crash_region="))
		TH_LOG("the refusal must say how to get a region");

	/* SEQ is the dump's, not a CLEAR request's: strict validation refuses it. */
	genl_msg_init(&m, self->fam.id, 0, EDGEDMA_CMD_CRASH_RECORDS_CLEAR, 1);
	off = nl_put(&m, EDGEDMA_A_CRASH_SEQ, &seq, sizeof(seq));
	ASSERT_LE(0, off);
	ASSERT_EQ(0, nl_transact(&self->sk, &m, NULL, NULL, &ans));
	TH_LOG("CRASH_RECORDS_CLEAR with SEQ: %s", nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	EXPECT_EQ(-EINVAL, ans.error);
	EXPECT_TRUE(ans.has_offs && ans.offs == (__u32)off);
}

TEST_HARNESS_MAIN
