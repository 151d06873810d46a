/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * edgedma: the generic netlink family of the edgedma module.
 *
 * This header is the one definition of the wire format. The module and
 * libedgedma both include it; Documentation/netlink/specs/edgedma.yaml
 * describes the same family in the kernel's YNL format and a test keeps the
 * two in step (tests/spec/check-uapi-spec).
 *
 * Family "edgedma", version EDGEDMA_FAMILY_VERSION.
 *
 * Rules every command follows:
 *  - attribute numbers start at 1; integers are u32 or u64 (u64 padded with
 *    EDGEDMA_A_*_PAD), strings are NUL-terminated;
 *  - requests are validated strictly: an attribute the command does not take,
 *    or an attribute number the family does not know, is rejected with
 *    -EINVAL and an extack message naming the offending attribute;
 *  - every error the module returns carries an extack message;
 *  - every command but EDGEDMA_CMD_GET_INFO needs CAP_SYS_ADMIN in the
 *    initial user namespace, held by the process that opened the socket and
 *    by the one sending. The module checks it itself and refuses with -EPERM
 *    and an extack message naming CAP_SYS_ADMIN (it does not use
 *    GENL_ADMIN_PERM, which asks for CAP_NET_ADMIN and gives no message);
 *  - both multicast groups ("events", "map-events") carry kernel virtual
 *    and physical addresses and are for CAP_SYS_ADMIN only. Where the
 *    kernel has GENL_MCAST_CAP_SYS_ADMIN (6.7, and the stable kernels it was
 *    backported to, Debian's 6.1 among them; 5.10 and 5.15 got it as the
 *    group's cap_sys_admin bit, Debian's 5.10 among them) the group carries that flag and
 *    the kernel refuses the join (NETLINK_ADD_MEMBERSHIP, or the groups of
 *    bind()) with -EPERM unless the joining process has CAP_SYS_ADMIN in
 *    the initial user namespace. On older kernels the join succeeds but the
 *    module sends each message only to sockets opened by a process with
 *    CAP_SYS_ADMIN there (netlink_broadcast_filtered()); an unprivileged
 *    member receives nothing;
 *  - dumps that span several messages over a table that changes (MAPPINGS_GET)
 *    set NLM_F_DUMP_INTR on the messages written after a change: the reader
 *    got an inconsistent view and should dump again;
 *  - an unknown command number is refused by the generic netlink core with
 *    -EOPNOTSUPP; 6.1 and 6.12 attach no extack message to that refusal.
 *
 * Commands:
 *
 * EDGEDMA_CMD_GET_INFO (do, unprivileged)
 *   request:  no attributes
 *   reply:    EDGEDMA_A_INFO_MODULE_VERSION      string
 *             EDGEDMA_A_INFO_KERNEL_RELEASE      string, as uname -r
 *             EDGEDMA_A_INFO_ARCH                string, as uname -m
 *             EDGEDMA_A_INFO_RECORD_FORMAT       u32, EDGEDMA_RECORD_FORMAT_VERSION
 *             EDGEDMA_A_INFO_HOOK_MODES          u32, enum edgedma_hook_mode
 *                                                flags this kernel supports
 *             EDGEDMA_A_INFO_PAGE_SIZE           u32, bytes
 *             EDGEDMA_A_INFO_CACHE_LINE          u32, the CPU's cache-line size
 *                                                (cache_line_size()), bytes
 *             EDGEDMA_A_INFO_DMA_ALIGNMENT       u32, dma_get_cache_alignment():
 *                                                the minimum alignment the
 *                                                kernel gives DMA buffers; 1
 *                                                where the architecture keeps
 *                                                caches coherent (x86)
 *
 * EDGEDMA_CMD_GET_STATS (do, CAP_SYS_ADMIN)
 *   request:  no attributes
 *   reply:    EDGEDMA_A_STATS_* counters, all u64, since the module loaded
 *
 * EDGEDMA_CMD_FINDINGS_GET (dump, CAP_SYS_ADMIN)
 *   request:  [EDGEDMA_A_FINDING_SEQ]  u64, first sequence number wanted
 *   reply:    one message per finding still in the log, oldest first, each
 *             with the EDGEDMA_A_FINDING_* attributes. The log is bounded
 *             (findings_log_size); a reader that finds a gap between the seq
 *             it asked for and the first it got has lost the difference.
 *   Repeats are folded where they happen: a finding whose site (device,
 *   kind, caller) already has one in the log is not logged again, only
 *   counted; OCCURRENCES and LAST_TIME_NS of the logged one say how often
 *   and when last (module parameter fold_findings=0 logs every occurrence).
 *
 * EDGEDMA_CMD_FINDING (notification on the "events" multicast group)
 *   One finding, as in FINDINGS_GET, sent as soon as the module can after
 *   it is logged. Sequence numbers are consecutive; a listener that sees a
 *   gap, or whose socket overflowed (ENOBUFS), recovers the missing ones
 *   with FINDINGS_GET from the first missing seq.
 *
 * EDGEDMA_CMD_FINDING_REPEATS (notification on the "events" group)
 *   The site of a logged finding was found again: SEQ (of that finding),
 *   KIND, DEVICE, DRIVER, OCCURRENCES (so far, the first included) and
 *   LAST_TIME_NS. Sent at most once a second per site, whatever the number
 *   of repeats in between; a listener that missed one loses nothing but
 *   timeliness: the next one, and FINDINGS_GET, carry the whole count.
 *
 * EDGEDMA_CMD_MAPPINGS_GET (dump, CAP_SYS_ADMIN)
 *   request:  [EDGEDMA_A_MAPPING_DEVICE]  string, only this device
 *   reply:    one message per live mapping (a scatter-gather mapping gives
 *             one per mapped segment, with SG_INDEX and SG_COUNT), each with
 *             the EDGEDMA_A_MAPPING_* attributes. A mapping made or removed
 *             while the dump runs marks the later messages NLM_F_DUMP_INTR:
 *             entries may then be missing or repeated.
 *
 * EDGEDMA_CMD_DEVICES_GET (dump, CAP_SYS_ADMIN)
 *   request:  no attributes
 *   reply:    one message per device edgedma has seen calling the DMA API
 *             (up to device_slots), with the EDGEDMA_A_DEVICE_* attributes:
 *             its name, driver, and the calls, live mappings and findings
 *             counted for it since its record was made
 *
 * EDGEDMA_CMD_POLICY_SET (do, CAP_SYS_ADMIN)
 *   request:  exactly one of EDGEDMA_A_POLICY_DEVICE (dev_name()) or
 *             EDGEDMA_A_POLICY_DRIVER (driver name), and any of
 *             ADDR_ALIGN, LEN_ALIGN (u32, powers of two, 1 = no
 *             requirement), COHERENCY (u32, enum edgedma_coherency),
 *             CHECKS (u32, bit (kind - 1) per enum edgedma_finding_kind:
 *             the checks that run), SNAPSHOT_TRIGGERS and
 *             SNAPSHOT_FINDINGS (which triggers and which findings take
 *             snapshots of the device). Fields left out keep their value.
 *             A device policy wins over a driver policy.
 *
 * EDGEDMA_CMD_POLICY_GET (do and dump, CAP_SYS_ADMIN)
 *   do:       EDGEDMA_A_POLICY_DEVICE -> the policy in force for that
 *             device: the overrides merged with what the device itself says
 *             (DEV_COHERENT, DMA_MASK, SEG_BOUNDARY, MAX_SEG_SIZE, CACHE_LINE)
 *   dump:     every override set, as given
 *
 * EDGEDMA_CMD_POLICY_DEL (do, CAP_SYS_ADMIN)
 *   request:  EDGEDMA_A_POLICY_DEVICE or EDGEDMA_A_POLICY_DRIVER
 *
 * EDGEDMA_CMD_MAP_EVENTS_SET (do, CAP_SYS_ADMIN)
 *   request:  EDGEDMA_A_MAP_EVENTS_ENABLE  u32, 1 to turn the mapping-event
 *             stream on, 0 to turn it off (it is off at load); left out,
 *             the state stays as it is (a reader that did not turn the
 *             stream on reads its cursors so, without turning it back on)
 *   The module first sends every event it holds, then replies:
 *   reply:    EDGEDMA_A_MAP_EVENTS_WAS_ENABLED  u32, the state before
 *             EDGEDMA_A_MAP_EVENTS_CURSOR       nested, once per possible CPU:
 *                EDGEDMA_A_MAP_EVENTS_CPU       u32
 *                EDGEDMA_A_MAP_EVENTS_NEXT_SEQ  u64, the seq this CPU's next
 *                                               event gets: every lower one
 *                                               was sent before this reply or
 *                                               dropped
 *                EDGEDMA_A_MAP_EVENTS_DROPPED   u64, events this CPU could
 *                                               not buffer, since load
 *   A listener that takes cursors when it starts and when it ends knows
 *   exactly which events it missed and how many of them the module dropped.
 *
 * EDGEDMA_CMD_MAP_EVENTS (notification on the "map-events" multicast group)
 *   One or more EDGEDMA_A_MAP_EVENTS_EVENT, nested, each holding the
 *   EDGEDMA_A_MAP_EVENT_* attributes of one DMA-mapping call; all from one
 *   CPU, in seq order. Each CPU numbers the calls it makes while the stream
 *   is on (from 1 at load), counting those it drops, so a gap in one CPU's
 *   numbers is exact loss.
 *
 * EDGEDMA_CMD_SNAPSHOT_TAKE (do, CAP_SYS_ADMIN)
 *   request:  EDGEDMA_A_SNAPSHOT_DEVICE        string, dev_name() of a PCI or
 *                                              platform device
 *             [EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR] u64, a DMA address of that
 *                                              device the snapshot is about
 *   reply:    EDGEDMA_A_SNAPSHOT_SEQ           u64, the snapshot taken
 *   Refused with -EBUSY when the device's snapshots are rate limited or no
 *   slot is free (both counted in GET_STATS), -ENODEV when no such device.
 *
 * EDGEDMA_CMD_SNAPSHOT_GET (do and dump, CAP_SYS_ADMIN)
 *   do:       EDGEDMA_A_SNAPSHOT_SEQ -> the whole snapshot: its record, the
 *             EDGEDMA_A_SNAPSHOT_* attributes as the module wrote them
 *             (-ENOENT once the store reused its slot)
 *   dump:     one message per stored snapshot, oldest first, with the
 *             header of its record (SEQ to DRIVER below) and RECORD_SIZE
 *
 * EDGEDMA_CMD_SNAPSHOT (notification on the "events" multicast group)
 *   A snapshot was stored: its header and RECORD_SIZE, as in the dump.
 *
 * EDGEDMA_CMD_PROFILE_SET (do, CAP_SYS_ADMIN)
 *   request:  EDGEDMA_A_PROFILE_NAME, one match (EDGEDMA_A_PROFILE_PCI_ID,
 *             EDGEDMA_A_PROFILE_COMPATIBLE or EDGEDMA_A_PROFILE_DEVICE),
 *             up to 96 EDGEDMA_A_PROFILE_REGISTER (nested
 *             EDGEDMA_A_REGISTER_*: NAME, WINDOW, OFFSET, WIDTH, [FLAGS],
 *             [FIELD]...) and up to 8 EDGEDMA_A_PROFILE_CHAIN (nested
 *             EDGEDMA_A_CHAIN_*: a descriptor ring or list, NAME, KIND,
 *             START_REG, [START_HI_REG], LENGTH_REG or ENTRIES (rings),
 *             [HEAD_REG], [TAIL_REG], DESC_SIZE, [MAX_DESCS], [FLAGS],
 *             [ALIGN_LOG2], [DIRECTION], and DFIELD... of which one has ROLE next in a
 *             list). Registers a
 *             chain names are the profile's, by name. A profile of the
 *             same name is replaced.
 *   reply:    EDGEDMA_A_PROFILE_BOUND  u32, devices present that match it
 *   Every register must lie inside its window (a PCI BAR, a platform "reg"
 *   resource) of every matching device present; -EINVAL with a message
 *   naming the register otherwise. Devices that appear later are not
 *   bound until the profile is set again.
 *
 * EDGEDMA_CMD_PROFILE_GET (do and dump, CAP_SYS_ADMIN)
 *   dump:     one message per profile: NAME, its match, BOUND, REGISTERS
 *             (u32, how many), CHAINS (u32, how many)
 *   do:       EDGEDMA_A_PROFILE_NAME -> the whole profile: NAME, its match,
 *             BOUND, one BOUND_DEVICE per device it is bound to, and its
 *             REGISTER and CHAIN nests as they were set (-ENOENT when no
 *             profile has that name)
 *
 * EDGEDMA_CMD_PROFILE_DEL (do, CAP_SYS_ADMIN)
 *   request:  EDGEDMA_A_PROFILE_NAME
 *
 * EDGEDMA_CMD_ERROR_HOOK_SET (do, CAP_SYS_ADMIN)
 *   request:  EDGEDMA_A_ERROR_HOOK_SYMBOL (a kernel function: a DMA
 *             controller's error handler) and EDGEDMA_A_ERROR_HOOK_DEVICE
 *             (the device it serves). Each entry into the function then
 *             snapshots the device (trigger controller-error, the symbol in
 *             TRIGGER_SYMBOL), in its context. Up to 8 hooks; -ENOENT with
 *             a message when the function cannot be probed, -ENODEV when
 *             there is no such device. A deleted device's hooks go.
 *
 * EDGEDMA_CMD_ERROR_HOOK_GET (dump, CAP_SYS_ADMIN)
 *   reply:    one message per hook: SYMBOL, DEVICE, HITS (u64, entries)
 *
 * EDGEDMA_CMD_ERROR_HOOK_DEL (do, CAP_SYS_ADMIN)
 *   request:  EDGEDMA_A_ERROR_HOOK_SYMBOL, [EDGEDMA_A_ERROR_HOOK_DEVICE]
 *             (without it, every hook on the function)
 *
 * EDGEDMA_CMD_CRASH_REGION_GET (do, CAP_SYS_ADMIN)
 *   reply:    EDGEDMA_A_CRASH_REGION_STATE (u32, enum
 *             edgedma_crash_region_state); with a region: REGION_PHYS,
 *             REGION_SIZE; with a valid header: BOOT_ID, WRITTEN_NS,
 *             RECORDS, INTACT, CORRUPT; REASON when the header or a record
 *             is corrupt (the first problem). Validated at load, and again
 *             after this boot wrote the region (an oops the kernel survived).
 *
 * EDGEDMA_CMD_CRASH_RECORDS_GET (do and dump, CAP_SYS_ADMIN)
 *   dump:     one message per record found in the region, in its order:
 *             INDEX, SEQ, RECORD_STATE (enum edgedma_crash_record_state),
 *             LENGTH, and REASON when corrupt. A walk that met a record
 *             it cannot step over ends with that record.
 *   do:       EDGEDMA_A_CRASH_INDEX -> the record, an intact one: its
 *             bytes after the generic netlink header, the snapshot record
 *             SNAPSHOT_GET gives (EDGEDMA_A_SNAPSHOT_* attributes), its CRC
 *             checked again as it is copied. -ENOENT past the last record,
 *             -EBADMSG for a corrupt one, -EAGAIN when the region changed
 *             while it was read.
 *
 * EDGEDMA_CMD_CRASH_RECORDS_CLEAR (do, CAP_SYS_ADMIN)
 *   request:  [EDGEDMA_A_CRASH_BOOT_ID] clear only while the region holds
 *             what that load wrote (-ESTALE otherwise): what a collector
 *             read, not records a later oops wrote since
 *   The region's header is erased; the next load finds no records.
 *   -ENODEV without a region.
 *
 * EDGEDMA_CMD_UNFOLD_SET (do, CAP_SYS_ADMIN)
 *   request:  EDGEDMA_A_UNFOLD_ENABLE  u32, 1: the requesting socket asks
 *             for every occurrence of every finding in full (no folding at
 *             the sites) for as long as it stays open; 0: it withdraws its
 *             request; left out, nothing changes (the state is read)
 *   reply:    EDGEDMA_A_UNFOLD_HOLDERS  u32, sockets asking now
 *             EDGEDMA_A_UNFOLD_FOLDING  u32, 1 while repeats are folded
 *                                      (nobody asks and fold_findings=1)
 *   A socket that closes, or a process that dies, withdraws its request.
 *   At most EDGEDMA_UNFOLD_HOLDERS_MAX sockets ask at once (-EBUSY).
 *   Every occurrence then takes a log entry and an event: what the log or
 *   a listener's socket could not keep is counted (STATS_EVENTS_DROPPED,
 *   the gap in finding seqs).
 *
 * A snapshot record is one stream of EDGEDMA_A_SNAPSHOT_* attributes that
 * every carrier holds unchanged (netlink, devcoredump, the crash region,
 * recordings). Its u64 values are not padded: read them with memcpy.
 * Repeated parts (MAPPING, UNMAPPED, SKIPPED, PAGE, LINE_SHARER, REGISTER,
 * CHAIN) are nested attributes, one per item. A record that ran out of room ends with
 * TRUNCATED; every attribute before it is whole.
 */
