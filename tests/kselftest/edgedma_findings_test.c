// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma_findings_test: every deliberate mistake of the test driver
 * edgedma_test_edu (tests/drivers/edgedma_test_edu.c) gives findings of
 * exactly the kind its name says, and its correct use gives none.
 *
 * One test per driver mode. Each reads the newest finding's seq
 * (GET_STATS), sets the policy the mode needs for the edu device
 * (POLICY_SET), writes the mode to the driver's debugfs "run" file, deletes
 * the policy and dumps FINDINGS_GET from seq + 1. A bug mode must give at
 * least one finding, every one of the expected kind, naming the edu device
 * and the driver, with a caller and a detail sentence; "correct" must give
 * none. A mode the driver refuses on this DMA path (or cannot set up in
 * this guest) skips with the driver's reason.
 *
 * Every test runs once per hook mode (fixture variants "kprobe",
 * "tracepoint" and "ops"), and on kernels without the dma trace events once more in
 * kprobe mode with kprobes on the function entries as well
 * ("kprobe_entries", ftrace_entries=N: what kernels without ftrace get):
 * when edgedma runs otherwise it is reloaded from $EDGEDMA_KO with
 * hook=<mode> ftrace_entries=<Y|N> (its other parameters kept), and at
 * exit it is reloaded as it was found. A mode GET_INFO does not list skips.
 *
 * Needs root, edgedma.ko loaded (or EDGEDMA_KO to load it) and an edu
 * device. The driver is loaded when it is not (with nothing to make its
 * syncs visible on 6.11+: edgedma does that), from
 * $EDU_TEST_KO, else
 *   $EDGEDMA_SRC/build/test-drivers/$EDGEDMA_VM_ARCH-$EDGEDMA_VM_KERNEL/
 *   edgedma_test_edu.ko
 * and left loaded; without it the whole program skips (exit 4).
 *
 * Environment knobs (the 6.1 harness has no test selection):
 *   EDGEDMA_HOOK=kprobe|tracepoint|ops run only that variant
 *   EDGEDMA_FINDINGS_MODES=m1,m2,...   run only these driver modes
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/edgedma.h>

#include "edu.h"
#include "harness.h"
#include "nl.h"


#define EDGEDMA_MODULE	"edgedma"
#define EDGEDMA_SYSFS	"/sys/module/" EDGEDMA_MODULE
#define EDGEDMA_PARAMS	EDGEDMA_SYSFS "/parameters"

#define MAX_FINDINGS	256
#define TEST_TIMEOUT	180	/* a reload plus a mode, under TCG */

#define NOT_LOADED_HINT \
	"generic netlink family \"" EDGEDMA_FAMILY_NAME "\" is not " \
	"registered: load edgedma.ko first (or set EDGEDMA_KO)"

static const char *const kind_names[] = {
	[EDGEDMA_FINDING_ADDR_MISALIGNED]	= "addr-misaligned",
	[EDGEDMA_FINDING_LEN_MISALIGNED]	= "len-misaligned",
	[EDGEDMA_FINDING_CACHELINE_SHARED]	= "cacheline-shared",
	[EDGEDMA_FINDING_STACK_BUFFER]		= "stack-buffer",
	[EDGEDMA_FINDING_VMALLOC_BUFFER]	= "vmalloc-buffer",
	[EDGEDMA_FINDING_RODATA_BUFFER]		= "rodata-buffer",
	[EDGEDMA_FINDING_SEG_BOUNDARY]		= "seg-boundary",
	[EDGEDMA_FINDING_SEG_TOO_LONG]		= "seg-too-long",
	[EDGEDMA_FINDING_MASK_EXCEEDED]		= "mask-exceeded",
	[EDGEDMA_FINDING_BOUNCED]		= "bounced",
	[EDGEDMA_FINDING_UNMAP_UNKNOWN]		= "unmap-unknown",
	[EDGEDMA_FINDING_DOUBLE_UNMAP]		= "double-unmap",
	[EDGEDMA_FINDING_UNMAP_MISMATCH]	= "unmap-mismatch",
	[EDGEDMA_FINDING_SYNC_UNKNOWN]		= "sync-unknown",
	[EDGEDMA_FINDING_SYNC_MISMATCH]		= "sync-mismatch",
	[EDGEDMA_FINDING_LEAK]			= "leak",
	[EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN] = "cacheline-neighbour-written",
	[EDGEDMA_FINDING_FREE_IRQS_OFF] = "free-irqs-off",
	[EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED] = "cpu-write-while-device-owned",
};

static const char *kind_name(__u32 kind)
{
	if (kind < ARRAY_SIZE(kind_names) && kind_names[kind])
		return kind_names[kind];
	return "unknown";
}

/* ---- what main() finds before the tests run (inherited by each test) -- */

static char edgedma_params[1024];	/* edgedma's parameters at start */
static char edgedma_params_nohook[1024];	/* the same without hook=, ftrace_entries= */
static char edgedma_hook_at_start[32];	/* its hook= then, "" if unloaded */

/* ---- small file helpers ---------------------------------------------- */

/*
 * Where a loaded module's memory starts and how long it is, from
 * /proc/modules ("name size refs deps state address"); false if it is not
 * loaded or its address is hidden (kptr_restrict).
 */
static bool module_range(const char *name, unsigned long long *base,
			 unsigned long long *size)
{
	char line[512], mod[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/modules", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s %llu %*s %*s %*s %llx", mod, size,
			       base) == 3 && !strcmp(mod, name) && *base;
	fclose(f);
	return found;
}

/* ---- modules ----------------------------------------------------------- */

/* Whether @word is one of the space-separated words of @list. */
static bool word_in(const char *list, const char *word)
{
	size_t len = strlen(word);
	const char *p;

	for (p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (!p[len] || p[len] == ' '))
			return true;
	return false;
}

/*
 * edgedma's parameters as "name=value ..." (each as /sys/module shows it,
 * which its setters take back), leaving out those @skip names (a
 * space-separated list). Empty if not loaded.
 */
static void edgedma_params_now(char *buf, size_t n, const char *skip)
{
	struct dirent *d;
	size_t len = 0;
	DIR *dir;

	buf[0] = '\0';
	dir = opendir(EDGEDMA_PARAMS);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		char path[PATH_MAX], value[256];

		if (d->d_name[0] == '.' || (skip && word_in(skip, d->d_name)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", EDGEDMA_PARAMS, d->d_name);
		if (read_line(path, value, sizeof(value)) || !value[0] ||
		    strchr(value, ' '))
			continue;
		len += snprintf(buf + len, n > len ? n - len : 0, "%s%s=%s",
				len ? " " : "", d->d_name, value);
	}
	closedir(dir);
	if (len >= n)
		buf[0] = '\0';	/* too long to trust: use the defaults */
}

/* Reload edgedma from $EDGEDMA_KO with @params; 0 or -errno, @why says. */
static int edgedma_reload(const char *params, char *why, size_t n)
{
	const char *ko = getenv("EDGEDMA_KO");
	int err;

	if (!ko || !*ko) {
		snprintf(why, n, "EDGEDMA_KO is not set");
		return -ENOENT;
	}
	if (!path_exists(ko)) {
		snprintf(why, n, "EDGEDMA_KO=%s: %s", ko, strerror(ENOENT));
		return -ENOENT;
	}
	if (path_exists(EDGEDMA_SYSFS)) {
		err = unload_module(EDGEDMA_MODULE);
		if (err) {
			snprintf(why, n, "delete_module(%s): %s", EDGEDMA_MODULE,
				 strerror(-err));
			return err;
		}
	}
	err = load_module(ko, params);
	if (err)
		snprintf(why, n, "finit_module(%s, \"%s\"): %s", ko, params,
			 strerror(-err));
	return err;
}

/* ---- netlink: the commands this test sends ------------------------------ */

struct finding {
	__u64 seq;
	__u64 time_ns;
	__u64 occurrences, last_time_ns;	/* of its site; 0 if absent */
	bool have_occurrences;
	__u64 dma_addr;
	__u64 size;
	__u64 caller;
	__u64 cpu_phys;
	bool have_cpu_phys;
	__u32 kind;
	__u32 call;
	__u32 dir;
	bool have_seq, have_kind, have_caller;
	char device[64];
	char driver[64];
	char detail[256];
	char caller_name[128];		/* as the module named it, "" if absent */
	__u64 chain[8];			/* CALL_CHAIN */
	unsigned int chain_len;
	char chain_names[512];
	char driver_module[64];
	bool have_chain_names, have_driver_module;
	char map_caller_name[128];
	bool have_device, have_driver, have_detail;
	bool have_caller_name, have_map_caller_name;
};

struct findings_dump {
	__u16 family;
	unsigned int n;			/* findings stored */
	unsigned int total;		/* findings received */
	struct finding f[MAX_FINDINGS];
	char bad[160];
};

/* Whatever an edgedma reply carries that this test reads. */
struct edgedma_reply {
	__u16 family;
	__u32 hook_modes, hook_mode;	/* GET_INFO */
	bool have_hook_mode;
	__u32 kretprobes, ftrace_entries, kprobe_entries;
	bool have_kprobe_hooks;		/* the three above (kprobe mode) */
	__u64 last_seq;			/* GET_STATS */
	bool have_last_seq;
	__u64 folded, sites, sites_full;
	bool have_folding;		/* the three above */
	__u64 unfold_holders;		/* GET_STATS */
	bool have_unfold_holders;
	__u64 stale;			/* GET_STATS */
	bool have_stale;
	__u32 dev_coherent, coherency;	/* POLICY_GET */
	bool have_dev_coherent;
	char bad[160];
};

static int reply_bad(char *bad, size_t n, const char *what)
{
	snprintf(bad, n, "%s", what);
	return -EBADMSG;
}

static const void *edgedma_attrs(const struct nlmsghdr *nlh, __u16 family,
				 size_t *len)
{
	if (nlh->nlmsg_type != family)
		return NULL;
	return genl_attrs(nlh, 0, len);
}

static int info_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_INFO_MAX + 1];
	struct edgedma_reply *r = arg;
	const void *attrs;
	size_t len;

	attrs = edgedma_attrs(nlh, r->family, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_INFO_MAX) ||
	    !nl_attr_u32(tb[EDGEDMA_A_INFO_HOOK_MODES], &r->hook_modes))
		return reply_bad(r->bad, sizeof(r->bad),
				 "GET_INFO reply without HOOK_MODES");
	r->have_hook_mode = nl_attr_u32(tb[EDGEDMA_A_INFO_HOOK_MODE],
					&r->hook_mode);
	r->have_kprobe_hooks =
		nl_attr_u32(tb[EDGEDMA_A_INFO_HOOK_KRETPROBES], &r->kretprobes) &&
		nl_attr_u32(tb[EDGEDMA_A_INFO_HOOK_FTRACE_ENTRIES], &r->ftrace_entries) &&
		nl_attr_u32(tb[EDGEDMA_A_INFO_HOOK_KPROBE_ENTRIES], &r->kprobe_entries);
	return 0;
}

static int stats_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_STATS_MAX + 1];
	struct edgedma_reply *r = arg;
	const void *attrs;
	size_t len;

	attrs = edgedma_attrs(nlh, r->family, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_STATS_MAX))
		return reply_bad(r->bad, sizeof(r->bad),
				 "GET_STATS reply does not parse");
	r->have_last_seq = nl_attr_u64(tb[EDGEDMA_A_STATS_FINDINGS],
				       &r->last_seq);
	r->have_folding = nl_attr_u64(tb[EDGEDMA_A_STATS_FINDINGS_FOLDED], &r->folded) &&
			  nl_attr_u64(tb[EDGEDMA_A_STATS_FINDING_SITES], &r->sites) &&
			  nl_attr_u64(tb[EDGEDMA_A_STATS_FINDING_SITES_FULL],
				      &r->sites_full);
	r->have_unfold_holders = nl_attr_u64(tb[EDGEDMA_A_STATS_UNFOLD_HOLDERS],
					     &r->unfold_holders);
	r->have_stale = nl_attr_u64(tb[EDGEDMA_A_STATS_STALE_MAPPINGS], &r->stale);
	return 0;
}

