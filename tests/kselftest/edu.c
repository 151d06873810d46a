// SPDX-License-Identifier: GPL-2.0
/* Shared by the selftests that drive edgedma_test_edu (see edu.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest.h"
#include "edu.h"

char edu_dev[64];

/* Read a whole (small) file; returns its length or -errno. */
ssize_t read_file(const char *path, char *buf, size_t n)
{
	size_t len = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < n) {
		r = read(fd, buf + len, n - 1 - len);
		if (r < 0) {
			r = -errno;
			close(fd);
			return r;
		}
		if (!r)
			break;
		len += r;
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

/* The first line of a file, without its newline. */
int read_line(const char *path, char *buf, size_t n)
{
	ssize_t len = read_file(path, buf, n);

	if (len < 0)
		return len;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* One write(2) of @s; 0 or -errno (what a sysfs/debugfs store returned). */
int write_file(const char *path, const char *s)
{
	ssize_t r;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = write(fd, s, strlen(s));
	if (r < 0)
		err = -errno;
	else if ((size_t)r != strlen(s))
		err = -EIO;
	close(fd);
	return err;
}

/* Copy a string that may not fit; truncation is acceptable here. */
void copy_name(char *dst, size_t n, const char *src)
{
	size_t len = strnlen(src, n - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

bool path_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

int load_module(const char *ko, const char *params)
{
	int fd, err = 0;

	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		err = -errno;
	close(fd);
	return err;
}

int unload_module(const char *name)
{
	int tries;

	/* A reference taken by a netlink operation in flight goes quickly. */
	for (tries = 0; tries < 50; tries++) {
		if (!syscall(SYS_delete_module, name, O_NONBLOCK))
			return 0;
		if (errno != EWOULDBLOCK && errno != EAGAIN && errno != EBUSY)
			return -errno;
		usleep(100000);
	}
	return -errno;
}

/* The test driver's .ko for this guest, or "" when it cannot be named. */
void edu_ko_path(char *buf, size_t n)
{
	const char *ko = getenv("EDU_TEST_KO");
	const char *src = getenv("EDGEDMA_SRC");
	const char *arch = getenv("EDGEDMA_VM_ARCH");
	const char *kernel = getenv("EDGEDMA_VM_KERNEL");
	struct utsname u;

	buf[0] = '\0';
	if (ko && *ko) {
		snprintf(buf, n, "%s", ko);
		return;
	}
	if (!src || !*src || !kernel || !*kernel)
		return;
	if ((!arch || !*arch) && !uname(&u))
		arch = strcmp(u.machine, "aarch64") ? u.machine : "arm64";
	snprintf(buf, n, "%s/build/test-drivers/%s-%s/%s.ko", src,
		 arch ? arch : "", kernel, EDU_NAME);
}

static bool is_edu(const char *dev)
{
	char path[PATH_MAX], id[32];

	snprintf(path, sizeof(path), "%s/%s/vendor", PCI_DEVICES, dev);
	if (read_line(path, id, sizeof(id)) || strcmp(id, EDU_VENDOR))
		return false;
	snprintf(path, sizeof(path), "%s/%s/device", PCI_DEVICES, dev);
	return !read_line(path, id, sizeof(id)) && !strcmp(id, EDU_DEVICE);
}

/* The edu device's driver name, "" when unbound. */
static void driver_of(const char *dev, char *buf, size_t n)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t len;

	snprintf(path, sizeof(path), "%s/%s/driver", PCI_DEVICES, dev);
	len = readlink(path, link, sizeof(link) - 1);
	buf[0] = '\0';
	if (len <= 0)
		return;
	link[len] = '\0';
	copy_name(buf, n, strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
}

/*
 * The edu device bound to the test driver: the first one already bound,
 * else the first unbound one, bound now. Exits (skip) when there is none.
 */
void find_edu_device(void)
{
	char unbound[64] = "", drv[64], other[160] = "";
	struct dirent *d;
	DIR *dir;
	int err;

	dir = opendir(PCI_DEVICES);
	if (!dir)
		ksft_exit_skip("%s: %s\n", PCI_DEVICES, strerror(errno));
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !is_edu(d->d_name))
			continue;
		driver_of(d->d_name, drv, sizeof(drv));
		if (!strcmp(drv, EDU_NAME)) {
			copy_name(edu_dev, sizeof(edu_dev), d->d_name);
			break;
		}
		if (!drv[0] && !unbound[0])
			copy_name(unbound, sizeof(unbound), d->d_name);
		else if (drv[0])
			snprintf(other, sizeof(other), " (%.64s is bound to %s)",
				 d->d_name, drv);
	}
	closedir(dir);
	if (edu_dev[0])
		return;
	if (!unbound[0])
		ksft_exit_skip("no edu device (PCI %s:%s) for %s%s: does the guest have one (edgedma-vm without --no-edu)?\n",
			       EDU_VENDOR, EDU_DEVICE, EDU_NAME, other);
	err = write_file(EDU_PCI_DRIVER "/bind", unbound);
	if (err)
		ksft_exit_fail_msg("binding %s to %s: %s\n", unbound, EDU_NAME,
				   strerror(-err));
	copy_name(edu_dev, sizeof(edu_dev), unbound);
}

/*
 * Load the test driver if it is not loaded. It does nothing to make its
 * syncs reach the DMA core on 6.11+: edgedma must keep them visible.
 */
void setup_edu_driver(void)
{
	char ko[PATH_MAX];
	int err;

	if (!path_exists(EDU_DEBUGFS) && !path_exists("/sys/kernel/debug/block"))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);

	if (path_exists(EDU_SYSFS))
		return;
	edu_ko_path(ko, sizeof(ko));
	if (!ko[0])
		ksft_exit_skip("%s is not loaded and cannot be found: set EDU_TEST_KO, or EDGEDMA_SRC and EDGEDMA_VM_KERNEL (edgedma-vm sets them)\n",
			       EDU_NAME);
	if (!path_exists(ko))
		ksft_exit_skip("%s is not loaded and %s does not exist (make modules-all)\n",
			       EDU_NAME, ko);
	err = load_module(ko, "");
	if (err)
		ksft_exit_fail_msg("finit_module(%s): %s\n", ko, strerror(-err));
	ksft_print_msg("loaded %s; it stays loaded\n", ko);
}

void edu_path(char *buf, size_t n, const char *file)
{
	snprintf(buf, n, "%s/%s/%s", EDU_DEBUGFS, edu_dev, file);
}

