// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma_test_edu: a driver for QEMU's edu device (PCI 1234:11e8) that uses
 * the DMA-mapping API correctly, or commits one class of misuse on purpose.
 * It is the test subject of edgedma's checks: every mode except "correct",
 * "transfer", "loop", "loop-stop", "hold-line-pair", "hold-chain",
 * "hold-chain-loop", "hold-program", "controller-error", "release" and
 * "use-after-unmap" makes exactly the mistake its name says, which is the
 * finding kind edgedma is expected to report for it; "use-after-unmap" is
 * a device's mistake, caught by the IOMMU (a snapshot, not a finding).
 *
 * Interface: one debugfs folder per bound device,
 *   /sys/kernel/debug/edgedma_test_edu/<pci name>/
 *     run              write a mode name to run it; the write returns when
 *                      the mode is done and fails with its error (EOPNOTSUPP:
 *                      not run on this path, EBUSY: the loop is running).
 *                      Reading lists the modes and where each may run.
 *     last             the record of the last mode: mode=, path=, one line
 *                      per DMA-API call with its addresses, then result=.
 *     info             path (direct or iommu), masks, cache line, swiotlb.
 *     transfer_result  the bytes the last "transfer" mode read back.
 * The same records go to the kernel log. Module parameters: dma_bits,
 * modes (run at probe), allow_unsafe, misalign_offset,
 * misalign_len, xfer_seed, xfer_rounds, storm_calls, storm_sites.
 *
 * Paths. "iommu": the device sits in a translating DMA domain (intel-iommu on
 * x86_64, SMMUv3 on arm64); "direct": no IOMMU (edgedma-vm --no-iommu) or an
 * identity domain. Each mode refuses (EOPNOTSUPP, "result=skip") to run where
 * the kernel itself WARNs or would crash, unless allow_unsafe=1; a mode that
 * cannot set up its condition in this guest skips with the reason. The
 * guests boot with panic_on_warn=1, so "quiet" means no WARN, BUG or oops.
 * Verified on Debian 6.1 and 6.12 for x86_64 and arm64 (4k pages; arm64
 * 6.12-16k and 6.12-rt behind SMMUv3 too), with and without edgedma loaded,
 * on dma-coherent PCI and, on arm64, non-coherent PCI (edgedma-vm
 * --non-coherent: the kernel does real cache maintenance).
 *
 *   mode             direct iommu  what it does / what the path needs
 *   ---------------- ------ -----  -----------------------------------------
 *   correct          quiet  quiet  map/unmap single, page, sg, sgtable; syncs
 *                                  (single, range, sg, sgtable) in bounds with
 *                                  the mapping's direction; coherent, pages and
 *                                  noncoherent allocations; 12 edu transfers,
 *                                  every byte verified; map_resource of the edu
 *                                  BAR. Direct x86_64: map_resource is skipped
 *                                  (BAR 0xfea00000 is above the 28-bit mask:
 *                                  dma_direct_map_resource() WARNs).
 *   addr-misaligned  quiet  quiet  map_single at buf+1 (misalign_offset), 128
 *                                  bytes, to-device, inside our own buffer
 *   len-misaligned   quiet  quiet  map_single of 100 bytes (misalign_len),
 *                                  to-device. Both cover a cache line partly
 *                                  by default: on a non-coherent device that
 *                                  is cacheline-shared as well, unless the
 *                                  policy is 128 bytes and the parameters are
 *                                  64 and 192 (64-byte lines).
 *   cacheline-shared quiet  quiet  struct { u32 status; u8 buf[100]; } at a
 *                                  line start: buf mapped from-device, status
 *                                  left alone. Also misaligned (buf+4,
 *                                  100 bytes): with 64-byte lines no 64-byte
 *                                  aligned mapping can share a line.
 *   cacheline-neighbour-written
 *                    quiet  quiet  the same, status written while buf is
 *                                  mapped: the write the invalidate loses
 *   cacheline-shared-sg, cacheline-neighbour-written-sg
 *                    quiet  quiet  the two above through dma_map_sg
 *   cpu-write-while-device-owned
 *                    quiet  quiet  map_single 256 bytes to-device, write one
 *                                  byte of it, unmap: the device owned it
 *                                  (no transfer runs: the write is the bug)
 *   stack-buffer     quiet  quiet  dma_map_page(vmalloc_to_page(stack buffer))
 *                                  (VMAP_STACK on every Debian kernel), 256
 *                                  bytes, to-device
 *   vmalloc-buffer   quiet  quiet  dma_map_page(vmalloc_to_page(vmalloc())),
 *                                  256 bytes, to-device
 *   vmalloc-reused   quiet  quiet  correct use: a page vmalloc_to_page()
 *                                  returned, vfree()d and handed out again by
 *                                  alloc_page() (up to 16 tries, else skip),
 *                                  256 bytes mapped to-device. No finding: it
 *                                  is ordinary memory now
 *   rodata-buffer    quiet  quiet  map_single of the cache lines holding
 *                                  hex_asc, to-device, through lm_alias(): on
 *                                  arm64 virt_to_page() of a kernel-image
 *                                  address is garbage (linear map only)
 *   seg-boundary     quiet  quiet  boundary 0xfff; the second of two sg
 *                                  segments crosses 4 KiB. Neither path checks
 *                                  or splits it. Boundary restored after.
 *   seg-too-long     quiet  quiet  max_seg_size 1024, one 2048-byte segment;
 *                                  neither path checks or splits it. Restored.
 *   mask-exceeded    quiet  quiet  mask 64 bits, map 64 pages, lower the mask
 *                                  to 28 bits with the mapping live, sync for
 *                                  device, unmap. Direct: memory above the
 *                                  mask (x86_64 1 GiB: found after ~100 2-MiB
 *                                  blocks; arm64 with dma_bits=32 needs
 *                                  --memory 4G). iommu: needs boot parameter
 *                                  iommu.forcedac=1, else the IOVA is below
 *                                  2^28 anyway and the mode skips. Mapping
 *                                  above the mask directly is not quiet: the
 *                                  direct path WARNs without swiotlb (map_page,
 *                                  map_resource) or bounces.
 *   bounced          quiet  quiet  iommu, non-coherent device (6.12): map 8
 *                                  bytes of kmalloc memory at a line-unaligned
 *                                  offset from-device; the kernel bounces such
 *                                  buffers through swiotlb (iova_to_phys() is
 *                                  not the buffer). Skipped where it does not
 *                                  (6.1) and for coherent devices.
 *                                  Direct path: needs an active swiotlb and RAM
 *                                  above it: x86_64 --memory 3G (swiotlb is set
 *                                  up only with RAM above 4 GiB), arm64
 *                                  --memory 4G. The mask is raised to the
 *                                  smallest one covering the pool, or
 *                                  swiotlb_map() WARNs "swiotlb addr overflow"
 *                                  (x86_64 puts the pool near 2 GiB).
 *   unmap-unknown    quiet  WARN   iommu: WARN_ON(!phys) in
 *                                  iommu_dma_unmap_page() (6.1 dma-iommu.c:1041,
 *                                  6.12 :1230). Direct: cache maintenance and a
 *                                  swiotlb range check on the address of a
 *                                  buffer allocated at probe, never mapped.
 *   double-unmap     quiet  WARN   the second unmap, as unmap-unknown
 *   unmap-mismatch   quiet  quiet  map 128, unmap 64 bytes: same IOVA granule,
 *                                  the IOMMU unmaps the same page
 *   sync-unknown     quiet  quiet  sync_for_cpu of a never-mapped address (as in
 *                                  unmap-unknown; iommu: a low IOVA). iommu:
 *                                  returns early for coherent devices; refused
 *                                  for non-coherent ones (cache maintenance at
 *                                  iova_to_phys() == 0)
 *   sync-mismatch    quiet  quiet  map 128, sync_for_cpu 256 (the overrun stays
 *                                  in our 256-byte buffer), to-device
 *   leak             quiet  quiet  map_single, never unmapped; the buffer is
 *                                  freed at unbind, still mapped. No WARN at
 *                                  unbind, rebind or unload; behind an IOMMU
 *                                  the stale IOVA keeps pointing at the freed
 *                                  page (one page per leak, same boot).
 *   large-and-small  quiet  quiet  correct use: a 256 KiB buffer mapped, and
 *                                  while it is, 4 small buffers and a page
 *                                  mapped and unmapped, then the large one
 *                                  unmapped: mappings of two size classes
 *                                  live at once in edgedma's table
 *   pages-coherent-mask
 *                    quiet  -      correct use: the streaming mask narrowed
 *                                  to 24 bits, the coherent one widened to
 *                                  32,
 *                                  dma_alloc_pages() until a page lies above
 *                                  it (dma-direct allocates under the
 *                                  coherent mask; else skip), it synced,
 *                                  all freed, the mask back
 *   oops             oops   oops   a NULL write from the run file's write():
 *                                  an oops the writer dies of, which the
 *                                  kernel survives with panic_on_oops=0
 *                                  (tests/guest/crash-cycle); only with
 *                                  allow_unsafe=1
 *   free-irqs-off    WARN   WARN   dma_free_coherent() with interrupts off:
 *                                  only with allow_unsafe=1
 *   storm            quiet  quiet  storm_calls map+unmap pairs of a buffer at
 *                                  misalign_offset, to-device, from
 *                                  storm_sites functions in turn: with a
 *                                  64-byte alignment policy, one
 *                                  addr-misaligned finding per call
 *   transfer         quiet  quiet  xfer_rounds round trips (single, coherent,
 *                                  pages), deterministic pattern; checksum and
 *                                  transfer_result are the same on every
 *                                  kernel and path, with or without edgedma
 *   loop/loop-stop   quiet  quiet  kthread: map_single + syncs + unmap, map_sg
 *                                  + unmap, coherent alloc every 64th turn.
 *                                  Loading and unloading edgedma meanwhile is
 *                                  clean with single-threaded TCG
 *                                  (edgedma-vm's default). With --mttcg, QEMU
 *                                  7.2 breaks the kernel's code patching: on
 *                                  x86, toggling the dma trace events or a
 *                                  kprobe on dma_unmap_page_attrs, no edgedma
 *                                  at all, oopses the loop thread (int3, or
 *                                  RIP 0); on arm64 a function ftrace patched
 *                                  now and then never calls its callback.
 *
 * 6.12 (CONFIG_DMA_NEED_SYNC): dma_sync_*() are inline and skip the core, and
 * so its dma_sync_* trace events, when dev->dma_skip_sync is set, which
 * dma_set_mask() does for every dma-coherent device (x86_64, arm64 virt).
 * A hook on the sync path would see none of this driver's syncs; edgedma
 * clears the flag for the devices it watches (and again after each
 * dma_set_mask()), so this driver does nothing about it: the "syncs" line
 * of its info file says what the core does. A swiotlb bounce also clears
 * it, until the next dma_set_mask().
 *
 * Buffers of the correct side of every mode: kmalloc of a power-of-two size
 * of at least max(64, cache_line_size(), dma_get_cache_alignment()) (64 on
 * x86_64 and arm64 6.12, 128 on arm64 6.1), so they own every cache line they
 * touch. On the direct path they must also lie below the 28-bit mask, or the
 * kernel bounces them (swiotlb) or WARNs (no swiotlb: x86_64 below 4 GiB of
 * RAM): a buffer above the mask is replaced by one from GFP_DMA (16 MiB zone
 * on x86_64), which works with the default 1 GiB guest, so no --memory 256M
 * is needed. Memory a mode cannot choose (stack, vmalloc, kernel rodata)
 * gets the mask widened to 64 bits around its mapping on the direct path,
 * so those modes neither bounce nor exceed the mask. arm64's RAM starts at
 * 1 GiB, so a 28-bit mask cannot be set without an IOMMU (probe fails): load
 * with dma_bits=32 and give QEMU -device edu,dma_mask=0xffffffff, i.e.
 * edgedma-vm --arch arm64 --no-iommu --no-edu
 *   --qemu-arg=-device --qemu-arg=edu,dma_mask=0xffffffff
 * (edu masks every DMA address with its dma_mask property, so a transfer to
 * RAM above it would land elsewhere).
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/iommu.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/scatterlist.h>
#include <linux/sched/task_stack.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/vmalloc.h>

#define DRV_NAME		"edgedma_test_edu"

#define EDU_REG_ID		0x00
#define EDU_REG_STATUS		0x20
#define EDU_REG_DMA_SRC		0x80
#define EDU_REG_DMA_DST		0x88
#define EDU_REG_DMA_CNT		0x90
#define EDU_REG_DMA_CMD		0x98
#define EDU_DMA_RUN		BIT(0)
#define EDU_DMA_TO_RAM		BIT(1)	/* direction: edu buffer -> RAM */
#define EDU_DEV_BUF		0x40000	/* edu's internal buffer, device side */
#define EDU_DEV_BUF_SIZE	4096
#define EDU_DMA_TIMEOUT_MS	5000	/* edu finishes 100 ms after start */

#define EDU_LOG_SIZE		65536
#define EDU_LOG_RESERVE		256	/* kept for the result= line */
#define EDU_XFER_SLOT		2048	/* result bytes per transfer round */
#define EDU_XFER_MAX_ROUNDS	64
#define EDU_STACK_LEN		256
#define EDU_NEVER_MAPPED_LEN	256

static unsigned int dma_bits = 28;
module_param(dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits, "DMA mask width set at probe (default 28, edu's own)");

static char *modes;
module_param(modes, charp, 0444);
MODULE_PARM_DESC(modes, "comma-separated modes to run at probe");

static bool allow_unsafe;
module_param(allow_unsafe, bool, 0644);
MODULE_PARM_DESC(allow_unsafe, "run modes also on paths where the kernel WARNs or crashes");

static uint misalign_offset = 1;
module_param(misalign_offset, uint, 0644);
MODULE_PARM_DESC(misalign_offset, "addr-misaligned: offset of the mapping in its buffer (default 1; 1-4095)");

static uint misalign_len = 100;
module_param(misalign_len, uint, 0644);
MODULE_PARM_DESC(misalign_len, "len-misaligned: length of the mapping (default 100; 1-4096)");

static uint xfer_seed = 0x5eed;
module_param(xfer_seed, uint, 0644);
MODULE_PARM_DESC(xfer_seed, "seed of the transfer mode's pattern");

static uint xfer_rounds = 8;
module_param(xfer_rounds, uint, 0644);
MODULE_PARM_DESC(xfer_rounds, "round trips of the transfer mode (1-64)");

static uint storm_calls = 100000;
module_param(storm_calls, uint, 0644);
MODULE_PARM_DESC(storm_calls, "storm: map+unmap pairs, split over storm_sites (default 100000; 1-10000000)");

static uint storm_sites = 1;
module_param(storm_sites, uint, 0644);
MODULE_PARM_DESC(storm_sites, "storm: distinct call sites the pairs are made from (default 1; 1-16)");

static struct dentry *edu_debugfs_root;

struct edu_leak {
	struct list_head node;
	void *buf;
	dma_addr_t dma;
	size_t len;
};

/*
 * A descriptor of the list "hold-chain" builds for snapshots to walk
 * (the layout tests/kselftest/edgedma_snapshot_test.c gives edgedma).
 */
struct edu_chain_desc {
	__le64 addr;
	__le64 next;
	__le32 len;
	__le32 ctrl;
};

#define EDU_CHAIN_DESCS		6
#define EDU_CHAIN_LIVE		4	/* the first four point at live buffers */
#define EDU_CHAIN_BUF_LEN	256
#define EDU_CHAIN_UNKNOWN	0x1000	/* an address this device never mapped */
/*
 * Seen as a ring, the head and tail the test profile reads from DMA_DST and
 * DMA_CNT: the device would own slots 4, 5 and 0, the driver 1 to 3.
 */
#define EDU_CHAIN_RING_HEAD	EDU_CHAIN_LIVE
#define EDU_CHAIN_RING_TAIL	1

struct edu_test {
	struct pci_dev *pdev;
	struct device *dev;
	void __iomem *regs;
	struct dentry *dir;

	struct mutex lock;	/* one mode at a time; edu has one DMA engine */
	bool direct;		/* no translating IOMMU: DMA address == phys */
	bool coherent;
	bool broken;		/* a transfer timed out: the device may still write */
	u64 mask;		/* the mask set at probe */
	unsigned int align;	/* buffers own whole cache lines of this size */

	const char *mode;
	char *log;
	size_t log_len;
	bool log_full;

	struct list_head leaks;
	unsigned int nr_leaks;
	struct list_head held;	/* "hold-line-pair" mappings, until "release" */
	void *held_buf;
	/* "hold-chain": the descriptor list, its buffers, until "release" */
	struct edu_chain_desc *chain;
	dma_addr_t chain_dma;
	struct list_head chain_bufs;
	void *chain_gone_buf;

	void *never_mapped;	/* for unmap-unknown and sync-unknown */

	void *xfer_result;
	struct debugfs_blob_wrapper xfer_blob;

	struct task_struct *loop;
	void *loop_buf;
	void *loop_sg_buf[2];
	unsigned long loop_iters;
	unsigned long loop_errors;
};

struct edu_mode {
	const char *name;
	int (*run)(struct edu_test *t);
	unsigned int flags;
	const char *unsafe;	/* what the kernel does where it is refused */
};

#define EDU_DIRECT		BIT(0)	/* quiet on the direct path */
#define EDU_IOMMU		BIT(1)	/* quiet behind an IOMMU */
#define EDU_IOMMU_COHERENT	BIT(2)	/* ... but only for coherent devices */
#define EDU_WITH_LOOP		BIT(3)	/* may run while the loop runs */
#define EDU_ANY			(EDU_DIRECT | EDU_IOMMU)

/* ---- records -------------------------------------------------------- */

static void edu_log_line(struct edu_test *t, const char *line, bool last)
{
	size_t room = EDU_LOG_SIZE - t->log_len;

	if (!t->log)
		return;
	/* Records stop short of the reserve; the result line always fits. */
	if (!last && strlen(line) + 2 + EDU_LOG_RESERVE > room) {
		if (!t->log_full)
			t->log_len += scnprintf(t->log + t->log_len, room,
						"note record truncated\n");
		t->log_full = true;
		return;
	}
	t->log_len += scnprintf(t->log + t->log_len, room, "%s\n", line);
}

static __printf(2, 3) void edu_rec(struct edu_test *t, const char *fmt, ...)
{
	char line[192];
	va_list args;

	va_start(args, fmt);
	vscnprintf(line, sizeof(line), fmt, args);
	va_end(args);

	dev_info(t->dev, "%s: %s\n", t->mode ?: "probe", line);
	edu_log_line(t, line, strncmp(line, "result=", 7) == 0);
}

static const char *edu_dir_name(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_BIDIRECTIONAL:
		return "bidirectional";
	case DMA_TO_DEVICE:
		return "to-device";
	case DMA_FROM_DEVICE:
		return "from-device";
	default:
		return "none";
	}
}