static int policy_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_POLICY_MAX + 1];
	struct edgedma_reply *r = arg;
	const void *attrs;
	size_t len;

	attrs = edgedma_attrs(nlh, r->family, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_POLICY_MAX))
		return reply_bad(r->bad, sizeof(r->bad),
				 "POLICY_GET reply does not parse");
	r->have_dev_coherent = nl_attr_u32(tb[EDGEDMA_A_POLICY_DEV_COHERENT],
					   &r->dev_coherent);
	nl_attr_u32(tb[EDGEDMA_A_POLICY_COHERENCY], &r->coherency);
	return 0;
}

static void copy_str(const struct nlattr *a, char *dst, size_t n, bool *have)
{
	const char *s = nl_attr_str(a);

	*have = s;
	snprintf(dst, n, "%s", s ? s : "");
}

static int finding_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_FINDING_MAX + 1];
	struct findings_dump *d = arg;
	struct finding scratch, *f;
	const void *attrs;
	size_t len;

	attrs = edgedma_attrs(nlh, d->family, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_FINDING_MAX))
		return reply_bad(d->bad, sizeof(d->bad),
				 "a FINDINGS_GET message does not parse");

	d->total++;
	f = d->n < MAX_FINDINGS ? &d->f[d->n++] : &scratch;
	memset(f, 0, sizeof(*f));
	f->have_seq = nl_attr_u64(tb[EDGEDMA_A_FINDING_SEQ], &f->seq);
	nl_attr_u64(tb[EDGEDMA_A_FINDING_TIME_NS], &f->time_ns);
	f->have_occurrences =
		nl_attr_u64(tb[EDGEDMA_A_FINDING_OCCURRENCES], &f->occurrences) &&
		nl_attr_u64(tb[EDGEDMA_A_FINDING_LAST_TIME_NS], &f->last_time_ns);
	f->have_kind = nl_attr_u32(tb[EDGEDMA_A_FINDING_KIND], &f->kind);
	f->have_caller = nl_attr_u64(tb[EDGEDMA_A_FINDING_CALLER], &f->caller);
	nl_attr_u32(tb[EDGEDMA_A_FINDING_CALL], &f->call);
	nl_attr_u32(tb[EDGEDMA_A_FINDING_DIR], &f->dir);
	nl_attr_u64(tb[EDGEDMA_A_FINDING_DMA_ADDR], &f->dma_addr);
	nl_attr_u64(tb[EDGEDMA_A_FINDING_SIZE], &f->size);
	f->have_cpu_phys = nl_attr_u64(tb[EDGEDMA_A_FINDING_CPU_PHYS], &f->cpu_phys);
	copy_str(tb[EDGEDMA_A_FINDING_DEVICE], f->device, sizeof(f->device),
		 &f->have_device);
	copy_str(tb[EDGEDMA_A_FINDING_DRIVER], f->driver, sizeof(f->driver),
		 &f->have_driver);
	copy_str(tb[EDGEDMA_A_FINDING_DETAIL], f->detail, sizeof(f->detail),
		 &f->have_detail);
	copy_str(tb[EDGEDMA_A_FINDING_CALLER_NAME], f->caller_name,
		 sizeof(f->caller_name), &f->have_caller_name);
	copy_str(tb[EDGEDMA_A_FINDING_MAP_CALLER_NAME], f->map_caller_name,
		 sizeof(f->map_caller_name), &f->have_map_caller_name);
	copy_str(tb[EDGEDMA_A_FINDING_CALL_CHAIN_NAMES], f->chain_names,
		 sizeof(f->chain_names), &f->have_chain_names);
	copy_str(tb[EDGEDMA_A_FINDING_DRIVER_MODULE], f->driver_module,
		 sizeof(f->driver_module), &f->have_driver_module);
	if (tb[EDGEDMA_A_FINDING_CALL_CHAIN]) {
		size_t bytes = nl_attr_len(tb[EDGEDMA_A_FINDING_CALL_CHAIN]);

		f->chain_len = bytes % sizeof(__u64) ? 0 : bytes / sizeof(__u64);
		if (f->chain_len > 8)
			f->chain_len = 8;
		memcpy(f->chain, nl_attr_data(tb[EDGEDMA_A_FINDING_CALL_CHAIN]),
		       f->chain_len * sizeof(__u64));
	}
	return 0;
}

/* ---- the fixture ------------------------------------------------------- */

FIXTURE(findings) {
	struct nl_sock sk;
	__u16 family;
	bool policy_set;	/* a device rule of ours to delete */
	bool unbound;		/* the edu device to bind again */
	bool fold_off;		/* fold_findings to turn on again */
	/* edgedma reloaded for a test: its parameters before, to load again */
	bool reloaded;
	char params_before[1200];
	char buf[512];		/* for nl_answer_str() */
};

FIXTURE_VARIANT(findings) {
	const char *hook;	/* as edgedma's hook= parameter names it */
	__u32 mode;		/* enum edgedma_hook_mode */
	/*
	 * Kprobe mode with kprobes on the function entries too
	 * (ftrace_entries=N): what kernels without ftrace get.
	 */
	bool kprobe_entries;
	const char *name;	/* in messages */
};

FIXTURE_VARIANT_ADD(findings, kprobe) {
	.hook = "kprobe",
	.mode = EDGEDMA_HOOK_MODE_KPROBE,
	.name = "kprobe",
};

FIXTURE_VARIANT_ADD(findings, kprobe_entries) {
	.hook = "kprobe",
	.mode = EDGEDMA_HOOK_MODE_KPROBE,
	.kprobe_entries = true,
	.name = "kprobe, kprobe entries",
};

FIXTURE_VARIANT_ADD(findings, tracepoint) {
	.hook = "tracepoint",
	.mode = EDGEDMA_HOOK_MODE_TRACEPOINT,
	.name = "tracepoint",
};

FIXTURE_VARIANT_ADD(findings, ops) {
	.hook = "ops",
	.mode = EDGEDMA_HOOK_MODE_OPS,
	.name = "ops",
};

/* One request on the fixture's socket; the kernel's answer in @ans. */
static void transact(struct __test_metadata *_metadata,
		     FIXTURE_DATA(findings) *self, struct nl_msg *m,
		     nl_reply_fn fn, void *arg, const char *bad,
		     const char *what, struct nl_answer *ans)
{
	int err = nl_transact(&self->sk, m, fn, arg, ans);

	ASSERT_EQ(0, err)
		TH_LOG("%s: %s%s%s", what, strerror(-err),
		       bad && bad[0] ? ": " : "", bad ? bad : "");
}

/* A command that must succeed. */
static void transact_ok(struct __test_metadata *_metadata,
			FIXTURE_DATA(findings) *self, struct nl_msg *m,
			nl_reply_fn fn, void *arg, const char *bad,
			const char *what)
{
	struct nl_answer ans;

	transact(_metadata, self, m, fn, arg, bad, what, &ans);
	ASSERT_EQ(0, ans.error)
		TH_LOG("%s: %s", what,
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
}

static void get_info(struct __test_metadata *_metadata,
		     FIXTURE_DATA(findings) *self, struct edgedma_reply *r)
{
	struct nl_msg m;

	memset(r, 0, sizeof(*r));
	r->family = self->family;
	genl_msg_init(&m, self->family, 0, EDGEDMA_CMD_GET_INFO, 1);
	transact_ok(_metadata, self, &m, info_reply_fn, r, r->bad, "GET_INFO");
}

/* The seq of the newest finding (GET_STATS), 0 when there is none yet. */
static __u64 last_seq(struct __test_metadata *_metadata,
		      FIXTURE_DATA(findings) *self)
{
	struct edgedma_reply r = { .family = self->family };
	struct nl_msg m;

	genl_msg_init(&m, self->family, 0, EDGEDMA_CMD_GET_STATS, 1);
	transact_ok(_metadata, self, &m, stats_reply_fn, &r, r.bad,
		    "GET_STATS");
	EXPECT_TRUE(r.have_last_seq)
		TH_LOG("GET_STATS: no EDGEDMA_A_STATS_FINDINGS u64");
	return r.last_seq;
}

static void get_stats(struct __test_metadata *_metadata,
		      FIXTURE_DATA(findings) *self, struct edgedma_reply *r)
{
	struct nl_msg m;

	memset(r, 0, sizeof(*r));
	r->family = self->family;
	genl_msg_init(&m, self->family, 0, EDGEDMA_CMD_GET_STATS, 1);
	transact_ok(_metadata, self, &m, stats_reply_fn, r, r->bad, "GET_STATS");
	ASSERT_TRUE(r->have_last_seq && r->have_folding)
		TH_LOG("GET_STATS: no FINDINGS, FINDINGS_FOLDED, FINDING_SITES or FINDING_SITES_FULL u64");
}

/* Delete a rule; returns the kernel's answer (-ENOENT: there was none). */
static int policy_del(struct __test_metadata *_metadata,
		      FIXTURE_DATA(findings) *self, int type, const char *name)
{
	struct nl_answer ans;
	struct nl_msg m;

	genl_msg_init(&m, self->family, 0, EDGEDMA_CMD_POLICY_DEL, 1);
	ASSERT_LE(0, nl_put_str(&m, type, name));
	transact(_metadata, self, &m, NULL, NULL, NULL, "POLICY_DEL", &ans);
	return ans.error;
}

struct policy {
	__u32 addr_align;	/* 0: not set */
	__u32 len_align;
	__u32 coherency;
	__u32 checks;		/* 0: not set (the default: every check but
				 * the ones off by default) */
	__u32 owned_hash_max;	/* 0: not set */
};

static void policy_set(struct __test_metadata *_metadata,
		       FIXTURE_DATA(findings) *self, const struct policy *p)
{
	struct nl_msg m;

	genl_msg_init(&m, self->family, 0, EDGEDMA_CMD_POLICY_SET, 1);
	ASSERT_LE(0, nl_put_str(&m, EDGEDMA_A_POLICY_DEVICE, edu_dev));
	if (p->addr_align)
		ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_POLICY_ADDR_ALIGN,
					p->addr_align));
	if (p->len_align)
		ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_POLICY_LEN_ALIGN,
					p->len_align));
	if (p->coherency)
		ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_POLICY_COHERENCY,
					p->coherency));
	if (p->checks)
		ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_POLICY_CHECKS, p->checks));
	if (p->owned_hash_max)
		ASSERT_LE(0, nl_put_u32(&m, EDGEDMA_A_POLICY_OWNED_HASH_MAX,
					p->owned_hash_max));
	self->policy_set = true;
	transact_ok(_metadata, self, &m, NULL, NULL, NULL, "POLICY_SET");
	TH_LOG("policy for %s: addr_align %u, len_align %u, coherency %u, checks %#x, owned_hash_max %u",
	       edu_dev, p->addr_align, p->len_align, p->coherency, p->checks,
	       p->owned_hash_max);
}

