// SPDX-License-Identifier: GPL-2.0
/*
 * Hashing the bytes of a to-device buffer while the device owns it (see
 * device_owned_writes.h).
 *
 * The hash runs in the hooks, with interrupts off: its length is bounded
 * by owned_hash_max, and it reads eight bytes a step. The bytes are read
 * without KASAN's instrumentation: a buffer handed to a device may lie in
 * memory KASAN does not expect the CPU to read at that moment, and the
 * read is what the check is.
 */
#include <linux/compiler.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>

#include "compat.h"
#include "device_owned_writes.h"
#include "edgedma.h"

#define EDGEDMA_OWNED_HASH_MIN	64
#define EDGEDMA_OWNED_HASH_MAX	(1024 * 1024)

static unsigned int owned_hash_max = 16384;

static int edgedma_set_owned_hash_max(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	if (n < EDGEDMA_OWNED_HASH_MIN || n > EDGEDMA_OWNED_HASH_MAX)
		return -ERANGE;
	WRITE_ONCE(owned_hash_max, n);
	return 0;
}

static const struct kernel_param_ops edgedma_owned_hash_max_ops = {
	.set = edgedma_set_owned_hash_max,
	.get = param_get_uint,
};
module_param_cb(owned_hash_max, &edgedma_owned_hash_max_ops, &owned_hash_max, 0644);
MODULE_PARM_DESC(owned_hash_max,
		 "Bytes of a to-device buffer the cpu-write-while-device-owned check hashes, from its start, 64 to 1048576 (default 16384)");

#define EDGEDMA_MIX_PRIME	0x9e3779b97f4a7c15ULL

/* Every page of [@phys, +@len) is RAM in the linear map. */
static bool edgedma_owned_linear(u64 phys, u64 len)
{
	unsigned long pfn, last = PHYS_PFN(phys + len - 1);

	for (pfn = PHYS_PFN(phys); pfn <= last; pfn++)
		if (!pfn_valid(pfn) || PageHighMem(pfn_to_page(pfn)))
			return false;
	return true;
}

static __no_sanitize_address u64 edgedma_owned_mix(const u8 *p, u32 len)
{
	u64 h = EDGEDMA_MIX_PRIME ^ len;
	u32 i = 0;

	for (; i + 8 <= len; i += 8) {
		u64 word;

		/* A constant-size builtin: one load, not a checked memcpy. */
		__builtin_memcpy(&word, p + i, sizeof(word));
		h ^= word;
		h = (h ^ (h >> 29)) * EDGEDMA_MIX_PRIME;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * EDGEDMA_MIX_PRIME;
	return h ^ (h >> 32);
}

u64 edgedma_owned_hash(u64 phys, u64 size, u32 *len)
{
	u32 cap = READ_ONCE(owned_hash_max);

	*len = 0;
	if (phys == EDGEDMA_NO_PHYS || !size)
		return 0;
	if (size < cap)
		cap = size;
	if (!edgedma_owned_linear(phys, cap))
		return 0;
	*len = cap;
	return edgedma_owned_mix(phys_to_virt(phys), cap);
}
