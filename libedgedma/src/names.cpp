// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The names of the uapi enums. Each name function switches over the enum
// type itself without a default, so a value added to <linux/edgedma.h>
// without a name here is a -Wswitch warning at build time; the
// static_asserts below then check that the ranges are complete. And the
// words for a folded finding's count.
#include <edgedma/names.hpp>

#include <cstdio>

#include <linux/edgedma.h>

#include "report_common.hpp"

namespace edgedma {
namespace {

constexpr std::uint32_t first_finding_kind = EDGEDMA_FINDING_ADDR_MISALIGNED;
constexpr std::uint32_t last_finding_kind = EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED;
constexpr std::uint32_t first_call_kind = EDGEDMA_CALL_MAP_PAGE;
constexpr std::uint32_t last_call_kind = EDGEDMA_CALL_SYNC_SG_FOR_DEVICE;
constexpr std::uint32_t first_coherency = EDGEDMA_COHERENCY_AUTO;
constexpr std::uint32_t last_coherency = EDGEDMA_COHERENCY_NONCOHERENT;
constexpr std::uint32_t first_snapshot_trigger = EDGEDMA_SNAPSHOT_TRIGGER_MANUAL;
constexpr std::uint32_t last_snapshot_trigger = EDGEDMA_SNAPSHOT_TRIGGER_FINDING;
constexpr std::uint32_t first_snapshot_part = EDGEDMA_SNAPSHOT_PART_MAPPINGS;
constexpr std::uint32_t last_snapshot_part = EDGEDMA_SNAPSHOT_PART_DESCRIPTORS;
constexpr std::uint32_t first_skip_reason = EDGEDMA_SKIP_DEVICE_UNSEEN;
constexpr std::uint32_t last_skip_reason = EDGEDMA_SKIP_REGISTER_UNREAD;
constexpr std::uint32_t first_chain_kind = EDGEDMA_CHAIN_RING;
constexpr std::uint32_t last_chain_kind = EDGEDMA_CHAIN_PL330_PROGRAM;
constexpr std::uint32_t first_desc_state = EDGEDMA_DESC_READ;
constexpr std::uint32_t last_desc_state = EDGEDMA_DESC_READ_FAULT;
constexpr std::uint32_t first_desc_owner = EDGEDMA_OWNER_DEVICE;
constexpr std::uint32_t last_desc_owner = EDGEDMA_OWNER_DRIVER;
constexpr std::uint32_t first_buffer_state = EDGEDMA_BUFFER_LIVE;
constexpr std::uint32_t last_buffer_state = EDGEDMA_BUFFER_NULL;
constexpr std::uint32_t first_desc_role = EDGEDMA_DESC_ROLE_ADDRESS;
constexpr std::uint32_t last_desc_role = EDGEDMA_DESC_ROLE_STATUS;
constexpr std::uint32_t first_access = EDGEDMA_ACCESS_READ;
constexpr std::uint32_t last_access = EDGEDMA_ACCESS_WRITE;
constexpr std::uint32_t first_iommu_domain = EDGEDMA_IOMMU_DOMAIN_NONE;
constexpr std::uint32_t last_iommu_domain = EDGEDMA_IOMMU_DOMAIN_OTHER;
constexpr std::uint32_t first_memtype = EDGEDMA_MEMTYPE_WRITE_BACK;
constexpr std::uint32_t last_memtype = EDGEDMA_MEMTYPE_OTHER;
constexpr std::uint32_t first_crash_region_state = EDGEDMA_CRASH_REGION_OFF;
constexpr std::uint32_t last_crash_region_state = EDGEDMA_CRASH_REGION_CORRUPT;
constexpr std::uint32_t first_crash_record_state = EDGEDMA_CRASH_RECORD_INTACT;
constexpr std::uint32_t last_crash_record_state = EDGEDMA_CRASH_RECORD_CORRUPT;

constexpr std::string_view name_of(edgedma_finding_kind kind)
{
	switch (kind) {
	case EDGEDMA_FINDING_ADDR_MISALIGNED: return "addr-misaligned";
	case EDGEDMA_FINDING_LEN_MISALIGNED: return "len-misaligned";
	case EDGEDMA_FINDING_CACHELINE_SHARED: return "cacheline-shared";
	case EDGEDMA_FINDING_STACK_BUFFER: return "stack-buffer";
	case EDGEDMA_FINDING_VMALLOC_BUFFER: return "vmalloc-buffer";
	case EDGEDMA_FINDING_RODATA_BUFFER: return "rodata-buffer";
	case EDGEDMA_FINDING_SEG_BOUNDARY: return "seg-boundary";
	case EDGEDMA_FINDING_SEG_TOO_LONG: return "seg-too-long";
	case EDGEDMA_FINDING_MASK_EXCEEDED: return "mask-exceeded";
	case EDGEDMA_FINDING_BOUNCED: return "bounced";
	case EDGEDMA_FINDING_UNMAP_UNKNOWN: return "unmap-unknown";
	case EDGEDMA_FINDING_DOUBLE_UNMAP: return "double-unmap";
	case EDGEDMA_FINDING_UNMAP_MISMATCH: return "unmap-mismatch";
	case EDGEDMA_FINDING_SYNC_UNKNOWN: return "sync-unknown";
	case EDGEDMA_FINDING_SYNC_MISMATCH: return "sync-mismatch";
	case EDGEDMA_FINDING_LEAK: return "leak";
	case EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN: return "cacheline-neighbour-written";
	case EDGEDMA_FINDING_FREE_IRQS_OFF: return "free-irqs-off";
	case EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED: return "cpu-write-while-device-owned";
	}
	return {};
}

// The DMA-API function a driver calls, as the kernel's own messages name it.
constexpr std::string_view name_of(edgedma_crash_region_state state)
{
	switch (state) {
	case EDGEDMA_CRASH_REGION_OFF: return "off";
	case EDGEDMA_CRASH_REGION_EMPTY: return "empty";
	case EDGEDMA_CRASH_REGION_VALID: return "valid";
	case EDGEDMA_CRASH_REGION_CORRUPT: return "corrupt";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_crash_record_state state)
{
	switch (state) {
	case EDGEDMA_CRASH_RECORD_INTACT: return "intact";
	case EDGEDMA_CRASH_RECORD_CORRUPT: return "corrupt";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_call_kind call)
{
	switch (call) {
	case EDGEDMA_CALL_MAP_PAGE: return "dma_map_page";
	case EDGEDMA_CALL_UNMAP_PAGE: return "dma_unmap_page";
	case EDGEDMA_CALL_MAP_SG: return "dma_map_sg";
	case EDGEDMA_CALL_UNMAP_SG: return "dma_unmap_sg";
	case EDGEDMA_CALL_MAP_RESOURCE: return "dma_map_resource";
	case EDGEDMA_CALL_UNMAP_RESOURCE: return "dma_unmap_resource";
	case EDGEDMA_CALL_ALLOC_COHERENT: return "dma_alloc_coherent";
	case EDGEDMA_CALL_FREE_COHERENT: return "dma_free_coherent";
	case EDGEDMA_CALL_ALLOC_PAGES: return "dma_alloc_pages";
	case EDGEDMA_CALL_FREE_PAGES: return "dma_free_pages";
	case EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU: return "dma_sync_single_for_cpu";
	case EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE: return "dma_sync_single_for_device";
	case EDGEDMA_CALL_SYNC_SG_FOR_CPU: return "dma_sync_sg_for_cpu";
	case EDGEDMA_CALL_SYNC_SG_FOR_DEVICE: return "dma_sync_sg_for_device";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_coherency coherency)
{
	switch (coherency) {
	case EDGEDMA_COHERENCY_AUTO: return "auto";
	case EDGEDMA_COHERENCY_COHERENT: return "coherent";
	case EDGEDMA_COHERENCY_NONCOHERENT: return "noncoherent";
	}
	return {};
}

// The snapshot enums as the YNL spec spells their entries
// (Documentation/netlink/specs/edgedma.yaml).
constexpr std::string_view name_of(edgedma_snapshot_trigger trigger)
{
	switch (trigger) {
	case EDGEDMA_SNAPSHOT_TRIGGER_MANUAL: return "manual";
	case EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT: return "iommu-fault";
	case EDGEDMA_SNAPSHOT_TRIGGER_CONTROLLER_ERROR: return "controller-error";
	case EDGEDMA_SNAPSHOT_TRIGGER_OOPS: return "oops";
	case EDGEDMA_SNAPSHOT_TRIGGER_PANIC: return "panic";
	case EDGEDMA_SNAPSHOT_TRIGGER_FINDING: return "finding";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_snapshot_part part)
{
	switch (part) {
	case EDGEDMA_SNAPSHOT_PART_MAPPINGS: return "mappings";
	case EDGEDMA_SNAPSHOT_PART_UNMAPPED: return "unmapped";
	case EDGEDMA_SNAPSHOT_PART_IOMMU_VIEW: return "iommu-view";
	case EDGEDMA_SNAPSHOT_PART_CPU_VIEW: return "cpu-view";
	case EDGEDMA_SNAPSHOT_PART_PAGES: return "pages";
	case EDGEDMA_SNAPSHOT_PART_LINE_SHARERS: return "line-sharers";
	case EDGEDMA_SNAPSHOT_PART_REGISTERS: return "registers";
	case EDGEDMA_SNAPSHOT_PART_DESCRIPTORS: return "descriptors";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_skip_reason reason)
{
	switch (reason) {
	case EDGEDMA_SKIP_DEVICE_UNSEEN: return "device-unseen";
	case EDGEDMA_SKIP_LOCK_BUSY: return "lock-busy";
	case EDGEDMA_SKIP_NOT_KEPT: return "not-kept";
	case EDGEDMA_SKIP_NO_ROOM: return "no-room";
	case EDGEDMA_SKIP_MAY_SLEEP: return "may-sleep";
	case EDGEDMA_SKIP_NOT_SUPPORTED: return "not-supported";
	case EDGEDMA_SKIP_LIMIT: return "limit";
	case EDGEDMA_SKIP_NO_PROFILE: return "no-profile";
	case EDGEDMA_SKIP_READ_CLEARS: return "read-clears";
	case EDGEDMA_SKIP_REGISTER_UNREAD: return "register-unread";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_access access)
{
	switch (access) {
	case EDGEDMA_ACCESS_READ: return "read";
	case EDGEDMA_ACCESS_WRITE: return "write";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_iommu_domain domain)
{
	switch (domain) {
	case EDGEDMA_IOMMU_DOMAIN_NONE: return "none";
	case EDGEDMA_IOMMU_DOMAIN_IDENTITY: return "identity";
	case EDGEDMA_IOMMU_DOMAIN_DMA: return "dma";
	case EDGEDMA_IOMMU_DOMAIN_DMA_FQ: return "dma-fq";
	case EDGEDMA_IOMMU_DOMAIN_BLOCKED: return "blocked";
	case EDGEDMA_IOMMU_DOMAIN_UNMANAGED: return "unmanaged";
	case EDGEDMA_IOMMU_DOMAIN_OTHER: return "other";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_chain_kind kind)
{
	switch (kind) {
	case EDGEDMA_CHAIN_RING: return "ring";
	case EDGEDMA_CHAIN_LIST: return "list";
	case EDGEDMA_CHAIN_PL330_PROGRAM: return "pl330-program";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_desc_state state)
{
	switch (state) {
	case EDGEDMA_DESC_READ: return "read";
	case EDGEDMA_DESC_NO_MAPPING: return "no-mapping";
	case EDGEDMA_DESC_NO_CPU_ADDR: return "no-cpu-addr";
	case EDGEDMA_DESC_READ_FAULT: return "read-fault";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_desc_owner owner)
{
	switch (owner) {
	case EDGEDMA_OWNER_DEVICE: return "device";
	case EDGEDMA_OWNER_DRIVER: return "driver";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_buffer_state state)
{
	switch (state) {
	case EDGEDMA_BUFFER_LIVE: return "live";
	case EDGEDMA_BUFFER_OVERRUN: return "overrun";
	case EDGEDMA_BUFFER_UNMAPPED: return "unmapped";
	case EDGEDMA_BUFFER_UNKNOWN: return "unknown";
	case EDGEDMA_BUFFER_NULL: return "null";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_desc_role role)
{
	switch (role) {
	case EDGEDMA_DESC_ROLE_ADDRESS: return "address";
	case EDGEDMA_DESC_ROLE_LENGTH: return "length";
	case EDGEDMA_DESC_ROLE_NEXT: return "next";
	case EDGEDMA_DESC_ROLE_CONTROL: return "control";
	case EDGEDMA_DESC_ROLE_STATUS: return "status";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_chain_walk walk)
{
	switch (walk) {
	case EDGEDMA_WALK_LOOP: return "loop";
	case EDGEDMA_WALK_BOUND: return "bound";
	case EDGEDMA_WALK_NO_MAPPING: return "no-mapping";
	case EDGEDMA_WALK_UNREADABLE: return "unreadable";
	case EDGEDMA_WALK_NO_ROOM: return "no-room";
	case EDGEDMA_WALK_HISTORY_SKIPPED: return "history-skipped";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_memtype memtype)
{
	switch (memtype) {
	case EDGEDMA_MEMTYPE_WRITE_BACK: return "write-back";
	case EDGEDMA_MEMTYPE_WRITE_COMBINE: return "write-combine";
	case EDGEDMA_MEMTYPE_WRITE_THROUGH: return "write-through";
	case EDGEDMA_MEMTYPE_UNCACHED: return "uncached";
	case EDGEDMA_MEMTYPE_DEVICE: return "device";
	case EDGEDMA_MEMTYPE_OTHER: return "other";
	}
	return {};
}

// The flag enums, bit by bit; a flag added to the header without a name
// here is a -Wswitch warning.
constexpr std::string_view name_of(edgedma_page_flag flag)
{
	switch (flag) {
	case EDGEDMA_PAGE_SLAB: return "slab";
	case EDGEDMA_PAGE_RESERVED: return "reserved";
	case EDGEDMA_PAGE_FREE: return "free";
	case EDGEDMA_PAGE_COMPOUND: return "compound";
	case EDGEDMA_PAGE_HEAD: return "head";
	}
	return {};
}

constexpr std::string_view name_of(edgedma_register_flag flag)
{
	switch (flag) {
	case EDGEDMA_REGISTER_READ_CLEARS: return "read-clears";
	case EDGEDMA_REGISTER_READ_ON_ERROR: return "read-on-error";
	}
	return {};
}

constexpr std::uint32_t known_page_flags = EDGEDMA_PAGE_SLAB | EDGEDMA_PAGE_RESERVED |
					    EDGEDMA_PAGE_FREE | EDGEDMA_PAGE_COMPOUND |
					    EDGEDMA_PAGE_HEAD;
constexpr std::uint32_t known_register_flags =
	EDGEDMA_REGISTER_READ_CLEARS | EDGEDMA_REGISTER_READ_ON_ERROR;
constexpr std::uint32_t known_walk_flags = EDGEDMA_WALK_LOOP | EDGEDMA_WALK_BOUND |
					   EDGEDMA_WALK_NO_MAPPING | EDGEDMA_WALK_UNREADABLE |
					   EDGEDMA_WALK_NO_ROOM | EDGEDMA_WALK_HISTORY_SKIPPED;

// The names of the bits set in flags, in bit order; bits without a name
// (a newer module's) as their hex value. Only the bits of known (every
// enumerator) are converted to the enum: a number outside an enum's range
// is undefined there.
template <typename Flag>
std::vector<std::string> flag_names(std::uint32_t flags, std::uint32_t known)
{
	std::vector<std::string> names;
	for (std::uint32_t bit = 0; bit < 32; bit++) {
		const std::uint32_t flag = std::uint32_t{1} << bit;
		if (!(flags & flag))
			continue;
		if (flag & known) {
			names.emplace_back(name_of(static_cast<Flag>(flag)));
		} else {
			char text[sizeof "0x80000000"];
			std::snprintf(text, sizeof text, "0x%x", static_cast<unsigned>(flag));
			names.emplace_back(text);
		}
	}
	return names;
}

template <typename Flag> constexpr bool all_bits_named(std::uint32_t known)
{
	for (std::uint32_t bit = 0; bit < 32; bit++)
		if ((known >> bit & 1) &&
		    name_of(static_cast<Flag>(std::uint32_t{1} << bit)).empty())
			return false;
	return true;
}

// enum dma_data_direction is the kernel's (<linux/dma-direction.h>), not in
// the uapi header; its values have been fixed since 2.6.
constexpr std::string_view direction_names[] = {
	"bidirectional", // DMA_BIDIRECTIONAL = 0
	"to-device",     // DMA_TO_DEVICE = 1
	"from-device",   // DMA_FROM_DEVICE = 2
	"none",          // DMA_NONE = 3
};

// Every value from first to last has a name: the enums have no holes, and
// a value past last (added to the header) would have warned above.
template <typename Enum>
constexpr bool all_named(std::uint32_t first, std::uint32_t last)
{
	for (std::uint32_t value = first; value <= last; value++)
		if (name_of(static_cast<Enum>(value)).empty())
			return false;
	return true;
}
static_assert(first_finding_kind == 1 && first_call_kind == 1 && first_coherency == 1);
static_assert(first_snapshot_trigger == 1 && first_snapshot_part == 1 &&
	      first_skip_reason == 1 && first_access == 1);
static_assert(all_named<edgedma_finding_kind>(first_finding_kind, last_finding_kind));
static_assert(all_named<edgedma_call_kind>(first_call_kind, last_call_kind));
static_assert(all_named<edgedma_coherency>(first_coherency, last_coherency));
static_assert(all_named<edgedma_snapshot_trigger>(first_snapshot_trigger,
						  last_snapshot_trigger));
static_assert(all_named<edgedma_snapshot_part>(first_snapshot_part, last_snapshot_part));
static_assert(all_named<edgedma_skip_reason>(first_skip_reason, last_skip_reason));
static_assert(all_named<edgedma_access>(first_access, last_access));
static_assert(first_iommu_domain == 1 && first_memtype == 1);
static_assert(all_named<edgedma_iommu_domain>(first_iommu_domain, last_iommu_domain));
static_assert(all_named<edgedma_memtype>(first_memtype, last_memtype));
static_assert(first_crash_region_state == 1 && first_crash_record_state == 1);
static_assert(all_named<edgedma_crash_region_state>(first_crash_region_state,
						    last_crash_region_state));
static_assert(all_named<edgedma_crash_record_state>(first_crash_record_state,
						    last_crash_record_state));
static_assert(all_bits_named<edgedma_page_flag>(known_page_flags));
static_assert(all_bits_named<edgedma_register_flag>(known_register_flags));
static_assert(all_bits_named<edgedma_chain_walk>(known_walk_flags));
static_assert(all_named<edgedma_chain_kind>(first_chain_kind, last_chain_kind));
static_assert(all_named<edgedma_desc_state>(first_desc_state, last_desc_state));
static_assert(all_named<edgedma_buffer_state>(first_buffer_state, last_buffer_state));
static_assert(all_named<edgedma_desc_owner>(first_desc_owner, last_desc_owner));
static_assert(all_named<edgedma_desc_role>(first_desc_role, last_desc_role));
// CHECKS is a u32 with one bit per kind.
static_assert(last_finding_kind <= 32);

// Range first: converting a number outside an enum's range to it is
// undefined.
template <typename Enum>
std::optional<std::string_view> lookup(std::uint32_t value, std::uint32_t first,
				       std::uint32_t last)
{
	if (value < first || value > last)
		return std::nullopt;
	return name_of(static_cast<Enum>(value));
}

template <typename Enum>
std::optional<std::uint32_t> reverse_lookup(std::string_view name, std::uint32_t first,
					    std::uint32_t last)
{
	for (std::uint32_t value = first; value <= last; value++)
		if (name_of(static_cast<Enum>(value)) == name)
			return value;
	return std::nullopt;
}

std::string label(std::optional<std::string_view> name, std::string_view what,
		  std::uint32_t value)
{
	if (name)
		return std::string(*name);
	return std::string(what) + "-" + std::to_string(value);
}

} // namespace

std::optional<std::string_view> finding_kind_name(std::uint32_t kind)
{
	return lookup<edgedma_finding_kind>(kind, first_finding_kind, last_finding_kind);
}

std::optional<std::uint32_t> finding_kind_from_name(std::string_view name)
{
	return reverse_lookup<edgedma_finding_kind>(name, first_finding_kind,
						    last_finding_kind);
}

std::string finding_kind_label(std::uint32_t kind)
{
	return label(finding_kind_name(kind), "kind", kind);
}

std::vector<std::uint32_t> finding_kinds()
{
	std::vector<std::uint32_t> kinds;
	for (std::uint32_t kind = first_finding_kind; kind <= last_finding_kind; kind++)
		kinds.push_back(kind);
	return kinds;
}

std::optional<std::string_view> call_kind_name(std::uint32_t call)
{
	return lookup<edgedma_call_kind>(call, first_call_kind, last_call_kind);
}

std::string call_kind_label(std::uint32_t call)
{
	return label(call_kind_name(call), "call", call);
}

std::optional<std::string_view> direction_name(std::uint32_t dir)
{
	if (dir >= std::size(direction_names))
		return std::nullopt;
	return direction_names[dir];
}

std::string direction_label(std::uint32_t dir)
{
	return label(direction_name(dir), "dir", dir);
}

std::optional<std::string_view> coherency_name(std::uint32_t coherency)
{
	return lookup<edgedma_coherency>(coherency, first_coherency, last_coherency);
}

std::optional<std::uint32_t> coherency_from_name(std::string_view name)
{
	return reverse_lookup<edgedma_coherency>(name, first_coherency, last_coherency);
}

std::string coherency_label(std::uint32_t coherency)
{
	return label(coherency_name(coherency), "coherency", coherency);
}

std::string crash_region_state_label(std::uint32_t state)
{
	return label(lookup<edgedma_crash_region_state>(state, first_crash_region_state,
							last_crash_region_state),
		     "state", state);
}

std::string crash_record_state_label(std::uint32_t state)
{
	return label(lookup<edgedma_crash_record_state>(state, first_crash_record_state,
							last_crash_record_state),
		     "state", state);
}

std::optional<std::string_view> snapshot_trigger_name(std::uint32_t trigger)
{
	return lookup<edgedma_snapshot_trigger>(trigger, first_snapshot_trigger,
						last_snapshot_trigger);
}

std::string snapshot_trigger_label(std::uint32_t trigger)
{
	return label(snapshot_trigger_name(trigger), "trigger", trigger);
}

std::optional<std::uint32_t> snapshot_trigger_from_name(std::string_view name)
{
	return reverse_lookup<edgedma_snapshot_trigger>(name, first_snapshot_trigger,
							last_snapshot_trigger);
}

std::uint32_t all_snapshot_triggers()
{
	std::uint32_t triggers = 0;
	for (std::uint32_t trigger = first_snapshot_trigger; trigger <= last_snapshot_trigger;
	     trigger++)
		triggers |= std::uint32_t{1} << (trigger - 1);
	return triggers;
}

std::vector<std::string> snapshot_trigger_names(std::uint32_t triggers)
{
	std::vector<std::string> names;
	for (std::uint32_t trigger = 1; trigger <= 32; trigger++)
		if (triggers & (std::uint32_t{1} << (trigger - 1)))
			names.push_back(snapshot_trigger_label(trigger));
	return names;
}

std::optional<std::string_view> snapshot_part_name(std::uint32_t part)
{
	return lookup<edgedma_snapshot_part>(part, first_snapshot_part, last_snapshot_part);
}

std::string snapshot_part_label(std::uint32_t part)
{
	return label(snapshot_part_name(part), "part", part);
}

std::optional<std::string_view> skip_reason_name(std::uint32_t reason)
{
	return lookup<edgedma_skip_reason>(reason, first_skip_reason, last_skip_reason);
}

std::string skip_reason_label(std::uint32_t reason)
{
	return label(skip_reason_name(reason), "reason", reason);
}

std::optional<std::string_view> access_name(std::uint32_t access)
{
	return lookup<edgedma_access>(access, first_access, last_access);
}

std::string access_label(std::uint32_t access)
{
	return label(access_name(access), "access", access);
}

std::optional<std::string_view> iommu_domain_name(std::uint32_t domain)
{
	return lookup<edgedma_iommu_domain>(domain, first_iommu_domain, last_iommu_domain);
}

std::string iommu_domain_label(std::uint32_t domain)
{
	return label(iommu_domain_name(domain), "domain", domain);
}

std::optional<std::string_view> memtype_name(std::uint32_t memtype)
{
	return lookup<edgedma_memtype>(memtype, first_memtype, last_memtype);
}

std::string memtype_label(std::uint32_t memtype)
{
	return label(memtype_name(memtype), "memtype", memtype);
}

std::vector<std::string> page_flag_names(std::uint32_t flags)
{
	return flag_names<edgedma_page_flag>(flags, known_page_flags);
}

std::vector<std::string> register_flag_names(std::uint32_t flags)
{
	return flag_names<edgedma_register_flag>(flags, known_register_flags);
}

std::string chain_kind_label(std::uint32_t kind)
{
	return label(lookup<edgedma_chain_kind>(kind, first_chain_kind, last_chain_kind), "kind",
		     kind);
}

std::string descriptor_state_label(std::uint32_t state)
{
	return label(lookup<edgedma_desc_state>(state, first_desc_state, last_desc_state),
		     "state", state);
}

std::string descriptor_owner_label(std::uint32_t owner)
{
	return label(lookup<edgedma_desc_owner>(owner, first_desc_owner, last_desc_owner),
		     "owner", owner);
}

std::string buffer_state_label(std::uint32_t state)
{
	return label(lookup<edgedma_buffer_state>(state, first_buffer_state, last_buffer_state),
		     "state", state);
}

std::string descriptor_role_label(std::uint32_t role)
{
	return label(lookup<edgedma_desc_role>(role, first_desc_role, last_desc_role), "role",
		     role);
}

std::vector<std::string> chain_walk_names(std::uint32_t walk)
{
	return flag_names<edgedma_chain_walk>(walk, known_walk_flags);
}

std::uint32_t check_bit(std::uint32_t kind)
{
	if (kind < 1 || kind > 32)
		return 0;
	return std::uint32_t{1} << (kind - 1);
}

std::uint32_t all_checks()
{
	std::uint32_t checks = 0;
	for (std::uint32_t kind = first_finding_kind; kind <= last_finding_kind; kind++)
		checks |= check_bit(kind);
	return checks;
}

std::uint32_t default_checks()
{
	return all_checks() & ~check_bit(EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED);
}

std::vector<std::string> check_names(std::uint32_t checks)
{
	std::vector<std::string> names;
	for (std::uint32_t kind = 1; kind <= 32; kind++)
		if (checks & check_bit(kind))
			names.push_back(finding_kind_label(kind));
	return names;
}

std::optional<std::string> describe_occurrences(const Finding &finding)
{
	if (!finding.occurrences || *finding.occurrences <= 1)
		return std::nullopt;
	std::string text = "x" + std::to_string(*finding.occurrences);
	// last_time_ns comes with occurrences; the module takes the two times
	// apart, so the latest may read a little before the finding's own.
	if (finding.last_time_ns && *finding.last_time_ns > finding.time_ns)
		text += ", last " + detail::duration(*finding.last_time_ns - finding.time_ns) +
			" later";
	return text;
}

} // namespace edgedma