/* POLICY_GET do: whether the kernel says the edu device is coherent. */
static bool device_coherent(struct __test_metadata *_metadata,
			    FIXTURE_DATA(findings) *self)
{
	struct edgedma_reply r = { .family = self->family };
	struct nl_msg m;

	genl_msg_init(&m, self->family, 0, EDGEDMA_CMD_POLICY_GET, 1);
	EXPECT_LE(0, nl_put_str(&m, EDGEDMA_A_POLICY_DEVICE, edu_dev));
	transact_ok(_metadata, self, &m, policy_reply_fn, &r, r.bad,
		    "POLICY_GET");
	EXPECT_TRUE(r.have_dev_coherent)
		TH_LOG("POLICY_GET %s: no EDGEDMA_A_POLICY_DEV_COHERENT",
		       edu_dev);
	TH_LOG("POLICY_GET %s: DEV_COHERENT %u, COHERENCY %u", edu_dev,
	       r.dev_coherent, r.coherency);
	return r.dev_coherent;
}

static void dump_findings(struct __test_metadata *_metadata,
			  FIXTURE_DATA(findings) *self, __u64 from,
			  struct findings_dump *d)
{
	struct nl_answer ans;
	struct nl_msg m;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	d->family = self->family;
	genl_msg_init(&m, self->family, NLM_F_DUMP, EDGEDMA_CMD_FINDINGS_GET, 1);
	ASSERT_LE(0, nl_put(&m, EDGEDMA_A_FINDING_SEQ, &from, sizeof(from)));
	transact(_metadata, self, &m, finding_reply_fn, d, d->bad,
		 "FINDINGS_GET", &ans);
	ASSERT_EQ(0, ans.error)
		TH_LOG("FINDINGS_GET from %llu: %s", (unsigned long long)from,
		       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	ASSERT_TRUE(ans.done)
		TH_LOG("FINDINGS_GET: the dump did not end with NLMSG_DONE");
	/* Every finding, one occurrence or many: the latest is not before it. */
	for (i = 0; i < d->n; i++) {
		const struct finding *f = &d->f[i];

		if (!f->have_occurrences)
			continue;
		EXPECT_LE(f->time_ns, f->last_time_ns)
			TH_LOG("finding %llu: last time %llu before its own %llu",
			       (unsigned long long)f->seq,
			       (unsigned long long)f->last_time_ns,
			       (unsigned long long)f->time_ns);
	}
}

/*
 * Bind the edu device to the test driver again, so that edgedma watched
 * every mapping it holds: edgedma calls an address unknown (unmap-unknown,
 * sync-unknown) only on such a device, not on one bound before it loaded.
 * Returns 0 or -errno.
 */
static int rebind_edu(void)
{
	int err = write_file(EDU_PCI_DRIVER "/unbind", edu_dev);

	if (err)
		return err;
	return write_file(EDU_PCI_DRIVER "/bind", edu_dev);
}

/* Resolve the family; false when it is not registered. */
static bool resolve(struct __test_metadata *_metadata,
		    FIXTURE_DATA(findings) *self)
{
	struct genl_family_info fam;
	struct nl_answer ans;
	int err;

	err = genl_resolve(&self->sk, EDGEDMA_FAMILY_NAME, &fam, &ans);
	EXPECT_EQ(0, err)
		TH_LOG("CTRL_CMD_GETFAMILY: %s", strerror(-err));
	if (err || ans.error)
		return false;
	self->family = fam.id;
	return true;
}

static bool knob_allows(const char *env, const char *name)
{
	const char *list = getenv(env);
	size_t len = strlen(name);
	const char *p;

	if (!list || !*list)
		return true;
	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',' || p[-1] == ' ') &&
		    (!p[len] || p[len] == ',' || p[len] == ' '))
			return true;
	return false;
}

/* edgedma's ftrace_entries= parameter: on unless it says N. */
static bool ftrace_entries_on(void)
{
	char value[8];

	return read_line(EDGEDMA_PARAMS "/ftrace_entries", value, sizeof(value)) ||
	       strcmp(value, "N");
}

/*
 * Make edgedma run in the variant's hook mode: reload it with hook=<mode>
 * (its other parameters as found at start) when it runs in another one.
 * Skips when this kernel lacks the mode or EDGEDMA_HOOK asks for another.
 */
static void ensure_hook(struct __test_metadata *_metadata,
			FIXTURE_DATA(findings) *self,
			const FIXTURE_VARIANT(findings) *variant)
{
	struct edgedma_reply info;
	char params[1200], why[600];
	bool present;
	int err;

	if (!knob_allows("EDGEDMA_HOOK", variant->hook))
		SKIP(return, "%s (hook %s): EDGEDMA_HOOK=%s", _metadata->name,
		     variant->name, getenv("EDGEDMA_HOOK"));

	present = resolve(_metadata, self);
	if (present) {
		get_info(_metadata, self, &info);
		if (!(info.hook_modes & variant->mode))
			SKIP(return,
			     "%s (hook %s): this kernel has no %s hook mode (GET_INFO hook modes %#x)",
			     _metadata->name, variant->name, variant->hook,
			     info.hook_modes);
		ASSERT_TRUE(info.have_hook_mode)
			TH_LOG("GET_INFO: no EDGEDMA_A_INFO_HOOK_MODE");
		if (variant->kprobe_entries &&
		    (info.hook_modes & EDGEDMA_HOOK_MODE_TRACEPOINT))
			SKIP(return, "%s (hook %s): kprobe entries are tested on kernels without the dma trace events (5.10, 6.1), where kprobe mode is the default",
			     _metadata->name, variant->name);
		if (info.hook_mode == variant->mode &&
		    ftrace_entries_on() == !variant->kprobe_entries)
			return;
	}

	/* Its parameters as they are now, else as they were at start. */
	edgedma_params_now(params, sizeof(params), "hook ftrace_entries");
	if (!params[0])
		snprintf(params, sizeof(params), "%s", edgedma_params_nohook);
	snprintf(params + strlen(params), sizeof(params) - strlen(params),
		 "%shook=%s ftrace_entries=%s", params[0] ? " " : "",
		 variant->hook, variant->kprobe_entries ? "N" : "Y");
	TH_LOG("reloading %s with \"%s\" (%s)", EDGEDMA_MODULE, params,
	       present ? "it runs in another hook mode" : "it was not loaded");
	err = edgedma_reload(params, why, sizeof(why));
	if (err == -ENOENT && !present) {
		ASSERT_TRUE(present)
			TH_LOG(NOT_LOADED_HINT " (%s)", why);
	}
	if (err == -ENOENT)
		SKIP(return, "%s (hook %s): edgedma runs in another hook mode and cannot be reloaded: %s",
		     _metadata->name, variant->name, why);
	if (err == -EOPNOTSUPP)
		SKIP(return, "%s (hook %s): edgedma refuses hook=%s on this kernel: %s",
		     _metadata->name, variant->name, variant->hook, why);
	ASSERT_EQ(0, err)
		TH_LOG("%s", why);

	ASSERT_TRUE(resolve(_metadata, self))
		TH_LOG("the family is not registered after the reload");
	get_info(_metadata, self, &info);
	ASSERT_TRUE(info.have_hook_mode);
	ASSERT_EQ(variant->mode, info.hook_mode)
		TH_LOG("loaded with hook=%s, GET_INFO says hook mode %u",
		       variant->hook, info.hook_mode);
	if (variant->kprobe_entries &&
	    (info.hook_modes & EDGEDMA_HOOK_MODE_TRACEPOINT))
		SKIP(return, "%s (hook %s): kprobe entries are tested on kernels without the dma trace events (5.10, 6.1), where kprobe mode is the default",
		     _metadata->name, variant->name);
	err = rebind_edu();
	ASSERT_EQ(0, err)
		TH_LOG("binding %s to %s again after the reload: %s", edu_dev,
		       EDU_NAME, strerror(-err));
}

FIXTURE_SETUP(findings)
{
	int err;

	self->sk.fd = -1;
	err = nl_open(&self->sk);
	ASSERT_EQ(0, err)
		TH_LOG("NETLINK_GENERIC socket: %s", strerror(-err));

	ensure_hook(_metadata, self, variant);
	if (_metadata->skip)
		return;

	/* Rules left behind by someone else would change what is found. */
	if (!policy_del(_metadata, self, EDGEDMA_A_POLICY_DEVICE, edu_dev))
		TH_LOG("deleted a policy rule left for device %s", edu_dev);
	if (!policy_del(_metadata, self, EDGEDMA_A_POLICY_DRIVER, EDU_NAME))
		TH_LOG("deleted a policy rule left for driver %s", EDU_NAME);
}

FIXTURE_TEARDOWN(findings)
{
	int err;

	if (self->policy_set && self->family)
		policy_del(_metadata, self, EDGEDMA_A_POLICY_DEVICE, edu_dev);
	if (self->fold_off)
		write_file(EDGEDMA_PARAMS "/fold_findings", "Y");
	if (self->unbound) {
		err = write_file(EDU_PCI_DRIVER "/bind", edu_dev);
		if (err)
			TH_LOG("binding %s to %s again: %s", edu_dev, EDU_NAME,
			       strerror(-err));
	}
	if (self->reloaded) {
		char why[600];

		err = edgedma_reload(self->params_before, why, sizeof(why)) ?:
		      rebind_edu();
		if (err)
			TH_LOG("loading edgedma with \"%s\" again: %s",
			       self->params_before, err == -ENOENT ? why : strerror(-err));
	}
	nl_close(&self->sk);
}

/* ---- the test driver ---------------------------------------------------- */