#ifndef _UAPI_LINUX_EDGEDMA_H
#define _UAPI_LINUX_EDGEDMA_H

#include <linux/types.h>

#define EDGEDMA_FAMILY_NAME	"edgedma"
#define EDGEDMA_FAMILY_VERSION	1

/*
 * Version of the record format (the attribute sets below as a whole).
 * Bumped when the meaning of an existing attribute changes; new attributes
 * alone do not bump it, since decoders skip attributes they do not know.
 */
#define EDGEDMA_RECORD_FORMAT_VERSION	1

#define EDGEDMA_MCGRP_EVENTS	"events"
#define EDGEDMA_MCGRP_MAP_EVENTS	"map-events"

/* The bounds of EDGEDMA_A_POLICY_OWNED_HASH_MAX (and owned_hash_max). */
#define EDGEDMA_OWNED_HASH_MIN	64
#define EDGEDMA_OWNED_HASH_MAX	(1024 * 1024)

/*
 * The crash region (module parameter crash_region=SIZE@PHYS: RAM reserved
 * with memmap= or a no-map reserved-memory node, which a warm reboot
 * keeps). At oops or panic the module writes there, newest first, the
 * snapshot records it holds, each as the bytes SNAPSHOT_GET gives (the
 * same record as devcoredumps and recordings), behind a
 * struct edgedma_crash_record, 8-byte aligned; then the
 * struct edgedma_crash_region at offset 0. Host byte order. CRCs are
 * CRC-32 (IEEE 802.3, as zlib's crc32()). The next load validates what it
 * finds and never trusts a length it did not check.
 */
#define EDGEDMA_CRASH_REGION_MAGIC	0x4d5244414d444745ULL	/* "EGDMADRM" */
#define EDGEDMA_CRASH_RECORD_MAGIC	0x44524d414d444745ULL	/* "EGDMAMRD" */
#define EDGEDMA_CRASH_FORMAT_VERSION	1

