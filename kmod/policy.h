/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_POLICY_H
#define _EDGEDMA_POLICY_H

#include <linux/atomic.h>
#include <linux/types.h>

struct device;
struct edgedma_devrec;

/* What the checks hold a device to: its overrides merged with its own word. */
struct edgedma_policy {
	u32 addr_align;		/* 1: no requirement */
	u32 len_align;
	u32 checks;		/* bit (kind - 1) of enum edgedma_finding_kind */
	u32 snapshot_triggers;	/* bit (trigger - 1) of enum edgedma_snapshot_trigger */
	u32 snapshot_findings;	/* bit (kind - 1): findings that snapshot */
	u32 owned_hash_max;	/* bytes cpu-write-while-device-owned hashes */
	bool coherent;
	bool coherent_overridden;
};

/* A user's override for one device or one driver (netlink POLICY_SET). */
struct edgedma_policy_rule {
	char name[48];
	bool is_driver;
	u32 set;		/* EDGEDMA_RULE_* fields given */
	u32 addr_align;
	u32 len_align;
	u32 coherency;		/* enum edgedma_coherency */
	u32 checks;
	u32 snapshot_triggers;
	u32 snapshot_findings;
	u32 owned_hash_max;
};

#define EDGEDMA_RULE_ADDR_ALIGN	BIT(0)
#define EDGEDMA_RULE_LEN_ALIGN	BIT(1)
#define EDGEDMA_RULE_COHERENCY	BIT(2)
#define EDGEDMA_RULE_CHECKS	BIT(3)
#define EDGEDMA_RULE_SNAPSHOT_TRIGGERS	BIT(4)
#define EDGEDMA_RULE_SNAPSHOT_FINDINGS	BIT(5)
#define EDGEDMA_RULE_OWNED_HASH_MAX	BIT(6)

#define EDGEDMA_CHECKS_ALL	GENMASK(EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED - 1, 0)
/*
 * What runs where no policy says: all but the checks that cost a pass over
 * the buffer's bytes at every hand-over (cpu-write-while-device-owned).
 */
#define EDGEDMA_CHECKS_DEFAULT	\
	(EDGEDMA_CHECKS_ALL & ~BIT(EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED - 1))
#define EDGEDMA_TRIGGERS_ALL	GENMASK(EDGEDMA_SNAPSHOT_TRIGGER_FINDING - 1, 0)

/* Hook context: never sleeps. */
void edgedma_policy_resolve(struct device *dev, struct edgedma_policy *out);
/*
 * One try at it, for panic context, where a writer may have stopped
 * mid-write: false when the rules were being changed.
 */
bool edgedma_policy_resolve_once(struct device *dev, struct edgedma_policy *out);

/*
 * A number that changes whenever a resolved policy may: the rules, or a
 * default they fall back on (owned_hash_max).
 */
extern atomic_t edgedma_policy_changes;
static inline unsigned int edgedma_policy_generation(void)
{
	return atomic_read(&edgedma_policy_changes);
}
void edgedma_policy_changed(void);

/* Process context (netlink). */
int edgedma_policy_set(const struct edgedma_policy_rule *rule);
int edgedma_policy_del(const char *name, bool is_driver);
/* Copy rule @index into @out; false past the last. */
bool edgedma_policy_rule_get(unsigned int index, struct edgedma_policy_rule *out);

#endif /* _EDGEDMA_POLICY_H */