/* The driver's record of its last mode, one TH_LOG line per line. */
static void log_record(struct __test_metadata *_metadata)
{
	char path[PATH_MAX], *rec, *line, *save;

	rec = malloc(EDU_RECORD_SIZE + 1);
	if (!rec)
		return;
	edu_path(path, sizeof(path), "last");
	if (read_file(path, rec, EDU_RECORD_SIZE + 1) < 0) {
		TH_LOG("%s: %s", path, strerror(errno));
	} else {
		TH_LOG("the driver's record of the mode:");
		for (line = strtok_r(rec, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			TH_LOG("  %s", line);
	}
	free(rec);
}

/* Why the driver skipped its last mode: its "skip ..." line. */
static void record_skip_reason(char *buf, size_t n)
{
	char path[PATH_MAX], *rec, *p;

	snprintf(buf, n, "no reason recorded");
	rec = malloc(EDU_RECORD_SIZE + 1);
	if (!rec)
		return;
	edu_path(path, sizeof(path), "last");
	if (read_file(path, rec, EDU_RECORD_SIZE + 1) >= 0) {
		for (p = rec; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
			if (!strncmp(p, "skip ", 5)) {
				snprintf(buf, n, "%.*s", (int)strcspn(p + 5, "\n"),
					 p + 5);
				break;
			}
		}
	}
	free(rec);
}

/*
 * Where the driver says @mode runs: 1 runs here, 0 refused here (@where:
 * the paths it runs on), -1 not a mode of this driver.
 */
static int mode_runs_here(const char *mode, char *where, size_t n)
{
	char path[PATH_MAX], list[4096], *line, *save;

	edu_path(path, sizeof(path), "run");
	if (read_file(path, list, sizeof(list)) < 0)
		return -1;
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[32], w[32] = "", state[32] = "";

		if (sscanf(line, "%31s %31s %31s", name, w, state) < 2 ||
		    strcmp(name, mode))
			continue;
		if (!state[0]) {	/* "name  state": no path at all */
			snprintf(state, sizeof(state), "%s", w);
			w[0] = '\0';
		}
		snprintf(where, n, "%s", w);
		return !strcmp(state, "runs-here");
	}
	return -1;
}

/* ---- one mode, checked ------------------------------------------------- */

enum coherency_need {
	COHERENCY_AS_IS,
	COHERENCY_NONCOHERENT,		/* always override */
	COHERENCY_NONCOHERENT_IF_COHERENT,
};

struct mode_case {
	const char *mode;		/* as the driver names it */
	__u32 expect;			/* finding kind, 0: none at all */
	__u32 also;			/* another kind the mode may give */
	__u32 addr_align;
	__u32 len_align;
	enum coherency_need coherency;
	__u32 checks;			/* the policy's CHECKS; 0: left as they are */
	bool unbind;			/* findings come when the driver unbinds */
	const char *detail_has;		/* words the expected kind's sentence has */
	__u32 owned_hash_max;		/* the policy's; 0: left as it is */
	/*
	 * The finding rests on a kretprobe of the module's own (vmalloc
	 * pages are learned from vmalloc_to_page()): a kernel without
	 * kprobes skips, whatever the hook mode.
	 */
	bool needs_kprobes;
	/* Module parameters to load edgedma with for the test, then as before. */
	const char *load;
};

static void log_finding(struct __test_metadata *_metadata,
			const struct finding *f)
{
	char chain[sizeof(f->chain_names)], *p;

	snprintf(chain, sizeof(chain), "%s", f->chain_names);
	for (p = chain; (p = strchr(p, '\n')); )
		*p = ',';
	TH_LOG("finding %llu: driver module \"%s\", chain of %u: %s",
	       (unsigned long long)f->seq, f->driver_module, f->chain_len, chain);
	TH_LOG("finding %llu: %s (kind %u), call %u, dir %u, device \"%s\", driver \"%s\", dma %#llx +%llu, caller %#llx: %s",
	       (unsigned long long)f->seq, kind_name(f->kind), f->kind,
	       f->call, f->dir, f->device, f->driver,
	       (unsigned long long)f->dma_addr, (unsigned long long)f->size,
	       (unsigned long long)f->caller, f->detail);
}

static void check_mode(struct __test_metadata *_metadata,
		       FIXTURE_DATA(findings) *self,
		       const FIXTURE_VARIANT(findings) *variant,
		       const struct mode_case *c)
{
	struct policy pol = {
		.addr_align = c->addr_align,
		.len_align = c->len_align,
		.checks = c->checks,
		.owned_hash_max = c->owned_hash_max,
	};
	struct findings_dump *d;
	struct edgedma_reply stats;
	__u64 stale_before;
	char path[PATH_MAX], where[64], reason[256];
	unsigned long long edu_base = 0, edu_size = 0;
	unsigned int i, wrong = 0, expected = 0;
	bool have_edu_range;
	int runs, err;
	__u64 seq;

	/* SKIP() in FIXTURE_SETUP does not stop the 6.1 harness. */
	if (_metadata->skip)
		return;
	if (!knob_allows("EDGEDMA_FINDINGS_MODES", c->mode))
		SKIP(return, "%s (hook %s): not in EDGEDMA_FINDINGS_MODES=%s",
		     _metadata->name, variant->name,
		     getenv("EDGEDMA_FINDINGS_MODES"));

	if (c->needs_kprobes) {
		struct edgedma_reply info;

		get_info(_metadata, self, &info);
		if (!(info.hook_modes & EDGEDMA_HOOK_MODE_KPROBE))
			SKIP(return, "%s (hook %s): this kernel has no kprobes (CONFIG_KPROBES): which pages are vmalloc memory is learned from a kretprobe on vmalloc_to_page()",
			     _metadata->name, variant->name);
	}

	runs = mode_runs_here(c->mode, where, sizeof(where));
	ASSERT_NE(-1, runs)
		TH_LOG("%s lists no mode \"%s\" in its debugfs run file",
		       EDU_NAME, c->mode);
	if (!runs)
		SKIP(return, "%s (hook %s): %s refuses mode %s on this DMA path (it runs on: %s)",
		     _metadata->name, variant->name, EDU_NAME, c->mode, where);

	if (c->load) {
		char params[1200], why[600], names[200], *eq;

		/* "a=1 b=2" -> "a b": the parameters given, left out of the rest. */
		snprintf(names, sizeof(names), "%s", c->load);
		while ((eq = strchr(names, '=')))
			memmove(eq, eq + strcspn(eq, " "), strlen(eq + strcspn(eq, " ")) + 1);
		edgedma_params_now(self->params_before, sizeof(self->params_before), NULL);
		edgedma_params_now(params, sizeof(params), names);
		snprintf(params + strlen(params), sizeof(params) - strlen(params),
			 "%s%s", params[0] ? " " : "", c->load);
		TH_LOG("reloading %s with \"%s\"", EDGEDMA_MODULE, params);
		self->reloaded = true;
		err = edgedma_reload(params, why, sizeof(why));
		ASSERT_EQ(0, err)
			TH_LOG("%s", why);
		ASSERT_TRUE(resolve(_metadata, self));
		err = rebind_edu();
		ASSERT_EQ(0, err)
			TH_LOG("binding %s to %s again after the reload: %s", edu_dev,
			       EDU_NAME, strerror(-err));
	}
	get_stats(_metadata, self, &stats);
	ASSERT_TRUE(stats.have_stale)
		TH_LOG("GET_STATS: no STALE_MAPPINGS u64");
	seq = last_seq(_metadata, self);

	if (c->coherency == COHERENCY_NONCOHERENT)
		pol.coherency = EDGEDMA_COHERENCY_NONCOHERENT;
	else if (c->coherency == COHERENCY_NONCOHERENT_IF_COHERENT) {
		if (device_coherent(_metadata, self))
			pol.coherency = EDGEDMA_COHERENCY_NONCOHERENT;
		else
			TH_LOG("%s is DMA-non-coherent: no override", edu_dev);
	}
	if (pol.addr_align || pol.len_align || pol.coherency || pol.checks ||
	    pol.owned_hash_max)
		policy_set(_metadata, self, &pol);

	edu_path(path, sizeof(path), "run");
	err = write_file(path, c->mode);
	if (err == -EOPNOTSUPP) {
		record_skip_reason(reason, sizeof(reason));
		SKIP(return, "%s (hook %s): %s skipped mode %s: %s",
		     _metadata->name, variant->name, EDU_NAME, c->mode, reason);
	}
	if (err)
		log_record(_metadata);
	ASSERT_EQ(0, err)
		TH_LOG("writing \"%s\" to %s: %s", c->mode, path,
		       strerror(-err));

	if (self->policy_set) {
		EXPECT_EQ(0, policy_del(_metadata, self,
					EDGEDMA_A_POLICY_DEVICE, edu_dev));
		self->policy_set = false;
	}

	if (c->unbind) {
		self->unbound = true;
		err = write_file(EDU_PCI_DRIVER "/unbind", edu_dev);
		ASSERT_EQ(0, err)
			TH_LOG("unbinding %s from %s: %s", edu_dev, EDU_NAME,
			       strerror(-err));
	}

	d = malloc(sizeof(*d));
	ASSERT_NE(NULL, d);
	dump_findings(_metadata, self, seq + 1, d);

	if (c->unbind) {
		err = write_file(EDU_PCI_DRIVER "/bind", edu_dev);
		EXPECT_EQ(0, err)
			TH_LOG("binding %s to %s again: %s", edu_dev, EDU_NAME,
			       strerror(-err));
		if (!err)
			self->unbound = false;
		edu_path(path, sizeof(path), "run");
		EXPECT_TRUE(path_exists(path))
			TH_LOG("%s has no debugfs folder after binding again",
			       edu_dev);
	}

	TH_LOG("mode %s (hook %s): %u finding(s) after seq %llu, expected %s",
	       c->mode, variant->name, d->total, (unsigned long long)seq,
	       c->expect ? kind_name(c->expect) : "none");
	for (i = 0; i < d->n; i++)
		log_finding(_metadata, &d->f[i]);

	EXPECT_GE((unsigned int)MAX_FINDINGS, d->total)
		TH_LOG("more than %u findings: only the first are checked",
		       MAX_FINDINGS);
	if (d->n) {
		EXPECT_EQ(seq + 1, d->f[0].seq)
			TH_LOG("findings %llu to %llu were lost (findings_log_size too small?)",
			       (unsigned long long)seq + 1,
			       (unsigned long long)d->f[0].seq - 1);
	}

	if (!c->expect) {
		EXPECT_EQ(0U, d->total)
			TH_LOG("mode %s is correct DMA-API use: it must give no finding",
			       c->mode);
		stale_before = stats.stale;
		get_stats(_metadata, self, &stats);
		EXPECT_EQ(stale_before, stats.stale)
			TH_LOG("mode %s: %llu live mappings dropped as stale (their address mapped again) while it ran",
			       c->mode, (unsigned long long)(stats.stale - stale_before));
	} else {
		EXPECT_LE(1U, d->total)
			TH_LOG("mode %s gave no %s finding", c->mode,
			       kind_name(c->expect));
	}
	have_edu_range = module_range(EDU_NAME, &edu_base, &edu_size);
	for (i = 0; i < d->n; i++) {
		const struct finding *f = &d->f[i];
		bool ok = true;

		if (c->expect) {
			bool kind_ok = f->have_kind &&
				       (f->kind == c->expect ||
					(c->also && f->kind == c->also));

			ok &= kind_ok;
			EXPECT_TRUE(kind_ok)
				TH_LOG("finding %llu is %s, not %s",
				       (unsigned long long)f->seq,
				       kind_name(f->kind),
				       kind_name(c->expect));
			expected += f->have_kind && f->kind == c->expect;
			if (c->detail_has && f->have_kind && f->kind == c->expect) {
				bool has = strstr(f->detail, c->detail_has);

				ok &= has;
				EXPECT_TRUE(has)
					TH_LOG("finding %llu does not say \"%s\": %s",
					       (unsigned long long)f->seq, c->detail_has,
					       f->detail);
			}
		}
		ok &= f->have_seq;
		EXPECT_TRUE(f->have_seq)
			TH_LOG("a finding without a SEQ u64");
		ok &= !strcmp(f->device, edu_dev);
		EXPECT_STREQ(edu_dev, f->device);
		ok &= !strcmp(f->driver, EDU_NAME);
		EXPECT_STREQ(EDU_NAME, f->driver);
		ok &= f->have_caller && f->caller;
		EXPECT_TRUE(f->have_caller && f->caller)
			TH_LOG("finding %llu has no caller",
			       (unsigned long long)f->seq);
		/* Every finding carries the addresses its sentence names. */
		if (strstr(f->detail, "phys 0x")) {
			unsigned long long named =
				strtoull(strstr(f->detail, "phys 0x") + 5, NULL, 16);
			bool carried = f->have_cpu_phys && f->cpu_phys == named;

			ok &= carried;
			EXPECT_TRUE(carried)
				TH_LOG("finding %llu names phys %#llx but carries %s%#llx",
				       (unsigned long long)f->seq, named,
				       f->have_cpu_phys ? "" : "no CPU_PHYS, not ",
				       (unsigned long long)f->cpu_phys);
		}
		/*
		 * The driver made every call: a caller elsewhere is a frame
		 * of the DMA API or of the hook (tracepoint mode reads it off
		 * the stack).
		 */
		if (f->have_caller && have_edu_range) {
			bool inside = f->caller >= edu_base &&
				      f->caller < edu_base + edu_size;

			ok &= inside;
			EXPECT_TRUE(inside)
				TH_LOG("finding %llu: caller %#llx is outside %s [%#llx, +%llu)",
				       (unsigned long long)f->seq,
				       (unsigned long long)f->caller, EDU_NAME,
				       edu_base, edu_size);
		}
		/*
		 * The chain starts at the caller, a line per frame, and the
		 * driver's module is named: the reader blames its first frame.
		 */
		ok &= f->chain_len && f->chain[0] == f->caller;
		EXPECT_TRUE(f->chain_len && f->chain[0] == f->caller)
			TH_LOG("finding %llu: call chain of %u frames, the first %#llx, not the caller",
			       (unsigned long long)f->seq, f->chain_len,
			       (unsigned long long)f->chain[0]);
		/*
		 * And reaches past it: every mode runs from edu_run_mode(),
		 * so the caller's caller is in the driver too. (On arm64 a
		 * probe at an API function's entry finds the caller in the
		 * link register, with no frame of its own to unwind.) A leak
		 * is found at unbind, long after its map call: only the map's
		 * caller is known.
		 */
		if (f->kind != EDGEDMA_FINDING_LEAK && have_edu_range) {
			bool past = f->chain_len >= 2 &&
				    f->chain[1] >= edu_base &&
				    f->chain[1] < edu_base + edu_size;

			ok &= past;
			EXPECT_TRUE(past)
				TH_LOG("finding %llu: call chain of %u frames does not reach the caller's caller in %s",
				       (unsigned long long)f->seq, f->chain_len, EDU_NAME);
		}
		if (f->chain_len && f->have_chain_names) {
			unsigned int lines = 1;
			const char *p;

			for (p = f->chain_names; *p; p++)
				lines += *p == '\n';
			EXPECT_EQ(f->chain_len, lines)
				TH_LOG("finding %llu: %u chain names for %u frames: %s",
				       (unsigned long long)f->seq, lines, f->chain_len,
				       f->chain_names);
			EXPECT_NE(NULL, strstr(f->chain_names, " [" EDU_NAME "]"))
				TH_LOG("finding %llu: no frame of the chain is in %s: %s",
				       (unsigned long long)f->seq, EDU_NAME, f->chain_names);
		}
		/* At unbind the driver is gone: a leak names no module. */
		if (f->kind != EDGEDMA_FINDING_LEAK) {
			ok &= f->have_driver_module && !strcmp(f->driver_module, EDU_NAME);
			EXPECT_STREQ(EDU_NAME, f->driver_module);
		}
		ok &= f->have_detail && f->detail[0];
		EXPECT_TRUE(f->have_detail && f->detail[0])
			TH_LOG("finding %llu has no detail",
			       (unsigned long long)f->seq);
		wrong += !ok;
	}
	if (c->expect && d->n)
		EXPECT_LE(1U, expected)
			TH_LOG("mode %s gave no %s finding", c->mode, kind_name(c->expect));
	if (wrong || !_metadata->passed)
		log_record(_metadata);
	free(d);
}

#define MODE_TEST(test, ...) \
	TEST_F_TIMEOUT(findings, test, TEST_TIMEOUT) \
	{ \
		static const struct mode_case c = { __VA_ARGS__ }; \
		check_mode(_metadata, self, variant, &c); \
	}

/* Correct use: no finding, also for a device treated as non-coherent. */
MODE_TEST(correct, .mode = "correct")
MODE_TEST(correct_noncoherent, .mode = "correct",
	  .coherency = COHERENCY_NONCOHERENT)

/*
 * Mappings of two size classes live at once, with every class in one
 * bucket: a small mapping's own entry must not be taken for a stale one
 * at its address (it was, one map in 16384 behind an IOMMU: vmxnet3's
 * unmaps under traffic came out unmap-unknown).
 */
MODE_TEST(large_and_small_in_one_bucket, .mode = "large-and-small",
	  .load = "table_buckets=1")

/* Pages are allocated under the coherent mask, not the streaming one. */
MODE_TEST(pages_coherent_mask, .mode = "pages-coherent-mask")

MODE_TEST(addr_misaligned, .mode = "addr-misaligned",
	  .expect = EDGEDMA_FINDING_ADDR_MISALIGNED, .addr_align = 64)
MODE_TEST(len_misaligned, .mode = "len-misaligned",
	  .expect = EDGEDMA_FINDING_LEN_MISALIGNED, .len_align = 64)
MODE_TEST(cacheline_shared, .mode = "cacheline-shared",
	  .expect = EDGEDMA_FINDING_CACHELINE_SHARED,
	  .coherency = COHERENCY_NONCOHERENT_IF_COHERENT)
/* The same through dma_map_sg: the finding names the entry's addresses. */
MODE_TEST(cacheline_shared_sg, .mode = "cacheline-shared-sg",
	  .expect = EDGEDMA_FINDING_CACHELINE_SHARED,
	  .coherency = COHERENCY_NONCOHERENT_IF_COHERENT)
/* Possible (shared) and observed: the CPU wrote the shared line meanwhile. */
MODE_TEST(cacheline_neighbour_written, .mode = "cacheline-neighbour-written",
	  .expect = EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN,
	  .also = EDGEDMA_FINDING_CACHELINE_SHARED,
	  .coherency = COHERENCY_NONCOHERENT_IF_COHERENT)
MODE_TEST(cacheline_neighbour_written_sg, .mode = "cacheline-neighbour-written-sg",
	  .expect = EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN,
	  .also = EDGEDMA_FINDING_CACHELINE_SHARED,
	  .coherency = COHERENCY_NONCOHERENT_IF_COHERENT)
/*
 * The CPU writes a to-device buffer the device owns: off by default (a
 * pass over the bytes at each hand-over), caught with the check on. The
 * driver writes byte 128 of 256: the part of an eighth (32 bytes) that
 * holds it is the one the sentence names.
 */
MODE_TEST(cpu_write_while_device_owned_off, .mode = "cpu-write-while-device-owned")
MODE_TEST(cpu_write_while_device_owned, .mode = "cpu-write-while-device-owned",
	  .expect = EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED,
	  .checks = (1U << EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED) - 1,
	  .detail_has = "changed in bytes 128..159 while the device owned it")
/* The device's policy hashes the first 64 bytes only: byte 128 is not seen. */
MODE_TEST(cpu_write_while_device_owned_past_hash, .mode = "cpu-write-while-device-owned",
	  .checks = (1U << EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED) - 1,
	  .owned_hash_max = 64)
MODE_TEST(stack_buffer, .mode = "stack-buffer",
	  .expect = EDGEDMA_FINDING_STACK_BUFFER)
MODE_TEST(vmalloc_buffer, .mode = "vmalloc-buffer",
	  .expect = EDGEDMA_FINDING_VMALLOC_BUFFER, .needs_kprobes = true)
/* Ordinary memory again once its vmalloc area is freed. */
MODE_TEST(vmalloc_reused, .mode = "vmalloc-reused")
MODE_TEST(rodata_buffer, .mode = "rodata-buffer",
	  .expect = EDGEDMA_FINDING_RODATA_BUFFER)
MODE_TEST(seg_boundary, .mode = "seg-boundary",
	  .expect = EDGEDMA_FINDING_SEG_BOUNDARY)
MODE_TEST(seg_too_long, .mode = "seg-too-long",
	  .expect = EDGEDMA_FINDING_SEG_TOO_LONG)
MODE_TEST(mask_exceeded, .mode = "mask-exceeded",
	  .expect = EDGEDMA_FINDING_MASK_EXCEEDED)
MODE_TEST(bounced, .mode = "bounced",
	  .expect = EDGEDMA_FINDING_BOUNCED)
MODE_TEST(unmap_unknown, .mode = "unmap-unknown",
	  .expect = EDGEDMA_FINDING_UNMAP_UNKNOWN)
MODE_TEST(double_unmap, .mode = "double-unmap",
	  .expect = EDGEDMA_FINDING_DOUBLE_UNMAP)
MODE_TEST(unmap_mismatch, .mode = "unmap-mismatch",
	  .expect = EDGEDMA_FINDING_UNMAP_MISMATCH)
MODE_TEST(unmap_sg_short_list, .mode = "unmap-sg-short-list",
	  .expect = EDGEDMA_FINDING_UNMAP_MISMATCH)
MODE_TEST(sync_unknown, .mode = "sync-unknown",
	  .expect = EDGEDMA_FINDING_SYNC_UNKNOWN)
MODE_TEST(sync_mismatch, .mode = "sync-mismatch",
	  .expect = EDGEDMA_FINDING_SYNC_MISMATCH)
/* 6.11+: dma_set_mask() turns sync skipping back on; edgedma off again. */
MODE_TEST(sync_after_set_mask, .mode = "sync-after-set-mask",
	  .expect = EDGEDMA_FINDING_SYNC_MISMATCH)
MODE_TEST(leak, .mode = "leak", .expect = EDGEDMA_FINDING_LEAK,
	  .unbind = true)

/* ---- finding storms ------------------------------------------------------- */

enum storm_unfold {
	STORM_FOLDED,
	STORM_UNFOLD_PARAM,	/* fold_findings=N */
	STORM_UNFOLD_SOCKET,	/* UNFOLD_SET from a socket open during it */
};

struct storm_case {
	unsigned int calls, sites;
	enum storm_unfold unfold;
};

/* What UNFOLD_SET answered. */
struct unfold_reply {
	__u16 family;
	__u32 holders, folding;
	bool have_both;
};

static int unfold_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_UNFOLD_MAX + 1];
	struct unfold_reply *r = arg;
	const void *attrs;
	size_t len;

	attrs = edgedma_attrs(nlh, r->family, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_UNFOLD_MAX))
		return -EBADMSG;
	r->have_both = nl_attr_u32(tb[EDGEDMA_A_UNFOLD_HOLDERS], &r->holders) &&
		       nl_attr_u32(tb[EDGEDMA_A_UNFOLD_FOLDING], &r->folding);
	return 0;
}