struct edgedma_crash_region {
	__u64 magic;		/* EDGEDMA_CRASH_REGION_MAGIC */
	__u32 version;		/* EDGEDMA_CRASH_FORMAT_VERSION */
	__u32 header_size;	/* sizeof(struct edgedma_crash_region) */
	__u64 region_size;	/* bytes of the region when it was written */
	__u64 boot_id;		/* random, per load of the module that wrote it */
	__u64 written_ns;	/* ktime_get_real_ns() at the write */
	__u32 records;		/* struct edgedma_crash_record that follow */
	__u32 crc;		/* of this header, crc 0 */
};

struct edgedma_crash_record {
	__u64 magic;		/* EDGEDMA_CRASH_RECORD_MAGIC */
	__u64 seq;		/* the snapshot's */
	__u32 length;		/* bytes of the record that follows */
	__u32 crc;		/* of those bytes */
};

/* What the module found in its crash region (CRASH_REGION_GET). */
enum edgedma_crash_region_state {
	EDGEDMA_CRASH_REGION_OFF = 1,	/* no crash_region parameter */
	EDGEDMA_CRASH_REGION_EMPTY,	/* no header: nothing written, or cleared */
	EDGEDMA_CRASH_REGION_VALID,	/* a valid header; its records follow */
	EDGEDMA_CRASH_REGION_CORRUPT,	/* a header that fails its CRC, or of
					 * another format: REASON says */
};

/* One record of the region (CRASH_RECORDS_GET). */
enum edgedma_crash_record_state {
	EDGEDMA_CRASH_RECORD_INTACT = 1,
	EDGEDMA_CRASH_RECORD_CORRUPT,	/* REASON says how */
};

/* Ways the module can attach to the DMA-mapping API (flags). */
enum edgedma_hook_mode {
	EDGEDMA_HOOK_MODE_TRACEPOINT = 1,	/* the kernel's dma trace events */
	EDGEDMA_HOOK_MODE_KPROBE = 2,		/* kprobes and kretprobes */
	EDGEDMA_HOOK_MODE_OPS = 4,		/* edgedma's dma_map_ops in each device */
};

/* The DMA-mapping call a record or finding is about. */
enum edgedma_call_kind {
	EDGEDMA_CALL_MAP_PAGE = 1,		/* dma_map_page_attrs, dma_map_single */
	EDGEDMA_CALL_UNMAP_PAGE,
	EDGEDMA_CALL_MAP_SG,			/* dma_map_sg_attrs, dma_map_sgtable */
	EDGEDMA_CALL_UNMAP_SG,
	EDGEDMA_CALL_MAP_RESOURCE,
	EDGEDMA_CALL_UNMAP_RESOURCE,
	EDGEDMA_CALL_ALLOC_COHERENT,		/* dma_alloc_attrs, dma_alloc_coherent */
	EDGEDMA_CALL_FREE_COHERENT,
	EDGEDMA_CALL_ALLOC_PAGES,		/* dma_alloc_pages, dma_alloc_noncoherent */
	EDGEDMA_CALL_FREE_PAGES,
	EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU,
	EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE,
	EDGEDMA_CALL_SYNC_SG_FOR_CPU,
	EDGEDMA_CALL_SYNC_SG_FOR_DEVICE,
};

/* What a finding says is wrong. Policy CHECKS bit (kind - 1) turns one on. */
enum edgedma_finding_kind {
	EDGEDMA_FINDING_ADDR_MISALIGNED = 1,	/* DMA address vs required alignment */
	EDGEDMA_FINDING_LEN_MISALIGNED,		/* length vs required alignment */
	EDGEDMA_FINDING_CACHELINE_SHARED,	/* non-coherent, buffer shares a cache line */
	EDGEDMA_FINDING_STACK_BUFFER,
	EDGEDMA_FINDING_VMALLOC_BUFFER,
	EDGEDMA_FINDING_RODATA_BUFFER,		/* kernel text or read-only data */
	EDGEDMA_FINDING_SEG_BOUNDARY,		/* segment crosses the device's boundary */
	EDGEDMA_FINDING_SEG_TOO_LONG,		/* segment above the device's max */
	EDGEDMA_FINDING_MASK_EXCEEDED,		/* DMA address above the device's mask */
	EDGEDMA_FINDING_BOUNCED,		/* swiotlb: device sees another page */
	EDGEDMA_FINDING_UNMAP_UNKNOWN,
	EDGEDMA_FINDING_DOUBLE_UNMAP,
	EDGEDMA_FINDING_UNMAP_MISMATCH,		/* size, direction or call differs */
	EDGEDMA_FINDING_SYNC_UNKNOWN,
	EDGEDMA_FINDING_SYNC_MISMATCH,		/* outside the mapping or wrong direction */
	EDGEDMA_FINDING_LEAK,			/* still mapped at unbind or unload */
	EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN, /* non-coherent: the CPU
						 * wrote next to a buffer, in a
						 * line it shares, while the
						 * device owned the buffer */
	EDGEDMA_FINDING_FREE_IRQS_OFF,		/* dma_free_coherent with interrupts
						 * disabled */
	EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED, /* the bytes of a
						 * to-device buffer changed while
						 * the device owned it; a check
						 * off unless the policy's CHECKS
						 * turn it on */
};

/* What made a snapshot (EDGEDMA_A_SNAPSHOT_TRIGGER). */
enum edgedma_snapshot_trigger {
	EDGEDMA_SNAPSHOT_TRIGGER_MANUAL = 1,	/* SNAPSHOT_TAKE */
	EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT,	/* the IOMMU refused an access */
	EDGEDMA_SNAPSHOT_TRIGGER_CONTROLLER_ERROR, /* a named error handler ran */
	EDGEDMA_SNAPSHOT_TRIGGER_OOPS,
	EDGEDMA_SNAPSHOT_TRIGGER_PANIC,
	EDGEDMA_SNAPSHOT_TRIGGER_FINDING,	/* a finding of a kind the policy names */
};

/* A part of a snapshot that can be left out (EDGEDMA_A_SKIP_PART). */
enum edgedma_snapshot_part {
	EDGEDMA_SNAPSHOT_PART_MAPPINGS = 1,	/* the device's live mappings */
	EDGEDMA_SNAPSHOT_PART_UNMAPPED,		/* its recent unmaps */
	EDGEDMA_SNAPSHOT_PART_IOMMU_VIEW,	/* the IOMMU's translations */
	EDGEDMA_SNAPSHOT_PART_CPU_VIEW,		/* the kernel page tables */
	EDGEDMA_SNAPSHOT_PART_PAGES,		/* pages past snapshot_pages */
	EDGEDMA_SNAPSHOT_PART_LINE_SHARERS,	/* mappings sharing a cache line */
	EDGEDMA_SNAPSHOT_PART_REGISTERS,	/* the controller's registers */
	EDGEDMA_SNAPSHOT_PART_DESCRIPTORS,	/* a descriptor chain's walk */
};

/* Why it was left out (EDGEDMA_A_SKIP_REASON). */
enum edgedma_skip_reason {
	EDGEDMA_SKIP_DEVICE_UNSEEN = 1,		/* the device made no DMA-API call */
	EDGEDMA_SKIP_LOCK_BUSY,			/* a lock was held, or an entry was
						 * being rewritten: at panic, its
						 * holder may be a stopped CPU */
	EDGEDMA_SKIP_NOT_KEPT,			/* the module keeps none (history_size=0) */
	EDGEDMA_SKIP_NO_ROOM,			/* more than the record holds */
	EDGEDMA_SKIP_MAY_SLEEP,			/* the IOMMU driver's lookup may sleep
						 * here (PREEMPT_RT) */
	EDGEDMA_SKIP_NOT_SUPPORTED,		/* this architecture or kernel cannot */
	EDGEDMA_SKIP_LIMIT,			/* past a module parameter's bound */
	EDGEDMA_SKIP_NO_PROFILE,		/* no profile describes the device */
	EDGEDMA_SKIP_READ_CLEARS,		/* reading it would change the device */
	EDGEDMA_SKIP_REGISTER_UNREAD,		/* a register it starts from was not
						 * read (read-clears, no window) */
};

/* The IOMMU's arrangement for a device (EDGEDMA_A_PAGE_IOMMU_DOMAIN). */
enum edgedma_iommu_domain {
	EDGEDMA_IOMMU_DOMAIN_NONE = 1,		/* no IOMMU: DMA addresses are bus addresses */
	EDGEDMA_IOMMU_DOMAIN_IDENTITY,		/* an IOMMU that passes addresses through */
	EDGEDMA_IOMMU_DOMAIN_DMA,		/* translated, unmaps invalidated at once */
	EDGEDMA_IOMMU_DOMAIN_DMA_FQ,		/* translated, invalidations batched (lazy) */
	EDGEDMA_IOMMU_DOMAIN_BLOCKED,		/* every access refused */
	EDGEDMA_IOMMU_DOMAIN_UNMANAGED,		/* a domain a driver manages (VFIO, ...) */
	EDGEDMA_IOMMU_DOMAIN_OTHER,
};

/* How the CPU maps memory (EDGEDMA_A_PAGE_PTE_MEMTYPE). */
enum edgedma_memtype {
	EDGEDMA_MEMTYPE_WRITE_BACK = 1,		/* cached: normal memory */
	EDGEDMA_MEMTYPE_WRITE_COMBINE,		/* x86 WC, arm64 Normal non-cacheable */
	EDGEDMA_MEMTYPE_WRITE_THROUGH,
	EDGEDMA_MEMTYPE_UNCACHED,		/* x86 UC and UC- */
	EDGEDMA_MEMTYPE_DEVICE,			/* arm64 Device-nGnRnE, -nGnRE, ... */
	EDGEDMA_MEMTYPE_OTHER,
};

