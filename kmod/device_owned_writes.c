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
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "device_owned_writes.h"
#include "edgedma.h"
#include "policy.h"

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
	edgedma_policy_changed();
	return 0;
}

static const struct kernel_param_ops edgedma_owned_hash_max_ops = {
	.set = edgedma_set_owned_hash_max,
	.get = param_get_uint,
};
module_param_cb(owned_hash_max, &edgedma_owned_hash_max_ops, &owned_hash_max, 0644);
MODULE_PARM_DESC(owned_hash_max,
		 "Bytes of a to-device buffer the cpu-write-while-device-owned check hashes, from its start, 64 to 1048576 (default 16384), where a device's policy does not say");

u32 edgedma_owned_hash_default(void)
{
	return READ_ONCE(owned_hash_max);
}

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

/* The bytes in each part: an eighth of @len, rounded up to whole words. */
static u32 edgedma_owned_part_len(u32 len)
{
	return round_up(DIV_ROUND_UP(len, EDGEDMA_OWNED_PARTS), 8);
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

void edgedma_owned_hash(u64 phys, u64 size, u32 cap, struct edgedma_owned_bytes *out)
{
	u32 part, at, k;
	const u8 *p;
	u64 h;

	*out = (struct edgedma_owned_bytes){};
	if (phys == EDGEDMA_NO_PHYS || !size || !cap)
		return;
	if (size < cap)
		cap = size;
	if (!edgedma_owned_linear(phys, cap))
		return;
	p = phys_to_virt(phys);
	part = edgedma_owned_part_len(cap);
	/* One pass: each part hashed alone, the whole hash made of theirs. */
	h = EDGEDMA_MIX_PRIME ^ cap;
	for (at = 0, k = 0; at < cap; at += part, k++) {
		u64 ph = edgedma_owned_mix(p + at, min(part, cap - at));

		out->parts |= (u64)(u8)(ph ^ (ph >> 8) ^ (ph >> 16) ^ (ph >> 24)) << (8 * k);
		h = (h ^ ph) * EDGEDMA_MIX_PRIME;
	}
	out->hash = h ^ (h >> 32);
	out->len = cap;
}

bool edgedma_owned_changed(const struct edgedma_owned_bytes *then,
			   const struct edgedma_owned_bytes *now, u32 *first, u32 *last)
{
	u32 part = edgedma_owned_part_len(then->len), k;
	u64 differ = then->parts ^ now->parts;
	bool any = false;

	if (!then->len || then->len != now->len || then->hash == now->hash)
		return false;
	*first = 0;
	*last = then->len - 1;
	for (k = 0; k < EDGEDMA_OWNED_PARTS; k++) {
		if (!((differ >> (8 * k)) & 0xff))
			continue;
		if (!any)
			*first = k * part;
		*last = min(k * part + part, then->len) - 1;
		any = true;
	}
	/* No part's fold differs (1 in 256 per part): say the whole length. */
	if (!any) {
		*first = 0;
		*last = then->len - 1;
	}
	return true;
}