/*
 * UNFOLD_SET on @sk: @enable 1 or 0, or -1 to leave it out (read only).
 * Returns the kernel's answer; *@r holds the reply when it is 0.
 */
static int unfold_set(struct nl_sock *sk, __u16 family, int enable,
		      struct unfold_reply *r, struct nl_answer *ans)
{
	struct nl_msg m;
	int err;

	memset(r, 0, sizeof(*r));
	r->family = family;
	genl_msg_init(&m, family, 0, EDGEDMA_CMD_UNFOLD_SET, 1);
	if (enable >= 0 && nl_put_u32(&m, EDGEDMA_A_UNFOLD_ENABLE, enable) < 0)
		return -EMSGSIZE;
	err = nl_transact(sk, &m, unfold_reply_fn, r, ans);
	if (err)
		return err;
	if (!ans->error && !r->have_both)
		return -EBADMSG;
	return ans->error;
}

/* What the "events" group said about the storm's findings. */
struct storm_events {
	unsigned int findings;		/* FINDING messages for the edu device */
	unsigned int repeats;		/* FINDING_REPEATS messages */
	__u64 seq[MAX_FINDINGS];	/* per logged finding: its seq ... */
	__u64 said[MAX_FINDINGS];	/* ... and the highest count said */
	unsigned int n;
	__u16 family;
};

static int storm_event_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_FINDING_MAX + 1];
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	struct storm_events *ev = arg;
	__u64 seq = 0, count = 0;
	const char *device;
	const void *attrs;
	unsigned int i;
	size_t len;

	attrs = edgedma_attrs(nlh, ev->family, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_FINDING_MAX))
		return 0;
	device = nl_attr_str(tb[EDGEDMA_A_FINDING_DEVICE]);
	if (!device || strcmp(device, edu_dev))
		return 0;
	if (g->cmd == EDGEDMA_CMD_FINDING) {
		ev->findings++;
		return 0;
	}
	if (g->cmd != EDGEDMA_CMD_FINDING_REPEATS ||
	    !nl_attr_u64(tb[EDGEDMA_A_FINDING_SEQ], &seq) ||
	    !nl_attr_u64(tb[EDGEDMA_A_FINDING_OCCURRENCES], &count))
		return 0;
	ev->repeats++;
	for (i = 0; i < ev->n && ev->seq[i] != seq; i++)
		;
	if (i == ev->n && ev->n < MAX_FINDINGS)
		ev->seq[ev->n++] = seq;
	if (i < ev->n && count > ev->said[i])
		ev->said[i] = count;
	return 0;
}

