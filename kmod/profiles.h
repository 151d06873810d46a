/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Controller profiles: which registers of a DMA controller a snapshot
 * reads, and where they lie in the device's own MMIO windows (PCI BARs,
 * platform "reg" resources). Set from userspace (nl_profiles.c), bound to
 * the matching devices present, read by snapshots in any context.
 */
#ifndef _EDGEDMA_PROFILES_H
#define _EDGEDMA_PROFILES_H

#include <linux/ioport.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct device;
struct edgedma_record;
struct netlink_ext_ack;
struct nlattr;

#define EDGEDMA_PROFILES_MAX		32
#define EDGEDMA_PROFILE_NAME_LEN	32
#define EDGEDMA_PROFILE_REGS_MAX	96
#define EDGEDMA_REG_FIELDS_MAX		16
#define EDGEDMA_PROFILE_BOUND_MAX	8
#define EDGEDMA_WINDOWS_MAX		6	/* PCI BARs; platform resources */
#define EDGEDMA_PROFILE_CHAINS_MAX	8
#define EDGEDMA_CHAIN_FIELDS_MAX	16
#define EDGEDMA_DESC_SIZE_MIN		4
#define EDGEDMA_DESC_SIZE_MAX		128
#define EDGEDMA_CHAIN_DESCS_MAX		4096	/* MAX_DESCS and snapshot_descriptors */
#define EDGEDMA_CHAIN_ALIGN_LOG2_MAX	16	/* ALIGN_LOG2: 64 KiB */
#define EDGEDMA_NO_REG			0xff	/* a chain names no such register */
/* The largest definition: 96 registers of 16 fields, 8 chains of 16. */
#define EDGEDMA_PROFILE_DEFINITION_MAX	(128 * 1024)

enum edgedma_profile_match {
	EDGEDMA_MATCH_PCI_ID = 1,
	EDGEDMA_MATCH_COMPATIBLE,
	EDGEDMA_MATCH_DEVICE,
};

struct edgedma_reg_field {
	char name[EDGEDMA_PROFILE_NAME_LEN];
	u8 shift;
	u8 bits;
};

struct edgedma_profile_reg {
	char name[EDGEDMA_PROFILE_NAME_LEN];
	u32 window;
	u32 offset;
	u32 width;
	u32 flags;		/* enum edgedma_register_flag */
	u32 nfields;
	struct edgedma_reg_field fields[EDGEDMA_REG_FIELDS_MAX];
	const struct nlattr *attr;	/* while being set: for extack */
};

/* A field of a descriptor: @width bytes at @offset, then @bits from @shift. */
struct edgedma_desc_field {
	char name[EDGEDMA_PROFILE_NAME_LEN];
	u8 offset;
	u8 width;
	u8 shift;
	u8 bits;		/* 0: all of them */
	u8 role;		/* enum edgedma_desc_role, 0 for none */
};

/*
 * A descriptor ring or list. Registers are the profile's, by index
 * (EDGEDMA_NO_REG for none); the layout is what PROFILE_SET said.
 */
struct edgedma_profile_chain {
	char name[EDGEDMA_PROFILE_NAME_LEN];
	u32 kind;		/* enum edgedma_chain_kind */
	u8 start_reg;
	u8 start_hi_reg;
	u8 length_reg;
	u8 head_reg;
	u8 tail_reg;
	u32 entries;		/* ring of fixed size; 0 with length_reg */
	u32 desc_size;
	u32 max_descs;		/* 0: the module's snapshot_descriptors */
	u32 flags;		/* enum edgedma_chain_flag */
	u32 align_log2;		/* 0: no alignment rule given */
	u32 direction;		/* DMA_TO_DEVICE or DMA_FROM_DEVICE; 0: not given */
	u32 nfields;
	struct edgedma_desc_field fields[EDGEDMA_CHAIN_FIELDS_MAX];
	const struct nlattr *attr;	/* while being set: for extack */
};

/* A device the profile is bound to, with its windows mapped. */
struct edgedma_profile_binding {
	struct device *dev;	/* NULL once unbound; holds a reference */
	void __iomem *window[EDGEDMA_WINDOWS_MAX];
	resource_size_t window_len[EDGEDMA_WINDOWS_MAX];
};

struct edgedma_profile {
	struct rcu_head rcu;
	char name[EDGEDMA_PROFILE_NAME_LEN];
	u32 match;		/* enum edgedma_profile_match */
	u32 pci_id;
	char key[64];		/* the compatible or device name */
	u32 nregs;
	struct edgedma_profile_reg regs[EDGEDMA_PROFILE_REGS_MAX];
	u32 nchains;
	struct edgedma_profile_chain chains[EDGEDMA_PROFILE_CHAINS_MAX];
	u32 nbound;
	struct edgedma_profile_binding bound[EDGEDMA_PROFILE_BOUND_MAX];
};

