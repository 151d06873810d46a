// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma_reload_test: unloading edgedma removes its generic netlink
 * family, loading it again brings the family back in working order, and
 * this holds over several cycles.
 *
 * Needs root and EDGEDMA_KO=<path to edgedma.ko> (the guest exports it);
 * without EDGEDMA_KO the whole program skips (exit 4). The module is
 * reloaded without parameters and left loaded at the end.
 *
 * A load with a module parameter out of its range must be refused with
 * -EINVAL and one kernel log line naming the parameter and its range.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/edgedma.h>

#include "harness.h"
#include "nl.h"
#include "priv.h"

#define MODULE_NAME	"edgedma"
#define SYSFS_MODULE	"/sys/module/" MODULE_NAME
#define RELOAD_CYCLES	3

static bool module_loaded(void)
{
	struct stat st;

	return !stat(SYSFS_MODULE, &st);
}

static int load_module_with(int fd, const char *params)
{
	if (syscall(SYS_finit_module, fd, params, 0))
		return -errno;
	return 0;
}

static int load_module(int fd)
{
	return load_module_with(fd, "");
}

/* /dev/kmsg, positioned after every record logged so far. */
static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Whether a record logged since kmsg_open_at_end() contains @needle. */
static bool kmsg_has(int fd, const char *needle)
{
	char rec[1024];
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n <= 0)
			return false;
		rec[n] = '\0';
		if (strstr(rec, needle))
			return true;
	}
}

static int unload_module(void)
{
	if (syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK))
		return -errno;
	return 0;
}

static int info_reply_fn(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_INFO_MAX + 1];
	__u32 *record_format = arg;
	const void *attrs;
	size_t len;

	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_INFO_MAX) ||
	    !nl_attr_u32(tb[EDGEDMA_A_INFO_RECORD_FORMAT], record_format))
		return -EBADMSG;
	return 0;
}

FIXTURE(reload) {
	const char *ko;
	int fd;
	char buf[512];
};

FIXTURE_SETUP(reload)
{
	self->fd = -1;
	self->ko = getenv("EDGEDMA_KO");
	ASSERT_NE(NULL, self->ko);
	if (!priv_has_cap(CAP_SYS_MODULE))
		SKIP(return, "%s: needs CAP_SYS_MODULE (root)", _metadata->name);
	self->fd = open(self->ko, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd)
		TH_LOG("EDGEDMA_KO=%s: %s", self->ko, strerror(errno));
}

/* Whatever happened, leave the module loaded. */
FIXTURE_TEARDOWN(reload)
{
	int err;

	if (self->fd < 0)
		return;
	if (!module_loaded()) {
		err = load_module(self->fd);
		if (err)
			TH_LOG("could not load %s back: %s", self->ko,
			       strerror(-err));
	}
	close(self->fd);
}

/* Resolve the family on a new socket; returns the kernel's answer. */
static int resolve(struct __test_metadata *_metadata,
		   struct genl_family_info *fam, char *buf, size_t n)
{
	struct nl_answer ans;
	struct nl_sock sk;
	int err;

	sk.fd = -1;
	err = nl_open(&sk);
	ASSERT_EQ(0, err)
		TH_LOG("NETLINK_GENERIC socket: %s", strerror(-err));
	err = genl_resolve(&sk, EDGEDMA_FAMILY_NAME, fam, &ans);
	nl_close(&sk);
	ASSERT_EQ(0, err)
		TH_LOG("CTRL_CMD_GETFAMILY: %s", strerror(-err));
	nl_answer_str(&ans, buf, n);
	return ans.error;
}