/* The count last said for @seq, 0 if none. */
static __u64 storm_said(const struct storm_events *ev, __u64 seq)
{
	unsigned int i;

	for (i = 0; i < ev->n; i++)
		if (ev->seq[i] == seq)
			return ev->said[i];
	return 0;
}

/* Reads the group for up to @seconds, or until every site said @want. */
static void storm_listen(struct nl_sock *sk, struct storm_events *ev,
			 const struct findings_dump *d, __u64 want, int seconds)
{
	char buf[16384];
	time_t end = time(NULL) + seconds;

	while (time(NULL) < end) {
		struct pollfd pfd = { .fd = sk->fd, .events = POLLIN };
		const struct nlmsghdr *nlh;
		unsigned int i, done = 0, sites = 0;
		ssize_t n;

		for (i = 0; i < d->n; i++) {
			if (d->f[i].kind != EDGEDMA_FINDING_ADDR_MISALIGNED)
				continue;
			sites++;
			done += storm_said(ev, d->f[i].seq) == want;
		}
		if (sites && done == sites)
			return;
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		n = recv(sk->fd, buf, sizeof(buf), 0);
		if (n <= 0)
			continue;
		for (nlh = (const void *)buf; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n))
			storm_event_fn(nlh, ev);
	}
}

/* Runs the driver's storm mode under a 64-byte address-alignment policy. */
static void run_storm(struct __test_metadata *_metadata,
		      FIXTURE_DATA(findings) *self, const struct storm_case *c)
{
	struct policy pol = { .addr_align = 64 };
	char path[PATH_MAX], num[32];
	struct nl_sock holder = { .fd = -1 };
	struct unfold_reply ur;
	struct nl_answer ans;
	int err;

	snprintf(num, sizeof(num), "%u", c->calls);
	ASSERT_EQ(0, write_file(EDU_SYSFS "/parameters/storm_calls", num));
	snprintf(num, sizeof(num), "%u", c->sites);
	ASSERT_EQ(0, write_file(EDU_SYSFS "/parameters/storm_sites", num));
	if (c->unfold == STORM_UNFOLD_PARAM) {
		self->fold_off = true;
		ASSERT_EQ(0, write_file(EDGEDMA_PARAMS "/fold_findings", "N"));
	}
	if (c->unfold == STORM_UNFOLD_SOCKET) {
		/* As "edgedma record --every-occurrence" asks. */
		ASSERT_EQ(0, nl_open(&holder));
		err = unfold_set(&holder, self->family, 1, &ur, &ans);
		ASSERT_EQ(0, err)
			TH_LOG("UNFOLD_SET 1: %s", err < 0 && !ans.error ? strerror(-err) :
			       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
		EXPECT_EQ(1U, ur.holders);
		EXPECT_EQ(0U, ur.folding);
		/* Asking twice from one socket is one request. */
		ASSERT_EQ(0, unfold_set(&holder, self->family, 1, &ur, &ans));
		EXPECT_EQ(1U, ur.holders);
	}
	policy_set(_metadata, self, &pol);
	edu_path(path, sizeof(path), "run");
	err = write_file(path, "storm");
	if (err)
		log_record(_metadata);
	ASSERT_EQ(0, err)
		TH_LOG("writing \"storm\" to %s: %s", path, strerror(-err));
	EXPECT_EQ(0, policy_del(_metadata, self, EDGEDMA_A_POLICY_DEVICE, edu_dev));
	self->policy_set = false;
	if (c->unfold == STORM_UNFOLD_PARAM) {
		EXPECT_EQ(0, write_file(EDGEDMA_PARAMS "/fold_findings", "Y"));
		self->fold_off = false;
	}
	/* Closing the socket withdraws its request. */
	nl_close(&holder);
	log_record(_metadata);
}

/*
 * Every call of the storm is an addr-misaligned finding. Folded: exactly
 * one log entry per call site, counting exactly its calls, and the stats
 * count every other one as folded. Unfolded: one entry per call.
 */
static void check_storm(struct __test_metadata *_metadata,
			FIXTURE_DATA(findings) *self, const struct storm_case *c)
{
	static struct findings_dump d;
	struct edgedma_reply before, after;
	unsigned long long occurrences = 0;
	unsigned int i, j, entries = 0;
	char where[64], params[1200], why[600];
	static struct {
		struct nl_sock sk;
		struct storm_events ev;
	} events;
	struct genl_family_info fam;
	struct nl_answer ans;
	time_t started, seconds;
	__u32 group = 0;

	if (_metadata->skip)
		return;
	if (!knob_allows("EDGEDMA_FINDINGS_MODES", "storm"))
		SKIP(return, "%s: not in EDGEDMA_FINDINGS_MODES=%s",
		     _metadata->name, getenv("EDGEDMA_FINDINGS_MODES"));
	ASSERT_EQ(1, mode_runs_here("storm", where, sizeof(where)))
		TH_LOG("%s has no storm mode that runs here (%s)", EDU_NAME, where);

	/* A fresh edgedma: no site of the storm may be known already. */
	edgedma_params_now(params, sizeof(params), NULL);
	ASSERT_EQ(0, edgedma_reload(params, why, sizeof(why)))
		TH_LOG("%s", why);
	ASSERT_TRUE(resolve(_metadata, self));

	/* Listen as "edgedma watch" does, from before the storm. */
	memset(&events, 0, sizeof(events));
	events.sk.fd = -1;
	ASSERT_EQ(0, nl_open(&events.sk));
	ASSERT_EQ(0, genl_resolve(&events.sk, EDGEDMA_FAMILY_NAME, &fam, &ans));
	group = genl_group_id(&fam, EDGEDMA_MCGRP_EVENTS);
	ASSERT_NE(0U, group);
	ASSERT_EQ(0, setsockopt(events.sk.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&group, sizeof(group)));
	events.ev.family = self->family;

	get_stats(_metadata, self, &before);
	started = time(NULL);
	run_storm(_metadata, self, c);
	get_stats(_metadata, self, &after);
	dump_findings(_metadata, self, before.last_seq + 1, &d);
	if (c->unfold == STORM_FOLDED)
		storm_listen(&events.sk, &events.ev, &d, c->calls / c->sites, 5);
	nl_close(&events.sk);
	seconds = time(NULL) - started;
	TH_LOG("the events group said: %u findings, %u repeat messages in %ld s",
	       events.ev.findings, events.ev.repeats, (long)seconds);

	TH_LOG("storm of %u calls from %u sites, unfold %d: %u findings logged, folded %llu -> %llu, sites %llu -> %llu, sites full %llu -> %llu",
	       c->calls, c->sites, c->unfold, d.total,
	       (unsigned long long)before.folded, (unsigned long long)after.folded,
	       (unsigned long long)before.sites, (unsigned long long)after.sites,
	       (unsigned long long)before.sites_full,
	       (unsigned long long)after.sites_full);
	EXPECT_EQ(after.last_seq - before.last_seq, (__u64)d.total)
		TH_LOG("FINDINGS_GET returned %u of the %llu findings logged",
		       d.total, (unsigned long long)(after.last_seq - before.last_seq));
	EXPECT_EQ(before.sites_full, after.sites_full)
		TH_LOG("occurrences went unfolded: the site table was full");

	for (i = 0; i < d.n; i++) {
		const struct finding *f = &d.f[i];

		if (f->kind != EDGEDMA_FINDING_ADDR_MISALIGNED || strcmp(f->device, edu_dev))
			continue;
		entries++;
		EXPECT_TRUE(f->have_occurrences)
			TH_LOG("finding %llu carries no OCCURRENCES and LAST_TIME_NS",
			       (unsigned long long)f->seq);
		if (c->unfold != STORM_FOLDED)
			continue;
		if (i < 4 || f->occurrences != c->calls / c->sites)
			log_finding(_metadata, f);
		occurrences += f->occurrences;
		EXPECT_EQ((__u64)(c->calls / c->sites), f->occurrences)
			TH_LOG("site of finding %llu counted %llu calls, not %u",
			       (unsigned long long)f->seq,
			       (unsigned long long)f->occurrences, c->calls / c->sites);
		EXPECT_EQ((__u64)(c->calls / c->sites), storm_said(&events.ev, f->seq))
			TH_LOG("FINDING_REPEATS said finding %llu's site was found %llu times, not %u",
			       (unsigned long long)f->seq,
			       (unsigned long long)storm_said(&events.ev, f->seq),
			       c->calls / c->sites);
		EXPECT_LE(f->time_ns, f->last_time_ns)
			TH_LOG("finding %llu: last time %llu before the first %llu",
			       (unsigned long long)f->seq,
			       (unsigned long long)f->last_time_ns,
			       (unsigned long long)f->time_ns);
		if (c->calls > c->sites)
			EXPECT_LT(f->time_ns, f->last_time_ns);
		for (j = 0; j < i; j++)
			if (d.f[j].kind == f->kind)
				EXPECT_NE(d.f[j].caller, f->caller)
					TH_LOG("findings %llu and %llu: two log entries for caller %#llx",
					       (unsigned long long)d.f[j].seq,
					       (unsigned long long)f->seq,
					       (unsigned long long)f->caller);
	}
	if (c->unfold == STORM_FOLDED) {
		EXPECT_EQ(c->sites, entries)
			TH_LOG("%u addr-misaligned entries for %u call sites", entries, c->sites);
		EXPECT_EQ((unsigned long long)c->calls, occurrences);
		EXPECT_EQ((__u64)(c->calls - c->sites), after.folded - before.folded);
		EXPECT_EQ((__u64)c->sites, after.sites - before.sites);
		/* Per site, never per occurrence: one event, then counts. */
		EXPECT_EQ(c->sites, events.ev.findings);
		/* At most one a second per site (and one more at either end). */
		EXPECT_GE(c->sites * (seconds + 2), (time_t)events.ev.repeats)
			TH_LOG("%u FINDING_REPEATS messages for %u sites in %ld s",
			       events.ev.repeats, c->sites, (long)seconds);
	} else {
		EXPECT_EQ(c->calls, entries)
			TH_LOG("unfolded (%d): %u addr-misaligned entries for %u calls",
			       c->unfold, entries, c->calls);
		EXPECT_EQ(before.folded, after.folded);
	}
	if (c->unfold != STORM_UNFOLD_SOCKET)
		return;

	/*
	 * The socket is closed: the same storm again folds every call into
	 * the entries its sites already have.
	 */
	ASSERT_TRUE(after.have_unfold_holders)
		TH_LOG("GET_STATS: no UNFOLD_HOLDERS");
	EXPECT_EQ(0ULL, (unsigned long long)after.unfold_holders)
		TH_LOG("a closed socket still holds the findings unfolded");
	before = after;
	run_storm(_metadata, self, &(struct storm_case){ c->calls, c->sites, STORM_FOLDED });
	get_stats(_metadata, self, &after);
	TH_LOG("the same storm after the socket closed: %llu findings logged, %llu folded",
	       (unsigned long long)(after.last_seq - before.last_seq),
	       (unsigned long long)(after.folded - before.folded));
	EXPECT_EQ(0ULL, (unsigned long long)(after.last_seq - before.last_seq));
	EXPECT_EQ((unsigned long long)c->calls,
		  (unsigned long long)(after.folded - before.folded));
}

#define STORM_TEST(test, ...) \
	TEST_F_TIMEOUT(findings, test, TEST_TIMEOUT) \
	{ \
		static const struct storm_case c = { __VA_ARGS__ }; \
		check_storm(_metadata, self, &c); \
	}

STORM_TEST(storm_one_site, .calls = 100000, .sites = 1, .unfold = STORM_FOLDED)
STORM_TEST(storm_ten_sites, .calls = 100000, .sites = 10, .unfold = STORM_FOLDED)
/* Asked for, every occurrence is logged (fewer than the default log holds). */
STORM_TEST(storm_unfolded, .calls = 200, .sites = 2, .unfold = STORM_UNFOLD_PARAM)
STORM_TEST(storm_unfolded_while_asked, .calls = 200, .sites = 2,
	   .unfold = STORM_UNFOLD_SOCKET)

/*
 * A request for every occurrence dies with its socket, however the
 * process ends: a recorder killed with SIGKILL must not leave storms
 * logged in full. Two sockets count as two holders; one withdrawing
 * leaves the other's request standing.
 */
TEST_F(findings, unfold_request_ends_with_its_socket)
{
	struct unfold_reply ur;
	struct nl_sock other = { .fd = -1 };
	struct nl_answer ans;
	int ready[2], status;
	char byte;
	pid_t pid;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, unfold_set(&self->sk, self->family, -1, &ur, &ans))
		TH_LOG("UNFOLD_SET: %s", nl_answer_str(&ans, self->buf, sizeof(self->buf)));
	ASSERT_EQ(0U, ur.holders) TH_LOG("someone else holds the findings unfolded");
	EXPECT_EQ(1U, ur.folding);

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct nl_sock sk = { .fd = -1 };

		close(ready[0]);
		if (nl_open(&sk) || unfold_set(&sk, self->family, 1, &ur, &ans))
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &byte, 1)) TH_LOG("the child could not ask");
	close(ready[0]);

	ASSERT_EQ(0, nl_open(&other));
	ASSERT_EQ(0, unfold_set(&other, self->family, 1, &ur, &ans));
	EXPECT_EQ(2U, ur.holders);
	EXPECT_EQ(0U, ur.folding);

	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, unfold_set(&self->sk, self->family, -1, &ur, &ans));
	EXPECT_EQ(1U, ur.holders) TH_LOG("the killed process's request outlived it");
	EXPECT_EQ(0U, ur.folding);

	ASSERT_EQ(0, unfold_set(&other, self->family, 0, &ur, &ans));
	EXPECT_EQ(0U, ur.holders);
	EXPECT_EQ(1U, ur.folding);
	nl_close(&other);
}