/* What the kernel uses a physical page for (EDGEDMA_A_PAGE_FLAGS). */
enum edgedma_page_flag {
	EDGEDMA_PAGE_SLAB = 1 << 0,		/* slab allocator (kmalloc) */
	EDGEDMA_PAGE_RESERVED = 1 << 1,
	EDGEDMA_PAGE_FREE = 1 << 2,		/* in the buddy allocator: nobody owns it */
	EDGEDMA_PAGE_COMPOUND = 1 << 3,		/* part of a higher-order allocation */
	EDGEDMA_PAGE_HEAD = 1 << 4,		/* its first page */
};

/* How a register may be read (EDGEDMA_A_REGISTER_FLAGS). */
enum edgedma_register_flag {
	EDGEDMA_REGISTER_READ_CLEARS = 1 << 0,	/* reading it changes the device:
						 * never read by a snapshot, but: */
	EDGEDMA_REGISTER_READ_ON_ERROR = 1 << 1,	/* with READ_CLEARS: the
						 * controller's error handler reads
						 * it anyway and depends on nothing
						 * it clears, so a controller-error
						 * snapshot (taken as the handler
						 * is entered) reads it */
};

/* How a controller keeps its descriptors (EDGEDMA_A_CHAIN_KIND). */
enum edgedma_chain_kind {
	EDGEDMA_CHAIN_RING = 1,		/* an array of ENTRIES (or LENGTH_REG's)
					 * descriptors from START_REG's address;
					 * walked from HEAD_REG's slot, wrapping */
	EDGEDMA_CHAIN_LIST,		/* each descriptor holds the DMA address
					 * of the next (the ROLE next field);
					 * 0 or the start again ends it */
	EDGEDMA_CHAIN_PL330_PROGRAM,	/* an ARM PL330 channel's program:
					 * START_REG is its CPC (the running
					 * instruction's address); ENTRIES blocks
					 * of DESC_SIZE bytes are read from it
					 * rounded down to their total (a power
					 * of two: the driver's per-request
					 * microcode buffer), and userspace
					 * decodes the instructions */
};

/* How to read a chain (EDGEDMA_A_CHAIN_FLAGS). */
enum edgedma_chain_flag {
	EDGEDMA_CHAIN_BIG_ENDIAN = 1 << 0,	/* descriptor fields are big-endian
						 * (else little-endian) */
	EDGEDMA_CHAIN_LENGTH_IN_BYTES = 1 << 1,	/* LENGTH_REG counts bytes, not
						 * descriptors */
};

/* What a descriptor field means to the walk (EDGEDMA_A_DFIELD_ROLE). */
enum edgedma_desc_role {
	EDGEDMA_DESC_ROLE_ADDRESS = 1,	/* a buffer's DMA address: resolved
					 * against the mapping table */
	EDGEDMA_DESC_ROLE_LENGTH,	/* the buffer's length: the Nth LENGTH
					 * goes with the Nth ADDRESS */
	EDGEDMA_DESC_ROLE_NEXT,		/* list: the next descriptor's DMA address */
	EDGEDMA_DESC_ROLE_CONTROL,	/* shown decoded, not interpreted */
	EDGEDMA_DESC_ROLE_STATUS,	/* shown decoded, not interpreted */
};

/* How a chain's walk ended (EDGEDMA_A_CHAIN_WALK bits). */
enum edgedma_chain_walk {
	EDGEDMA_WALK_LOOP = 1 << 0,		/* a list came back to a descriptor
						 * it had read */
	EDGEDMA_WALK_BOUND = 1 << 1,		/* stopped at the bound (MAX_DESCS or
						 * snapshot_descriptors) with more */
	EDGEDMA_WALK_NO_MAPPING = 1 << 2,	/* stopped at a descriptor address
						 * in no live mapping of the device */
	EDGEDMA_WALK_UNREADABLE = 1 << 3,	/* stopped at a descriptor whose
						 * memory could not be read */
	EDGEDMA_WALK_NO_ROOM = 1 << 4,		/* the record ran out of room */
	EDGEDMA_WALK_HISTORY_SKIPPED = 1 << 5,	/* buffers in no live mapping past
						 * the first 64 were not looked up
						 * in the unmap history: their
						 * "unknown" may be "unmapped" */
};

/* A descriptor as the walk found it (EDGEDMA_A_DESC_STATE). */
enum edgedma_desc_state {
	EDGEDMA_DESC_READ = 1,		/* read through the live mapping holding it */
	EDGEDMA_DESC_NO_MAPPING,	/* in no live mapping of the device: not read */
	EDGEDMA_DESC_NO_CPU_ADDR,	/* its mapping has no kernel address to read */
	EDGEDMA_DESC_READ_FAULT,	/* reading its memory faulted */
};

/*
 * Who a ring's descriptor belongs to (EDGEDMA_A_DESC_OWNER), by the head
 * and tail registers: the device owns the slots from the head up to the
 * tail (none when they are equal), the driver the rest. A driver-owned
 * descriptor may hold a stale address; a device-owned one pointing at no
 * live mapping is a bug.
 */
enum edgedma_desc_owner {
	EDGEDMA_OWNER_DEVICE = 1,
	EDGEDMA_OWNER_DRIVER,
};

/* Where a descriptor's buffer lies (EDGEDMA_A_BUFFER_STATE). */
enum edgedma_buffer_state {
	EDGEDMA_BUFFER_LIVE = 1,	/* inside a live mapping of the device */
	EDGEDMA_BUFFER_OVERRUN,		/* starts in a live mapping, its length
					 * runs past that mapping's end */
	EDGEDMA_BUFFER_UNMAPPED,	/* in no live mapping; in a recent unmap
					 * of the device (MAPPING_* are that one) */
	EDGEDMA_BUFFER_UNKNOWN,		/* in no live mapping or recent unmap */
	EDGEDMA_BUFFER_NULL,		/* address 0: an unused slot */
};

/* How the device accessed memory (EDGEDMA_A_SNAPSHOT_TRIGGER_ACCESS). */
enum edgedma_access {
	EDGEDMA_ACCESS_READ = 1,
	EDGEDMA_ACCESS_WRITE,
};

/* Coherency of a device as the checks treat it. */
enum edgedma_coherency {
	EDGEDMA_COHERENCY_AUTO = 1,		/* what the kernel says of the device */
	EDGEDMA_COHERENCY_COHERENT,
	EDGEDMA_COHERENCY_NONCOHERENT,
};

enum {
	EDGEDMA_A_INFO_MODULE_VERSION = 1,
	EDGEDMA_A_INFO_KERNEL_RELEASE,
	EDGEDMA_A_INFO_ARCH,
	EDGEDMA_A_INFO_RECORD_FORMAT,
	EDGEDMA_A_INFO_HOOK_MODES,
	EDGEDMA_A_INFO_PAGE_SIZE,
	EDGEDMA_A_INFO_CACHE_LINE,
	EDGEDMA_A_INFO_DMA_ALIGNMENT,
	EDGEDMA_A_INFO_HOOK_MODE,		/* u32, the mode in use, 0 = none */
	EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS,	/* string, where IOMMU faults are
						 * caught, comma-separated ("dmar_fault",
						 * "arm_smmu_handle_evt", "_dev_info",
						 * "io_page_fault"); "" when nowhere */
	EDGEDMA_A_INFO_DT_NODE,		/* string, the device-tree node that
					 * configured the module (absent: none) */
	EDGEDMA_A_INFO_DT_POLICIES,	/* u32, with DT_NODE: its policies applied */
	EDGEDMA_A_INFO_DT_REFUSED,	/* u32, with DT_NODE: its children refused
					 * (the kernel log says why) */
	EDGEDMA_A_INFO_DT_PROFILES,	/* u32, with DT_NODE: its controller
					 * profiles installed */
	EDGEDMA_A_INFO_HOOK_SKIPPED,	/* string, a line per API function the
					 * hooks left out because this kernel
					 * has it only as an inline wrapper:
					 * "dma_map_sgtable: " and what that
					 * leaves unseen; absent when none */
	/*
	 * Kprobe mode only: how its hooks are attached. A kretprobe on each
	 * map and allocation; the entries of unmaps, frees and syncs through
	 * ftrace where the kernel has it (no breakpoint, and not skipped
	 * inside another probe's handler), else with kprobes.
	 */
	EDGEDMA_A_INFO_HOOK_KRETPROBES,	/* u32, functions with a kretprobe */
	EDGEDMA_A_INFO_HOOK_FTRACE_ENTRIES,	/* u32, entries through ftrace */
	EDGEDMA_A_INFO_HOOK_KPROBE_ENTRIES,	/* u32, entries with a kprobe */

	__EDGEDMA_A_INFO_MAX,
	EDGEDMA_A_INFO_MAX = (__EDGEDMA_A_INFO_MAX - 1)
};