TEST_F(reload, reload)
{
	struct genl_family_info fam;
	struct nl_answer ans;
	struct nl_sock sk;
	__u32 record_format;
	int cycle, err;

	/* SKIP() in FIXTURE_SETUP does not stop the 6.1 harness. */
	if (_metadata->skip)
		return;

	if (!module_loaded()) {
		TH_LOG("%s was not loaded: loading %s first", MODULE_NAME,
		       self->ko);
		err = load_module(self->fd);
		ASSERT_EQ(0, err)
			TH_LOG("finit_module(%s): %s", self->ko,
			       strerror(-err));
	}

	for (cycle = 1; cycle <= RELOAD_CYCLES; cycle++) {
		TH_LOG("cycle %d of %d", cycle, RELOAD_CYCLES);

		err = unload_module();
		ASSERT_EQ(0, err)
			TH_LOG("delete_module(%s): %s%s", MODULE_NAME,
			       strerror(-err),
			       err == -EWOULDBLOCK ? " (still in use)" : "");
		EXPECT_FALSE(module_loaded())
			TH_LOG("%s still exists after delete_module",
			       SYSFS_MODULE);

		err = resolve(_metadata, &fam, self->buf, sizeof(self->buf));
		ASSERT_EQ(-ENOENT, err)
			TH_LOG("family after unload: %s%s", self->buf,
			       module_loaded() ?
			       " (the module came back: autoloaded by request_module?)" :
			       "");

		err = load_module(self->fd);
		ASSERT_EQ(0, err)
			TH_LOG("finit_module(%s): %s", self->ko,
			       strerror(-err));
		EXPECT_TRUE(module_loaded());

		err = resolve(_metadata, &fam, self->buf, sizeof(self->buf));
		ASSERT_EQ(0, err)
			TH_LOG("family after load: %s", self->buf);
		EXPECT_EQ((__u32)EDGEDMA_FAMILY_VERSION, fam.version);

		sk.fd = -1;
		err = nl_open(&sk);
		ASSERT_EQ(0, err)
			TH_LOG("NETLINK_GENERIC socket: %s", strerror(-err));
		record_format = 0;
		err = genl_call(&sk, fam.id, EDGEDMA_CMD_GET_INFO, 0,
				info_reply_fn, &record_format, &ans);
		nl_close(&sk);
		ASSERT_EQ(0, err)
			TH_LOG("GET_INFO: %s", strerror(-err));
		ASSERT_EQ(0, ans.error)
			TH_LOG("GET_INFO after load: %s",
			       nl_answer_str(&ans, self->buf, sizeof(self->buf)));
		EXPECT_EQ(1U, ans.replies);
		EXPECT_EQ((__u32)EDGEDMA_RECORD_FORMAT_VERSION, record_format);
	}
}

static const struct {
	const char *param;
	const char *value;
	const char *range;	/* as the refusal must say it */
} out_of_range[] = {
	{ "device_slots", "0", "from 16 to 1024" },
	{ "device_slots", "4294967295", "from 16 to 1024" },
	{ "pool_size", "0", "from 1 to 16777216" },
	{ "pool_size", "4294967295", "from 1 to 16777216" },
	{ "history_size", "4294967295", "from 0 to 65536" },
	{ "findings_log_size", "0", "from 1 to 1048576" },
	{ "finding_sites", "63", "from 64 to 65536" },
	{ "finding_sites", "65537", "from 64 to 65536" },
	{ "map_event_buffer", "0", "from 16 to 1048576" },
	{ "map_event_buffer", "4294967295", "from 16 to 1048576" },
};

TEST_F(reload, out_of_range_parameters_refused)
{
	char params[96], want[160];
	unsigned int i;
	int err, kmsg;

	if (_metadata->skip)
		return;
	if (module_loaded()) {
		err = unload_module();
		ASSERT_EQ(0, err)
			TH_LOG("delete_module(%s): %s", MODULE_NAME, strerror(-err));
	}
	for (i = 0; i < sizeof(out_of_range) / sizeof(out_of_range[0]); i++) {
		snprintf(params, sizeof(params), "%s=%s", out_of_range[i].param,
			 out_of_range[i].value);
		snprintf(want, sizeof(want), "edgedma: %s is out of range: it must be %s",
			 params, out_of_range[i].range);
		kmsg = kmsg_open_at_end();
		ASSERT_LE(0, kmsg)
			TH_LOG("/dev/kmsg: %s", strerror(errno));
		err = load_module_with(self->fd, params);
		TH_LOG("load with %s: %s", params, err ? strerror(-err) : "loaded");
		if (!err)
			EXPECT_EQ(0, unload_module());
		EXPECT_EQ(-EINVAL, err)
			TH_LOG("a load with %s must be refused", params);
		EXPECT_FALSE(module_loaded());
		EXPECT_TRUE(kmsg_has(kmsg, want))
			TH_LOG("no kernel log line \"%s\"", want);
		close(kmsg);
	}
}

int main(int argc, char **argv)
{
	const char *ko = getenv("EDGEDMA_KO");

	if (!ko || !*ko) {
		ksft_print_header();
		ksft_exit_skip("EDGEDMA_KO is not set: it must name the edgedma.ko to reload\n");
	}
	return test_harness_run(argc, argv);
}
