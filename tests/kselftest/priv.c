// SPDX-License-Identifier: GPL-2.0
/*
 * Privilege handling for the edgedma selftests: see priv.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* setresuid(), unshare() */
#endif
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "priv.h"

static int effective_caps(__u32 eff[2])
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	eff[0] = data[0].effective;
	eff[1] = data[1].effective;
	return 0;
}

bool priv_has_cap(int cap)
{
	__u32 eff[2];

	if (cap < 0 || cap >= 64 || effective_caps(eff))
		return false;
	return eff[cap / 32] & (1u << (cap % 32));
}

bool priv_no_caps(void)
{
	__u32 eff[2];

	if (effective_caps(eff))
		return false;
	return !eff[0] && !eff[1];
}

int priv_drop(void)
{
	/* Already unprivileged (a run as an ordinary user): nothing to do. */
	if (getuid() && geteuid() && priv_no_caps())
		return 0;
	if (geteuid() == 0 && setgroups(0, NULL))
		return -errno;
	if (setresgid(PRIV_NOBODY, PRIV_NOBODY, PRIV_NOBODY) ||
	    setresuid(PRIV_NOBODY, PRIV_NOBODY, PRIV_NOBODY))
		return -errno;
	return priv_no_caps() ? 0 : -EPERM;
}

int priv_drop_effective(void)
{
	if (setegid(PRIV_NOBODY) || seteuid(PRIV_NOBODY))
		return -errno;
	return priv_no_caps() ? 0 : -EPERM;
}

int priv_restore(void)
{
	if (seteuid(0) || setegid(0))
		return -errno;
	return 0;
}

int priv_enter_userns(void)
{
	if (unshare(CLONE_NEWUSER))
		return -errno;
	return 0;
}