enum {
	EDGEDMA_A_STATS_PAD = 1,
	EDGEDMA_A_STATS_REQUESTS,	/* netlink requests handled */
	EDGEDMA_A_STATS_REJECTED,	/* requests refused by the module */
	EDGEDMA_A_STATS_CALLS,		/* DMA-API calls the hooks saw */
	EDGEDMA_A_STATS_MAPPINGS_LIVE,	/* entries in the live table */
	EDGEDMA_A_STATS_POOL_SIZE,	/* entries preallocated */
	EDGEDMA_A_STATS_POOL_EXHAUSTED,	/* mappings not tracked: pool empty */
	EDGEDMA_A_STATS_FINDINGS,	/* findings logged (the last seq) */
	EDGEDMA_A_STATS_EVENTS_DROPPED,	/* findings never multicast */
	EDGEDMA_A_STATS_UNTRACKED_DEVICES, /* calls from devices past device_slots */
	EDGEDMA_A_STATS_HOOK_MISSED,	/* calls the hooks could not see */
	EDGEDMA_A_STATS_UNSEEN_MAPPINGS, /* unmaps, syncs of mappings made unseen */
	EDGEDMA_A_STATS_MAP_EVENTS,	/* mapping events numbered, all CPUs */
	EDGEDMA_A_STATS_MAP_EVENTS_DROPPED, /* of those, not buffered */
	EDGEDMA_A_STATS_MEMORY,		/* bytes of kernel memory held */
	EDGEDMA_A_STATS_TRANSLATIONS_SKIPPED, /* IOMMU reads left out: could sleep here */
	EDGEDMA_A_STATS_IRQSOFF_MAX_NS,	/* longest hook with interrupts off, ns;
					 * only with measure_irqsoff=1, else 0 */
	EDGEDMA_A_STATS_SYNC_SKIPS_CLEARED, /* times the DMA core's sync skipping
					 * of a watched device was turned off
					 * (6.11+: dev->dma_skip_sync) */
	EDGEDMA_A_STATS_FINDINGS_FOLDED, /* occurrences counted into the logged
					 * finding of their site, not logged */
	EDGEDMA_A_STATS_FINDING_SITES,	/* sites (device, kind, caller) seen */
	EDGEDMA_A_STATS_FINDING_SITES_FULL, /* occurrences logged unfolded: no
					 * room for their site (finding_sites) */
	EDGEDMA_A_STATS_SNAPSHOTS,	/* snapshots stored (the last seq) */
	EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED, /* triggers refused by the per-device
					 * rate limit (snapshot_rate) */
	EDGEDMA_A_STATS_SNAPSHOTS_DROPPED, /* triggers that found no free slot */
	EDGEDMA_A_STATS_SNAPSHOTS_TRUNCATED, /* stored records that ran out of room */
	EDGEDMA_A_STATS_IOMMU_FAULTS,	/* IOMMU faults the module saw */
	EDGEDMA_A_STATS_IOMMU_FAULTS_UNOWNED, /* of those, of no device it watches */
	EDGEDMA_A_STATS_SNAPSHOT_CAPTURE_MAX_NS, /* the longest a snapshot took to
					 * write, ns */
	EDGEDMA_A_STATS_SNAPSHOT_DEVCOREDUMPS, /* snapshots handed to devcoredump */
	EDGEDMA_A_STATS_TRIGGER,	/* nested EDGEDMA_A_TRIGGER_COUNT_*, one
					 * per enum edgedma_snapshot_trigger */
	EDGEDMA_A_STATS_UNFOLD_HOLDERS,	/* sockets asking for every occurrence
					 * (EDGEDMA_CMD_UNFOLD_SET) */
	EDGEDMA_A_STATS_STALE_MAPPINGS,	/* live entries dropped because their
					 * IOVA was mapped again: their unmap
					 * was missed (kprobe mode, IOMMU) */

	__EDGEDMA_A_STATS_MAX,
	EDGEDMA_A_STATS_MAX = (__EDGEDMA_A_STATS_MAX - 1)
};

/* What one kind of trigger did (EDGEDMA_A_STATS_TRIGGER). */
enum {
	EDGEDMA_A_TRIGGER_COUNT_PAD = 1,
	EDGEDMA_A_TRIGGER_COUNT_KIND,	/* u32, enum edgedma_snapshot_trigger */
	EDGEDMA_A_TRIGGER_COUNT_FIRED,	/* u64, times it fired for a device */
	EDGEDMA_A_TRIGGER_COUNT_TAKEN,	/* u64, snapshots it stored */
	EDGEDMA_A_TRIGGER_COUNT_OFF,	/* u64, times the device's policy had it off */

	__EDGEDMA_A_TRIGGER_COUNT_MAX,
	EDGEDMA_A_TRIGGER_COUNT_MAX = (__EDGEDMA_A_TRIGGER_COUNT_MAX - 1)
};

enum {
	EDGEDMA_A_FINDING_PAD = 1,
	EDGEDMA_A_FINDING_SEQ,		/* u64, 1 for the first finding */
	EDGEDMA_A_FINDING_TIME_NS,	/* u64, ktime_get_ns() */
	EDGEDMA_A_FINDING_KIND,		/* u32, enum edgedma_finding_kind */
	EDGEDMA_A_FINDING_CALL,		/* u32, enum edgedma_call_kind */
	EDGEDMA_A_FINDING_DEVICE,	/* string, dev_name() */
	EDGEDMA_A_FINDING_DRIVER,	/* string, "" when unbound */
	EDGEDMA_A_FINDING_DMA_ADDR,	/* u64 */
	EDGEDMA_A_FINDING_SIZE,		/* u64 */
	EDGEDMA_A_FINDING_DIR,		/* u32, enum dma_data_direction */
	EDGEDMA_A_FINDING_CPU_PHYS,	/* u64, absent when unknown */
	EDGEDMA_A_FINDING_CALLER,	/* u64, return address into the caller */
	EDGEDMA_A_FINDING_DETAIL,	/* string, one sentence */
	EDGEDMA_A_FINDING_MAP_CALLER,	/* u64, who made the mapping involved */
	EDGEDMA_A_FINDING_CALLER_NAME,	/* string, "func+0x1c/0x80 [mod]" as the
					 * kernel named CALLER when the finding
					 * was made; absent if no symbol covers it */
	EDGEDMA_A_FINDING_MAP_CALLER_NAME, /* string, MAP_CALLER named the same way */
	EDGEDMA_A_FINDING_OCCURRENCES,	/* u64, times this finding's site (device,
					 * kind, caller) was found so far, this
					 * one included; absent: not counted */
	EDGEDMA_A_FINDING_LAST_TIME_NS,	/* u64, ktime_get_ns() of the latest of
					 * those; with OCCURRENCES */
	EDGEDMA_A_FINDING_CALL_CHAIN,	/* binary, u64 return addresses in host
					 * byte order, CALLER first, outwards:
					 * the code that called the caller */
	EDGEDMA_A_FINDING_CALL_CHAIN_NAMES, /* string, one line per frame of
					 * CALL_CHAIN as CALLER_NAME is made,
					 * "?" where no symbol covers it */
	EDGEDMA_A_FINDING_DRIVER_MODULE, /* string, the module of the device's
					 * driver at the call; "" when built in
					 * or unknown. Its frame in CALL_CHAIN
					 * is the one to blame, where CALLER is a
					 * helper layer (scsi_dma_map, USB core) */

	__EDGEDMA_A_FINDING_MAX,
	EDGEDMA_A_FINDING_MAX = (__EDGEDMA_A_FINDING_MAX - 1)
};

enum {
	EDGEDMA_A_MAPPING_PAD = 1,
	EDGEDMA_A_MAPPING_DEVICE,	/* string */
	EDGEDMA_A_MAPPING_DRIVER,	/* string */
	EDGEDMA_A_MAPPING_CALL,		/* u32, enum edgedma_call_kind */
	EDGEDMA_A_MAPPING_DMA_ADDR,	/* u64 */
	EDGEDMA_A_MAPPING_SIZE,		/* u64 */
	EDGEDMA_A_MAPPING_DIR,		/* u32 */
	EDGEDMA_A_MAPPING_ATTRS,	/* u64, DMA_ATTR_* */
	EDGEDMA_A_MAPPING_CPU_PHYS,	/* u64, absent when unknown */
	EDGEDMA_A_MAPPING_CPU_VIRT,	/* u64, absent when unknown */
	EDGEDMA_A_MAPPING_CALLER,	/* u64 */
	EDGEDMA_A_MAPPING_TIME_NS,	/* u64 */
	EDGEDMA_A_MAPPING_SG_INDEX,	/* u32, segment number in its sg list */
	EDGEDMA_A_MAPPING_SG_COUNT,	/* u32, segments the sg mapping has */
	EDGEDMA_A_MAPPING_CALLER_NAME,	/* string, as FINDING_CALLER_NAME; in
					 * snapshots */

	__EDGEDMA_A_MAPPING_MAX,
	EDGEDMA_A_MAPPING_MAX = (__EDGEDMA_A_MAPPING_MAX - 1)
};

enum {
	EDGEDMA_A_POLICY_PAD = 1,
	EDGEDMA_A_POLICY_DEVICE,	/* string */
	EDGEDMA_A_POLICY_DRIVER,	/* string */
	EDGEDMA_A_POLICY_ADDR_ALIGN,	/* u32 */
	EDGEDMA_A_POLICY_LEN_ALIGN,	/* u32 */
	EDGEDMA_A_POLICY_COHERENCY,	/* u32, enum edgedma_coherency */
	EDGEDMA_A_POLICY_CHECKS,	/* u32, bit (kind - 1) */
	EDGEDMA_A_POLICY_DEV_COHERENT,	/* u32, reply: 1 if the kernel says so */
	EDGEDMA_A_POLICY_DMA_MASK,	/* u64, reply */
	EDGEDMA_A_POLICY_SEG_BOUNDARY,	/* u64, reply */
	EDGEDMA_A_POLICY_MAX_SEG_SIZE,	/* u32, reply */
	EDGEDMA_A_POLICY_CACHE_LINE,	/* u32, reply */
	EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS, /* u32, bit (trigger - 1) per enum
					 * edgedma_snapshot_trigger: the triggers
					 * that snapshot the device (default all;
					 * a request is never refused) */
	EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS, /* u32, bit (kind - 1): findings of
					 * these kinds snapshot the device
					 * (default none) */
	EDGEDMA_A_POLICY_OWNED_HASH_MAX, /* u32, bytes of a to-device buffer,
					 * from its start, the check
					 * cpu-write-while-device-owned hashes:
					 * EDGEDMA_OWNED_HASH_MIN to _MAX
					 * (-ERANGE beyond); default the module
					 * parameter owned_hash_max */