/*
 * After every mode ran: the kernel log may be world-readable
 * (dmesg_restrict=0), so edgedma's lines there must hold no kernel
 * address, neither raw (%px) nor as a number; the netlink records have
 * them for CAP_SYS_ADMIN. At least one finding line must be there to judge.
 */
static bool looks_like_address(const char *line)
{
	const char *p;

	for (p = line; (p = strstr(p, "0x")); p += 2) {
		size_t digits = strspn(p + 2, "0123456789abcdefABCDEF");

		/* "+0x1c/0x80" offsets and sizes of %pS are not addresses. */
		if (digits >= 8)
			return true;
	}
	for (p = line; *p; p++) {
		size_t digits = strspn(p, "0123456789abcdef");

		if (digits >= 12)
			return true;
		if (digits)
			p += digits - 1;
	}
	return false;
}

#define KPROBES_LIST		"/sys/kernel/debug/kprobes/list"
#define ENABLED_FUNCTIONS	"/sys/kernel/tracing/enabled_functions"

/*
 * The type ('k' kprobe, 'r' kretprobe) of the probe on @func that the
 * kprobes list shows ("ADDR  TYPE  SYMBOL+OFFSET  [FLAGS]": the offset is
 * 0x4 behind an x86_64 ENDBR), 0 if none; -errno if the list cannot be
 * read.
 */
static int kprobe_type(const char *func)
{
	char line[512], type[8], symbol[256];
	int found = 0;
	FILE *f;

	f = fopen(KPROBES_LIST, "re");
	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %7s %255s", type, symbol) == 2 &&
		    !strncmp(symbol, func, strlen(func)) &&
		    symbol[strlen(func)] == '+')
			found = type[0];
	fclose(f);
	return found;
}

/* Whether ftrace calls anyone at @func's entry: 1, 0, or -errno. */
static int ftrace_hooked(const char *func)
{
	char line[512];
	int found = 0;
	FILE *f;

	f = fopen(ENABLED_FUNCTIONS, "re");
	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, func, strlen(func)) &&
			line[strlen(func)] == ' ';
	fclose(f);
	return found;
}

#define EDU_INFO_SIZE	2048

static void read_edu_info(struct __test_metadata *_metadata, char *info)
{
	char path[PATH_MAX];
	ssize_t n;

	edu_path(path, sizeof(path), "info");
	n = read_file(path, info, EDU_INFO_SIZE);
	ASSERT_LE(0, n)
		TH_LOG("%s: %s", path, strerror(-n));
}

/* The value of "@key=" in the driver's info, "" when absent. */
static void edu_info_value(const char *info, const char *key, char *out, size_t n)
{
	size_t len = strlen(key);
	const char *at = info;

	out[0] = '\0';
	for (; at && *at; at = strchr(at, '\n'), at = at ? at + 1 : NULL) {
		if (strncmp(at, key, len) || at[len] != '=')
			continue;
		snprintf(out, n, "%.*s", (int)strcspn(at + len + 1, "\n"),
			 at + len + 1);
		return;
	}
}

/*
 * Where each mode hooks a map and an unmap. Kprobe mode: a kretprobe on
 * the map, whose result it needs, and the unmap's entry through ftrace (no
 * breakpoint) unless ftrace_entries=N asks for a kprobe there too.
 * Tracepoint mode: no probe on either. Ops mode: no probe either, and the
 * DMA core calls edgedma's table for the device. GET_INFO says the same in
 * numbers (kprobe mode only).
 */
TEST_F(findings, hooks_where_expected)
{
	struct edgedma_reply info;
	int map, unmap;

	if (_metadata->skip)
		return;	/* the setup's reason stands */
	get_info(_metadata, self, &info);
	if (variant->mode != EDGEDMA_HOOK_MODE_KPROBE) {
		EXPECT_FALSE(info.have_kprobe_hooks);
	} else {
		ASSERT_TRUE(info.have_kprobe_hooks)
			TH_LOG("GET_INFO in kprobe mode: no HOOK_KRETPROBES/FTRACE_ENTRIES/KPROBE_ENTRIES");
		TH_LOG("GET_INFO: %u kretprobes, %u entries through ftrace, %u with kprobes",
		       info.kretprobes, info.ftrace_entries, info.kprobe_entries);
		EXPECT_LE(6, info.kretprobes);
		if (variant->kprobe_entries) {
			EXPECT_EQ(0, info.ftrace_entries);
			EXPECT_LE(5, info.kprobe_entries);
		} else {
			EXPECT_LE(5, info.ftrace_entries);
			EXPECT_EQ(0, info.kprobe_entries);
		}
	}
	if (variant->mode == EDGEDMA_HOOK_MODE_OPS &&
	    !(info.hook_modes & EDGEDMA_HOOK_MODE_KPROBE)) {
		/* No kprobes at all: nothing to list, nothing on either. */
		map = unmap = 0;
		goto no_kprobes;
	}
	map = kprobe_type("dma_map_page_attrs");
	unmap = kprobe_type("dma_unmap_page_attrs");
	ASSERT_LE(0, map)
		TH_LOG(KPROBES_LIST ": %s", strerror(-map));
	ASSERT_LE(0, unmap);
	TH_LOG("hook %s: dma_map_page_attrs probe '%c', dma_unmap_page_attrs probe '%c'",
	       variant->name, map ?: '-', unmap ?: '-');
	if (variant->mode != EDGEDMA_HOOK_MODE_KPROBE) {
		EXPECT_EQ(0, map);
		EXPECT_EQ(0, unmap);
	}
no_kprobes:
	if (variant->mode == EDGEDMA_HOOK_MODE_OPS) {
		char info_text[EDU_INFO_SIZE], ops[160];

		/* The core calls edgedma's table for the device instead. */
		read_edu_info(_metadata, info_text);
		edu_info_value(info_text, "dma_ops", ops, sizeof(ops));
		TH_LOG("hook ops: the DMA core calls %s for %s", ops, edu_dev);
		EXPECT_EQ(0, strncmp(ops, "edgedma_ops_map_page", 20));
	}
	if (variant->mode != EDGEDMA_HOOK_MODE_KPROBE)
		return;
	EXPECT_EQ('r', map);
	if (variant->kprobe_entries) {
		EXPECT_EQ('k', unmap);
	} else {
		int hooked = ftrace_hooked("dma_unmap_page_attrs");

		EXPECT_EQ(0, unmap);
		EXPECT_EQ(1, hooked)
			TH_LOG(ENABLED_FUNCTIONS " does not list dma_unmap_page_attrs (%d)",
			       hooked);
	}
}

/*
 * A test of the fixture, defined after every mode so that it runs after
 * them (a TEST() of the global fixture would run before any).
 */
TEST_F(findings, kernel_log_names_no_addresses)
{
	unsigned int lines = 0, findings = 0;
	char rec[2048];
	ssize_t n;
	int fd;

	(void)self;
	(void)variant;
	if (_metadata->skip)
		return;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, fd)
		TH_LOG("/dev/kmsg: %s", strerror(errno));
	for (;;) {
		char *text;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text || strncmp(text + 1, "edgedma: ", 9))
			continue;
		text++;
		*strchrnul(text, '\n') = '\0';
		lines++;
		findings += !strncmp(text, "edgedma: finding ", 17);
		EXPECT_FALSE(looks_like_address(text))
			TH_LOG("kernel log line with an address: %s", text);
	}
	close(fd);
	TH_LOG("%u edgedma lines in the kernel log, %u of them findings", lines,
	       findings);
	EXPECT_LE(1U, findings)
		TH_LOG("no finding line in the kernel log after every mode ran");
}

/* ---- the right culprit ---------------------------------------------------- */

#define LATE_NAME	"edgedma_test_late"
#define LATE_SYSFS	"/sys/module/" LATE_NAME


/* Whether @name is "@func+0x.../0x... [" LATE_NAME "]", as %pS names it. */
static bool names_late_function(const char *name, const char *func)
{
	size_t len = strlen(func);

	return !strncmp(name, func, len) && name[len] == '+' &&
	       strstr(name, "/0x") && strstr(name, " [" LATE_NAME "]");
}

/* The finding the late module's run made, by seq; NULL if it is not there. */
static const struct finding *late_finding(const struct findings_dump *d,
					  __u64 after)
{
	unsigned int i;

	for (i = 0; i < d->n; i++)
		if (d->f[i].seq > after &&
		    d->f[i].kind == EDGEDMA_FINDING_SYNC_MISMATCH &&
		    !strcmp(d->f[i].device, edu_dev))
			return &d->f[i];
	return NULL;
}

