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
 */
#ifndef _UAPI_LINUX_EDGEDMA_H
#define _UAPI_LINUX_EDGEDMA_H

#define EDGEDMA_FAMILY_NAME	"edgedma"
#define EDGEDMA_FAMILY_VERSION	1

/*
 * Version of the record format (the attribute sets below as a whole).
 * Bumped when the meaning of an existing attribute changes; new attributes
 * alone do not bump it, since decoders skip attributes they do not know.
 */
#define EDGEDMA_RECORD_FORMAT_VERSION	1

/* Ways the module can attach to the DMA-mapping API (flags). */
enum edgedma_hook_mode {
	EDGEDMA_HOOK_MODE_TRACEPOINT = 1,	/* the kernel's dma trace events */
	EDGEDMA_HOOK_MODE_KPROBE = 2,		/* kprobes and kretprobes */
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

	__EDGEDMA_A_INFO_MAX,
	EDGEDMA_A_INFO_MAX = (__EDGEDMA_A_INFO_MAX - 1)
};

enum {
	EDGEDMA_A_STATS_PAD = 1,
	EDGEDMA_A_STATS_REQUESTS,	/* netlink requests handled */
	EDGEDMA_A_STATS_REJECTED,	/* requests refused by the module */

	__EDGEDMA_A_STATS_MAX,
	EDGEDMA_A_STATS_MAX = (__EDGEDMA_A_STATS_MAX - 1)
};

enum {
	EDGEDMA_CMD_GET_INFO = 1,
	EDGEDMA_CMD_GET_STATS,

	__EDGEDMA_CMD_MAX,
	EDGEDMA_CMD_MAX = (__EDGEDMA_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_EDGEDMA_H */