	__EDGEDMA_A_POLICY_MAX,
	EDGEDMA_A_POLICY_MAX = (__EDGEDMA_A_POLICY_MAX - 1)
};

enum {
	EDGEDMA_A_MAP_EVENTS_PAD = 1,
	EDGEDMA_A_MAP_EVENTS_ENABLE,	/* u32, 0 or 1 */
	EDGEDMA_A_MAP_EVENTS_WAS_ENABLED, /* u32, reply */
	EDGEDMA_A_MAP_EVENTS_CURSOR,	/* nested, reply, one per CPU */
	EDGEDMA_A_MAP_EVENTS_CPU,	/* u32, in a cursor */
	EDGEDMA_A_MAP_EVENTS_NEXT_SEQ,	/* u64, in a cursor */
	EDGEDMA_A_MAP_EVENTS_DROPPED,	/* u64, in a cursor */
	EDGEDMA_A_MAP_EVENTS_EVENT,	/* nested EDGEDMA_A_MAP_EVENT_*, notification */

	__EDGEDMA_A_MAP_EVENTS_MAX,
	EDGEDMA_A_MAP_EVENTS_MAX = (__EDGEDMA_A_MAP_EVENTS_MAX - 1)
};

/* Sockets that may ask for every occurrence at once (EDGEDMA_CMD_UNFOLD_SET). */
#define EDGEDMA_UNFOLD_HOLDERS_MAX	16

enum {
	EDGEDMA_A_UNFOLD_PAD = 1,
	EDGEDMA_A_UNFOLD_ENABLE,	/* u32, 0 or 1, request */
	EDGEDMA_A_UNFOLD_HOLDERS,	/* u32, reply */
	EDGEDMA_A_UNFOLD_FOLDING,	/* u32, reply, 0 or 1 */

	__EDGEDMA_A_UNFOLD_MAX,
	EDGEDMA_A_UNFOLD_MAX = (__EDGEDMA_A_UNFOLD_MAX - 1)
};

enum {
	EDGEDMA_A_MAP_EVENT_PAD = 1,
	EDGEDMA_A_MAP_EVENT_CPU,	/* u32 */
	EDGEDMA_A_MAP_EVENT_SEQ,	/* u64, per CPU, 1 for the first */
	EDGEDMA_A_MAP_EVENT_TIME_NS,	/* u64, ktime_get_ns() */
	EDGEDMA_A_MAP_EVENT_CALL,	/* u32, enum edgedma_call_kind */
	EDGEDMA_A_MAP_EVENT_DEVICE,	/* string */
	EDGEDMA_A_MAP_EVENT_DRIVER,	/* string, "" when unbound */
	EDGEDMA_A_MAP_EVENT_DMA_ADDR,	/* u64; sg: the first mapped segment's */
	EDGEDMA_A_MAP_EVENT_SIZE,	/* u64; sg: the mapped segments together */
	EDGEDMA_A_MAP_EVENT_DIR,	/* u32 */
	EDGEDMA_A_MAP_EVENT_ATTRS,	/* u64, DMA_ATTR_* */
	EDGEDMA_A_MAP_EVENT_CPU_PHYS,	/* u64, absent when unknown */
	EDGEDMA_A_MAP_EVENT_CALLER,	/* u64 */
	EDGEDMA_A_MAP_EVENT_NENTS,	/* u32, sg: segments mapped or passed */

	__EDGEDMA_A_MAP_EVENT_MAX,
	EDGEDMA_A_MAP_EVENT_MAX = (__EDGEDMA_A_MAP_EVENT_MAX - 1)
};

enum {
	EDGEDMA_A_DEVICE_PAD = 1,
	EDGEDMA_A_DEVICE_NAME,		/* string, dev_name() */
	EDGEDMA_A_DEVICE_DRIVER,	/* string, "" when unbound */
	EDGEDMA_A_DEVICE_CALLS,		/* u64, DMA-API calls seen */
	EDGEDMA_A_DEVICE_MAPPINGS_LIVE,	/* u64, entries in the live table */
	EDGEDMA_A_DEVICE_FINDINGS,	/* u64, findings about this device */
	EDGEDMA_A_DEVICE_COMPLETE,	/* u32, 1: every live mapping was seen made */
	EDGEDMA_A_DEVICE_SYNC_KEPT,	/* u32, 1: edgedma turned off the DMA
					 * core's sync skipping for it (6.11+) */

	__EDGEDMA_A_DEVICE_MAX,
	EDGEDMA_A_DEVICE_MAX = (__EDGEDMA_A_DEVICE_MAX - 1)
};

enum {
	EDGEDMA_A_SNAPSHOT_PAD = 1,
	/* The header: the dump and the SNAPSHOT notification carry these. */
	EDGEDMA_A_SNAPSHOT_SEQ,		/* u64, 1 for the first since load */
	EDGEDMA_A_SNAPSHOT_TIME_NS,	/* u64, ktime_get_ns(), as findings */
	EDGEDMA_A_SNAPSHOT_REAL_TIME_NS, /* u64, wall clock, ns since the epoch */
	EDGEDMA_A_SNAPSHOT_CPU,		/* u32, the CPU that took it */
	EDGEDMA_A_SNAPSHOT_TRIGGER,	/* u32, enum edgedma_snapshot_trigger */
	EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR, /* u64, the DMA address (IOVA) it is
					 * about; absent when none */
	EDGEDMA_A_SNAPSHOT_TRIGGER_ACCESS, /* u32, enum edgedma_access */
	EDGEDMA_A_SNAPSHOT_TRIGGER_REASON, /* u32, the IOMMU's fault reason */
	EDGEDMA_A_SNAPSHOT_TRIGGER_SYMBOL, /* string, the handler that ran */
	EDGEDMA_A_SNAPSHOT_FINDING_SEQ,	/* u64, the finding that made it */
	EDGEDMA_A_SNAPSHOT_DEVICE,	/* string, dev_name() */
	EDGEDMA_A_SNAPSHOT_DRIVER,	/* string, "" when unbound */
	/* The body. */
	EDGEDMA_A_SNAPSHOT_KERNEL_RELEASE, /* string, uname -r */
	EDGEDMA_A_SNAPSHOT_HOOK_MODE,	/* u32, enum edgedma_hook_mode, 0 = none */
	EDGEDMA_A_SNAPSHOT_MAPPING,	/* nested EDGEDMA_A_MAPPING_*, one per live
					 * mapping of the device; the one holding
					 * TRIGGER_ADDR first */
	EDGEDMA_A_SNAPSHOT_MAPPINGS_LEFT_OUT, /* u64, live mappings of the device
					 * not in the record (snapshot_mappings) */
	EDGEDMA_A_SNAPSHOT_UNMAPPED,	/* nested EDGEDMA_A_UNMAPPED_*, one per
					 * recent unmap of the device; the latest
					 * in TRIGGER_ADDR's page first, the rest
					 * in no order */
	EDGEDMA_A_SNAPSHOT_SKIPPED,	/* nested EDGEDMA_A_SKIP_*, one per part
					 * left out */
	EDGEDMA_A_SNAPSHOT_TRUNCATED,	/* u32, 1: the record ran out of room
					 * (snapshot_size); always last */
	/* Only in the dump and the notification, not in the record. */
	EDGEDMA_A_SNAPSHOT_RECORD_SIZE,	/* u32, bytes of the whole record */
	/* The body, continued. */
	EDGEDMA_A_SNAPSHOT_CACHE_LINE,	/* u32, bytes: cache_line_size() */
	EDGEDMA_A_SNAPSHOT_COHERENT,	/* u32, 1: the device's DMA is coherent
					 * with the CPU caches, as the kernel
					 * treats it */
	EDGEDMA_A_SNAPSHOT_PAGE,	/* nested EDGEDMA_A_PAGE_*, one per page
					 * viewed: TRIGGER_ADDR's first, then the
					 * rest of the mapping holding it */
	EDGEDMA_A_SNAPSHOT_LINE_SHARER,	/* nested EDGEDMA_A_MAPPING_*, with
					 * DEVICE: another live mapping (of any
					 * device) whose CPU memory shares a
					 * cache line with the first MAPPING */
	EDGEDMA_A_SNAPSHOT_PROFILE,	/* string, the profile whose registers follow */
	EDGEDMA_A_SNAPSHOT_REGISTER,	/* nested EDGEDMA_A_REGISTER_*, one per
					 * register of the profile, its VALUE
					 * read when the snapshot was taken */
	EDGEDMA_A_SNAPSHOT_CAPTURE_NS,	/* u64, how long writing the record took;
					 * the last attribute but TRUNCATED */

	EDGEDMA_A_SNAPSHOT_CHAIN,	/* nested EDGEDMA_A_CHAIN_*, one per
					 * descriptor chain of the profile: its
					 * layout, the registers' say and the
					 * descriptors walked */
	EDGEDMA_A_SNAPSHOT_PAGE_SIZE,	/* u32, the kernel's PAGE_SIZE: the first
					 * UNMAPPED is the latest in TRIGGER_ADDR's
					 * page of this size */
	EDGEDMA_A_SNAPSHOT_FINDING_KIND, /* u32, enum edgedma_finding_kind of
					 * FINDING_SEQ (in the header, after it) */
	EDGEDMA_A_SNAPSHOT_IOMMU,	/* nested EDGEDMA_A_SNAP_IOMMU_*: the IOMMU
					 * in front of the device, and its
					 * registers when a profile is bound to
					 * it (absent: no IOMMU translates for
					 * the device) */

