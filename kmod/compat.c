// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel facts the module needs but the kernel does not export: found once
 * at load, never on the hook path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mem_encrypt.h>
#include <linux/mm.h>

#include "compat.h"

typedef unsigned long (*edgedma_lookup_fn)(const char *name);

/* Kernel text and read-only data, as physical ranges [start, end). */
static u64 edgedma_text_start, edgedma_text_end;
static u64 edgedma_rodata_start, edgedma_rodata_end;
static edgedma_lookup_fn edgedma_lookup;

/*
 * kallsyms_lookup_name() stopped being exported in 5.7; a kprobe on it
 * still resolves its address, which is all we need to call it.
 */
static edgedma_lookup_fn edgedma_find_lookup(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	edgedma_lookup_fn fn;

	if (register_kprobe(&kp) < 0)
		return NULL;
	fn = (edgedma_lookup_fn)kp.addr;
	unregister_kprobe(&kp);
	return fn;
}

static void __init edgedma_image_from_kallsyms(edgedma_lookup_fn lookup)
{
	unsigned long start, end;

	/*
	 * Two ranges, not one: the kernel frees the gap between the end of
	 * text and the start of rodata at boot, and reuses it as ordinary RAM.
	 */
	start = lookup("_stext");
	end = lookup("_etext");
	if (start && end > start) {
		edgedma_text_start = __pa_symbol(start);
		edgedma_text_end = __pa_symbol(end);
	}
	start = lookup("__start_rodata");
	end = lookup("__end_rodata");
	if (start && end > start) {
		edgedma_rodata_start = __pa_symbol(start);
		edgedma_rodata_end = __pa_symbol(end);
	}
}

/*
 * Without CONFIG_KALLSYMS_ALL kallsyms has no data symbols such as
 * __start_rodata, but always has the text bounds. arm64 puts rodata (and
 * the kernel's own page tables, no DMA buffers either) right after text and
 * before the init sections, with no freed gap: [_etext, _sinittext). x86
 * frees the gap after text, so there only the text range is known.
 */
static void __init edgedma_rodata_from_text_bounds(edgedma_lookup_fn lookup)
{
	unsigned long start, end;

	if (!IS_ENABLED(CONFIG_ARM64))
		return;
	start = lookup("_etext");
	end = lookup("_sinittext");
	if (start && end > start) {
		edgedma_rodata_start = __pa_symbol(start);
		edgedma_rodata_end = __pa_symbol(end);
	}
}

int __init edgedma_compat_init(void)
{
	edgedma_lookup_fn lookup = edgedma_find_lookup();

	edgedma_lookup = lookup;
	if (!lookup) {
		pr_info("kallsyms not reachable: the rodata-buffer check is off\n");
		return 0;
	}
	edgedma_image_from_kallsyms(lookup);
	if (!edgedma_rodata_end)
		edgedma_rodata_from_text_bounds(lookup);
	if (!edgedma_rodata_end)
		pr_info("no CONFIG_KALLSYMS_ALL: the rodata-buffer check sees kernel text only\n");
	return 0;
}

static bool edgedma_overlaps(u64 phys, u64 size, u64 start, u64 end)
{
	return end && phys < end && phys + size > start;
}

bool edgedma_phys_in_kernel_rodata(u64 phys, u64 size)
{
	return edgedma_overlaps(phys, size, edgedma_text_start, edgedma_text_end) ||
	       edgedma_overlaps(phys, size, edgedma_rodata_start, edgedma_rodata_end);
}

u64 edgedma_direct_dma_to_phys(struct device *dev, u64 dma_addr)
{
	if (dev->dma_range_map)
		return ~0ULL;
	return __sme_clr(dma_addr);
}

bool edgedma_function_range(const char *name, unsigned long *start,
			    unsigned long *end)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long addr, offset, size;
	const char *at;

	addr = edgedma_lookup ? edgedma_lookup(name) : 0;
	if (!addr)
		return false;
	/* "name+0x0/0xSIZE": kallsyms knows each function's size. */
	sprint_symbol(sym, addr);
	at = strchr(sym, '+');
	if (!at || sscanf(at, "+%lx/%lx", &offset, &size) != 2 || offset || !size)
		return false;
	*start = addr;
	*end = addr + size;
	return true;
}
