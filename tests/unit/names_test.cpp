// SPDX-License-Identifier: GPL-2.0
//
// The name tables cover the uapi enums exactly: every value from the first
// to the last enumerator has a name, the value after the last has none.
// (names.cpp also checks this at compile time.)
#include <set>

#include <linux/edgedma.h>

#include <edgedma/names.hpp>

#include "test_support.hpp"

namespace edgedma::test {
namespace names_test {

using Names = std::vector<std::string>;

TEST(FindingKindNames, AreTheOnesTheUapiHeaderSpells)
{
	const Names expected{
		"addr-misaligned", "len-misaligned", "cacheline-shared", "stack-buffer",
		"vmalloc-buffer",  "rodata-buffer",  "seg-boundary",     "seg-too-long",
		"mask-exceeded",   "bounced",        "unmap-unknown",    "double-unmap",
		"unmap-mismatch",  "sync-unknown",   "sync-mismatch",    "leak",
		"cacheline-neighbour-written", "free-irqs-off", "cpu-write-while-device-owned",
	};
	Names names;
	for (std::uint32_t kind = EDGEDMA_FINDING_ADDR_MISALIGNED;
	     kind <= EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED; kind++) {
		auto name = finding_kind_name(kind);
		ASSERT_TRUE(name) << "kind " << kind << " has no name";
		names.emplace_back(*name);
	}
	EXPECT_EQ(names, expected);
}

TEST(FindingKindNames, CoverTheEnumRangeExactly)
{
	EXPECT_FALSE(finding_kind_name(0));
	EXPECT_FALSE(finding_kind_name(EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED + 1));
	EXPECT_FALSE(finding_kind_name(UINT32_MAX));
	std::vector<std::uint32_t> kinds = finding_kinds();
	ASSERT_EQ(kinds.size(), std::size_t{EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED});
	EXPECT_EQ(kinds.front(), std::uint32_t{EDGEDMA_FINDING_ADDR_MISALIGNED});
	EXPECT_EQ(kinds.back(), std::uint32_t{EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED});
}

TEST(FindingKindNames, ParseBackAndAreUnique)
{
	std::set<std::string> seen;
	for (std::uint32_t kind : finding_kinds()) {
		std::string name(*finding_kind_name(kind));
		EXPECT_TRUE(seen.insert(name).second) << name << " twice";
		EXPECT_EQ(finding_kind_from_name(name), kind);
	}
	EXPECT_FALSE(finding_kind_from_name("misaligned"));
	EXPECT_FALSE(finding_kind_from_name(""));
}

TEST(FindingKindNames, LabelUnknownKindsByNumber)
{
	EXPECT_EQ(finding_kind_label(EDGEDMA_FINDING_BOUNCED), "bounced");
	EXPECT_EQ(finding_kind_label(EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED + 1),
		  "kind-" + std::to_string(EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED + 1));
}

TEST(CallKindNames, CoverTheEnumRangeExactly)
{
	const Names expected{
		"dma_map_page",
		"dma_unmap_page",
		"dma_map_sg",
		"dma_unmap_sg",
		"dma_map_resource",
		"dma_unmap_resource",
		"dma_alloc_coherent",
		"dma_free_coherent",
		"dma_alloc_pages",
		"dma_free_pages",
		"dma_sync_single_for_cpu",
		"dma_sync_single_for_device",
		"dma_sync_sg_for_cpu",
		"dma_sync_sg_for_device",
	};
	Names names;
	for (std::uint32_t call = EDGEDMA_CALL_MAP_PAGE; call <= EDGEDMA_CALL_SYNC_SG_FOR_DEVICE;
	     call++) {
		auto name = call_kind_name(call);
		ASSERT_TRUE(name) << "call " << call << " has no name";
		names.emplace_back(*name);
	}
	EXPECT_EQ(names, expected);
	EXPECT_FALSE(call_kind_name(0));
	EXPECT_FALSE(call_kind_name(EDGEDMA_CALL_SYNC_SG_FOR_DEVICE + 1));
	EXPECT_EQ(call_kind_label(99), "call-99");
}

TEST(DirectionNames, FollowEnumDmaDataDirection)
{
	EXPECT_EQ(direction_name(0), "bidirectional");
	EXPECT_EQ(direction_name(1), "to-device");
	EXPECT_EQ(direction_name(2), "from-device");
	EXPECT_EQ(direction_name(3), "none");
	EXPECT_FALSE(direction_name(4));
	EXPECT_EQ(direction_label(4), "dir-4");
}

TEST(CoherencyNames, CoverTheEnumRangeExactly)
{
	EXPECT_EQ(coherency_name(EDGEDMA_COHERENCY_AUTO), "auto");
	EXPECT_EQ(coherency_name(EDGEDMA_COHERENCY_COHERENT), "coherent");
	EXPECT_EQ(coherency_name(EDGEDMA_COHERENCY_NONCOHERENT), "noncoherent");
	EXPECT_FALSE(coherency_name(0));
	EXPECT_FALSE(coherency_name(EDGEDMA_COHERENCY_NONCOHERENT + 1));
	EXPECT_EQ(coherency_from_name("noncoherent"),
		  std::uint32_t{EDGEDMA_COHERENCY_NONCOHERENT});
	EXPECT_FALSE(coherency_from_name("maybe"));
}

// Each snapshot enum: its names in enum order, nothing for 0 or past the
// last, "<what>-N" as the label of a value this library does not know.
template <typename Name, typename Label>
void expect_enum_names(Name name_of, Label label_of, std::uint32_t last,
		       const Names &expected, const std::string &what)
{
	Names names;
	for (std::uint32_t value = 1; value <= last; value++) {
		auto name = name_of(value);
		ASSERT_TRUE(name) << what << " " << value << " has no name";
		names.emplace_back(*name);
		EXPECT_EQ(label_of(value), *name);
	}
	EXPECT_EQ(names, expected);
	EXPECT_FALSE(name_of(0));
	EXPECT_FALSE(name_of(last + 1));
	EXPECT_FALSE(name_of(UINT32_MAX));
	EXPECT_EQ(label_of(last + 1), what + "-" + std::to_string(last + 1));
}

TEST(SnapshotTriggerNames, AreTheOnesTheSpecSpells)
{
	expect_enum_names(snapshot_trigger_name, snapshot_trigger_label,
			  EDGEDMA_SNAPSHOT_TRIGGER_FINDING,
			  {"manual", "iommu-fault", "controller-error", "oops", "panic", "finding"},
			  "trigger");
}

TEST(SnapshotPartNames, AreTheOnesTheSpecSpells)
{
	expect_enum_names(snapshot_part_name, snapshot_part_label,
			  EDGEDMA_SNAPSHOT_PART_DESCRIPTORS,
			  {"mappings", "unmapped", "iommu-view", "cpu-view", "pages", "line-sharers",
			   "registers", "descriptors"},
			  "part");
}

TEST(SkipReasonNames, AreTheOnesTheSpecSpells)
{
	expect_enum_names(skip_reason_name, skip_reason_label, EDGEDMA_SKIP_REGISTER_UNREAD,
			  {"device-unseen", "lock-busy", "not-kept", "no-room", "may-sleep",
			   "not-supported", "limit", "no-profile", "read-clears",
			   "register-unread"},
			  "reason");
}

TEST(AccessNames, AreTheOnesTheSpecSpells)
{
	expect_enum_names(access_name, access_label, EDGEDMA_ACCESS_WRITE, {"read", "write"},
			  "access");
}

TEST(IommuDomainNames, AreTheOnesTheSpecSpells)
{
	expect_enum_names(iommu_domain_name, iommu_domain_label, EDGEDMA_IOMMU_DOMAIN_OTHER,
			  {"none", "identity", "dma", "dma-fq", "blocked", "unmanaged", "other"},
			  "domain");
}

TEST(MemtypeNames, AreTheOnesTheSpecSpells)
{
	expect_enum_names(memtype_name, memtype_label, EDGEDMA_MEMTYPE_OTHER,
			  {"write-back", "write-combine", "write-through", "uncached", "device",
			   "other"},
			  "memtype");
}

TEST(PageFlagNames, FollowBitOrderAndShowUnknownBitsInHex)
{
	EXPECT_EQ(page_flag_names(EDGEDMA_PAGE_SLAB | EDGEDMA_PAGE_RESERVED | EDGEDMA_PAGE_FREE |
				  EDGEDMA_PAGE_COMPOUND | EDGEDMA_PAGE_HEAD),
		  (Names{"slab", "reserved", "free", "compound", "head"}));
	EXPECT_EQ(page_flag_names(EDGEDMA_PAGE_HEAD | (1u << 5) | (1u << 31)),
		  (Names{"head", "0x20", "0x80000000"}));
	EXPECT_TRUE(page_flag_names(0).empty());
}

TEST(RegisterFlagNames, FollowBitOrderAndShowUnknownBitsInHex)
{
	EXPECT_EQ(register_flag_names(EDGEDMA_REGISTER_READ_CLEARS), (Names{"read-clears"}));
	EXPECT_EQ(register_flag_names(EDGEDMA_REGISTER_READ_CLEARS | EDGEDMA_REGISTER_READ_ON_ERROR),
		  (Names{"read-clears", "read-on-error"}));
	EXPECT_EQ(register_flag_names(EDGEDMA_REGISTER_READ_CLEARS | 8u),
		  (Names{"read-clears", "0x8"}));
	EXPECT_TRUE(register_flag_names(0).empty());
}

TEST(Checks, BitIsKindMinusOne)
{
	EXPECT_EQ(check_bit(EDGEDMA_FINDING_ADDR_MISALIGNED), 1u);
	EXPECT_EQ(check_bit(EDGEDMA_FINDING_LEAK), 1u << (EDGEDMA_FINDING_LEAK - 1));
	EXPECT_EQ(check_bit(0), 0u);
	// The module's EDGEDMA_CHECKS_ALL: GENMASK(
	// EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED - 1, 0).
	EXPECT_EQ(all_checks(), (1u << EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED) - 1);
	// The byte-hashing check is off by default (kmod/policy.h).
	EXPECT_EQ(default_checks(),
		  all_checks() & ~check_bit(EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED));
}

TEST(Checks, NamesFollowEnumOrderAndShowUnknownBits)
{
	std::uint32_t checks = check_bit(EDGEDMA_FINDING_LEAK) |
			       check_bit(EDGEDMA_FINDING_STACK_BUFFER) | (1u << 30);
	EXPECT_EQ(check_names(checks), (Names{"stack-buffer", "leak", "kind-31"}));
	EXPECT_TRUE(check_names(0).empty());
}

} // namespace names_test
// The descriptor chain words, as the YNL spec spells them.
TEST(DescriptorChainNames, AreTheOnesTheSpecSpells)
{
	EXPECT_EQ(chain_kind_label(EDGEDMA_CHAIN_RING), "ring");
	EXPECT_EQ(chain_kind_label(EDGEDMA_CHAIN_LIST), "list");
	EXPECT_EQ(chain_kind_label(9), "kind-9");
	EXPECT_EQ(descriptor_state_label(EDGEDMA_DESC_NO_MAPPING), "no-mapping");
	EXPECT_EQ(descriptor_state_label(EDGEDMA_DESC_READ_FAULT), "read-fault");
	EXPECT_EQ(buffer_state_label(EDGEDMA_BUFFER_UNMAPPED), "unmapped");
	EXPECT_EQ(buffer_state_label(EDGEDMA_BUFFER_NULL), "null");
	EXPECT_EQ(descriptor_owner_label(EDGEDMA_OWNER_DEVICE), "device");
	EXPECT_EQ(descriptor_owner_label(EDGEDMA_OWNER_DRIVER), "driver");
	EXPECT_EQ(descriptor_owner_label(7), "owner-7");
	EXPECT_EQ(descriptor_role_label(EDGEDMA_DESC_ROLE_NEXT), "next");
	EXPECT_EQ(chain_walk_names(EDGEDMA_WALK_LOOP | EDGEDMA_WALK_HISTORY_SKIPPED | (1u << 9)),
		  (std::vector<std::string>{"loop", "history-skipped", "0x200"}));
}

} // namespace edgedma::test