/* At unload, after the family is gone: every profile unbound and freed. */
void edgedma_profiles_exit(void);

/*
 * Bind @p to the matching devices present (checking every register lies
 * in its window of each) and install it, replacing one of the same name.
 * -EINVAL with an extack message naming the register that does not fit,
 * -ENOSPC when all profile slots are used. Process context; takes @p.
 */
int edgedma_profile_install(struct edgedma_profile *p, struct netlink_ext_ack *extack);
/*
 * The rest of a profile whose name and match @p holds: the REGISTER and
 * CHAIN attributes of PROFILE_SET among the @len bytes at @attrs (others
 * are skipped), each checked as nl_profiles.c's policies say, then
 * installed. Netlink's PROFILE_SET and the device tree's profile nodes
 * (devicetree_profiles.c) both come this way. Takes @p. Returns the number
 * of devices bound, or -errno with @extack saying why. Process context.
 */
int edgedma_profile_set_parts(struct edgedma_profile *p, const struct nlattr *attrs, int len,
			      struct netlink_ext_ack *extack);
/* Remove the profile named @name; -ENOENT when none. Process context. */
int edgedma_profile_remove(const char *name);
/* What PROFILE_GET says of a profile. */
struct edgedma_profile_summary {
	char name[EDGEDMA_PROFILE_NAME_LEN];
	u32 match;
	u32 pci_id;
	char key[64];
	u32 bound;		/* devices bound now */
	u32 nregs;
	u32 nchains;
};

/* The profile in slot *@slot or after; advances *@slot past it. */
bool edgedma_profile_next(unsigned long *slot, struct edgedma_profile_summary *out);

/*
 * The whole definition of the profile named @name as PROFILE_GET's do
 * replies it (NAME, match, BOUND, BOUND_DEVICE..., REGISTER and CHAIN
 * nests), into @r. -ENOENT when none has that name; -EMSGSIZE when @r is
 * too small. Process context.
 */
int edgedma_profile_put_definition(struct edgedma_record *r, const char *name);

struct edgedma_buffer_pages;
struct edgedma_devrec;

/*
 * Put the profile bound to @dev and its registers, each read now (unless
 * reading it changes the device), then its descriptor chains walked
 * through @rec's mappings (snapshot_descriptors.c), into @r, the pages of
 * their buffers into @pages; say so when none is bound. @trylock: take no
 * lock that may be held (fault, panic). @on_error: the snapshot is taken
 * as the controller's error handler is entered, so the registers marked
 * READ_ON_ERROR are read too. Any context but NMI: RCU, MMIO and
 * fault-safe memory reads only.
 */
void edgedma_profile_put(struct edgedma_record *r, struct device *dev,
			 struct edgedma_devrec *rec, bool trylock, bool on_error,
			 struct edgedma_buffer_pages *pages);

/*
 * The IOMMU translating for @dev (EDGEDMA_A_SNAPSHOT_IOMMU): its device and,
 * with a profile bound to it, that profile's registers read now (an IOMMU's
 * fault status and address); nothing without an IOMMU device. Any context
 * but NMI, as edgedma_profile_put().
 */
void edgedma_profile_put_iommu(struct edgedma_record *r, struct device *dev);

/* Register @reg of the binding @b, read now (MMIO). */
u64 edgedma_profile_read_register(const struct edgedma_profile_binding *b,
				  const struct edgedma_profile_reg *reg);

/*
 * A register (@type EDGEDMA_A_SNAPSHOT_REGISTER or _PROFILE_REGISTER) or a
 * chain's layout (inside an open CHAIN nest) into @r. With a binding @b,
 * the register's value as well (or why it was not read; @on_error as for
 * edgedma_profile_put()).
 */
bool edgedma_profile_put_register(struct edgedma_record *r, u16 type,
				  const struct edgedma_profile_binding *b,
				  const struct edgedma_profile_reg *reg, bool on_error);
int edgedma_profile_put_chain_layout(struct edgedma_record *r,
				     const struct edgedma_profile *p,
				     const struct edgedma_profile_chain *c);

/* @dev is being deleted: unbind it from every profile. Process context. */
void edgedma_profiles_device_gone(struct device *dev);

#endif /* _EDGEDMA_PROFILES_H */