static void check_late_names(struct __test_metadata *_metadata,
			     const struct finding *f, const char *when)
{
	TH_LOG("%s: finding %llu caller %s, map caller %s", when,
	       (unsigned long long)f->seq, f->caller_name, f->map_caller_name);
	EXPECT_TRUE(f->have_caller_name && f->have_map_caller_name)
		TH_LOG("%s: finding %llu carries no CALLER_NAME or MAP_CALLER_NAME",
		       when, (unsigned long long)f->seq);
	EXPECT_TRUE(names_late_function(f->caller_name, "late_sync_past_end"))
		TH_LOG("%s: the sync was made by late_sync_past_end [%s], not by \"%s\"",
		       when, LATE_NAME, f->caller_name);
	EXPECT_TRUE(names_late_function(f->map_caller_name, "late_map_for_device"))
		TH_LOG("%s: the mapping was made by late_map_for_device [%s], not by \"%s\"",
		       when, LATE_NAME, f->map_caller_name);
	EXPECT_EQ(NULL, strstr(f->caller_name, "[edgedma]"))
		TH_LOG("%s: edgedma blamed itself: %s", when, f->caller_name);
}

/*
 * A driver loaded right after edgedma, into memory that edgedma's freed
 * __init text may have held: its finding names its own functions, read
 * while it is loaded and after it is unloaded.
 */
TEST_F_TIMEOUT(findings, late_module_named, TEST_TIMEOUT)
{
	static struct findings_dump d;
	unsigned long long base = 0, size = 0;
	char ko[PATH_MAX], params[1200], why[600], last[160] = "";
	const struct finding *f;
	__u64 seq;
	int err;

	if (_metadata->skip)
		return;
	edu_ko_path(ko, sizeof(ko));
	if (!ko[0])
		SKIP(return, "%s: the test drivers cannot be found: set EDU_TEST_KO, or EDGEDMA_SRC and EDGEDMA_VM_KERNEL (edgedma-vm sets them)",
		     _metadata->name);
	snprintf(strrchr(ko, '/') + 1, sizeof(ko) - (strrchr(ko, '/') + 1 - ko),
		 "%s.ko", LATE_NAME);
	ASSERT_TRUE(path_exists(ko))
		TH_LOG("%s does not exist (make modules-all)", ko);
	if (path_exists(LATE_SYSFS))
		ASSERT_EQ(0, unload_module(LATE_NAME));

	/* A fresh edgedma, its __init text just freed; then the late driver. */
	edgedma_params_now(params, sizeof(params), NULL);
	err = edgedma_reload(params, why, sizeof(why));
	ASSERT_EQ(0, err)
		TH_LOG("%s", why);
	ASSERT_TRUE(resolve(_metadata, self));
	seq = last_seq(_metadata, self);
	err = load_module(ko, "");
	ASSERT_EQ(0, err)
		TH_LOG("finit_module(%s): %s", ko, strerror(-err));
	if (module_range(LATE_NAME, &base, &size))
		TH_LOG("%s loaded at %#llx, %llu bytes", LATE_NAME, base, size);
	err = write_file(LATE_SYSFS "/parameters/run", "1");
	read_line(LATE_SYSFS "/parameters/last", last, sizeof(last));
	EXPECT_EQ(0, err)
		TH_LOG("running %s: %s (%s)", LATE_NAME, strerror(-err), last);

	dump_findings(_metadata, self, seq + 1, &d);
	f = late_finding(&d, seq);
	EXPECT_NE(NULL, f)
		TH_LOG("no sync-mismatch finding on %s after seq %llu (%u findings)",
		       edu_dev, (unsigned long long)seq, d.n);
	if (f) {
		check_late_names(_metadata, f, "while loaded");
		if (base)
			EXPECT_TRUE(f->caller >= base && f->caller < base + size)
				TH_LOG("caller address %#llx outside %s",
				       (unsigned long long)f->caller, LATE_NAME);
	}

	err = unload_module(LATE_NAME);
	ASSERT_EQ(0, err)
		TH_LOG("delete_module(%s): %s", LATE_NAME, strerror(-err));
	dump_findings(_metadata, self, seq + 1, &d);
	f = late_finding(&d, seq);
	ASSERT_NE(NULL, f)
		TH_LOG("the finding is gone after %s was unloaded", LATE_NAME);
	check_late_names(_metadata, f, "after unload");
}

/* ---- ops mode: the DMA core answers as without edgedma ------------------ */

/*
 * Every line of @b is the same as @a's, but dma_ops= (whose table the core
 * calls): what the DMA core answers about the device did not change.
 */
static void expect_same_dma_answers(struct __test_metadata *_metadata,
				    const char *a, const char *b,
				    const char *when)
{
	char ca[EDU_INFO_SIZE], cb[EDU_INFO_SIZE], *la, *lb, *sa, *sb;

	snprintf(ca, sizeof(ca), "%s", a);
	snprintf(cb, sizeof(cb), "%s", b);
	la = strtok_r(ca, "\n", &sa);
	lb = strtok_r(cb, "\n", &sb);
	for (; la || lb; la = strtok_r(NULL, "\n", &sa), lb = strtok_r(NULL, "\n", &sb)) {
		ASSERT_TRUE(la && lb)
			TH_LOG("%s: the driver's info has %s lines", when,
			       la ? "fewer" : "more");
		if (!strncmp(la, "dma_ops=", 8) && !strncmp(lb, "dma_ops=", 8))
			continue;
		EXPECT_STREQ(la, lb)
			TH_LOG("%s: the DMA core answers \"%s\", without edgedma \"%s\"",
			       when, lb, la);
	}
}

/*
 * Ops mode puts edgedma's own dma_map_ops in each device, live in a device
 * already driven and at bind in one bound later: what the DMA core answers
 * about the device (masks, mapping sizes, required mask, mmap support, the
 * merge boundary, swiotlb) stays what it was without edgedma, and after
 * edgedma unloads the device has its own table again.
 */
TEST(ops_mode_changes_no_dma_answer_and_leaves_no_table)
{
	static char before[EDU_INFO_SIZE], live[EDU_INFO_SIZE];
	static char bound[EDU_INFO_SIZE], after[EDU_INFO_SIZE];
	char params[1200], why[600], ops[160], own[160];
	int err;

	if (path_exists(EDGEDMA_SYSFS)) {
		err = unload_module(EDGEDMA_MODULE);
		ASSERT_EQ(0, err)
			TH_LOG("delete_module(%s): %s", EDGEDMA_MODULE, strerror(-err));
	}
	read_edu_info(_metadata, before);
	edu_info_value(before, "dma_ops", own, sizeof(own));
	TH_LOG("without edgedma the core calls %s", own);

	snprintf(params, sizeof(params), "%s%shook=ops", edgedma_params_nohook,
		 edgedma_params_nohook[0] ? " " : "");
	err = edgedma_reload(params, why, sizeof(why));
	if (err == -EOPNOTSUPP) {
		err = edgedma_reload(edgedma_params, why, sizeof(why));
		ASSERT_EQ(0, err)
			TH_LOG("loading edgedma as found: %s", why);
		SKIP(return, "%s: this kernel has no ops hook mode (edgedma refuses hook=ops)",
		     _metadata->name);
	}
	ASSERT_EQ(0, err)
		TH_LOG("%s", why);

	/* Adopted live: the driver was bound before edgedma loaded. */
	read_edu_info(_metadata, live);
	edu_info_value(live, "dma_ops", ops, sizeof(ops));
	EXPECT_EQ(0, strncmp(ops, "edgedma_ops_map_page", 20))
		TH_LOG("in ops mode the core calls %s for a device driven at load", ops);
	expect_same_dma_answers(_metadata, before, live, "ops mode, adopted live");

	/* Installed at bind. */
	err = rebind_edu();
	ASSERT_EQ(0, err)
		TH_LOG("binding %s to %s again: %s", edu_dev, EDU_NAME, strerror(-err));
	read_edu_info(_metadata, bound);
	edu_info_value(bound, "dma_ops", ops, sizeof(ops));
	EXPECT_EQ(0, strncmp(ops, "edgedma_ops_map_page", 20))
		TH_LOG("in ops mode the core calls %s for a device bound after load", ops);
	expect_same_dma_answers(_metadata, before, bound, "ops mode, installed at bind");

	err = unload_module(EDGEDMA_MODULE);
	ASSERT_EQ(0, err)
		TH_LOG("delete_module(%s): %s", EDGEDMA_MODULE, strerror(-err));
	read_edu_info(_metadata, after);
	edu_info_value(after, "dma_ops", ops, sizeof(ops));
	EXPECT_STREQ(own, ops)
		TH_LOG("after edgedma unloaded the core calls %s, before it %s", ops, own);
	expect_same_dma_answers(_metadata, before, after, "after unload");

	err = edgedma_reload(edgedma_params, why, sizeof(why));
	ASSERT_EQ(0, err)
		TH_LOG("loading edgedma as found: %s", why);
	err = rebind_edu();
	ASSERT_EQ(0, err)
		TH_LOG("binding %s to %s again: %s", edu_dev, EDU_NAME, strerror(-err));
}

/* ---- before and after the tests ----------------------------------------- */

/* The driver's view of the device, as comments. */
static void print_edu_info(void)
{
	char path[PATH_MAX], info[2048], *line, *save;

	edu_path(path, sizeof(path), "info");
	if (read_file(path, info, sizeof(info)) < 0) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		return;
	}
	for (line = strtok_r(info, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "path=", 5) ||
		    !strncmp(line, "coherent=", 9) ||
		    !strncmp(line, "dma_mask=", 9) ||
		    !strncmp(line, "swiotlb=", 8) ||
		    !strncmp(line, "core_skips_sync=", 16) ||
		    !strncmp(line, "cache_line_size=", 16))
			ksft_print_msg("edu %s %s\n", edu_dev, line);
}

/* At exit (the harness's parent only): edgedma back as it was found. */
static void restore_edgedma(void)
{
	char hook[32] = "", why[600];
	const char *params = edgedma_params;
	int err;

	read_line(EDGEDMA_PARAMS "/hook", hook, sizeof(hook));
	if (!edgedma_hook_at_start[0]) {
		/* Not loaded at start: leave it loaded, with the defaults. */
		if (!hook[0] || !strcmp(hook, "auto"))
			return;
		params = "";
	} else if (!strcmp(hook, edgedma_hook_at_start)) {
		return;
	}
	err = edgedma_reload(params, why, sizeof(why));
	fflush(stdout);
	if (err) {
		printf("# restoring %s: %s\n", EDGEDMA_MODULE, why);
		fflush(stdout);
		_exit(KSFT_FAIL);
	}
	printf("# %s reloaded as found at start (\"%s\")\n", EDGEDMA_MODULE,
	       params);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	/* Our notes come before the harness's plan: print the header now. */
	ksft_print_header();
	setup_edu_driver();
	find_edu_device();
	if (path_exists(EDGEDMA_SYSFS)) {
		int err = rebind_edu();

		if (err)
			ksft_exit_fail_msg("binding %s to %s again: %s\n",
					   edu_dev, EDU_NAME, strerror(-err));
	}

	read_line(EDGEDMA_PARAMS "/hook", edgedma_hook_at_start,
		  sizeof(edgedma_hook_at_start));
	edgedma_params_now(edgedma_params, sizeof(edgedma_params), NULL);
	edgedma_params_now(edgedma_params_nohook, sizeof(edgedma_params_nohook),
			   "hook ftrace_entries");
	/* Only the harness's parent gets here: tests end with _exit(). */
	atexit(restore_edgedma);

	ksft_print_msg("edu device %s, driver %s; edgedma %s%s\n", edu_dev,
		       EDU_NAME,
		       edgedma_hook_at_start[0] ? "loaded, hook=" : "not loaded",
		       edgedma_hook_at_start);
	print_edu_info();
	/* Keeps test_harness_run() from printing the header a second time. */
	setenv("KSFT_TAP_LEVEL", "1", 1);
	return test_harness_run(argc, argv);
}