	__EDGEDMA_A_SNAPSHOT_MAX,
	EDGEDMA_A_SNAPSHOT_MAX = (__EDGEDMA_A_SNAPSHOT_MAX - 1)
};

/*
 * The IOMMU in front of a snapshot's device (EDGEDMA_A_SNAPSHOT_IOMMU): its
 * hardware device and, when a profile is bound to that device, the
 * profile's registers read with the snapshot (an IOMMU's fault status and
 * address say what it refused).
 */
enum {
	EDGEDMA_A_SNAP_IOMMU_PAD = 1,
	EDGEDMA_A_SNAP_IOMMU_DEVICE,	/* string, dev_name() of the IOMMU */
	EDGEDMA_A_SNAP_IOMMU_PROFILE,	/* string, the profile bound to it */
	EDGEDMA_A_SNAP_IOMMU_REGISTER,	/* nested EDGEDMA_A_REGISTER_*, as
					 * EDGEDMA_A_SNAPSHOT_REGISTER */

	__EDGEDMA_A_SNAP_IOMMU_MAX,
	EDGEDMA_A_SNAP_IOMMU_MAX = (__EDGEDMA_A_SNAP_IOMMU_MAX - 1)
};

/* A mapping that was removed (EDGEDMA_A_SNAPSHOT_UNMAPPED). */
enum {
	EDGEDMA_A_UNMAPPED_PAD = 1,
	EDGEDMA_A_UNMAPPED_CALL,	/* u32, enum edgedma_call_kind of the map */
	EDGEDMA_A_UNMAPPED_DMA_ADDR,	/* u64 */
	EDGEDMA_A_UNMAPPED_SIZE,	/* u64 */
	EDGEDMA_A_UNMAPPED_DIR,		/* u32 */
	EDGEDMA_A_UNMAPPED_MAP_TIME_NS,	/* u64 */
	EDGEDMA_A_UNMAPPED_UNMAP_TIME_NS, /* u64 */
	EDGEDMA_A_UNMAPPED_MAP_CALLER,	/* u64 */
	EDGEDMA_A_UNMAPPED_UNMAP_CALLER, /* u64 */
	EDGEDMA_A_UNMAPPED_MAP_CALLER_NAME, /* string, as FINDING_CALLER_NAME */
	EDGEDMA_A_UNMAPPED_UNMAP_CALLER_NAME, /* string */
	EDGEDMA_A_UNMAPPED_CPU_PHYS,	/* u64, absent when unknown */

	__EDGEDMA_A_UNMAPPED_MAX,
	EDGEDMA_A_UNMAPPED_MAX = (__EDGEDMA_A_UNMAPPED_MAX - 1)
};

/* One page of DMA memory seen by the IOMMU, the CPU and the allocator. */
enum {
	EDGEDMA_A_PAGE_PAD = 1,
	EDGEDMA_A_PAGE_DMA_ADDR,	/* u64, the page's DMA address (IOVA) */
	EDGEDMA_A_PAGE_EXPECTED_PHYS,	/* u64, where the live mapping holding it
					 * says it lies; absent: none holds it */
	EDGEDMA_A_PAGE_IOMMU_DOMAIN,	/* u32, enum edgedma_iommu_domain */
	EDGEDMA_A_PAGE_IOMMU_PHYS,	/* u64, the IOMMU's translation now;
					 * NONE: the bus address it stands for */
	EDGEDMA_A_PAGE_IOMMU_UNMAPPED,	/* u32, 1: the IOMMU translates it to
					 * nothing: an access faults */
	EDGEDMA_A_PAGE_PHYS,		/* u64, the physical page viewed below:
					 * EXPECTED_PHYS's, else IOMMU_PHYS's */
	EDGEDMA_A_PAGE_CPU_VIRT,	/* u64, the kernel address whose page-table
					 * entry follows (the mapping's own, else
					 * the linear map's) */
	EDGEDMA_A_PAGE_PTE,		/* u64, the entry, as the CPU reads it */
	EDGEDMA_A_PAGE_PTE_SIZE,	/* u64, bytes it maps (a page or a block) */
	EDGEDMA_A_PAGE_PTE_PRESENT,	/* u32, 0 or 1 */
	EDGEDMA_A_PAGE_PTE_WRITABLE,	/* u32 */
	EDGEDMA_A_PAGE_PTE_EXECUTABLE,	/* u32, by the kernel (no NX, no PXN) */
	EDGEDMA_A_PAGE_PTE_PFN,		/* u64, the page frame it points at */
	EDGEDMA_A_PAGE_PTE_MEMTYPE,	/* u32, enum edgedma_memtype */
	EDGEDMA_A_PAGE_PFN_VALID,	/* u32, 1: PHYS is memory the kernel manages */
	EDGEDMA_A_PAGE_FLAGS,		/* u32, enum edgedma_page_flag bits */
	EDGEDMA_A_PAGE_REFCOUNT,	/* u32, the page's reference count */
	EDGEDMA_A_PAGE_SWIOTLB,		/* u32, 1: PHYS lies in a swiotlb bounce pool */
	EDGEDMA_A_PAGE_IOMMU_SWIOTLB,	/* u32, 1: IOMMU_PHYS (where the device
					 * reaches) lies in a swiotlb bounce pool */

	__EDGEDMA_A_PAGE_MAX,
	EDGEDMA_A_PAGE_MAX = (__EDGEDMA_A_PAGE_MAX - 1)
};

/* A part left out of a snapshot (EDGEDMA_A_SNAPSHOT_SKIPPED). */
enum {
	EDGEDMA_A_SKIP_PAD = 1,
	EDGEDMA_A_SKIP_PART,		/* u32, enum edgedma_snapshot_part */
	EDGEDMA_A_SKIP_REASON,		/* u32, enum edgedma_skip_reason */

	__EDGEDMA_A_SKIP_MAX,
	EDGEDMA_A_SKIP_MAX = (__EDGEDMA_A_SKIP_MAX - 1)
};

/* A controller register of a profile, and its value in a snapshot. */
enum {
	EDGEDMA_A_REGISTER_PAD = 1,
	EDGEDMA_A_REGISTER_NAME,	/* string */
	EDGEDMA_A_REGISTER_WINDOW,	/* u32, the PCI BAR or platform "reg"
					 * resource the register lies in */
	EDGEDMA_A_REGISTER_OFFSET,	/* u32, bytes into the window */
	EDGEDMA_A_REGISTER_WIDTH,	/* u32, bytes read at once: 1, 2, 4 or 8 */
	EDGEDMA_A_REGISTER_FLAGS,	/* u32, enum edgedma_register_flag */
	EDGEDMA_A_REGISTER_FIELD,	/* nested EDGEDMA_A_FIELD_*, a bit field */
	EDGEDMA_A_REGISTER_VALUE,	/* u64, in snapshots: what was read */
	EDGEDMA_A_REGISTER_SKIPPED,	/* u32, in snapshots: enum
					 * edgedma_skip_reason, why not read */

	__EDGEDMA_A_REGISTER_MAX,
	EDGEDMA_A_REGISTER_MAX = (__EDGEDMA_A_REGISTER_MAX - 1)
};

/* A bit field of a register, for decoding its value. */
enum {
	EDGEDMA_A_FIELD_PAD = 1,
	EDGEDMA_A_FIELD_NAME,		/* string */
	EDGEDMA_A_FIELD_SHIFT,		/* u32, its lowest bit */
	EDGEDMA_A_FIELD_BITS,		/* u32, how many bits, 1 to 64 */

	__EDGEDMA_A_FIELD_MAX,
	EDGEDMA_A_FIELD_MAX = (__EDGEDMA_A_FIELD_MAX - 1)
};

/* A controller profile (PROFILE_SET, PROFILE_GET). */
enum {
	EDGEDMA_A_PROFILE_PAD = 1,
	EDGEDMA_A_PROFILE_NAME,		/* string */
	EDGEDMA_A_PROFILE_PCI_ID,	/* u32, vendor << 16 | device */
	EDGEDMA_A_PROFILE_COMPATIBLE,	/* string, a device-tree compatible */
	EDGEDMA_A_PROFILE_DEVICE,	/* string, one device by dev_name() */
	EDGEDMA_A_PROFILE_REGISTER,	/* nested EDGEDMA_A_REGISTER_* */
	EDGEDMA_A_PROFILE_BOUND,	/* u32, reply: devices it is bound to */
	EDGEDMA_A_PROFILE_REGISTERS,	/* u32, dump: registers it has */

	EDGEDMA_A_PROFILE_CHAIN,	/* nested EDGEDMA_A_CHAIN_*, a descriptor
					 * ring or list */
	EDGEDMA_A_PROFILE_CHAINS,	/* u32, dump: chains it has */
	EDGEDMA_A_PROFILE_BOUND_DEVICE,	/* string, do: a device it is bound to */

	__EDGEDMA_A_PROFILE_MAX,
	EDGEDMA_A_PROFILE_MAX = (__EDGEDMA_A_PROFILE_MAX - 1)
};

/*
 * A descriptor chain: its layout (PROFILE_SET, PROFILE_GET, and repeated
 * in each snapshot so the record reads without the profile), and in a
 * snapshot what the registers said and the descriptors walked.
 */