static bool edu_core_skips_sync(struct device *dev)
{
#if defined(CONFIG_DMA_NEED_SYNC)
	return dev->dma_skip_sync;
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	return true;	/* no DMA_NEED_SYNC: the sync calls are empty inlines */
#else
	return false;
#endif
}

static void edu_rec_map(struct edu_test *t, const char *api, phys_addr_t phys,
			dma_addr_t dma, size_t len, enum dma_data_direction dir)
{
	edu_rec(t, "map api=%s dir=%s phys=%pa dma=%pad len=%zu",
		api, edu_dir_name(dir), &phys, &dma, len);
}

static void edu_rec_unmap(struct edu_test *t, const char *api, dma_addr_t dma,
			  size_t len, enum dma_data_direction dir)
{
	edu_rec(t, "unmap api=%s dir=%s dma=%pad len=%zu",
		api, edu_dir_name(dir), &dma, len);
}

static void edu_rec_sync(struct edu_test *t, const char *api, dma_addr_t dma,
			 size_t len, enum dma_data_direction dir)
{
	edu_rec(t, "sync api=%s dir=%s dma=%pad len=%zu core_skips=%d",
		api, edu_dir_name(dir), &dma, len, edu_core_skips_sync(t->dev));
}

/* ---- masks, paths, buffers ------------------------------------------ */

static bool edu_dev_direct(struct device *dev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dev);

	return !domain || !(domain->type & __IOMMU_DOMAIN_DMA_API);
}

static int edu_set_mask(struct edu_test *t, u64 mask)
{
	int ret;

	ret = dma_set_mask_and_coherent(t->dev, mask);
	if (ret) {
		edu_rec(t, "error dma_set_mask_and_coherent(0x%llx) failed: %d",
			mask, ret);
		return ret;
	}
	return 0;
}

static u64 edu_limit(struct edu_test *t)
{
	return min_not_zero(dma_get_mask(t->dev), t->dev->bus_dma_limit);
}

/*
 * Whether the device reaches [phys, phys + len) without bouncing. Behind an
 * IOMMU it always does; on the direct path the DMA address is the physical
 * address on these platforms (no dma-ranges offset).
 */
static bool edu_reachable(struct edu_test *t, phys_addr_t phys, size_t len)
{
	if (!t->direct)
		return true;
	return phys + len - 1 <= edu_limit(t);
}

static bool edu_swiotlb_pool(struct device *dev, phys_addr_t *start,
			     phys_addr_t *end)
{
#if defined(CONFIG_SWIOTLB) && LINUX_VERSION_CODE < KERNEL_VERSION(5, 15, 0)
	/* One global pool, whose bounds modules cannot read. */
	return false;
#elif defined(CONFIG_SWIOTLB)
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;

	if (!mem || !mem->nslabs)
		return false;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	*start = mem->defpool.start;
	*end = mem->defpool.end;
#else
	*start = mem->start;
	*end = mem->end;
#endif
	return true;
#else
	return false;
#endif
}

static size_t edu_buf_size(struct edu_test *t, size_t len)
{
	return roundup_pow_of_two(max_t(size_t, len, t->align));
}

/*
 * A streaming buffer that owns every cache line it touches (kmalloc of a
 * power-of-two size is aligned to that size) and that the device reaches
 * without bouncing: on the direct path, below the mask, from GFP_DMA if it
 * has to.
 */
static void *edu_buf_alloc(struct edu_test *t, size_t len)
{
	size_t size = edu_buf_size(t, len);
	void *buf;

	buf = kmalloc(size, GFP_KERNEL);
	if (buf && !edu_reachable(t, virt_to_phys(buf), size)) {
		kfree(buf);
		buf = NULL;
		if (IS_ENABLED(CONFIG_ZONE_DMA)) {
			buf = kmalloc(size, GFP_KERNEL | GFP_DMA);
			if (buf && !edu_reachable(t, virt_to_phys(buf), size)) {
				kfree(buf);
				edu_rec(t, "error no %zu-byte buffer below the mask",
					size);
				return ERR_PTR(-ERANGE);
			}
		}
	}
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (!IS_ALIGNED((unsigned long)buf, t->align)) {
		edu_rec(t, "error kmalloc(%zu) is not %u-byte aligned",
			size, t->align);
		kfree(buf);
		return ERR_PTR(-EINVAL);
	}
	memset(buf, 0, size);
	return buf;
}

static struct page *edu_page_alloc(struct edu_test *t)
{
	struct page *page;

	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (page && !edu_reachable(t, page_to_phys(page), PAGE_SIZE)) {
		__free_page(page);
		page = NULL;
		if (IS_ENABLED(CONFIG_ZONE_DMA)) {
			page = alloc_page(GFP_KERNEL | GFP_DMA | __GFP_ZERO);
			if (page && !edu_reachable(t, page_to_phys(page),
						   PAGE_SIZE)) {
				__free_page(page);
				edu_rec(t, "error no page below the mask");
				return ERR_PTR(-ERANGE);
			}
		}
	}
	return page ?: ERR_PTR(-ENOMEM);
}

/*
 * Memory whose physical address lies above @limit, for the modes that need
 * memory the device cannot reach. Order-0 allocations in a small guest come
 * from low memory first, so this walks through blocks of 2^EDU_ABOVE_ORDER
 * pages (at most EDU_ABOVE_MAX of them, all given back) and keeps the first
 * block above @limit. Free it with __free_pages(page, EDU_ABOVE_ORDER).
 */
#define EDU_ABOVE_ORDER		9
#define EDU_ABOVE_MAX		1024

static struct page *edu_page_above(struct edu_test *t, u64 limit)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY;
	struct page *found = NULL, **tried;
	unsigned int n = 0;

	tried = kvmalloc_array(EDU_ABOVE_MAX, sizeof(*tried), GFP_KERNEL);
	if (!tried)
		return NULL;
	while (n < EDU_ABOVE_MAX) {
		struct page *page = alloc_pages(gfp, EDU_ABOVE_ORDER);

		if (!page)
			break;
		if (page_to_phys(page) > limit) {
			found = page;
			break;
		}
		tried[n++] = page;
	}
	if (found)
		edu_rec(t, "found memory above 0x%llx after %u blocks", limit, n);
	while (n)
		__free_pages(tried[--n], EDU_ABOVE_ORDER);
	kvfree(tried);
	return found;
}

/*
 * For memory a mode cannot choose (stack, vmalloc, kernel image): on the
 * direct path, widen the mask when the memory lies above it, so the mapping
 * is neither bounced nor refused with a WARN. The caller restores t->mask.
 */
