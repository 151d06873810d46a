// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma_reload_test: unloading edgedma removes its generic netlink
 * family, loading it again brings the family back in working order, and
 * this holds over several cycles.
 *
 * Needs root and EDGEDMA_KO=<path to edgedma.ko> (the guest exports it);
 * without EDGEDMA_KO the whole program skips (exit 4). The module is
 * reloaded without parameters and left loaded at the end.
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

static int load_module(int fd)
{
	if (syscall(SYS_finit_module, fd, "", 0))
		return -errno;
	return 0;
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

int main(int argc, char **argv)
{
	const char *ko = getenv("EDGEDMA_KO");

	if (!ko || !*ko) {
		ksft_print_header();
		ksft_exit_skip("EDGEDMA_KO is not set: it must name the edgedma.ko to reload\n");
	}
	return test_harness_run(argc, argv);
}