enum {
	EDGEDMA_A_CHAIN_PAD = 1,
	EDGEDMA_A_CHAIN_NAME,		/* string */
	EDGEDMA_A_CHAIN_KIND,		/* u32, enum edgedma_chain_kind */
	EDGEDMA_A_CHAIN_START_REG,	/* string, the register holding the first
					 * descriptor's DMA address (its low 32
					 * bits when START_HI_REG is given) */
	EDGEDMA_A_CHAIN_START_HI_REG,	/* string, the register holding its
					 * upper 32 bits */
	EDGEDMA_A_CHAIN_LENGTH_REG,	/* string, ring: the register holding
					 * its size (descriptors, or bytes) */
	EDGEDMA_A_CHAIN_ENTRIES,	/* u32, ring: its size when fixed */
	EDGEDMA_A_CHAIN_HEAD_REG,	/* string, ring: the slot the device
					 * works on next; the walk starts there */
	EDGEDMA_A_CHAIN_TAIL_REG,	/* string, ring: the slot after the last
					 * the driver gave the device */
	EDGEDMA_A_CHAIN_DESC_SIZE,	/* u32, bytes per descriptor, 4 to 128 */
	EDGEDMA_A_CHAIN_MAX_DESCS,	/* u32, descriptors walked at most (the
					 * module's snapshot_descriptors caps it) */
	EDGEDMA_A_CHAIN_FLAGS,		/* u32, enum edgedma_chain_flag */
	EDGEDMA_A_CHAIN_DFIELD,		/* nested EDGEDMA_A_DFIELD_*, up to 16 */
	EDGEDMA_A_CHAIN_START,		/* u64, snapshot: the start address read */
	EDGEDMA_A_CHAIN_COUNT,		/* u32, snapshot: the ring's size read */
	EDGEDMA_A_CHAIN_HEAD,		/* u32, snapshot: HEAD_REG's value */
	EDGEDMA_A_CHAIN_TAIL,		/* u32, snapshot: TAIL_REG's value */
	EDGEDMA_A_CHAIN_WALK,		/* u32, snapshot: enum edgedma_chain_walk */
	EDGEDMA_A_CHAIN_SKIPPED,	/* u32, snapshot: enum edgedma_skip_reason,
					 * why no descriptor was walked */
	EDGEDMA_A_CHAIN_DESCRIPTOR,	/* nested EDGEDMA_A_DESC_*, snapshot: one
					 * per descriptor walked, in walk order */
	EDGEDMA_A_CHAIN_ALIGN_LOG2,	/* u32, 1 to 16: the controller needs the
					 * address and the length of each buffer
					 * it is given to be multiples of 2^N
					 * bytes (compared in userspace) */
	EDGEDMA_A_CHAIN_DIRECTION,	/* u32, enum dma_data_direction: 1
					 * (to-device: the device reads the
					 * buffers, a transmit chain) or 2
					 * (from-device: it writes them, a
					 * receive chain); absent when not
					 * given (compared in userspace) */

	__EDGEDMA_A_CHAIN_MAX,
	EDGEDMA_A_CHAIN_MAX = (__EDGEDMA_A_CHAIN_MAX - 1)
};

/* A field of a descriptor: bytes at OFFSET, optionally a bit field of them. */
enum {
	EDGEDMA_A_DFIELD_PAD = 1,
	EDGEDMA_A_DFIELD_NAME,		/* string */
	EDGEDMA_A_DFIELD_OFFSET,	/* u32, bytes into the descriptor */
	EDGEDMA_A_DFIELD_WIDTH,		/* u32, bytes: 1, 2, 4 or 8, in the
					 * chain's byte order */
	EDGEDMA_A_DFIELD_SHIFT,		/* u32, its lowest bit in those bytes */
	EDGEDMA_A_DFIELD_BITS,		/* u32, how many bits (default: all) */
	EDGEDMA_A_DFIELD_ROLE,		/* u32, enum edgedma_desc_role */

	__EDGEDMA_A_DFIELD_MAX,
	EDGEDMA_A_DFIELD_MAX = (__EDGEDMA_A_DFIELD_MAX - 1)
};

/* A descriptor walked (EDGEDMA_A_CHAIN_DESCRIPTOR). */
enum {
	EDGEDMA_A_DESC_PAD = 1,
	EDGEDMA_A_DESC_INDEX,		/* u32, ring: its slot; list: its place */
	EDGEDMA_A_DESC_DMA_ADDR,	/* u64, where the device reads it */
	EDGEDMA_A_DESC_STATE,		/* u32, enum edgedma_desc_state */
	EDGEDMA_A_DESC_BYTES,		/* binary, DESC_SIZE bytes as read */
	EDGEDMA_A_DESC_BUFFER,		/* nested EDGEDMA_A_BUFFER_*, one per
					 * ROLE address field, in field order */
	EDGEDMA_A_DESC_OWNER,		/* u32, enum edgedma_desc_owner: rings
					 * whose head and tail were read */

	__EDGEDMA_A_DESC_MAX,
	EDGEDMA_A_DESC_MAX = (__EDGEDMA_A_DESC_MAX - 1)
};

/* A buffer a descriptor points at, resolved against the mapping table. */
enum {
	EDGEDMA_A_BUFFER_PAD = 1,
	EDGEDMA_A_BUFFER_FIELD,		/* u32, the address field's index among
					 * the chain's DFIELDs, from 0 */
	EDGEDMA_A_BUFFER_ADDR,		/* u64, the DMA address it holds */
	EDGEDMA_A_BUFFER_LENGTH,	/* u64, the paired LENGTH field's value */
	EDGEDMA_A_BUFFER_STATE,		/* u32, enum edgedma_buffer_state */
	EDGEDMA_A_BUFFER_MAPPING_ADDR,	/* u64, the live mapping (or recent
					 * unmap) holding ADDR: its start */
	EDGEDMA_A_BUFFER_MAPPING_SIZE,	/* u64, and its size */

	__EDGEDMA_A_BUFFER_MAX,
	EDGEDMA_A_BUFFER_MAX = (__EDGEDMA_A_BUFFER_MAX - 1)
};

/* A controller error handler that snapshots its device (ERROR_HOOK_*). */
enum {
	EDGEDMA_A_ERROR_HOOK_PAD = 1,
	EDGEDMA_A_ERROR_HOOK_SYMBOL,	/* string, the function */
	EDGEDMA_A_ERROR_HOOK_DEVICE,	/* string, dev_name() of its device */
	EDGEDMA_A_ERROR_HOOK_HITS,	/* u64, dump: times it was entered */

	__EDGEDMA_A_ERROR_HOOK_MAX,
	EDGEDMA_A_ERROR_HOOK_MAX = (__EDGEDMA_A_ERROR_HOOK_MAX - 1)
};

/* The crash region and its records (CRASH_*). */
enum {
	EDGEDMA_A_CRASH_PAD = 1,
	EDGEDMA_A_CRASH_REGION_STATE,	/* u32, enum edgedma_crash_region_state */
	EDGEDMA_A_CRASH_REGION_PHYS,	/* u64, its physical address */
	EDGEDMA_A_CRASH_REGION_SIZE,	/* u64, bytes */
	EDGEDMA_A_CRASH_REASON,		/* string, what is corrupt and how */
	EDGEDMA_A_CRASH_BOOT_ID,	/* u64, random per load: the load that
					 * wrote the records */
	EDGEDMA_A_CRASH_WRITTEN_NS,	/* u64, CLOCK_REALTIME ns of the write */
	EDGEDMA_A_CRASH_RECORDS,	/* u32, records the header counts */
	EDGEDMA_A_CRASH_INTACT,		/* u32, of those, intact */
	EDGEDMA_A_CRASH_CORRUPT,	/* u32, corrupt or not reached */
	EDGEDMA_A_CRASH_INDEX,		/* u32, a record's place, from 0 */
	EDGEDMA_A_CRASH_RECORD_STATE,	/* u32, enum edgedma_crash_record_state */
	EDGEDMA_A_CRASH_SEQ,		/* u64, the snapshot's seq in its boot */
	EDGEDMA_A_CRASH_LENGTH,		/* u32, bytes of the record */

	__EDGEDMA_A_CRASH_MAX,
	EDGEDMA_A_CRASH_MAX = (__EDGEDMA_A_CRASH_MAX - 1)
};

enum {
	EDGEDMA_CMD_GET_INFO = 1,
	EDGEDMA_CMD_GET_STATS,
	EDGEDMA_CMD_FINDINGS_GET,
	EDGEDMA_CMD_FINDING,
	EDGEDMA_CMD_MAPPINGS_GET,
	EDGEDMA_CMD_POLICY_SET,
	EDGEDMA_CMD_POLICY_GET,
	EDGEDMA_CMD_POLICY_DEL,
	EDGEDMA_CMD_MAP_EVENTS_SET,
	EDGEDMA_CMD_MAP_EVENTS,
	EDGEDMA_CMD_DEVICES_GET,
	EDGEDMA_CMD_FINDING_REPEATS,
	EDGEDMA_CMD_SNAPSHOT_TAKE,
	EDGEDMA_CMD_SNAPSHOT_GET,
	EDGEDMA_CMD_SNAPSHOT,
	EDGEDMA_CMD_PROFILE_SET,
	EDGEDMA_CMD_PROFILE_GET,
	EDGEDMA_CMD_PROFILE_DEL,
	EDGEDMA_CMD_ERROR_HOOK_SET,
	EDGEDMA_CMD_ERROR_HOOK_GET,
	EDGEDMA_CMD_ERROR_HOOK_DEL,
	EDGEDMA_CMD_CRASH_REGION_GET,
	EDGEDMA_CMD_CRASH_RECORDS_GET,
	EDGEDMA_CMD_CRASH_RECORDS_CLEAR,
	EDGEDMA_CMD_UNFOLD_SET,

	__EDGEDMA_CMD_MAX,
	EDGEDMA_CMD_MAX = (__EDGEDMA_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_EDGEDMA_H */
