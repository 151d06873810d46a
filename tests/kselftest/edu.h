/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the selftests that drive the test driver edgedma_test_edu
 * (tests/drivers/edgedma_test_edu.c) share: small file helpers, module
 * loading, and finding the edu device bound to the driver.
 */
#ifndef EDGEDMA_SELFTEST_EDU_H
#define EDGEDMA_SELFTEST_EDU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define EDU_NAME	"edgedma_test_edu"
#define EDU_DEBUGFS	"/sys/kernel/debug/" EDU_NAME
#define EDU_PCI_DRIVER	"/sys/bus/pci/drivers/" EDU_NAME
#define EDU_SYSFS	"/sys/module/" EDU_NAME
#define EDU_VENDOR	"0x1234"
#define EDU_DEVICE	"0x11e8"
#define PCI_DEVICES	"/sys/bus/pci/devices"
#define EDU_RECORD_SIZE	8192	/* the driver's EDU_LOG_SIZE */

/* The edu device's PCI name, set by find_edu_device(). */
extern char edu_dev[64];

/* Read a whole (small) file; returns its length or -errno. */
ssize_t read_file(const char *path, char *buf, size_t n);
/* The first line of a file, without its newline. */
int read_line(const char *path, char *buf, size_t n);
/* One write(2) of @s; 0 or -errno (what a sysfs/debugfs store returned). */
int write_file(const char *path, const char *s);
/* Copy a string that may not fit; truncation is acceptable here. */
void copy_name(char *dst, size_t n, const char *src);
bool path_exists(const char *path);

int load_module(const char *ko, const char *params);
int unload_module(const char *name);

/* The test driver's .ko for this guest, or "" when it cannot be named. */
void edu_ko_path(char *buf, size_t n);
/*
 * Load the test driver if it is not loaded (skips the program when it
 * cannot be found), then find the edu device bound to it, binding the
 * first unbound one if needed (skips when there is none).
 */
void setup_edu_driver(void);
void find_edu_device(void);
/* A file of the driver's debugfs folder for edu_dev. */
void edu_path(char *buf, size_t n, const char *file);

#endif /* EDGEDMA_SELFTEST_EDU_H */