static int edu_reach(struct edu_test *t, phys_addr_t phys, size_t len,
		     bool *widened)
{
	int ret;

	*widened = false;
	if (edu_reachable(t, phys, len))
		return 0;
	ret = edu_set_mask(t, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	*widened = true;
	edu_rec(t, "note mask widened to 64 bits around this mapping: %pa lies above the device's mask on the direct path",
		&phys);
	return 0;
}

static void edu_unreach(struct edu_test *t, bool widened)
{
	if (widened)
		edu_set_mask(t, t->mask);
}

/* ---- streaming helpers that record what they do --------------------- */

/*
 * Always inlined, so the caller a hook sees on dma_map_page_attrs() and
 * friends is the mode's own function (edu_mode_leak, ...), not a wrapper.
 */

static __always_inline dma_addr_t edu_map_single(struct edu_test *t,
						 void *cpu, size_t len,
						 enum dma_data_direction dir)
{
	dma_addr_t dma = dma_map_single(t->dev, cpu, len, dir);

	if (dma_mapping_error(t->dev, dma)) {
		edu_rec(t, "error dma_map_single(%zu, %s) failed",
			len, edu_dir_name(dir));
		return DMA_MAPPING_ERROR;
	}
	edu_rec_map(t, "single", virt_to_phys(cpu), dma, len, dir);
	return dma;
}

static __always_inline void edu_unmap_single(struct edu_test *t,
					     dma_addr_t dma, size_t len,
					     enum dma_data_direction dir)
{
	dma_unmap_single(t->dev, dma, len, dir);
	edu_rec_unmap(t, "single", dma, len, dir);
}

static __always_inline dma_addr_t edu_map_page(struct edu_test *t,
					       struct page *page,
					       size_t offset, size_t len,
					       enum dma_data_direction dir)
{
	dma_addr_t dma = dma_map_page(t->dev, page, offset, len, dir);

	if (dma_mapping_error(t->dev, dma)) {
		edu_rec(t, "error dma_map_page(%zu, %s) failed",
			len, edu_dir_name(dir));
		return DMA_MAPPING_ERROR;
	}
	edu_rec_map(t, "page", page_to_phys(page) + offset, dma, len, dir);
	return dma;
}

static __always_inline void edu_unmap_page(struct edu_test *t,
					   dma_addr_t dma, size_t len,
					   enum dma_data_direction dir)
{
	dma_unmap_page(t->dev, dma, len, dir);
	edu_rec_unmap(t, "page", dma, len, dir);
}

/*
 * Map @len bytes of memory the mode could not choose (stack, vmalloc) to
 * the device and unmap them again, within the device's reach.
 */
static __always_inline int edu_map_page_briefly(struct edu_test *t,
						struct page *page,
						size_t offset, size_t len)
{
	phys_addr_t phys = page_to_phys(page) + offset;
	dma_addr_t dma;
	bool widened;
	int ret;

	ret = edu_reach(t, phys, len, &widened);
	if (ret)
		return ret;
	dma = edu_map_page(t, page, offset, len, DMA_TO_DEVICE);
	if (dma != DMA_MAPPING_ERROR)
		edu_unmap_page(t, dma, len, DMA_TO_DEVICE);
	edu_unreach(t, widened);
	return dma == DMA_MAPPING_ERROR ? -EIO : 0;
}

static __always_inline void edu_sync_for_cpu(struct edu_test *t,
					     dma_addr_t dma, size_t len,
					     enum dma_data_direction dir)
{
	dma_sync_single_for_cpu(t->dev, dma, len, dir);
	edu_rec_sync(t, "single-for-cpu", dma, len, dir);
}

static __always_inline void edu_sync_for_device(struct edu_test *t,
						dma_addr_t dma, size_t len,
						enum dma_data_direction dir)
{
	dma_sync_single_for_device(t->dev, dma, len, dir);
	edu_rec_sync(t, "single-for-device", dma, len, dir);
}

static void edu_rec_sg(struct edu_test *t, const char *what,
		       struct scatterlist *sgl, int nents, int mapped,
		       enum dma_data_direction dir)
{
	struct scatterlist *sg;
	int i;

	edu_rec(t, "%s nents=%d mapped=%d dir=%s", what, nents, mapped,
		edu_dir_name(dir));
	for_each_sg(sgl, sg, nents, i) {
		phys_addr_t phys = sg_phys(sg);

		edu_rec(t, "  seg %d phys=%pa len=%u", i, &phys, sg->length);
	}
	for_each_sg(sgl, sg, mapped, i) {
		dma_addr_t dma = sg_dma_address(sg);

		edu_rec(t, "  dma %d dma=%pad len=%u", i, &dma, sg_dma_len(sg));
	}
}

/* ---- the edu DMA engine ---------------------------------------------- */

/* Start a DMA: edu runs it 100 ms later. */
static void edu_dma_start(struct edu_test *t, u64 src, u64 dst, u32 len, bool to_ram)
{
	writeq(src, t->regs + EDU_REG_DMA_SRC);
	writeq(dst, t->regs + EDU_REG_DMA_DST);
	writeq(len, t->regs + EDU_REG_DMA_CNT);
	writeq(EDU_DMA_RUN | (to_ram ? EDU_DMA_TO_RAM : 0),
	       t->regs + EDU_REG_DMA_CMD);
}

/* Wait for the DMA started last to finish. */
static int edu_dma_wait(struct edu_test *t)
{
	unsigned long timeout;

	timeout = jiffies + msecs_to_jiffies(EDU_DMA_TIMEOUT_MS);
	while (readq(t->regs + EDU_REG_DMA_CMD) & EDU_DMA_RUN) {
		if (time_after(jiffies, timeout)) {
			/* It may still write: leak its buffers, refuse modes. */
			t->broken = true;
			edu_rec(t, "error edu DMA did not finish in %d ms",
				EDU_DMA_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
		usleep_range(1000, 2000);
	}
	return 0;
}

static int edu_dma(struct edu_test *t, u64 src, u64 dst, u32 len, bool to_ram)
{
	edu_dma_start(t, src, dst, len, to_ram);
	return edu_dma_wait(t);
}

/* RAM at @src -> edu's buffer at @off -> RAM at @dst. */
static int edu_copy(struct edu_test *t, dma_addr_t src, dma_addr_t dst,
		    u32 off, u32 len)
{
	int ret;

	if (off + len > EDU_DEV_BUF_SIZE)
		return -EINVAL;
	ret = edu_dma(t, src, EDU_DEV_BUF + off, len, false);
	if (ret)
		return ret;
	edu_rec(t, "xfer to-device dma=%pad dev=0x%x len=%u", &src,
		EDU_DEV_BUF + off, len);
	ret = edu_dma(t, EDU_DEV_BUF + off, dst, len, true);
	if (ret)
		return ret;
	edu_rec(t, "xfer from-device dev=0x%x dma=%pad len=%u",
		EDU_DEV_BUF + off, &dst, len);
	return 0;
}

static u32 edu_prng(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static void edu_fill(void *buf, size_t len, u32 seed)
{
	u32 state = seed * 2654435761u + 1;
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = edu_prng(&state) >> 24;
}

static int edu_verify(struct edu_test *t, const char *what, const void *want,
		      const void *got, size_t len)
{
	const u8 *w = want, *g = got;
	size_t i;

	for (i = 0; i < len; i++) {
		if (w[i] != g[i]) {
			edu_rec(t, "error %s: byte %zu is 0x%02x, wrote 0x%02x",
				what, i, g[i], w[i]);
			return -EIO;
		}
	}
	edu_rec(t, "verify %s len=%zu ok", what, len);
	return 0;
}

/* ---- mode: correct --------------------------------------------------- */

/* map_single both ways, CPU takes the source back and hands it over again. */
static int edu_correct_single(struct edu_test *t)
{
	const size_t len = 1024;
	dma_addr_t s_dma, d_dma;
	void *src, *dst;
	int ret;

	src = edu_buf_alloc(t, len);
	if (IS_ERR(src))
		return PTR_ERR(src);
	dst = edu_buf_alloc(t, len);
	if (IS_ERR(dst)) {
		ret = PTR_ERR(dst);
		goto free_src;
	}
	edu_fill(src, len, 1);

	ret = -EIO;
	s_dma = edu_map_single(t, src, len, DMA_TO_DEVICE);
	if (s_dma == DMA_MAPPING_ERROR)
		goto free_dst;
	d_dma = edu_map_single(t, dst, len, DMA_FROM_DEVICE);
	if (d_dma == DMA_MAPPING_ERROR)
		goto unmap_src;

	edu_sync_for_cpu(t, s_dma, len, DMA_TO_DEVICE);
	edu_fill(src, len, 2);
	edu_sync_for_device(t, s_dma, len, DMA_TO_DEVICE);

	ret = edu_copy(t, s_dma, d_dma, 0, len);
	if (ret == -ETIMEDOUT)
		return ret;
	if (ret)
		goto unmap_dst;

	/* Peek at a part first, hand it back, then take the whole buffer. */
	dma_sync_single_range_for_cpu(t->dev, d_dma, 64, 128, DMA_FROM_DEVICE);
	edu_rec_sync(t, "single-range-for-cpu", d_dma + 64, 128,
		     DMA_FROM_DEVICE);
	ret = edu_verify(t, "single[64..191]", src + 64, dst + 64, 128);
	dma_sync_single_range_for_device(t->dev, d_dma, 64, 128,
					 DMA_FROM_DEVICE);
	edu_rec_sync(t, "single-range-for-device", d_dma + 64, 128,
		     DMA_FROM_DEVICE);
	edu_sync_for_cpu(t, d_dma, len, DMA_FROM_DEVICE);
	if (!ret)
		ret = edu_verify(t, "single", src, dst, len);

unmap_dst:
	edu_unmap_single(t, d_dma, len, DMA_FROM_DEVICE);
unmap_src:
	edu_unmap_single(t, s_dma, len, DMA_TO_DEVICE);
free_dst:
	kfree(dst);
free_src:
	kfree(src);
	return ret;
}

static int edu_sg_table_of(struct edu_test *t, struct sg_table *sgt,
			   void **bufs, size_t chunk)
{
	struct scatterlist *sg;
	int ret, i;

	ret = sg_alloc_table(sgt, 2, GFP_KERNEL);
	if (ret)
		return ret;
	for_each_sgtable_sg(sgt, sg, i) {
		bufs[i] = edu_buf_alloc(t, chunk);
		if (IS_ERR(bufs[i])) {
			ret = PTR_ERR(bufs[i]);
			while (i--)
				kfree(bufs[i]);
			sg_free_table(sgt);
			return ret;
		}
		sg_set_buf(sg, bufs[i], chunk);
	}
	return 0;
}

/* Source: a page with dma_map_page; destination: two chunks, map_sgtable. */
static int edu_correct_page_sgtable(struct edu_test *t)
{
	const size_t len = 1024, chunk = 512;
	struct scatterlist *sg;
	struct sg_table sgt;
	void *bufs[2], *src;
	struct page *page;
	dma_addr_t s_dma;
	u32 off = 0;
	int ret, i;

	page = edu_page_alloc(t);
	if (IS_ERR(page))
		return PTR_ERR(page);
	src = page_address(page);
	edu_fill(src, len, 3);
	ret = edu_sg_table_of(t, &sgt, bufs, chunk);
	if (ret)
		goto free_page;

	ret = -EIO;
	s_dma = edu_map_page(t, page, 0, len, DMA_TO_DEVICE);
	if (s_dma == DMA_MAPPING_ERROR)
		goto free_sgt;
	ret = dma_map_sgtable(t->dev, &sgt, DMA_FROM_DEVICE, 0);
	edu_rec_sg(t, "map api=sgtable", sgt.sgl, sgt.orig_nents,
		   ret ? 0 : sgt.nents, DMA_FROM_DEVICE);
	if (ret)
		goto unmap_page;

	ret = edu_dma(t, s_dma, EDU_DEV_BUF, len, false);
	for_each_sgtable_dma_sg(&sgt, sg, i) {
		if (ret)
			break;
		ret = edu_dma(t, EDU_DEV_BUF + off, sg_dma_address(sg),
			      sg_dma_len(sg), true);
		off += sg_dma_len(sg);
	}
	if (ret == -ETIMEDOUT)
		return ret;
	if (ret)
		goto unmap_sgt;
	edu_rec(t, "xfer page -> edu -> sgtable len=%zu", len);

	dma_sync_sgtable_for_cpu(t->dev, &sgt, DMA_FROM_DEVICE);
	edu_rec(t, "sync api=sgtable-for-cpu dir=from-device core_skips=%d",
		edu_core_skips_sync(t->dev));
	ret = edu_verify(t, "sgtable[0]", src, bufs[0], chunk);
	if (!ret)
		ret = edu_verify(t, "sgtable[1]", src + chunk, bufs[1], chunk);
	dma_sync_sgtable_for_device(t->dev, &sgt, DMA_FROM_DEVICE);
	edu_rec(t, "sync api=sgtable-for-device dir=from-device core_skips=%d",
		edu_core_skips_sync(t->dev));

unmap_sgt:
	dma_unmap_sgtable(t->dev, &sgt, DMA_FROM_DEVICE, 0);
	edu_rec(t, "unmap api=sgtable dir=from-device nents=%u",
		sgt.orig_nents);
unmap_page:
	edu_unmap_page(t, s_dma, len, DMA_TO_DEVICE);
free_sgt:
	kfree(bufs[0]);
	kfree(bufs[1]);
	sg_free_table(&sgt);
free_page:
	__free_page(page);
	return ret;
}

/* Source: two chunks with the classic dma_map_sg; destination: a page. */
static int edu_correct_sg_page(struct edu_test *t)
{
	const size_t len = 1024, chunk = 512;
	struct scatterlist sgl[2], *sg;
	void *bufs[2], *dst;
	struct page *page;
	int ret, nents, i;
	dma_addr_t d_dma;
	u32 off = 0;

	page = edu_page_alloc(t);
	if (IS_ERR(page))
		return PTR_ERR(page);
	dst = page_address(page);
	bufs[0] = edu_buf_alloc(t, chunk);
	if (IS_ERR(bufs[0])) {
		ret = PTR_ERR(bufs[0]);
		goto free_page;
	}
	bufs[1] = edu_buf_alloc(t, chunk);
	if (IS_ERR(bufs[1])) {
		ret = PTR_ERR(bufs[1]);
		goto free_buf0;
	}
	edu_fill(bufs[0], chunk, 4);
	edu_fill(bufs[1], chunk, 5);
	sg_init_table(sgl, 2);
	sg_set_buf(&sgl[0], bufs[0], chunk);
	sg_set_buf(&sgl[1], bufs[1], chunk);

	ret = -EIO;
	nents = dma_map_sg(t->dev, sgl, 2, DMA_TO_DEVICE);
	edu_rec_sg(t, "map api=sg", sgl, 2, nents, DMA_TO_DEVICE);
	if (!nents)
		goto free_buf1;
	d_dma = edu_map_page(t, page, 0, len, DMA_FROM_DEVICE);
	if (d_dma == DMA_MAPPING_ERROR)
		goto unmap_sg;

	dma_sync_sg_for_cpu(t->dev, sgl, 2, DMA_TO_DEVICE);
	edu_rec(t, "sync api=sg-for-cpu dir=to-device nents=2 core_skips=%d",
		edu_core_skips_sync(t->dev));
	dma_sync_sg_for_device(t->dev, sgl, 2, DMA_TO_DEVICE);
	edu_rec(t, "sync api=sg-for-device dir=to-device nents=2 core_skips=%d",
		edu_core_skips_sync(t->dev));

	ret = 0;
	for_each_sg(sgl, sg, nents, i) {
		ret = edu_dma(t, sg_dma_address(sg), EDU_DEV_BUF + off,
			      sg_dma_len(sg), false);
		if (ret)
			break;
		off += sg_dma_len(sg);
	}
	if (!ret)
		ret = edu_dma(t, EDU_DEV_BUF, d_dma, len, true);
	if (ret == -ETIMEDOUT)
		return ret;
	if (ret)
		goto unmap_page;
	edu_rec(t, "xfer sg -> edu -> page len=%zu", len);

	edu_sync_for_cpu(t, d_dma, len, DMA_FROM_DEVICE);
	ret = edu_verify(t, "sg[0]", bufs[0], dst, chunk);
	if (!ret)
		ret = edu_verify(t, "sg[1]", bufs[1], dst + chunk, chunk);

unmap_page:
	edu_unmap_page(t, d_dma, len, DMA_FROM_DEVICE);
unmap_sg:
	dma_unmap_sg(t->dev, sgl, 2, DMA_TO_DEVICE);
	edu_rec(t, "unmap api=sg dir=to-device nents=2");
free_buf1:
	kfree(bufs[1]);
free_buf0:
	kfree(bufs[0]);
free_page:
	__free_page(page);
	return ret;
}

static int edu_correct_coherent(struct edu_test *t)
{
	const size_t size = PAGE_SIZE, len = 1024, half = PAGE_SIZE / 2;
	dma_addr_t dma;
	void *cpu;
	int ret;

	cpu = dma_alloc_coherent(t->dev, size, &dma, GFP_KERNEL);
	if (!cpu) {
		edu_rec(t, "error dma_alloc_coherent(%zu) failed", size);
		return -ENOMEM;
	}
	edu_rec(t, "alloc api=coherent dma=%pad len=%zu", &dma, size);
	edu_fill(cpu, len, 6);
	memset(cpu + half, 0, len);

	ret = edu_copy(t, dma, dma + half, 0, len);
	if (ret == -ETIMEDOUT)
		return ret;
	if (!ret)
		ret = edu_verify(t, "coherent", cpu, cpu + half, len);

	dma_free_coherent(t->dev, size, cpu, dma);
	edu_rec(t, "free api=coherent dma=%pad len=%zu", &dma, size);
	return ret;
}

/* dma_alloc_pages() source, dma_alloc_noncoherent() destination. */
static int edu_correct_pages_noncoherent(struct edu_test *t)
{
	const size_t size = PAGE_SIZE, len = 1024;
	dma_addr_t s_dma, d_dma;
	struct page *page;
	void *src, *dst;
	int ret;

	page = dma_alloc_pages(t->dev, size, &s_dma, DMA_TO_DEVICE, GFP_KERNEL);
	if (!page) {
		edu_rec(t, "error dma_alloc_pages(%zu) failed", size);
		return -ENOMEM;
	}
	edu_rec(t, "alloc api=pages dir=to-device dma=%pad len=%zu",
		&s_dma, size);
	src = page_address(page);

	dst = dma_alloc_noncoherent(t->dev, size, &d_dma, DMA_FROM_DEVICE,
				    GFP_KERNEL);
	if (!dst) {
		edu_rec(t, "error dma_alloc_noncoherent(%zu) failed", size);
		ret = -ENOMEM;
		goto free_pages;
	}
	edu_rec(t, "alloc api=noncoherent dir=from-device dma=%pad len=%zu",
		&d_dma, size);

	/* The CPU owns fresh non-coherent allocations; hand them over. */
	edu_fill(src, len, 7);
	edu_sync_for_device(t, s_dma, size, DMA_TO_DEVICE);
	edu_sync_for_device(t, d_dma, size, DMA_FROM_DEVICE);

	ret = edu_copy(t, s_dma, d_dma, 1024, len);
	if (ret == -ETIMEDOUT)
		return ret;
	if (!ret) {
		edu_sync_for_cpu(t, d_dma, size, DMA_FROM_DEVICE);
		ret = edu_verify(t, "noncoherent", src, dst, len);
	}

	dma_free_noncoherent(t->dev, size, dst, d_dma, DMA_FROM_DEVICE);
	edu_rec(t, "free api=noncoherent dma=%pad len=%zu", &d_dma, size);
free_pages:
	dma_free_pages(t->dev, size, page, s_dma, DMA_TO_DEVICE);
	edu_rec(t, "free api=pages dma=%pad len=%zu", &s_dma, size);
	return ret;
}

/* edu's own BAR through dma_map_resource(): mapped and unmapped, no DMA. */
static int edu_correct_resource(struct edu_test *t)
{
	phys_addr_t bar = pci_resource_start(t->pdev, 0);
	const size_t len = EDU_DEV_BUF_SIZE;
	dma_addr_t dma;

	if (t->direct && bar + len - 1 > edu_limit(t)) {
		edu_rec(t, "note map_resource skipped: BAR 0 at %pa lies above the mask on the direct path (dma_direct_map_resource() would WARN)",
			&bar);
		return 0;
	}
	dma = dma_map_resource(t->dev, bar, len, DMA_BIDIRECTIONAL, 0);
	if (dma_mapping_error(t->dev, dma)) {
		edu_rec(t, "error dma_map_resource(%pa) failed", &bar);
		return -EIO;
	}
	edu_rec_map(t, "resource", bar, dma, len, DMA_BIDIRECTIONAL);
	dma_unmap_resource(t->dev, dma, len, DMA_BIDIRECTIONAL, 0);
	edu_rec_unmap(t, "resource", dma, len, DMA_BIDIRECTIONAL);
	return 0;
}

static int edu_mode_correct(struct edu_test *t)
{
	static int (*const steps[])(struct edu_test *t) = {
		edu_correct_single,
		edu_correct_page_sgtable,
		edu_correct_sg_page,
		edu_correct_coherent,
		edu_correct_pages_noncoherent,
		edu_correct_resource,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		ret = steps[i](t);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- mode: transfer -------------------------------------------------- */

static u64 edu_fnv1a(const void *buf, size_t len)
{
	const u8 *p = buf;
	u64 h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* One round trip of @len bytes through edu, with the round's own buffers. */
static int edu_xfer_round(struct edu_test *t, unsigned int r, void *out)
{
	size_t len = 256 << (r % 4);
	u32 off = ALIGN_DOWN((r * 320) % (EDU_DEV_BUF_SIZE - len), 64);
	u32 seed = xfer_seed ^ (r * 0x9e3779b9u);
	dma_addr_t s_dma, d_dma;
	struct page *page;
	void *src, *dst;
	int ret;

	switch (r % 3) {
	case 0:		/* streaming: map_single both ways */
		src = edu_buf_alloc(t, len);
		if (IS_ERR(src))
			return PTR_ERR(src);
		dst = edu_buf_alloc(t, len);
		if (IS_ERR(dst)) {
			kfree(src);
			return PTR_ERR(dst);
		}
		edu_fill(src, len, seed);
		memset(dst, 0xee, len);
		ret = -EIO;
		s_dma = edu_map_single(t, src, len, DMA_TO_DEVICE);
		if (s_dma == DMA_MAPPING_ERROR)
			goto free_streaming;
		d_dma = edu_map_single(t, dst, len, DMA_FROM_DEVICE);
		if (d_dma == DMA_MAPPING_ERROR) {
			edu_unmap_single(t, s_dma, len, DMA_TO_DEVICE);
			goto free_streaming;
		}
		ret = edu_copy(t, s_dma, d_dma, off, len);
		if (ret == -ETIMEDOUT)
			return ret;
		edu_sync_for_cpu(t, d_dma, len, DMA_FROM_DEVICE);
		edu_unmap_single(t, d_dma, len, DMA_FROM_DEVICE);
		edu_unmap_single(t, s_dma, len, DMA_TO_DEVICE);
		if (!ret)
			ret = edu_verify(t, "round", src, dst, len);
		memcpy(out, dst, len);
free_streaming:
		kfree(dst);
		kfree(src);
		return ret;

	case 1:		/* coherent: one allocation, two halves */
		src = dma_alloc_coherent(t->dev, 2 * EDU_XFER_SLOT, &s_dma,
					 GFP_KERNEL);
		if (!src)
			return -ENOMEM;
		edu_rec(t, "alloc api=coherent dma=%pad len=%d", &s_dma,
			2 * EDU_XFER_SLOT);
		dst = src + EDU_XFER_SLOT;
		d_dma = s_dma + EDU_XFER_SLOT;
		edu_fill(src, len, seed);
		memset(dst, 0xee, len);
		ret = edu_copy(t, s_dma, d_dma, off, len);
		if (ret == -ETIMEDOUT)
			return ret;
		if (!ret)
			ret = edu_verify(t, "round", src, dst, len);
		memcpy(out, dst, len);
		dma_free_coherent(t->dev, 2 * EDU_XFER_SLOT, src, s_dma);
		edu_rec(t, "free api=coherent dma=%pad len=%d", &s_dma,
			2 * EDU_XFER_SLOT);
		return ret;

	default:	/* dma_alloc_pages source, streaming page destination */
		page = dma_alloc_pages(t->dev, PAGE_SIZE, &s_dma, DMA_TO_DEVICE,
				       GFP_KERNEL);
		if (!page)
			return -ENOMEM;
		edu_rec(t, "alloc api=pages dir=to-device dma=%pad len=%lu",
			&s_dma, PAGE_SIZE);
		src = page_address(page);
		edu_fill(src, len, seed);
		edu_sync_for_device(t, s_dma, len, DMA_TO_DEVICE);
		dst = edu_buf_alloc(t, len);
		if (IS_ERR(dst)) {
			ret = PTR_ERR(dst);
			goto free_pages;
		}
		memset(dst, 0xee, len);
		ret = -EIO;
		d_dma = edu_map_single(t, dst, len, DMA_FROM_DEVICE);
		if (d_dma == DMA_MAPPING_ERROR)
			goto free_dst;
		ret = edu_copy(t, s_dma, d_dma, off, len);
		if (ret == -ETIMEDOUT)
			return ret;
		edu_unmap_single(t, d_dma, len, DMA_FROM_DEVICE);
		if (!ret)
			ret = edu_verify(t, "round", src, dst, len);
		memcpy(out, dst, len);
free_dst:
		kfree(dst);
free_pages:
		dma_free_pages(t->dev, PAGE_SIZE, page, s_dma, DMA_TO_DEVICE);
		edu_rec(t, "free api=pages dma=%pad len=%lu", &s_dma,
			PAGE_SIZE);
		return ret;
	}
}

static int edu_mode_transfer(struct edu_test *t)
{
	unsigned int r, rounds = clamp_t(uint, xfer_rounds, 1,
					 EDU_XFER_MAX_ROUNDS);
	size_t total = rounds * EDU_XFER_SLOT;
	int ret = 0;

	memset(t->xfer_result, 0, EDU_XFER_MAX_ROUNDS * EDU_XFER_SLOT);
	t->xfer_blob.size = 0;
	for (r = 0; r < rounds && !ret; r++)
		ret = edu_xfer_round(t, r, t->xfer_result + r * EDU_XFER_SLOT);
	if (ret)
		return ret;
	t->xfer_blob.size = total;
	edu_rec(t, "transfer seed=0x%x rounds=%u bytes=%zu checksum=%016llx",
		xfer_seed, rounds, total, edu_fnv1a(t->xfer_result, total));
	return 0;
}

/* ---- modes: alignment and cache lines -------------------------------- */

/*
 * The misaligned mapping lies inside a buffer of our own, to-device. With the
 * default odd offset or length it necessarily covers its first or last cache
 * line partly; misalign_offset=64 or misalign_len=192 against a 128-byte
 * alignment policy keeps it cache-line clean (64-byte lines).
 */
static int edu_mode_addr_misaligned(struct edu_test *t)
{
	const size_t len = 128;
	size_t off = misalign_offset;
	dma_addr_t dma;
	void *buf;

	if (!off || off >= PAGE_SIZE)
		return -EINVAL;
	buf = edu_buf_alloc(t, off + len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dma = edu_map_single(t, buf + off, len, DMA_TO_DEVICE);
	if (dma != DMA_MAPPING_ERROR)
		edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
	kfree(buf);
	return dma == DMA_MAPPING_ERROR ? -EIO : 0;
}

static int edu_mode_len_misaligned(struct edu_test *t)
{
	size_t len = misalign_len;
	dma_addr_t dma;
	void *buf;

	if (!len || len > PAGE_SIZE)
		return -EINVAL;
	buf = edu_buf_alloc(t, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dma = edu_map_single(t, buf, len, DMA_TO_DEVICE);
	if (dma != DMA_MAPPING_ERROR)
		edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
	kfree(buf);
	return dma == DMA_MAPPING_ERROR ? -EIO : 0;
}

struct edu_shared {
	u32 status;		/* CPU-owned, written while buf is mapped */
	u8 buf[100];		/* device writes here */
};

/*
 * @write: the CPU writes status, in buf's first cache line, while the device
 * owns buf: the write the invalidate for the DMA can discard. Without it the
 * line is only shared (a possible loss, not an observed one). Inlined: the
 * mode's own function is the caller the hooks see.
 */
static __always_inline int edu_cacheline_shared_run(struct edu_test *t, bool write)
{
	struct edu_shared *s;
	phys_addr_t line;
	dma_addr_t dma;

	/* Cache-line aligned, so status and buf[0..] share the first line. */
	s = edu_buf_alloc(t, sizeof(*s));
	if (IS_ERR(s))
		return PTR_ERR(s);
	line = virt_to_phys(s);
	edu_rec(t, "shared line=%pa status@+%zu buf@+%zu cache_line=%d",
		&line, offsetof(struct edu_shared, status),
		offsetof(struct edu_shared, buf), cache_line_size());

	dma = edu_map_single(t, s->buf, sizeof(s->buf), DMA_FROM_DEVICE);
	if (dma == DMA_MAPPING_ERROR) {
		kfree(s);
		return -EIO;
	}
	if (write) {
		/* Live data in the same line while the device owns buf. */
		WRITE_ONCE(s->status, 0x600d);
		edu_rec(t, "cpu wrote status while buf is mapped");
	}
	edu_unmap_single(t, dma, sizeof(s->buf), DMA_FROM_DEVICE);
	kfree(s);
	return 0;
}

static int edu_mode_cacheline_shared(struct edu_test *t)
{
	return edu_cacheline_shared_run(t, false);
}

static int edu_mode_cacheline_neighbour_written(struct edu_test *t)
{
	return edu_cacheline_shared_run(t, true);
}

/* The same through dma_map_sg: one entry, the same buffer. */
static __always_inline int edu_cacheline_shared_sg_run(struct edu_test *t, bool write)
{
	struct scatterlist sg;
	struct edu_shared *s;
	int nents;

	s = edu_buf_alloc(t, sizeof(*s));
	if (IS_ERR(s))
		return PTR_ERR(s);
	sg_init_one(&sg, s->buf, sizeof(s->buf));
	nents = dma_map_sg(t->dev, &sg, 1, DMA_FROM_DEVICE);
	edu_rec_sg(t, "map api=sg", &sg, 1, nents, DMA_FROM_DEVICE);
	if (!nents) {
		kfree(s);
		return -EIO;
	}
	if (write) {
		WRITE_ONCE(s->status, 0x600d);
		edu_rec(t, "cpu wrote status while buf is mapped");
	}
	dma_unmap_sg(t->dev, &sg, 1, DMA_FROM_DEVICE);
	edu_rec(t, "unmap api=sg dir=from-device nents=1");
	kfree(s);
	return 0;
}

static int edu_mode_cacheline_shared_sg(struct edu_test *t)
{
	return edu_cacheline_shared_sg_run(t, false);
}

static int edu_mode_cacheline_neighbour_written_sg(struct edu_test *t)
{
	return edu_cacheline_shared_sg_run(t, true);
}

/* ---- modes: memory that must not be mapped --------------------------- */

static noinline int edu_mode_stack_buffer(struct edu_test *t)
{
	/*
	 * Aligned by hand: an __aligned() local makes the compiler realign
	 * the stack pointer, which objtool (ORC) refuses on x86_64. Aligned
	 * to its own size, the buffer owns its cache lines and one page.
	 */
	u8 raw[2 * EDU_STACK_LEN];
	u8 *buf = PTR_ALIGN(&raw[0], EDU_STACK_LEN);
	bool vmapped = is_vmalloc_addr(buf);
	const size_t len = EDU_STACK_LEN;
	struct page *page;
	phys_addr_t phys;
	int ret;

	memset(buf, 0x5a, len);
	page = vmapped ? vmalloc_to_page(buf) : virt_to_page(buf);
	phys = page_to_phys(page) + offset_in_page(buf);
	edu_rec(t, "stack buffer vmap_stack=%d on_stack=%d phys=%pa len=%zu",
		vmapped, object_is_on_stack(buf), &phys, len);

	ret = edu_map_page_briefly(t, page, offset_in_page(buf), len);
	memzero_explicit(raw, sizeof(raw));
	return ret;
}

static int edu_mode_vmalloc_buffer(struct edu_test *t)
{
	const size_t len = 256;
	struct page *page;
	phys_addr_t phys;
	void *buf;
	int ret;

	buf = vmalloc(PAGE_SIZE);
	if (!buf)
		return -ENOMEM;
	memset(buf, 0xa5, PAGE_SIZE);
	page = vmalloc_to_page(buf);
	phys = page_to_phys(page);
	edu_rec(t, "vmalloc buffer phys=%pa len=%zu", &phys, len);

	ret = edu_map_page_briefly(t, page, 0, len);
	vfree(buf);
	return ret;
}

/*
 * Correct use of a page that was vmalloc memory a moment ago: freed with its
 * area, the allocator hands it out again first (per-CPU lists are LIFO).
 */
static int edu_mode_vmalloc_reused(struct edu_test *t)
{
	const size_t len = 256;
	struct page *page = NULL, *was_vmalloc;
	unsigned int tries;
	phys_addr_t phys;
	void *buf;
	int ret;

	for (tries = 1; tries <= 16; tries++) {
		buf = vmalloc(PAGE_SIZE);
		if (!buf)
			return -ENOMEM;
		was_vmalloc = vmalloc_to_page(buf);
		vfree(buf);
		page = alloc_page(GFP_KERNEL);
		if (!page)
			return -ENOMEM;
		if (page == was_vmalloc)
			break;
		__free_page(page);
		page = NULL;
	}
	if (!page) {
		edu_rec(t, "skip alloc_page() never handed out the freed vmalloc page (16 tries)");
		return -EOPNOTSUPP;
	}
	phys = page_to_phys(page);
	edu_rec(t, "reused vmalloc page phys=%pa len=%zu tries=%u", &phys, len,
		tries);

	ret = edu_map_page_briefly(t, page, 0, len);
	__free_page(page);
	return ret;
}

static int edu_mode_rodata_buffer(struct edu_test *t)
{
	/*
	 * hex_asc lives in the kernel image's .rodata. Map it through its
	 * linear-map alias: on arm64, virt_to_page() is only valid for the
	 * linear map. Whole cache lines, so only the memory type is wrong.
	 */
	unsigned long sym = (unsigned long)lm_alias(hex_asc);
	unsigned long start = ALIGN_DOWN(sym, t->align);
	size_t len = ALIGN(sym + 17 - start, t->align);
	phys_addr_t phys = virt_to_phys((void *)start);
	dma_addr_t dma;
	bool widened;
	int ret;

	edu_rec(t, "rodata symbol=hex_asc phys=%pa len=%zu", &phys, len);
	ret = edu_reach(t, phys, len, &widened);
	if (ret)
		return ret;
	dma = edu_map_single(t, (void *)start, len, DMA_TO_DEVICE);
	if (dma != DMA_MAPPING_ERROR)
		edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
	edu_unreach(t, widened);
	return dma == DMA_MAPPING_ERROR ? -EIO : 0;
}

/* ---- modes: segments ------------------------------------------------- */

static int edu_mode_seg_boundary(struct edu_test *t)
{
	unsigned long old = dma_get_seg_boundary(t->dev);
	const unsigned long boundary = 0xfff;
	struct scatterlist sgl[2];
	int nents, ret = 0;
	void *buf;

	buf = edu_buf_alloc(t, 2 * (boundary + 1));
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	sg_init_table(sgl, 2);
	sg_set_buf(&sgl[0], buf, 256);
	/* Straddles buf + 4 KiB; kmalloc memory is physically contiguous. */
	sg_set_buf(&sgl[1], buf + boundary + 1 - 128, 256);

	dma_set_seg_boundary(t->dev, boundary);
	edu_rec(t, "seg_boundary 0x%lx (was 0x%lx)", boundary, old);
	nents = dma_map_sg(t->dev, sgl, 2, DMA_TO_DEVICE);
	edu_rec_sg(t, "map api=sg", sgl, 2, nents, DMA_TO_DEVICE);
	if (nents) {
		dma_unmap_sg(t->dev, sgl, 2, DMA_TO_DEVICE);
		edu_rec(t, "unmap api=sg dir=to-device nents=2");
	} else {
		ret = -EIO;
	}
	dma_set_seg_boundary(t->dev, old);
	kfree(buf);
	return ret;
}

static int edu_mode_seg_too_long(struct edu_test *t)
{
	unsigned int old = dma_get_max_seg_size(t->dev);
	const unsigned int max = 1024;
	struct scatterlist sg;
	int nents, ret = 0;
	void *buf;

	buf = edu_buf_alloc(t, 2 * max);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	sg_init_one(&sg, buf, 2 * max);

	dma_set_max_seg_size(t->dev, max);
	edu_rec(t, "max_seg_size %u (was %u)", max, old);
	nents = dma_map_sg(t->dev, &sg, 1, DMA_TO_DEVICE);
	edu_rec_sg(t, "map api=sg", &sg, 1, nents, DMA_TO_DEVICE);
	if (nents) {
		dma_unmap_sg(t->dev, &sg, 1, DMA_TO_DEVICE);
		edu_rec(t, "unmap api=sg dir=to-device nents=1");
	} else {
		ret = -EIO;
	}
	dma_set_max_seg_size(t->dev, old);
	kfree(buf);
	return ret;
}

/*
 * dma_unmap_sg() given a shorter list than dma_map_sg() mapped: a copy of
 * the first entry, ended there. The list edgedma remembers has three
 * segments; it must walk no further than the one the caller passed. The
 * other two are then unmapped through a list that starts at the second.
 */
static int edu_mode_unmap_sg_short_list(struct edu_test *t)
{
	struct scatterlist sgl[3], head;
	int nents, i;
	void *buf;

	buf = edu_buf_alloc(t, 3 * PAGE_SIZE);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	sg_init_table(sgl, 3);
	for (i = 0; i < 3; i++)
		sg_set_buf(&sgl[i], buf + i * PAGE_SIZE, 512);
	nents = dma_map_sg(t->dev, sgl, 3, DMA_TO_DEVICE);
	edu_rec_sg(t, "map api=sg", sgl, 3, nents, DMA_TO_DEVICE);
	if (nents != 3) {
		if (nents)
			dma_unmap_sg(t->dev, sgl, 3, DMA_TO_DEVICE);
		kfree(buf);
		return -EIO;
	}
	head = sgl[0];
	sg_mark_end(&head);
	dma_unmap_sg(t->dev, &head, 1, DMA_TO_DEVICE);
	edu_rec(t, "unmap api=sg dir=to-device nents=1 (a one-entry copy of a three-entry list)");
	dma_unmap_sg(t->dev, &sgl[1], 2, DMA_TO_DEVICE);
	edu_rec(t, "unmap api=sg dir=to-device nents=2 (the rest, from the second entry)");
	kfree(buf);
	return 0;
}

/* ---- modes: masks and bouncing --------------------------------------- */

static int edu_mode_mask_exceeded(struct edu_test *t)
{
	/*
	 * 64 pages: IOVAs of up to 32 pages come from the IOVA caches first,
	 * which hold the device's earlier (28-bit) IOVAs whatever the mask.
	 */
	const size_t len = 64 * PAGE_SIZE;
	struct page *page;
	dma_addr_t dma;
	int ret;

	ret = edu_set_mask(t, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	edu_rec(t, "mask 64 bits for the map (device's own: 0x%llx)", t->mask);

	/* Direct: the memory must lie above the real mask; iommu: any. */
	page = edu_page_above(t, t->direct ? t->mask : 0);
	if (!page) {
		edu_rec(t, "skip no RAM above 0x%llx in this guest", t->mask);
		ret = -EOPNOTSUPP;
		goto restore;
	}

	ret = -EIO;
	dma = edu_map_page(t, page, 0, len, DMA_TO_DEVICE);
	if (dma == DMA_MAPPING_ERROR)
		goto free;
	if (dma + len - 1 <= t->mask) {
		/*
		 * The IOVA allocator tries 32-bit IOVAs first and allocates
		 * top-down from its last 32-bit allocation, which lies below
		 * the 28-bit mask once the device has mapped anything.
		 */
		edu_rec(t, "skip dma=%pad is within the mask: behind an IOMMU this needs iommu.forcedac=1",
			&dma);
		ret = -EOPNOTSUPP;
		goto unmap;
	}

	/* The mapping is live; the mask becomes the device's real one. */
	ret = edu_set_mask(t, t->mask);
	if (ret)
		goto unmap;
	edu_rec(t, "mask lowered to 0x%llx with the mapping live", t->mask);
	edu_sync_for_device(t, dma, len, DMA_TO_DEVICE);
unmap:
	edu_unmap_page(t, dma, len, DMA_TO_DEVICE);
free:
	__free_pages(page, EDU_ABOVE_ORDER);
restore:
	if (dma_get_mask(t->dev) != t->mask)
		edu_set_mask(t, t->mask);
	return ret;
}

/*
 * Behind an IOMMU a trusted device is bounced only when it is non-coherent
 * and the buffer is a kmalloc one whose cache lines it shares (6.12 kernels
 * bounce those rather than corrupt the neighbours).
 */
static int edu_mode_bounced_iommu(struct edu_test *t)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(t->dev);
	const size_t len = 8;
	phys_addr_t phys, seen;
	dma_addr_t dma;
	u8 *buf;
	int ret = 0;

	if (t->coherent) {
		edu_rec(t, "skip a trusted, DMA-coherent PCI device behind an IOMMU is never bounced");
		return -EOPNOTSUPP;
	}
	buf = kmalloc(2 * cache_line_size(), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	phys = virt_to_phys(buf + 8);
	dma = edu_map_single(t, buf + 8, len, DMA_FROM_DEVICE);
	if (dma == DMA_MAPPING_ERROR) {
		kfree(buf);
		return -EIO;
	}
	seen = domain ? iommu_iova_to_phys(domain, dma) : 0;
	if (seen == phys) {
		edu_rec(t, "skip this kernel does not bounce small kmalloc buffers of non-coherent devices (iova %pad -> %pa, the buffer itself)",
			&dma, &seen);
		ret = -EOPNOTSUPP;
	} else {
		edu_rec(t, "bounced phys=%pa -> %pa (iova %pad)", &phys, &seen, &dma);
	}
	edu_unmap_single(t, dma, len, DMA_FROM_DEVICE);
	kfree(buf);
	return ret;
}

static int edu_mode_bounced(struct edu_test *t)
{
	phys_addr_t start, end, phys, bounce;
	const size_t len = 256;
	struct page *page;
	dma_addr_t dma;
	u64 mask;
	int ret;

	if (!t->direct)
		return edu_mode_bounced_iommu(t);
	if (!edu_swiotlb_pool(t->dev, &start, &end)) {
		edu_rec(t, "skip swiotlb is not active in this boot (x86_64: needs RAM above 4 GiB, e.g. --memory 3G; arm64: --memory 4G)");
		return -EOPNOTSUPP;
	}
	/* The smallest mask that covers the pool, never below the device's. */
	mask = max_t(u64, t->mask, DMA_BIT_MASK(fls64(end - 1)));
	edu_rec(t, "swiotlb pool=%pa-%pa mask=0x%llx", &start, &end, mask);

	page = edu_page_above(t, mask);
	if (!page) {
		edu_rec(t, "skip no RAM above 0x%llx in this guest", mask);
		return -EOPNOTSUPP;
	}
	ret = mask != t->mask ? edu_set_mask(t, mask) : 0;
	if (ret)
		goto free;

	ret = -EIO;
	dma = edu_map_page(t, page, 0, len, DMA_TO_DEVICE);
	if (dma == DMA_MAPPING_ERROR)
		goto restore;
	phys = page_to_phys(page);
	bounce = dma;	/* direct path: DMA address == physical address */
	if (bounce >= start && bounce < end) {
		edu_rec(t, "bounced phys=%pa -> swiotlb %pa", &phys, &bounce);
		ret = 0;
	} else {
		edu_rec(t, "error dma=%pad is not in the swiotlb pool", &dma);
	}
	edu_unmap_page(t, dma, len, DMA_TO_DEVICE);
restore:
	if (mask != t->mask)
		edu_set_mask(t, t->mask);
free:
	__free_pages(page, EDU_ABOVE_ORDER);
	return ret;
}

/* ---- modes: unmap and sync errors ------------------------------------ */

/*
 * An address this device never had mapped in this boot. Direct path: the
 * physical address of a buffer allocated at probe and never mapped, which
 * is exactly the DMA address it would get, so whatever the core does with
 * it (cache maintenance, a swiotlb range check) touches only that buffer.
 * iommu: a low IOVA; the allocator hands out IOVAs top-down from the mask.
 */
static dma_addr_t edu_unmapped_addr(struct edu_test *t)
{
	struct iommu_domain *domain;
	dma_addr_t addr;

	if (t->direct)
		return virt_to_phys(t->never_mapped);
	addr = 16 * PAGE_SIZE;
	domain = iommu_get_domain_for_dev(t->dev);
	while (domain && iommu_iova_to_phys(domain, addr))
		addr += PAGE_SIZE;	/* someone's live IOVA: not unknown */
	return addr;
}

static int edu_mode_unmap_unknown(struct edu_test *t)
{
	dma_addr_t addr = edu_unmapped_addr(t);

	edu_rec(t, "never mapped dma=%pad", &addr);
	edu_unmap_single(t, addr, EDU_NEVER_MAPPED_LEN, DMA_TO_DEVICE);
	return 0;
}

static int edu_mode_double_unmap(struct edu_test *t)
{
	const size_t len = 256;
	dma_addr_t dma;
	void *buf;

	buf = edu_buf_alloc(t, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dma = edu_map_single(t, buf, len, DMA_TO_DEVICE);
	if (dma != DMA_MAPPING_ERROR) {
		edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
		edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
	}
	kfree(buf);
	return dma == DMA_MAPPING_ERROR ? -EIO : 0;
}

static int edu_mode_unmap_mismatch(struct edu_test *t)
{
	const size_t len = 128;
	dma_addr_t dma;
	void *buf;

	buf = edu_buf_alloc(t, 2 * len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dma = edu_map_single(t, buf, len, DMA_TO_DEVICE);
	if (dma != DMA_MAPPING_ERROR)
		edu_unmap_single(t, dma, len / 2, DMA_TO_DEVICE);
	kfree(buf);
	return dma == DMA_MAPPING_ERROR ? -EIO : 0;
}

static int edu_mode_sync_unknown(struct edu_test *t)
{
	dma_addr_t addr = edu_unmapped_addr(t);

	edu_rec(t, "never mapped dma=%pad", &addr);
	edu_sync_for_cpu(t, addr, EDU_NEVER_MAPPED_LEN, DMA_TO_DEVICE);
	return 0;
}

static int edu_mode_sync_mismatch(struct edu_test *t)
{
	const size_t len = 128;
	dma_addr_t dma;
	void *buf;

	/* Twice the mapped length, so the overrun stays in our buffer. */
	buf = edu_buf_alloc(t, 2 * len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dma = edu_map_single(t, buf, len, DMA_TO_DEVICE);
	if (dma != DMA_MAPPING_ERROR) {
		edu_sync_for_cpu(t, dma, 2 * len, DMA_TO_DEVICE);
		edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
	}
	kfree(buf);
	return dma == DMA_MAPPING_ERROR ? -EIO : 0;
}

/*
 * sync-mismatch with a dma_set_mask() between the map and the sync: on
 * 6.11+ the mask change makes a coherent device skip its syncs again, so
 * only a watcher that clears the flag after dma_set_mask() sees the sync.
 */
static int edu_mode_sync_after_set_mask(struct edu_test *t)
{
	const size_t len = 128;
	dma_addr_t dma;
	void *buf;
	int ret;

	buf = edu_buf_alloc(t, 2 * len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dma = edu_map_single(t, buf, len, DMA_TO_DEVICE);
	if (dma == DMA_MAPPING_ERROR) {
		kfree(buf);
		return -EIO;
	}
	ret = edu_set_mask(t, t->mask);
	edu_rec(t, "dma_set_mask(0x%llx)=%d core_skips=%d", t->mask, ret,
		edu_core_skips_sync(t->dev));
	edu_sync_for_cpu(t, dma, 2 * len, DMA_TO_DEVICE);
	edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
	kfree(buf);
	return ret;
}

/*
 * A finding storm: storm_calls map+unmap pairs of one misaligned buffer
 * (to-device, at misalign_offset in it), spread round-robin over
 * storm_sites call sites, each its own function so that each has its own
 * return address. With a 64-byte address-alignment policy every map is an
 * addr-misaligned finding; edgedma must log one per site and count the rest.
 * Not recorded call by call: the record would hold a few hundred of them.
 */
#define EDU_STORM_MAX_SITES	16
#define EDU_STORM_LEN		128

typedef int (*edu_storm_fn)(struct device *dev, void *cpu);

/* The lengths differ so that no two sites are folded into one function. */
#define EDU_STORM_SITE(n)						\
static noinline int edu_storm_site_##n(struct device *dev, void *cpu)	\
{									\
	dma_addr_t dma = dma_map_single(dev, cpu, EDU_STORM_LEN - (n),	\
					DMA_TO_DEVICE);			\
									\
	if (dma_mapping_error(dev, dma))				\
		return -EIO;						\
	dma_unmap_single(dev, dma, EDU_STORM_LEN - (n), DMA_TO_DEVICE);	\
	return 0;							\
}

EDU_STORM_SITE(0) EDU_STORM_SITE(1) EDU_STORM_SITE(2) EDU_STORM_SITE(3)
EDU_STORM_SITE(4) EDU_STORM_SITE(5) EDU_STORM_SITE(6) EDU_STORM_SITE(7)
EDU_STORM_SITE(8) EDU_STORM_SITE(9) EDU_STORM_SITE(10) EDU_STORM_SITE(11)
EDU_STORM_SITE(12) EDU_STORM_SITE(13) EDU_STORM_SITE(14) EDU_STORM_SITE(15)

static const edu_storm_fn edu_storm_sites[EDU_STORM_MAX_SITES] = {
	edu_storm_site_0, edu_storm_site_1, edu_storm_site_2, edu_storm_site_3,
	edu_storm_site_4, edu_storm_site_5, edu_storm_site_6, edu_storm_site_7,
	edu_storm_site_8, edu_storm_site_9, edu_storm_site_10, edu_storm_site_11,
	edu_storm_site_12, edu_storm_site_13, edu_storm_site_14, edu_storm_site_15,
};

static int edu_mode_storm(struct edu_test *t)
{
	unsigned int calls = READ_ONCE(storm_calls), sites = READ_ONCE(storm_sites);
	size_t off = misalign_offset;
	unsigned int i;
	u64 start;
	void *buf;
	int ret = 0;

	if (!calls || calls > 10000000 || !sites || sites > EDU_STORM_MAX_SITES ||
	    !off || off >= PAGE_SIZE)
		return -EINVAL;
	buf = edu_buf_alloc(t, off + EDU_STORM_LEN);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	start = ktime_get_ns();
	for (i = 0; i < calls && !ret; i++) {
		ret = edu_storm_sites[i % sites](t->dev, buf + off);
		if (!(i % 1024))
			cond_resched();
	}
	edu_rec(t, "storm calls=%u sites=%u offset=%zu done=%u ns=%llu", calls,
		sites, off, i, ktime_get_ns() - start);
	kfree(buf);
	return ret;
}

/* ---- mode: pages-coherent-mask ------------------------------------------ */

#define EDU_PAGES_TRIES	64

/*
 * dma-direct allocates pages under the coherent mask; dma-iommu (through
 * dma_common_alloc_pages()) maps them under the streaming one, so only the
 * direct path can hand out pages above the streaming mask.
 */
static int edu_mode_pages_coherent_mask(struct edu_test *t)
{
	const size_t size = PAGE_SIZE;
	struct page *pages[EDU_PAGES_TRIES];
	dma_addr_t dmas[EDU_PAGES_TRIES];
	unsigned int n, above = EDU_PAGES_TRIES;
	int ret;

	/*
	 * The streaming mask narrowed to 24 bits (ZONE_DMA's 16 MiB), the
	 * coherent one widened to 32: with a coherent mask under 32 bits
	 * dma-direct falls back to ZONE_DMA itself, below both.
	 */
	ret = dma_set_mask(t->dev, DMA_BIT_MASK(24)) ?:
	      dma_set_coherent_mask(t->dev, DMA_BIT_MASK(32));
	if (ret) {
		edu_rec(t, "skip dma_set_mask(24 bits), dma_set_coherent_mask(32 bits) failed: %d",
			ret);
		dma_set_mask_and_coherent(t->dev, t->mask);
		return -EOPNOTSUPP;
	}
	/* Allocated until one lies above the streaming mask: the case to judge. */
	for (n = 0; n < EDU_PAGES_TRIES && above == EDU_PAGES_TRIES; n++) {
		pages[n] = dma_alloc_pages(t->dev, size, &dmas[n], DMA_BIDIRECTIONAL,
					   GFP_KERNEL);
		if (!pages[n])
			break;
		if (dmas[n] > DMA_BIT_MASK(24))
			above = n;
	}
	if (above < EDU_PAGES_TRIES) {
		edu_rec(t, "alloc_pages dma=%pad size=%zu (try %u) above mask=0x%llx, coherent_mask=0x%llx",
			&dmas[above], size, above + 1, *t->dev->dma_mask,
			t->dev->coherent_dma_mask);
		dma_sync_single_for_device(t->dev, dmas[above], size, DMA_BIDIRECTIONAL);
	} else {
		edu_rec(t, "skip no dma_alloc_pages() page above mask 0x%llx in %u tries",
			DMA_BIT_MASK(24), n);
		ret = -EOPNOTSUPP;
	}
	while (n--)
		if (pages[n])
			dma_free_pages(t->dev, size, pages[n], dmas[n], DMA_BIDIRECTIONAL);
	if (dma_set_mask_and_coherent(t->dev, t->mask))
		edu_rec(t, "error dma_set_mask_and_coherent(0x%llx) back failed", t->mask);
	return ret;
}

/*
 * An oops on purpose, in the writer's context: edgedma snapshots the
 * devices at the oops; with panic_on_oops=0 the kernel goes on, and a later
 * panic is snapshotted and written to the crash region again.
 */
static int edu_mode_oops(struct edu_test *t)
{
	edu_rec(t, "oopsing on purpose");
	*(volatile int *)NULL = 0;
	return 0;
}

/*
 * dma_free_coherent() with interrupts disabled, as sym53c8xx's rmmod does:
 * the kernel WARNs (refused unless allow_unsafe=1; the test bed expects
 * that WARN in its free-irqs-off case).
 */
static int edu_mode_free_irqs_off(struct edu_test *t)
{
	unsigned long flags;
	dma_addr_t dma;
	void *cpu;

	cpu = dma_alloc_coherent(t->dev, PAGE_SIZE, &dma, GFP_KERNEL);
	if (!cpu)
		return -ENOMEM;
	edu_rec(t, "alloc coherent dma=%pad, freed with interrupts off", &dma);
	local_irq_save(flags);
	dma_free_coherent(t->dev, PAGE_SIZE, cpu, dma);
	local_irq_restore(flags);
	return 0;
}

static int edu_mode_leak(struct edu_test *t)
{
	struct edu_leak *leak;
	const size_t len = 256;

	leak = kzalloc(sizeof(*leak), GFP_KERNEL);
	if (!leak)
		return -ENOMEM;
	leak->buf = edu_buf_alloc(t, len);
	if (IS_ERR(leak->buf)) {
		int ret = PTR_ERR(leak->buf);

		kfree(leak);
		return ret;
	}
	leak->len = len;
	leak->dma = edu_map_single(t, leak->buf, len, DMA_TO_DEVICE);
	if (leak->dma == DMA_MAPPING_ERROR) {
		kfree(leak->buf);
		kfree(leak);
		return -EIO;
	}
	/* Never unmapped; the buffer is freed at unbind, still mapped. */
	list_add_tail(&leak->node, &t->leaks);
	t->nr_leaks++;
	edu_rec(t, "leaked dma=%pad len=%zu (%u leaked so far)", &leak->dma,
		len, t->nr_leaks);
	return 0;
}

/* ---- mode: large-and-small ------------------------------------------- */

/*
 * Correct use with mappings of two sizes live at once: edgedma files a
 * mapping by its size's class, and with table_buckets=1 every class shares
 * one bucket (what a hash collision does at random in a full-size table).
 */
static int edu_mode_large_and_small(struct edu_test *t)
{
	const size_t large_len = SZ_256K, small_len = 256;
	dma_addr_t large_dma, small_dma[4], page_dma;
	void *large, *small[4] = { };
	struct page *page = NULL;
	unsigned int i;
	int ret = 0;

	large = edu_buf_alloc(t, large_len);
	if (IS_ERR(large))
		return PTR_ERR(large);
	large_dma = edu_map_single(t, large, large_len, DMA_FROM_DEVICE);
	if (large_dma == DMA_MAPPING_ERROR) {
		kfree(large);
		return -EIO;
	}
	for (i = 0; i < ARRAY_SIZE(small) && !ret; i++) {
		small[i] = edu_buf_alloc(t, small_len);
		if (IS_ERR(small[i])) {
			ret = PTR_ERR(small[i]);
			small[i] = NULL;
			break;
		}
		small_dma[i] = edu_map_single(t, small[i], small_len, DMA_TO_DEVICE);
		if (small_dma[i] == DMA_MAPPING_ERROR)
			ret = -EIO;
	}
	if (!ret) {
		page = edu_page_alloc(t);
		if (IS_ERR(page)) {
			ret = PTR_ERR(page);
			page = NULL;
		}
	}
	if (!ret) {
		page_dma = edu_map_page(t, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
		if (page_dma == DMA_MAPPING_ERROR)
			ret = -EIO;
		else
			edu_unmap_page(t, page_dma, PAGE_SIZE, DMA_BIDIRECTIONAL);
	}
	for (i = 0; i < ARRAY_SIZE(small) && small[i]; i++) {
		if (small_dma[i] != DMA_MAPPING_ERROR)
			edu_unmap_single(t, small_dma[i], small_len, DMA_TO_DEVICE);
		kfree(small[i]);
	}
	if (page)
		__free_page(page);
	edu_unmap_single(t, large_dma, large_len, DMA_FROM_DEVICE);
	kfree(large);
	return ret;
}

/* ---- mode: use-after-unmap ------------------------------------------- */

/*
 * Start a DMA from a buffer and unmap it before the engine runs (edu reads
 * 100 ms after the start): the IOMMU refuses the read. Only behind an
 * IOMMU: on the direct path the device would read freed memory. Reading,
 * the device changes nothing whatever happens.
 */
static int edu_mode_use_after_unmap(struct edu_test *t)
{
	const size_t len = 256;
	dma_addr_t dma;
	void *buf;
	int ret;

	buf = edu_buf_alloc(t, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	dma = edu_map_single(t, buf, len, DMA_TO_DEVICE);
	if (dma == DMA_MAPPING_ERROR) {
		kfree(buf);
		return -EIO;
	}
	edu_dma_start(t, dma, EDU_DEV_BUF, len, false);
	edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
	edu_rec(t, "use-after-unmap dma=%pad len=%zu: edu reads it after the unmap",
		&dma, len);
	ret = edu_dma_wait(t);
	if (ret)
		return ret;	/* buf leaks: it may still be read */
	kfree(buf);
	return 0;
}

/* ---- mode: cpu-write-while-device-owned ------------------------------- */

/*
 * Give edu a buffer to read, then write into it before taking it back: a
 * device that read it got the old bytes, and one that does not snoop the
 * caches may read memory the new ones never reached. No transfer is
 * started, so nothing else happens: the write is the mistake.
 */
static int edu_mode_cpu_write_while_device_owned(struct edu_test *t)
{
	const size_t len = 256;
	dma_addr_t dma;
	u8 *buf;

	buf = edu_buf_alloc(t, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	memset(buf, 0x5a, len);
	dma = edu_map_single(t, buf, len, DMA_TO_DEVICE);
	if (dma == DMA_MAPPING_ERROR) {
		kfree(buf);
		return -EIO;
	}
	WRITE_ONCE(buf[len / 2], 0xa5);
	edu_rec(t, "cpu wrote byte %zu of the to-device buffer dma=%pad while the device owned it",
		len / 2, &dma);
	edu_unmap_single(t, dma, len, DMA_TO_DEVICE);
	kfree(buf);
	return 0;
}

/* ---- modes: hold-line-pair, release ------------------------------------ */

/*
 * Two live mappings in the two halves of one cache line, kept until
 * "release": the subject of a snapshot that names the mappings sharing a
 * line. To the device only, so nothing is bounced or invalidated.
 */
static int edu_mode_hold_line_pair(struct edu_test *t)
{
	size_t line = max_t(size_t, cache_line_size(), 16);
	unsigned int i;

	if (t->held_buf) {
		edu_rec(t, "error a pair is held already: run release first");
		return -EBUSY;
	}
	t->held_buf = edu_buf_alloc(t, 2 * line);
	if (IS_ERR(t->held_buf)) {
		int ret = PTR_ERR(t->held_buf);

		t->held_buf = NULL;
		return ret;
	}
	for (i = 0; i < 2; i++) {
		struct edu_leak *h = kzalloc(sizeof(*h), GFP_KERNEL);

		if (!h)
			return -ENOMEM;
		h->buf = t->held_buf + i * line / 2;
		h->len = line / 2;
		h->dma = edu_map_single(t, h->buf, h->len, DMA_TO_DEVICE);
		if (h->dma == DMA_MAPPING_ERROR) {
			kfree(h);
			return -EIO;
		}
		list_add_tail(&h->node, &t->held);
		edu_rec(t, "held dma=%pad len=%zu phys=%pa", &h->dma, h->len,
			&(phys_addr_t){ virt_to_phys(h->buf) });
	}
	return 0;
}

/* ---- modes: hold-chain, hold-chain-loop --------------------------------- */

/*
 * A list of six descriptors in coherent memory, its DMA address in edu's
 * DMA source register (no transfer is started: a controller's "next
 * descriptor" register): four point at live buffers, one at a buffer
 * unmapped already, one at an address never mapped; the last ends the
 * list, or with @loop points back at the third. Kept until "release".
 * DMA_DST and DMA_CNT hold a head and a tail for a ring's view of it.
 */
static int edu_hold_chain(struct edu_test *t, bool loop)
{
	phys_addr_t chain_phys;
	dma_addr_t gone;
	unsigned int i;

	if (t->chain) {
		edu_rec(t, "error a chain is held already: run release first");
		return -EBUSY;
	}
	t->chain = dma_alloc_coherent(t->dev, PAGE_SIZE, &t->chain_dma, GFP_KERNEL);
	if (!t->chain) {
		edu_rec(t, "error dma_alloc_coherent(%lu) failed", PAGE_SIZE);
		return -ENOMEM;
	}
	/*
	 * Behind an IOMMU, dma_alloc_coherent() may hand out a vmap of its
	 * pages (iommu_dma_alloc_remap()): say which, and the page's memory,
	 * for the snapshot's CPU page-table view.
	 */
	chain_phys = page_to_phys(is_vmalloc_addr(t->chain) ? vmalloc_to_page(t->chain)
							    : virt_to_page(t->chain));
	edu_rec(t, "chain dma=%pad descs=%u desc_size=%zu vmalloc=%d phys=%pa", &t->chain_dma,
		EDU_CHAIN_DESCS, sizeof(struct edu_chain_desc), is_vmalloc_addr(t->chain),
		&chain_phys);
	for (i = 0; i < EDU_CHAIN_LIVE; i++) {
		struct edu_leak *h = kzalloc(sizeof(*h), GFP_KERNEL);

		if (!h)
			return -ENOMEM;
		h->buf = edu_buf_alloc(t, EDU_CHAIN_BUF_LEN);
		if (IS_ERR(h->buf)) {
			int ret = PTR_ERR(h->buf);

			kfree(h);
			return ret;
		}
		h->len = EDU_CHAIN_BUF_LEN;
		h->dma = edu_map_single(t, h->buf, h->len, DMA_TO_DEVICE);
		if (h->dma == DMA_MAPPING_ERROR) {
			kfree(h->buf);
			kfree(h);
			return -EIO;
		}
		list_add_tail(&h->node, &t->chain_bufs);
		t->chain[i].addr = cpu_to_le64(h->dma);
		t->chain[i].len = cpu_to_le32(h->len);
		edu_rec(t, "desc %u live dma=%pad len=%zu", i, &h->dma, h->len);
	}
	t->chain_gone_buf = edu_buf_alloc(t, EDU_CHAIN_BUF_LEN);
	if (IS_ERR(t->chain_gone_buf)) {
		int ret = PTR_ERR(t->chain_gone_buf);

		t->chain_gone_buf = NULL;
		return ret;
	}
	gone = edu_map_single(t, t->chain_gone_buf, EDU_CHAIN_BUF_LEN, DMA_TO_DEVICE);
	if (gone == DMA_MAPPING_ERROR)
		return -EIO;
	edu_unmap_single(t, gone, EDU_CHAIN_BUF_LEN, DMA_TO_DEVICE);
	t->chain[EDU_CHAIN_LIVE].addr = cpu_to_le64(gone);
	t->chain[EDU_CHAIN_LIVE].len = cpu_to_le32(EDU_CHAIN_BUF_LEN);
	edu_rec(t, "desc %u unmapped dma=%pad len=%u", EDU_CHAIN_LIVE, &gone,
		EDU_CHAIN_BUF_LEN);
	t->chain[EDU_CHAIN_LIVE + 1].addr = cpu_to_le64(EDU_CHAIN_UNKNOWN);
	t->chain[EDU_CHAIN_LIVE + 1].len = cpu_to_le32(64);
	edu_rec(t, "desc %u unknown dma=%#x len=64", EDU_CHAIN_LIVE + 1, EDU_CHAIN_UNKNOWN);
	for (i = 0; i + 1 < EDU_CHAIN_DESCS; i++) {
		t->chain[i].next = cpu_to_le64(t->chain_dma + (i + 1) * sizeof(*t->chain));
		t->chain[i].ctrl = cpu_to_le32(i);
	}
	t->chain[i].ctrl = cpu_to_le32(i);
	t->chain[i].next = cpu_to_le64(loop ? t->chain_dma + 2 * sizeof(*t->chain) : 0);
	writeq(t->chain_dma, t->regs + EDU_REG_DMA_SRC);
	writeq(EDU_CHAIN_RING_HEAD, t->regs + EDU_REG_DMA_DST);
	writeq(EDU_CHAIN_RING_TAIL, t->regs + EDU_REG_DMA_CNT);
	edu_rec(t, "dma_src=%pad%s ring-head=%u ring-tail=%u", &t->chain_dma,
		loop ? " loop-to=2" : "", EDU_CHAIN_RING_HEAD, EDU_CHAIN_RING_TAIL);
	return 0;
}

static int edu_mode_hold_chain(struct edu_test *t)
{
	return edu_hold_chain(t, false);
}

static int edu_mode_hold_chain_loop(struct edu_test *t)
{
	return edu_hold_chain(t, true);
}

/*
 * An ARM PL330 channel's program as drivers/dma/pl330.c writes one into
 * its per-request microcode buffer (256 bytes, aligned): CCR, then SAR at
 * a live buffer and DAR at one unmapped already, a load/store loop, a
 * barrier, the completion event, the end. Built beside hold-chain's list
 * (same page, same buffers), with DMA_SRC as the channel's CPC: the loop's
 * load, where a channel that faulted mid-transfer would stand.
 */
#define EDU_PROGRAM_OFFSET	256
#define EDU_PROGRAM_CPC		20

static void edu_put_le32(u8 *at, u32 v)
{
	at[0] = v;
	at[1] = v >> 8;
	at[2] = v >> 16;
	at[3] = v >> 24;
}

static int edu_mode_hold_program(struct edu_test *t)
{
	static const u8 tail[] = {
		0x20, 0x0f,	/* DMALP lc0, 16 times */
		0x04,		/* DMALD */
		0x08,		/* DMAST */
		0x38, 0x02,	/* DMALPEND lc0, back 2 bytes */
		0x13,		/* DMAWMB */
		0x34, 0x18,	/* DMASEV event 3 */
		0x00,		/* DMAEND */
	};
	struct edu_leak *live;
	u8 *prog;
	dma_addr_t prog_dma;
	int ret = edu_hold_chain(t, false);

	if (ret)
		return ret;
	live = list_first_entry(&t->chain_bufs, struct edu_leak, node);
	prog = (u8 *)t->chain + EDU_PROGRAM_OFFSET;
	prog_dma = t->chain_dma + EDU_PROGRAM_OFFSET;
	/* DMAMOV rd, imm32: 0xbc, then rd (0 SAR, 1 CCR, 2 DAR), then LE. */
	prog[0] = 0xbc;
	prog[1] = 1;
	edu_put_le32(prog + 2, 0x00400401);
	prog[6] = 0xbc;
	prog[7] = 0;
	edu_put_le32(prog + 8, lower_32_bits(live->dma));
	prog[12] = 0xbc;
	prog[13] = 2;
	edu_put_le32(prog + 14, lower_32_bits(le64_to_cpu(t->chain[EDU_CHAIN_LIVE].addr)));
	memcpy(prog + 18, tail, sizeof(tail));
	writeq(prog_dma + EDU_PROGRAM_CPC, t->regs + EDU_REG_DMA_SRC);
	edu_rec(t, "program dma=%pad len=%zu cpc=%#llx sar=%pad dar=%#llx", &prog_dma,
		18 + sizeof(tail), (unsigned long long)prog_dma + EDU_PROGRAM_CPC, &live->dma,
		(unsigned long long)le64_to_cpu(t->chain[EDU_CHAIN_LIVE].addr));
	return 0;
}

/* ---- mode: controller-error ------------------------------------------- */

/*
 * What a DMA controller driver's error interrupt handler is to edgedma:
 * a function it can be told to snapshot the device at (ERROR_HOOK_SET
 * edu_controller_error). Neither inlined nor cloned under another name
 * (GCC's .isra/.constprop copies), so that it can be probed by its name;
 * it reads edu's status as a handler reads its cause register.
 */
#if __has_attribute(__noipa__)
#define EDU_PROBEABLE	noinline __attribute__((__noipa__))
#else
#define EDU_PROBEABLE	noinline
#endif

static EDU_PROBEABLE u32 edu_controller_error(struct edu_test *t)
{
	return readl(t->regs + EDU_REG_STATUS);
}

static int edu_mode_controller_error(struct edu_test *t)
{
	edu_rec(t, "error handler edu_controller_error status=%#x",
		edu_controller_error(t));
	return 0;
}

/* Unmap what hold-line-pair and hold-chain hold; at unbind too. */
static int edu_mode_release(struct edu_test *t)
{
	struct edu_leak *h, *next;

	list_for_each_entry_safe(h, next, &t->chain_bufs, node) {
		edu_unmap_single(t, h->dma, h->len, DMA_TO_DEVICE);
		list_del(&h->node);
		kfree(h->buf);
		kfree(h);
	}
	kfree(t->chain_gone_buf);
	t->chain_gone_buf = NULL;
	if (t->chain) {
		/* The register keeps the address: a snapshot finds it unmapped. */
		dma_free_coherent(t->dev, PAGE_SIZE, t->chain, t->chain_dma);
		t->chain = NULL;
	}

	list_for_each_entry_safe(h, next, &t->held, node) {
		edu_unmap_single(t, h->dma, h->len, DMA_TO_DEVICE);
		list_del(&h->node);
		kfree(h);
	}
	kfree(t->held_buf);
	t->held_buf = NULL;
	return 0;
}

/* ---- mode: loop ------------------------------------------------------ */

static int edu_loop_fn(void *data)
{
	struct edu_test *t = data;
	struct device *dev = t->dev;
	struct scatterlist sgl[2];
	unsigned long n = 0;
	dma_addr_t dma;
	void *cpu;
	int nents;

	while (!kthread_should_stop()) {
		dma = dma_map_single(dev, t->loop_buf, PAGE_SIZE,
				     DMA_BIDIRECTIONAL);
		if (!dma_mapping_error(dev, dma)) {
			dma_sync_single_for_cpu(dev, dma, PAGE_SIZE,
						DMA_BIDIRECTIONAL);
			dma_sync_single_for_device(dev, dma, PAGE_SIZE,
						   DMA_BIDIRECTIONAL);
			dma_unmap_single(dev, dma, PAGE_SIZE, DMA_BIDIRECTIONAL);
		} else {
			WRITE_ONCE(t->loop_errors, t->loop_errors + 1);
		}

		sg_init_table(sgl, 2);
		sg_set_buf(&sgl[0], t->loop_sg_buf[0], 512);
		sg_set_buf(&sgl[1], t->loop_sg_buf[1], 512);
		nents = dma_map_sg(dev, sgl, 2, DMA_TO_DEVICE);
		if (nents)
			dma_unmap_sg(dev, sgl, 2, DMA_TO_DEVICE);
		else
			WRITE_ONCE(t->loop_errors, t->loop_errors + 1);

		if (!(n % 64)) {
			cpu = dma_alloc_coherent(dev, PAGE_SIZE, &dma,
						 GFP_KERNEL);
			if (cpu)
				dma_free_coherent(dev, PAGE_SIZE, cpu, dma);
			else
				WRITE_ONCE(t->loop_errors, t->loop_errors + 1);
		}

		WRITE_ONCE(t->loop_iters, ++n);
		if (!(n % 256))
			usleep_range(100, 200);
		else
			cond_resched();
	}
	return 0;
}

static void edu_loop_free(struct edu_test *t)
{
	kfree(t->loop_sg_buf[1]);
	kfree(t->loop_sg_buf[0]);
	kfree(t->loop_buf);
	t->loop_buf = NULL;
	t->loop_sg_buf[0] = NULL;
	t->loop_sg_buf[1] = NULL;
}

static int edu_mode_loop(struct edu_test *t)
{
	int ret;

	if (t->loop) {
		edu_rec(t, "error the loop is already running");
		return -EBUSY;
	}
	t->loop_buf = edu_buf_alloc(t, PAGE_SIZE);
	t->loop_sg_buf[0] = edu_buf_alloc(t, 512);
	t->loop_sg_buf[1] = edu_buf_alloc(t, 512);
	if (IS_ERR(t->loop_buf) || IS_ERR(t->loop_sg_buf[0]) ||
	    IS_ERR(t->loop_sg_buf[1])) {
		ret = -ENOMEM;
		goto free;
	}
	t->loop_iters = 0;
	t->loop_errors = 0;
	t->loop = kthread_run(edu_loop_fn, t, "edu-loop/%s",
			      pci_name(t->pdev));
	if (IS_ERR(t->loop)) {
		ret = PTR_ERR(t->loop);
		t->loop = NULL;
		goto free;
	}
	edu_rec(t, "loop started");
	return 0;

free:
	/* kfree() of an ERR_PTR is not allowed: clear those first. */
	if (IS_ERR(t->loop_buf))
		t->loop_buf = NULL;
	if (IS_ERR(t->loop_sg_buf[0]))
		t->loop_sg_buf[0] = NULL;
	if (IS_ERR(t->loop_sg_buf[1]))
		t->loop_sg_buf[1] = NULL;
	edu_loop_free(t);
	return ret;
}

static void edu_loop_stop(struct edu_test *t)
{
	if (!t->loop)
		return;
	kthread_stop(t->loop);
	t->loop = NULL;
	edu_loop_free(t);
}

static int edu_mode_loop_stop(struct edu_test *t)
{
	if (!t->loop) {
		edu_rec(t, "error the loop is not running");
		return -EINVAL;
	}
	edu_loop_stop(t);
	edu_rec(t, "loop stopped iterations=%lu errors=%lu",
		t->loop_iters, t->loop_errors);
	return t->loop_errors ? -EIO : 0;
}

/* ---- the mode table and its runner ----------------------------------- */

static const struct edu_mode edu_modes[] = {
	{ "correct", edu_mode_correct, EDU_ANY | EDU_WITH_LOOP },
	{ "addr-misaligned", edu_mode_addr_misaligned, EDU_ANY },
	{ "len-misaligned", edu_mode_len_misaligned, EDU_ANY },
	{ "cacheline-shared", edu_mode_cacheline_shared, EDU_ANY },
	{ "cacheline-shared-sg", edu_mode_cacheline_shared_sg, EDU_ANY },
	{ "cacheline-neighbour-written", edu_mode_cacheline_neighbour_written, EDU_ANY },
	{ "cacheline-neighbour-written-sg", edu_mode_cacheline_neighbour_written_sg, EDU_ANY },
	{ "cpu-write-while-device-owned", edu_mode_cpu_write_while_device_owned, EDU_ANY },
	{ "stack-buffer", edu_mode_stack_buffer, EDU_ANY },
	{ "vmalloc-buffer", edu_mode_vmalloc_buffer, EDU_ANY },
	{ "vmalloc-reused", edu_mode_vmalloc_reused, EDU_ANY },
	{ "rodata-buffer", edu_mode_rodata_buffer, EDU_ANY },
	{ "seg-boundary", edu_mode_seg_boundary, EDU_ANY },
	{ "seg-too-long", edu_mode_seg_too_long, EDU_ANY },
	{ "mask-exceeded", edu_mode_mask_exceeded, EDU_ANY },
	{ "bounced", edu_mode_bounced, EDU_ANY },
	{ "unmap-unknown", edu_mode_unmap_unknown, EDU_DIRECT,
	  "iommu_dma_unmap_page() WARNs on an unmapped IOVA" },
	{ "double-unmap", edu_mode_double_unmap, EDU_DIRECT,
	  "iommu_dma_unmap_page() WARNs on an unmapped IOVA" },
	{ "unmap-mismatch", edu_mode_unmap_mismatch, EDU_ANY },
	{ "unmap-sg-short-list", edu_mode_unmap_sg_short_list, EDU_DIRECT,
	  "iommu_dma_unmap_sg() frees the IOVA range of the list it is given: a part of a mapping" },
	{ "sync-unknown", edu_mode_sync_unknown,
	  EDU_DIRECT | EDU_IOMMU | EDU_IOMMU_COHERENT,
	  "a non-coherent device behind an IOMMU does cache maintenance at iova_to_phys() == 0" },
	{ "sync-mismatch", edu_mode_sync_mismatch, EDU_ANY },
	{ "sync-after-set-mask", edu_mode_sync_after_set_mask, EDU_ANY },
	{ "leak", edu_mode_leak, EDU_ANY },
	{ "large-and-small", edu_mode_large_and_small, EDU_ANY },
	{ "hold-line-pair", edu_mode_hold_line_pair, EDU_ANY },
	{ "hold-chain", edu_mode_hold_chain, EDU_ANY },
	{ "hold-program", edu_mode_hold_program, EDU_ANY },
	{ "hold-chain-loop", edu_mode_hold_chain_loop, EDU_ANY },
	{ "controller-error", edu_mode_controller_error, EDU_ANY },
	{ "use-after-unmap", edu_mode_use_after_unmap, EDU_IOMMU },
	{ "release", edu_mode_release, EDU_ANY },
	{ "storm", edu_mode_storm, EDU_ANY },
	{ "free-irqs-off", edu_mode_free_irqs_off, 0,
	  "dma_free_attrs() WARNs when interrupts are off" },
	{ "pages-coherent-mask", edu_mode_pages_coherent_mask, EDU_DIRECT,
	  "dma-iommu maps dma_alloc_pages() buffers under the streaming mask" },
	{ "oops", edu_mode_oops, 0, "oopses on purpose" },
	{ "transfer", edu_mode_transfer, EDU_ANY | EDU_WITH_LOOP },
	{ "loop", edu_mode_loop, EDU_ANY | EDU_WITH_LOOP },
	{ "loop-stop", edu_mode_loop_stop, EDU_ANY | EDU_WITH_LOOP },
};

static bool edu_mode_quiet_here(struct edu_test *t, const struct edu_mode *m)
{
	if (t->direct)
		return m->flags & EDU_DIRECT;
	if (!(m->flags & EDU_IOMMU))
		return false;
	return t->coherent || !(m->flags & EDU_IOMMU_COHERENT);
}

static int edu_run_mode(struct edu_test *t, const char *name)
{
	const struct edu_mode *m = NULL;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(edu_modes); i++) {
		if (!strcmp(name, edu_modes[i].name)) {
			m = &edu_modes[i];
			break;
		}
	}
	if (!m)
		return -EINVAL;

	mutex_lock(&t->lock);
	t->mode = m->name;
	t->log_len = 0;
	t->log_full = false;
	t->log[0] = '\0';
	edu_rec(t, "mode=%s", m->name);
	edu_rec(t, "path=%s coherent=%d", t->direct ? "direct" : "iommu",
		t->coherent);

	if (t->broken) {
		edu_rec(t, "error an earlier edu transfer never finished");
		ret = -EIO;
	} else if (!edu_mode_quiet_here(t, m) && !allow_unsafe) {
		edu_rec(t, "skip not run on the %s path: %s",
			t->direct ? "direct" : "iommu", m->unsafe);
		ret = -EOPNOTSUPP;
	} else if (t->loop && !(m->flags & EDU_WITH_LOOP)) {
		edu_rec(t, "error the loop is running: stop it first");
		ret = -EBUSY;
	} else {
		ret = m->run(t);
	}

	if (!ret)
		edu_rec(t, "result=ok");
	else if (ret == -EOPNOTSUPP)
		edu_rec(t, "result=skip");
	else
		edu_rec(t, "result=fail error=%d", ret);
	t->mode = NULL;
	mutex_unlock(&t->lock);
	return ret;
}

/* ---- debugfs --------------------------------------------------------- */

static ssize_t edu_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct edu_test *t = file->private_data;
	char name[32];
	int ret;

	if (count >= sizeof(name))
		return -EINVAL;
	if (copy_from_user(name, ubuf, count))
		return -EFAULT;
	name[count] = '\0';
	ret = edu_run_mode(t, strim(name));
	return ret ? ret : count;
}

static ssize_t edu_run_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct edu_test *t = file->private_data;
	size_t len = 0, size = 2048;
	unsigned int i;
	ssize_t ret;
	char *buf;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(edu_modes); i++) {
		const struct edu_mode *m = &edu_modes[i];

		len += scnprintf(buf + len, size - len, "%s %s%s %s\n", m->name,
				 m->flags & EDU_DIRECT ? "direct" : "",
				 m->flags & EDU_IOMMU ? (m->flags & EDU_DIRECT ?
					",iommu" : "iommu") : "",
				 edu_mode_quiet_here(t, m) ? "runs-here" :
					"refused-here");
	}
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, len);
	kfree(buf);
	return ret;
}

static const struct file_operations edu_run_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = edu_run_read,
	.write = edu_run_write,
	.llseek = default_llseek,
};

static ssize_t edu_last_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct edu_test *t = file->private_data;
	ssize_t ret;

	mutex_lock(&t->lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, t->log, t->log_len);
	mutex_unlock(&t->lock);
	return ret;
}

static const struct file_operations edu_last_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = edu_last_read,
	.llseek = default_llseek,
};

static int edu_info_show(struct seq_file *s, void *unused)
{
	struct edu_test *t = s->private;
	struct device *dev = t->dev;
	struct iommu_domain *domain = iommu_get_domain_for_dev(dev);
	phys_addr_t bar = pci_resource_start(t->pdev, 0), start, end;

	seq_printf(s, "device=%s\n", pci_name(t->pdev));
	seq_printf(s, "path=%s\n", t->direct ? "direct" : "iommu");
	seq_printf(s, "iommu_domain_type=0x%x\n", domain ? domain->type : 0);
	seq_printf(s, "coherent=%d\n", t->coherent);
	seq_printf(s, "dma_mask=0x%llx\n", dma_get_mask(dev));
	seq_printf(s, "coherent_dma_mask=0x%llx\n", dev->coherent_dma_mask);
	seq_printf(s, "bus_dma_limit=0x%llx\n", (u64)dev->bus_dma_limit);
	seq_printf(s, "dma_bits=%u\n", dma_bits);
	seq_printf(s, "cache_line_size=%d\n", cache_line_size());
	seq_printf(s, "dma_cache_alignment=%d\n", dma_get_cache_alignment());
	seq_printf(s, "buffer_align=%u\n", t->align);
	seq_printf(s, "page_size=%lu\n", PAGE_SIZE);
	seq_printf(s, "max_seg_size=%u\n", dma_get_max_seg_size(dev));
	seq_printf(s, "seg_boundary=0x%lx\n", dma_get_seg_boundary(dev));
	seq_printf(s, "bar0=%pa\n", &bar);
	if (edu_swiotlb_pool(dev, &start, &end))
		seq_printf(s, "swiotlb=%pa-%pa\n", &start, &end);
	else
		seq_puts(s, "swiotlb=inactive\n");
	seq_printf(s, "core_skips_sync=%d\n", edu_core_skips_sync(dev));
	/*
	 * What the DMA core answers about the device, which must not change
	 * when edgedma puts its own dma_map_ops in (ops mode), and whose
	 * table the core calls (edgedma_reload_test compares them).
	 */
	seq_printf(s, "max_mapping_size=%zu\n", dma_max_mapping_size(dev));
	seq_printf(s, "required_mask=0x%llx\n", dma_get_required_mask(dev));
	seq_printf(s, "can_mmap=%d\n", dma_can_mmap(dev));
	seq_printf(s, "merge_boundary=0x%lx\n", dma_get_merge_boundary(dev));
	if (get_dma_ops(dev) && get_dma_ops(dev)->map_page)
		seq_printf(s, "dma_ops=%ps\n", get_dma_ops(dev)->map_page);
	else
		seq_puts(s, "dma_ops=none\n");
	seq_printf(s, "loop=%s iterations=%lu errors=%lu\n",
		   t->loop ? "running" : "stopped", READ_ONCE(t->loop_iters),
		   READ_ONCE(t->loop_errors));
	seq_printf(s, "leaked=%u\n", t->nr_leaks);
	seq_printf(s, "broken=%d\n", t->broken);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(edu_info);

/* ---- probe and remove ------------------------------------------------ */

static void edu_run_param_modes(struct edu_test *t)
{
	char *list, *cur, *name;

	if (!modes || !*modes)
		return;
	list = kstrdup(modes, GFP_KERNEL);
	if (!list)
		return;
	cur = list;
	while ((name = strsep(&cur, ",")) != NULL) {
		name = strim(name);
		if (*name && edu_run_mode(t, name) == -EINVAL)
			dev_warn(t->dev, "unknown mode '%s'\n", name);
	}
	kfree(list);
}

static int edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct edu_test *t;
	u32 ident;
	int ret;

	if (dma_bits < 24 || dma_bits > 64)
		return -EINVAL;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->pdev = pdev;
	t->dev = dev;
	mutex_init(&t->lock);
	INIT_LIST_HEAD(&t->leaks);
	INIT_LIST_HEAD(&t->held);
	INIT_LIST_HEAD(&t->chain_bufs);
	pci_set_drvdata(pdev, t);

	t->log = kvzalloc(EDU_LOG_SIZE, GFP_KERNEL);
	if (!t->log) {
		ret = -ENOMEM;
		goto free_t;
	}
	t->xfer_result = vzalloc(EDU_XFER_MAX_ROUNDS * EDU_XFER_SLOT);
	if (!t->xfer_result) {
		ret = -ENOMEM;
		goto free_log;
	}
	t->xfer_blob.data = t->xfer_result;

	ret = pci_enable_device(pdev);
	if (ret)
		goto free_xfer;
	ret = pci_request_region(pdev, 0, DRV_NAME);
	if (ret)
		goto disable;
	t->regs = pci_iomap(pdev, 0, 0);
	if (!t->regs) {
		ret = -ENOMEM;
		goto release;
	}
	ident = readl(t->regs + EDU_REG_ID);
	if ((ident & 0xff) != 0xed) {
		dev_err(dev, "not an edu device (id 0x%08x)\n", ident);
		ret = -ENODEV;
		goto unmap;
	}

	t->mask = DMA_BIT_MASK(dma_bits);
	ret = dma_set_mask_and_coherent(dev, t->mask);
	if (ret) {
		dev_err(dev, "cannot set a %u-bit DMA mask (%d); without an IOMMU, arm64 virt has no RAM below 1 GiB: load with dma_bits=32 and give QEMU -device edu,dma_mask=0xffffffff\n",
			dma_bits, ret);
		goto unmap;
	}
	pci_set_master(pdev);

	t->direct = edu_dev_direct(dev);
	t->coherent = dev_is_dma_coherent(dev);
	t->align = max3(64, (int)cache_line_size(),
			(int)dma_get_cache_alignment());
	if (t->direct && dev->dma_range_map)
		dev_warn(dev, "DMA offset ranges present: reachability checks assume DMA address == physical address\n");

	t->never_mapped = edu_buf_alloc(t, EDU_NEVER_MAPPED_LEN);
	if (IS_ERR(t->never_mapped)) {
		ret = PTR_ERR(t->never_mapped);
		goto clear_master;
	}

	t->dir = debugfs_create_dir(pci_name(pdev), edu_debugfs_root);
	debugfs_create_file("run", 0600, t->dir, t, &edu_run_fops);
	debugfs_create_file("last", 0400, t->dir, t, &edu_last_fops);
	debugfs_create_file("info", 0400, t->dir, t, &edu_info_fops);
	debugfs_create_blob("transfer_result", 0400, t->dir, &t->xfer_blob);

	dev_info(dev, "edu id 0x%08x, %s path, %scoherent, mask %u bits, buffers aligned to %u\n",
		 ident, t->direct ? "direct" : "iommu",
		 t->coherent ? "" : "non-", dma_bits, t->align);
	edu_run_param_modes(t);
	return 0;

clear_master:
	pci_clear_master(pdev);
unmap:
	pci_iounmap(pdev, t->regs);
release:
	pci_release_region(pdev, 0);
disable:
	pci_disable_device(pdev);
free_xfer:
	vfree(t->xfer_result);
free_log:
	kvfree(t->log);
free_t:
	kfree(t);
	return ret;
}

static void edu_remove(struct pci_dev *pdev)
{
	struct edu_test *t = pci_get_drvdata(pdev);
	struct edu_leak *leak, *next;

	/* Waits for a running mode: debugfs removal drains its users. */
	debugfs_remove_recursive(t->dir);
	edu_loop_stop(t);
	edu_mode_release(t);

	/* The leak stays a leak: free the memory, never unmap it. */
	list_for_each_entry_safe(leak, next, &t->leaks, node) {
		dev_info(t->dev, "leak: freeing the buffer of dma %pad still mapped\n",
			 &leak->dma);
		list_del(&leak->node);
		kfree(leak->buf);
		kfree(leak);
	}

	if (t->broken) {
		dev_warn(t->dev, "an edu transfer never finished: leaving the device enabled and its memory allocated\n");
		return;
	}
	pci_clear_master(pdev);
	pci_iounmap(pdev, t->regs);
	pci_release_region(pdev, 0);
	pci_disable_device(pdev);
	kfree(t->never_mapped);
	vfree(t->xfer_result);
	kvfree(t->log);
	kfree(t);
}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },
	{ }
};
MODULE_DEVICE_TABLE(pci, edu_ids);

static struct pci_driver edu_driver = {
	.name = DRV_NAME,
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
};

static int __init edu_init(void)
{
	int ret;

	edu_debugfs_root = debugfs_create_dir(DRV_NAME, NULL);
	ret = pci_register_driver(&edu_driver);
	if (ret)
		debugfs_remove_recursive(edu_debugfs_root);
	return ret;
}

static void __exit edu_exit(void)
{
	pci_unregister_driver(&edu_driver);
	debugfs_remove_recursive(edu_debugfs_root);
}

module_init(edu_init);
module_exit(edu_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("edgedma test driver: correct and deliberately wrong DMA-API use on QEMU's edu");
