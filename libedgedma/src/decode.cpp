// SPDX-License-Identifier: LGPL-2.1-or-later
#include "decode.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <cstring>
#include <variant>

#include <linux/edgedma.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>

#include "attribute_codec.hpp"
#include "errors.hpp"

namespace edgedma::detail {
namespace {


using enum Presence;

const std::array<AttributeRule<Info>, 18> info_rules{{
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_MODULE_VERSION), &Info::module_version, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_KERNEL_RELEASE), &Info::kernel_release, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_ARCH), &Info::arch, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_RECORD_FORMAT), &Info::record_format, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_HOOK_MODES), &Info::hook_modes, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_PAGE_SIZE), &Info::page_size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_CACHE_LINE), &Info::cache_line, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_DMA_ALIGNMENT), &Info::dma_alignment, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_HOOK_MODE), &Info::hook_mode, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS), &Info::iommu_fault_hooks, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_DT_NODE), &Info::dt_node, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_DT_POLICIES), &Info::dt_policies, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_DT_REFUSED), &Info::dt_refused, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_DT_PROFILES), &Info::dt_profiles, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_HOOK_SKIPPED), &Info::hooks_skipped, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_HOOK_KRETPROBES), &Info::hook_kretprobes, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_HOOK_FTRACE_ENTRIES), &Info::hook_ftrace_entries, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_HOOK_KPROBE_ENTRIES), &Info::hook_kprobe_entries, optional},
}};

const std::array<AttributeRule<Stats>, 29> stats_rules{{
	EDGEDMA_PAD(EDGEDMA_A_STATS_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_REQUESTS), &Stats::requests, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_REJECTED), &Stats::rejected, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_CALLS), &Stats::calls, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_MAPPINGS_LIVE), &Stats::mappings_live, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_POOL_SIZE), &Stats::pool_size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_POOL_EXHAUSTED), &Stats::pool_exhausted, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_FINDINGS), &Stats::findings, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_EVENTS_DROPPED), &Stats::events_dropped, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_UNTRACKED_DEVICES), &Stats::untracked_devices,
	 required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_HOOK_MISSED), &Stats::hook_missed, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_UNSEEN_MAPPINGS), &Stats::unseen_mappings, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_MAP_EVENTS), &Stats::map_events, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_MAP_EVENTS_DROPPED), &Stats::map_events_dropped,
	 required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_MEMORY), &Stats::memory, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_TRANSLATIONS_SKIPPED), &Stats::translations_skipped,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_IRQSOFF_MAX_NS), &Stats::irqsoff_max_ns, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_SYNC_SKIPS_CLEARED), &Stats::sync_skips_cleared, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_FINDINGS_FOLDED), &Stats::findings_folded, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_FINDING_SITES), &Stats::finding_sites, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_FINDING_SITES_FULL), &Stats::finding_sites_full,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_SNAPSHOTS), &Stats::snapshots, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_SNAPSHOTS_SUPPRESSED), &Stats::snapshots_suppressed,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_SNAPSHOTS_DROPPED), &Stats::snapshots_dropped,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_SNAPSHOTS_TRUNCATED), &Stats::snapshots_truncated,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_IOMMU_FAULTS), &Stats::iommu_faults, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_IOMMU_FAULTS_UNOWNED), &Stats::iommu_faults_unowned,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_UNFOLD_HOLDERS), &Stats::unfold_holders, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_STALE_MAPPINGS), &Stats::stale_mappings, optional},
}};

const std::array<AttributeRule<Finding>, 21> finding_rules{{
	EDGEDMA_PAD(EDGEDMA_A_FINDING_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_SEQ), &Finding::seq, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_TIME_NS), &Finding::time_ns, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_KIND), &Finding::kind, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_CALL), &Finding::call, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_DEVICE), &Finding::device, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_DRIVER), &Finding::driver, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_DMA_ADDR), &Finding::dma_addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_SIZE), &Finding::size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_DIR), &Finding::dir, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_CPU_PHYS), &Finding::cpu_phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_CALLER), &Finding::caller, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_DETAIL), &Finding::detail, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_MAP_CALLER), &Finding::map_caller, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_CALLER_NAME), &Finding::caller_name, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_MAP_CALLER_NAME), &Finding::map_caller_name,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_OCCURRENCES), &Finding::occurrences, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_LAST_TIME_NS), &Finding::last_time_ns, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_CALL_CHAIN), &Finding::call_chain, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_CALL_CHAIN_NAMES), &Finding::call_chain_names,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_DRIVER_MODULE), &Finding::driver_module, optional},
}};

// FINDING_REPEATS: a few of the finding attributes, all there.
const std::array<AttributeRule<FindingRepeats>, 7> finding_repeats_rules{{
	EDGEDMA_PAD(EDGEDMA_A_FINDING_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_SEQ), &FindingRepeats::seq, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_KIND), &FindingRepeats::kind, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_DEVICE), &FindingRepeats::device, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_DRIVER), &FindingRepeats::driver, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_OCCURRENCES), &FindingRepeats::occurrences,
	 required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FINDING_LAST_TIME_NS), &FindingRepeats::last_time_ns,
	 required},
}};

const std::array<AttributeRule<Mapping>, 15> mapping_rules{{
	EDGEDMA_PAD(EDGEDMA_A_MAPPING_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DEVICE), &Mapping::device, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DRIVER), &Mapping::driver, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALL), &Mapping::call, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DMA_ADDR), &Mapping::dma_addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SIZE), &Mapping::size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DIR), &Mapping::dir, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_ATTRS), &Mapping::attrs, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CPU_PHYS), &Mapping::cpu_phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CPU_VIRT), &Mapping::cpu_virt, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALLER), &Mapping::caller, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_TIME_NS), &Mapping::time_ns, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SG_INDEX), &Mapping::sg_index, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SG_COUNT), &Mapping::sg_count, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALLER_NAME), &Mapping::caller_name, optional},
}};

// constexpr: mapping events come by the million (recordings, the event
// stream), and decode_set_into<map_event_rules>() compiles this table.
constexpr std::array<AttributeRule<MapEvent>, 14> map_event_rules{{
	EDGEDMA_PAD(EDGEDMA_A_MAP_EVENT_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_CPU), &MapEvent::cpu, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_SEQ), &MapEvent::seq, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_TIME_NS), &MapEvent::time_ns, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_CALL), &MapEvent::call, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_DEVICE), &MapEvent::device, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_DRIVER), &MapEvent::driver, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_DMA_ADDR), &MapEvent::dma_addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_SIZE), &MapEvent::size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_DIR), &MapEvent::dir, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_ATTRS), &MapEvent::attrs, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_CPU_PHYS), &MapEvent::cpu_phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_CALLER), &MapEvent::caller, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENT_NENTS), &MapEvent::nents, optional},
}};

const std::array<AttributeRule<MapEventCursor>, 4> cursor_rules{{
	EDGEDMA_PAD(EDGEDMA_A_MAP_EVENTS_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENTS_CPU), &MapEventCursor::cpu, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENTS_NEXT_SEQ), &MapEventCursor::next_seq, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAP_EVENTS_DROPPED), &MapEventCursor::dropped, required},
}};

// Device keeps complete and sync_kept as bools; the wire has u32s.
struct DeviceFlat {
	std::string name;
	std::string driver;
	std::uint64_t calls = 0;
	std::uint64_t mappings_live = 0;
	std::uint64_t findings = 0;
	std::uint32_t complete = 0;
	std::uint32_t sync_kept = 0;
};

const std::array<AttributeRule<DeviceFlat>, 8> device_rules{{
	EDGEDMA_PAD(EDGEDMA_A_DEVICE_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DEVICE_NAME), &DeviceFlat::name, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DEVICE_DRIVER), &DeviceFlat::driver, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DEVICE_CALLS), &DeviceFlat::calls, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DEVICE_MAPPINGS_LIVE), &DeviceFlat::mappings_live, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DEVICE_FINDINGS), &DeviceFlat::findings, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DEVICE_COMPLETE), &DeviceFlat::complete, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DEVICE_SYNC_KEPT), &DeviceFlat::sync_kept, required},
}};

// The target's name arrives in one of two attributes; this flat twin of
// Policy takes both, and decode_policy() checks that exactly one came.
struct PolicyFlat {
	std::string device;
	std::string driver;
	std::optional<std::uint32_t> addr_align;
	std::optional<std::uint32_t> len_align;
	std::optional<std::uint32_t> coherency;
	std::optional<std::uint32_t> checks;
	std::optional<std::uint32_t> dev_coherent;
	std::optional<std::uint64_t> dma_mask;
	std::optional<std::uint64_t> seg_boundary;
	std::optional<std::uint32_t> max_seg_size;
	std::optional<std::uint32_t> cache_line;
	std::optional<std::uint32_t> snapshot_triggers;
	std::optional<std::uint32_t> snapshot_findings;
	std::optional<std::uint32_t> owned_hash_max;
};

const std::array<AttributeRule<PolicyFlat>, 15> policy_rules{{
	EDGEDMA_PAD(EDGEDMA_A_POLICY_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_DEVICE), &PolicyFlat::device, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_DRIVER), &PolicyFlat::driver, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_ADDR_ALIGN), &PolicyFlat::addr_align, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_LEN_ALIGN), &PolicyFlat::len_align, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_COHERENCY), &PolicyFlat::coherency, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_CHECKS), &PolicyFlat::checks, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_DEV_COHERENT), &PolicyFlat::dev_coherent, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_DMA_MASK), &PolicyFlat::dma_mask, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_SEG_BOUNDARY), &PolicyFlat::seg_boundary, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_MAX_SEG_SIZE), &PolicyFlat::max_seg_size, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_CACHE_LINE), &PolicyFlat::cache_line, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_SNAPSHOT_TRIGGERS), &PolicyFlat::snapshot_triggers,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_SNAPSHOT_FINDINGS), &PolicyFlat::snapshot_findings,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_POLICY_OWNED_HASH_MAX), &PolicyFlat::owned_hash_max, optional},
}};

// The rules of a set with one more at the end: for a set that extends another.
template <typename Record, std::size_t rule_count>
std::array<AttributeRule<Record>, rule_count + 1>
with_rule(const std::array<AttributeRule<Record>, rule_count> &rules,
	  const AttributeRule<Record> &more)
{
	std::array<AttributeRule<Record>, rule_count + 1> extended{};
	std::ranges::copy(rules, extended.begin());
	extended.back() = more;
	return extended;
}

// The header of a snapshot record, SEQ to DRIVER: what the SNAPSHOT_GET dump
// and the SNAPSHOT notification carry of it.
const std::array<AttributeRule<SnapshotHeader>, 14> snapshot_header_rules{{
	EDGEDMA_PAD(EDGEDMA_A_SNAPSHOT_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_SEQ), &SnapshotHeader::seq, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_TIME_NS), &SnapshotHeader::time_ns, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_REAL_TIME_NS), &SnapshotHeader::real_time_ns,
	 required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_CPU), &SnapshotHeader::cpu, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_TRIGGER), &SnapshotHeader::trigger, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_TRIGGER_ADDR), &SnapshotHeader::trigger_addr,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_TRIGGER_ACCESS), &SnapshotHeader::trigger_access,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_TRIGGER_REASON), &SnapshotHeader::trigger_reason,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_TRIGGER_SYMBOL), &SnapshotHeader::trigger_symbol,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_FINDING_SEQ), &SnapshotHeader::finding_seq,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_FINDING_KIND), &SnapshotHeader::finding_kind,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_DEVICE), &SnapshotHeader::device, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_DRIVER), &SnapshotHeader::driver, required},
}};

// The dump's and the notification's messages: the header and the size of
// the whole record, which the record itself does not hold.
const auto snapshot_listing_rules = with_rule(
	snapshot_header_rules,
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_RECORD_SIZE), &SnapshotHeader::record_size,
	 required});

// The single attributes of a record's body. A record cut short by its size
// (TRUNCATED) still has its header whole, which comes first; its body may
// lack even these, so none is required.
struct SnapshotBody {
	std::optional<std::string> kernel_release;
	std::optional<std::uint32_t> hook_mode;
	std::optional<std::uint64_t> mappings_left_out;
	std::optional<std::uint32_t> truncated;
	std::optional<std::uint32_t> cache_line;
	std::optional<std::uint32_t> coherent;
	std::optional<std::string> profile;
	std::optional<std::uint64_t> capture_ns;
	std::optional<std::uint32_t> page_size;
};

const std::array<AttributeRule<SnapshotBody>, 10> snapshot_body_rules{{
	EDGEDMA_PAD(EDGEDMA_A_SNAPSHOT_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_KERNEL_RELEASE), &SnapshotBody::kernel_release,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_HOOK_MODE), &SnapshotBody::hook_mode, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_MAPPINGS_LEFT_OUT),
	 &SnapshotBody::mappings_left_out, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_TRUNCATED), &SnapshotBody::truncated, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_CACHE_LINE), &SnapshotBody::cache_line, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_COHERENT), &SnapshotBody::coherent, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_PROFILE), &SnapshotBody::profile, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_CAPTURE_NS), &SnapshotBody::capture_ns, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_PAGE_SIZE), &SnapshotBody::page_size, optional},
}};

// A mapping nested in a snapshot (EDGEDMA_A_SNAPSHOT_MAPPING): the mapping
// set without DEVICE and DRIVER, which the record's header holds once for
// all of them.
const std::array<AttributeRule<Mapping>, 13> snapshot_mapping_rules{{
	EDGEDMA_PAD(EDGEDMA_A_MAPPING_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALL), &Mapping::call, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DMA_ADDR), &Mapping::dma_addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SIZE), &Mapping::size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DIR), &Mapping::dir, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_ATTRS), &Mapping::attrs, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CPU_PHYS), &Mapping::cpu_phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CPU_VIRT), &Mapping::cpu_virt, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALLER), &Mapping::caller, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_TIME_NS), &Mapping::time_ns, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SG_INDEX), &Mapping::sg_index, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SG_COUNT), &Mapping::sg_count, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALLER_NAME), &Mapping::caller_name, optional},
}};

const std::array<AttributeRule<RecentUnmap>, 12> unmapped_rules{{
	EDGEDMA_PAD(EDGEDMA_A_UNMAPPED_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_CALL), &RecentUnmap::call, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_DMA_ADDR), &RecentUnmap::dma_addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_SIZE), &RecentUnmap::size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_DIR), &RecentUnmap::dir, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_MAP_TIME_NS), &RecentUnmap::map_time_ns, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_UNMAP_TIME_NS), &RecentUnmap::unmap_time_ns,
	 required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_MAP_CALLER), &RecentUnmap::map_caller, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_UNMAP_CALLER), &RecentUnmap::unmap_caller,
	 required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_CPU_PHYS), &RecentUnmap::cpu_phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_MAP_CALLER_NAME), &RecentUnmap::map_caller_name,
	 optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_UNMAPPED_UNMAP_CALLER_NAME),
	 &RecentUnmap::unmap_caller_name, optional},
}};

// A line sharer (EDGEDMA_A_SNAPSHOT_LINE_SHARER): a mapping of any device,
// so with its own DEVICE and DRIVER, which the module leaves out when it
// cannot name them (at panic).
const std::array<AttributeRule<Mapping>, 15> line_sharer_rules{{
	EDGEDMA_PAD(EDGEDMA_A_MAPPING_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DEVICE), &Mapping::device, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DRIVER), &Mapping::driver, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALL), &Mapping::call, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DMA_ADDR), &Mapping::dma_addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SIZE), &Mapping::size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_DIR), &Mapping::dir, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_ATTRS), &Mapping::attrs, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CPU_PHYS), &Mapping::cpu_phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CPU_VIRT), &Mapping::cpu_virt, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALLER), &Mapping::caller, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_TIME_NS), &Mapping::time_ns, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SG_INDEX), &Mapping::sg_index, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_SG_COUNT), &Mapping::sg_count, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_MAPPING_CALLER_NAME), &Mapping::caller_name, optional},
}};

// PageView keeps its 0-or-1 u32s as bools; the wire has u32s.
struct PageFlat {
	std::uint64_t dma_addr = 0;
	std::optional<std::uint64_t> expected_phys;
	std::uint32_t iommu_domain = 0;
	std::optional<std::uint64_t> iommu_phys;
	std::optional<std::uint32_t> iommu_unmapped;
	std::optional<std::uint64_t> phys;
	std::optional<std::uint64_t> cpu_virt;
	std::optional<std::uint64_t> pte;
	std::optional<std::uint64_t> pte_size;
	std::optional<std::uint32_t> pte_present;
	std::optional<std::uint32_t> pte_writable;
	std::optional<std::uint32_t> pte_executable;
	std::optional<std::uint64_t> pte_pfn;
	std::optional<std::uint32_t> pte_memtype;
	std::optional<std::uint32_t> pfn_valid;
	std::optional<std::uint32_t> flags;
	std::optional<std::uint32_t> refcount;
	std::optional<std::uint32_t> swiotlb;
	std::optional<std::uint32_t> iommu_swiotlb;
};

const std::array<AttributeRule<PageFlat>, 20> page_rules{{
	EDGEDMA_PAD(EDGEDMA_A_PAGE_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_DMA_ADDR), &PageFlat::dma_addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_EXPECTED_PHYS), &PageFlat::expected_phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_IOMMU_DOMAIN), &PageFlat::iommu_domain, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_IOMMU_PHYS), &PageFlat::iommu_phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_IOMMU_UNMAPPED), &PageFlat::iommu_unmapped, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PHYS), &PageFlat::phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_CPU_VIRT), &PageFlat::cpu_virt, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PTE), &PageFlat::pte, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PTE_SIZE), &PageFlat::pte_size, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PTE_PRESENT), &PageFlat::pte_present, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PTE_WRITABLE), &PageFlat::pte_writable, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PTE_EXECUTABLE), &PageFlat::pte_executable, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PTE_PFN), &PageFlat::pte_pfn, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PTE_MEMTYPE), &PageFlat::pte_memtype, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_PFN_VALID), &PageFlat::pfn_valid, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_FLAGS), &PageFlat::flags, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_REFCOUNT), &PageFlat::refcount, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_SWIOTLB), &PageFlat::swiotlb, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PAGE_IOMMU_SWIOTLB), &PageFlat::iommu_swiotlb, optional},
}};

// A register's single attributes; its FIELD nests are walked apart.
const std::array<AttributeRule<Register>, 8> register_rules{{
	EDGEDMA_PAD(EDGEDMA_A_REGISTER_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_REGISTER_NAME), &Register::name, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_REGISTER_WINDOW), &Register::window, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_REGISTER_OFFSET), &Register::offset, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_REGISTER_WIDTH), &Register::width, required},
	// Left out when 0.
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_REGISTER_FLAGS), &Register::flags, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_REGISTER_VALUE), &Register::value, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_REGISTER_SKIPPED), &Register::skipped, optional},
}};

const std::array<AttributeRule<RegisterField>, 4> field_rules{{
	EDGEDMA_PAD(EDGEDMA_A_FIELD_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FIELD_NAME), &RegisterField::name, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FIELD_SHIFT), &RegisterField::shift, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_FIELD_BITS), &RegisterField::bits, required},
}};

const std::array<AttributeRule<SkippedPart>, 3> skipped_rules{{
	EDGEDMA_PAD(EDGEDMA_A_SKIP_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SKIP_PART), &SkippedPart::part, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SKIP_REASON), &SkippedPart::reason, required},
}};

// The SNAPSHOT_TAKE reply.
struct SnapshotTaken {
	std::uint64_t seq = 0;
};

// constexpr, for decode_set_into<>(): through a table read at run time GCC
// 12 imagines the stores of every other wire type into this one-field
// record, and warns of them (-Wstringop-overflow).
constexpr std::array<AttributeRule<SnapshotTaken>, 2> snapshot_taken_rules{{
	EDGEDMA_PAD(EDGEDMA_A_SNAPSHOT_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAPSHOT_SEQ), &SnapshotTaken::seq, required},
}};

const std::array<AttributeRule<CrashRegion>, 10> crash_region_rules{{
	EDGEDMA_PAD(EDGEDMA_A_CRASH_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_REGION_STATE), &CrashRegion::state, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_REGION_PHYS), &CrashRegion::phys, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_REGION_SIZE), &CrashRegion::size, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_BOOT_ID), &CrashRegion::boot_id, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_WRITTEN_NS), &CrashRegion::written_ns, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_RECORDS), &CrashRegion::records, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_INTACT), &CrashRegion::intact, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_CORRUPT), &CrashRegion::corrupt, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_REASON), &CrashRegion::reason, optional},
}};

const std::array<AttributeRule<CrashRecordEntry>, 6> crash_record_rules{{
	EDGEDMA_PAD(EDGEDMA_A_CRASH_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_INDEX), &CrashRecordEntry::index, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_SEQ), &CrashRecordEntry::seq, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_RECORD_STATE), &CrashRecordEntry::state, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_LENGTH), &CrashRecordEntry::length, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CRASH_REASON), &CrashRecordEntry::reason, optional},
}};

const std::array<AttributeRule<ErrorHook>, 4> error_hook_rules{{
	EDGEDMA_PAD(EDGEDMA_A_ERROR_HOOK_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_ERROR_HOOK_SYMBOL), &ErrorHook::symbol, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_ERROR_HOOK_DEVICE), &ErrorHook::device, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_ERROR_HOOK_HITS), &ErrorHook::hits, required},
}};

// A PROFILE_GET message's single attributes; REGISTER, CHAIN and
// BOUND_DEVICE repeat and are walked apart.
struct ProfileFlat {
	std::string name;
	std::optional<std::uint32_t> pci_id;
	std::optional<std::string> compatible;
	std::optional<std::string> device;
	std::uint32_t bound = 0;
	std::optional<std::uint32_t> registers;
	std::optional<std::uint32_t> chains;
};

const std::array<AttributeRule<ProfileFlat>, 8> profile_rules{{
	EDGEDMA_PAD(EDGEDMA_A_PROFILE_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PROFILE_NAME), &ProfileFlat::name, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PROFILE_PCI_ID), &ProfileFlat::pci_id, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PROFILE_COMPATIBLE), &ProfileFlat::compatible, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PROFILE_DEVICE), &ProfileFlat::device, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PROFILE_BOUND), &ProfileFlat::bound, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PROFILE_REGISTERS), &ProfileFlat::registers, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PROFILE_CHAINS), &ProfileFlat::chains, optional},
}};

struct ProfileBound {
	std::uint32_t bound = 0;
};

constexpr std::array<AttributeRule<ProfileBound>, 2> profile_bound_rules{{
	EDGEDMA_PAD(EDGEDMA_A_PROFILE_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_PROFILE_BOUND), &ProfileBound::bound, required},
}};

// The two scatter-gather attributes come together, for sg mappings only.
void check_segment(const Mapping &mapping, std::string_view context)
{
	if (mapping.sg_index && *mapping.sg_index >= mapping.sg_count)
		throw malformed(context, "EDGEDMA_A_MAPPING_SG_INDEX " +
				std::to_string(*mapping.sg_index) +
				" is not below EDGEDMA_A_MAPPING_SG_COUNT " +
				std::to_string(mapping.sg_count));
	if (!mapping.sg_index && mapping.sg_count != 0)
		throw malformed(context, "EDGEDMA_A_MAPPING_SG_COUNT without "
				"EDGEDMA_A_MAPPING_SG_INDEX");
}

// Errors in the nth item of a repeated part name it: "SNAPSHOT_GET reply,
// EDGEDMA_A_SNAPSHOT_MAPPING 3".
std::string item_context(std::string_view context, std::string_view part, std::size_t nth)
{
	return std::string(context) + ", " + std::string(part) + " " + std::to_string(nth);
}

// Any value but 0 is yes, as WAS_ENABLED.
std::optional<bool> flag_of(const std::optional<std::uint32_t> &value)
{
	if (!value)
		return std::nullopt;
	return *value != 0;
}

PageView decode_page(AttributeStream attributes, std::string_view context)
{
	PageFlat flat = decode_set(context, attributes, page_rules);
	PageView page;
	page.dma_addr = flat.dma_addr;
	page.expected_phys = flat.expected_phys;
	page.iommu_domain = flat.iommu_domain;
	page.iommu_phys = flat.iommu_phys;
	page.iommu_unmapped = flat.iommu_unmapped.value_or(0) != 0;
	page.phys = flat.phys;
	page.cpu_virt = flat.cpu_virt;
	page.pte = flat.pte;
	page.pte_size = flat.pte_size;
	page.pte_present = flag_of(flat.pte_present);
	page.pte_writable = flag_of(flat.pte_writable);
	page.pte_executable = flag_of(flat.pte_executable);
	page.pte_pfn = flat.pte_pfn;
	page.pte_memtype = flat.pte_memtype;
	page.pfn_valid = flag_of(flat.pfn_valid);
	page.flags = flat.flags;
	page.refcount = flat.refcount;
	page.swiotlb = flag_of(flat.swiotlb);
	page.iommu_swiotlb = flag_of(flat.iommu_swiotlb);
	return page;
}

const std::array<AttributeRule<DescriptorChain>, 20> chain_rules{{
	EDGEDMA_PAD(EDGEDMA_A_CHAIN_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_NAME), &DescriptorChain::name, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_KIND), &DescriptorChain::kind, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_START_REG), &DescriptorChain::start_reg, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_START_HI_REG), &DescriptorChain::start_hi_reg, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_LENGTH_REG), &DescriptorChain::length_reg, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_ENTRIES), &DescriptorChain::entries, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_HEAD_REG), &DescriptorChain::head_reg, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_TAIL_REG), &DescriptorChain::tail_reg, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_DESC_SIZE), &DescriptorChain::desc_size, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_MAX_DESCS), &DescriptorChain::max_descs, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_FLAGS), &DescriptorChain::flags, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_ALIGN_LOG2), &DescriptorChain::align_log2, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_DIRECTION), &DescriptorChain::direction, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_START), &DescriptorChain::start, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_COUNT), &DescriptorChain::count, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_HEAD), &DescriptorChain::head, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_TAIL), &DescriptorChain::tail, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_WALK), &DescriptorChain::walk, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_CHAIN_SKIPPED), &DescriptorChain::skipped, optional},
}};

const std::array<AttributeRule<DescriptorField>, 7> dfield_rules{{
	EDGEDMA_PAD(EDGEDMA_A_DFIELD_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DFIELD_NAME), &DescriptorField::name, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DFIELD_OFFSET), &DescriptorField::offset, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DFIELD_WIDTH), &DescriptorField::width, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DFIELD_SHIFT), &DescriptorField::shift, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DFIELD_BITS), &DescriptorField::bits, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DFIELD_ROLE), &DescriptorField::role, optional},
}};

const std::array<AttributeRule<Descriptor>, 5> descriptor_rules{{
	EDGEDMA_PAD(EDGEDMA_A_DESC_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DESC_INDEX), &Descriptor::index, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DESC_DMA_ADDR), &Descriptor::dma_addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DESC_STATE), &Descriptor::state, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_DESC_OWNER), &Descriptor::owner, optional},
}};

const std::array<AttributeRule<DescriptorBuffer>, 7> buffer_rules{{
	EDGEDMA_PAD(EDGEDMA_A_BUFFER_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_BUFFER_FIELD), &DescriptorBuffer::field, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_BUFFER_ADDR), &DescriptorBuffer::addr, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_BUFFER_LENGTH), &DescriptorBuffer::length, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_BUFFER_STATE), &DescriptorBuffer::state, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_BUFFER_MAPPING_ADDR), &DescriptorBuffer::mapping_addr, optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_BUFFER_MAPPING_SIZE), &DescriptorBuffer::mapping_size, optional},
}};

Descriptor decode_descriptor(AttributeStream attributes, std::string_view context)
{
	Descriptor descriptor = decode_set(context, attributes, descriptor_rules);
	for_each_attribute(context, attributes, [&](const nlattr &attribute) {
		if (nla_type(&attribute) == EDGEDMA_A_DESC_BYTES) {
			auto bytes = payload_of(attribute);
			descriptor.bytes.assign(bytes.begin(), bytes.end());
		} else if (nla_type(&attribute) == EDGEDMA_A_DESC_BUFFER) {
			descriptor.buffers.push_back(decode_set(
				item_context(context, "EDGEDMA_A_DESC_BUFFER",
					     descriptor.buffers.size() + 1),
				payload_of(attribute), buffer_rules));
		}
	});
	return descriptor;
}

// A chain: its layout (fields named in errors as items of it), what the
// registers said, and its descriptors in walk order.
DescriptorChain decode_chain(AttributeStream attributes, std::string_view context)
{
	DescriptorChain chain = decode_set(context, attributes, chain_rules);
	for_each_attribute(context, attributes, [&](const nlattr &attribute) {
		switch (nla_type(&attribute)) {
		case EDGEDMA_A_CHAIN_DFIELD: {
			const std::string item = item_context(context, "EDGEDMA_A_CHAIN_DFIELD",
							      chain.fields.size() + 1);
			DescriptorField field = decode_set(item, payload_of(attribute), dfield_rules);
			if (field.width != 1 && field.width != 2 && field.width != 4 && field.width != 8)
				throw malformed(item, "EDGEDMA_A_DFIELD_WIDTH " +
							      std::to_string(field.width) +
							      " is not 1, 2, 4 or 8");
			chain.fields.push_back(std::move(field));
			break;
		}
		case EDGEDMA_A_CHAIN_DESCRIPTOR:
			chain.descriptors.push_back(decode_descriptor(
				payload_of(attribute),
				item_context(context, "EDGEDMA_A_CHAIN_DESCRIPTOR",
					     chain.descriptors.size() + 1)));
			break;
		default:
			break;
		}
	});
	return chain;
}

// A register's definition: its single attributes and its fields (named in
// errors as items of it).
Register decode_register_definition(AttributeStream attributes, std::string_view context)
{
	Register reg = decode_set(context, attributes, register_rules);
	for_each_attribute(context, attributes, [&](const nlattr &attribute) {
		if (nla_type(&attribute) != EDGEDMA_A_REGISTER_FIELD)
			return;
		const std::string item = item_context(context, "EDGEDMA_A_REGISTER_FIELD",
						      reg.fields.size() + 1);
		RegisterField field = decode_set(item, payload_of(attribute), field_rules);
		if (field.shift > 63)
			throw malformed(item, "EDGEDMA_A_FIELD_SHIFT " + std::to_string(field.shift) +
					" is past bit 63");
		if (field.bits < 1 || field.bits > 64)
			throw malformed(item, "EDGEDMA_A_FIELD_BITS " + std::to_string(field.bits) +
					" is not from 1 to 64");
		reg.fields.push_back(std::move(field));
	});
	return reg;
}

// A register of a snapshot: its definition and which of VALUE and SKIPPED
// it has: exactly one.
// The IOMMU's part of a snapshot (EDGEDMA_A_SNAPSHOT_IOMMU).
struct SnapIommuFlat {
	std::string device;
	std::optional<std::string> profile;
};

const std::array<AttributeRule<SnapIommuFlat>, 3> snap_iommu_rules{{
	EDGEDMA_PAD(EDGEDMA_A_SNAP_IOMMU_PAD),
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAP_IOMMU_DEVICE), &SnapIommuFlat::device, required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_SNAP_IOMMU_PROFILE), &SnapIommuFlat::profile, optional},
}};

Register decode_register(AttributeStream attributes, std::string_view context);

IommuRegisters decode_snapshot_iommu(AttributeStream attributes, const std::string &context)
{
	SnapIommuFlat flat = decode_set(context, attributes, snap_iommu_rules);
	IommuRegisters iommu{std::move(flat.device), std::move(flat.profile), {}};
	for_each_attribute(context, attributes, [&](const nlattr &attribute) {
		if (nla_type(&attribute) == EDGEDMA_A_SNAP_IOMMU_REGISTER)
			iommu.registers.push_back(decode_register(
				payload_of(attribute),
				item_context(context, "EDGEDMA_A_SNAP_IOMMU_REGISTER",
					     iommu.registers.size() + 1)));
	});
	return iommu;
}

Register decode_register(AttributeStream attributes, std::string_view context)
{
	Register reg = decode_register_definition(attributes, context);
	if (reg.value && reg.skipped)
		throw malformed(context, "both EDGEDMA_A_REGISTER_VALUE and "
				"EDGEDMA_A_REGISTER_SKIPPED");
	if (!reg.value && !reg.skipped)
		throw malformed(context, "missing EDGEDMA_A_REGISTER_VALUE or "
				"EDGEDMA_A_REGISTER_SKIPPED");
	return reg;
}

// The positive errno of the kernel's negative error, negated in unsigned
// arithmetic: INT_MIN (no kernel sends it) has no positive twin and stays
// INT_MIN, still an error, rather than being undefined behaviour.
int errno_of(int kernel_error)
{
	return static_cast<int>(0u - static_cast<unsigned int>(kernel_error));
}

// The extended-ack attributes of an NLMSG_ERROR or NLMSG_DONE, from offset
// to the end of the message. A damaged attribute is skipped: it must not
// hide the errno.
void read_extack(const nlmsghdr &message, std::size_t offset, KernelAck &ack)
{
	if (offset >= message.nlmsg_len)
		return;
	const auto *bytes = reinterpret_cast<const std::byte *>(&message);
	int remaining = static_cast<int>(message.nlmsg_len - offset);
	const auto *first = reinterpret_cast<const nlattr *>(bytes + offset);
	for (const nlattr *attribute = first; nla_ok(attribute, remaining);
	     attribute = nla_next(attribute, &remaining)) {
		auto payload = payload_of(*attribute);
		switch (nla_type(attribute)) {
		case NLMSGERR_ATTR_MSG:
			if (auto text = nul_terminated(payload))
				ack.message = std::move(*text);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			if (payload.size() == sizeof(std::uint32_t)) {
				std::uint32_t type;
				std::memcpy(&type, payload.data(), sizeof type);
				ack.missing_attribute = type;
			}
			break;
		default:
			break;
		}
	}
}

} // namespace

AttributeStream genl_attributes(const nlmsghdr &message, std::string_view what)
{
	constexpr std::size_t attributes_offset = NLMSG_HDRLEN + GENL_HDRLEN;
	if (message.nlmsg_len < attributes_offset)
		throw malformed(what, "message of " + std::to_string(message.nlmsg_len) +
				" bytes cannot hold a generic netlink header");
	const auto *bytes = reinterpret_cast<const std::byte *>(&message);
	return {bytes + attributes_offset, message.nlmsg_len - attributes_offset};
}

std::uint8_t genl_command(const nlmsghdr &message, std::string_view what)
{
	genl_attributes(message, what); // the length check
	genlmsghdr header;
	std::memcpy(&header, reinterpret_cast<const std::byte *>(&message) + NLMSG_HDRLEN,
		    sizeof header);
	return header.cmd;
}

bool record_format_supported(std::uint32_t record_format)
{
	// When the format changes, formats this library still decodes stay here.
	return record_format == EDGEDMA_RECORD_FORMAT_VERSION;
}

Info decode_info(AttributeStream attributes)
{
	constexpr std::string_view context = "GET_INFO reply";
	Info info = decode_set(context, attributes, info_rules);
	if (!record_format_supported(info.record_format))
		throw Error(std::string(context),
			    "the module uses record format " +
			    std::to_string(info.record_format) +
			    ", this libedgedma understands format " +
			    std::to_string(EDGEDMA_RECORD_FORMAT_VERSION) +
			    "; use the module and tools of one edgedma release");
	return info;
}

Stats decode_stats(AttributeStream attributes)
{
	return decode_set("GET_STATS reply", attributes, stats_rules);
}

Finding decode_finding(AttributeStream attributes, std::string_view context)
{
	Finding finding = decode_set(context, attributes, finding_rules);
	// The module sends the two together, for a finding it counted.
	if (finding.occurrences.has_value() != finding.last_time_ns.has_value())
		throw malformed(context, finding.occurrences
			? "EDGEDMA_A_FINDING_OCCURRENCES without EDGEDMA_A_FINDING_LAST_TIME_NS"
			: "EDGEDMA_A_FINDING_LAST_TIME_NS without EDGEDMA_A_FINDING_OCCURRENCES");
	if (finding.call_chain.size() > call_chain_frames_max)
		throw malformed(context, "EDGEDMA_A_FINDING_CALL_CHAIN has " +
				std::to_string(finding.call_chain.size()) +
				" return addresses, more than the " +
				std::to_string(call_chain_frames_max) + " a call chain may have");
	// One name per frame, at most: the module cuts the names' text at a
	// bound, so the last frames may have none, but never more names.
	if (finding.call_chain_names.size() > finding.call_chain.size())
		throw malformed(context, "EDGEDMA_A_FINDING_CALL_CHAIN_NAMES names " +
				std::to_string(finding.call_chain_names.size()) +
				" frames, EDGEDMA_A_FINDING_CALL_CHAIN has " +
				std::to_string(finding.call_chain.size()));
	return finding;
}

FindingRepeats decode_finding_repeats(AttributeStream attributes, std::string_view context)
{
	return decode_set(context, attributes, finding_repeats_rules);
}

Mapping decode_mapping(AttributeStream attributes, std::string_view context)
{
	Mapping mapping = decode_set(context, attributes, mapping_rules);
	check_segment(mapping, context);
	return mapping;
}

Device decode_device(AttributeStream attributes, std::string_view context)
{
	DeviceFlat flat = decode_set(context, attributes, device_rules);
	// As WAS_ENABLED: any value but 0 is yes.
	return Device{std::move(flat.name), std::move(flat.driver), flat.calls,
		      flat.mappings_live, flat.findings, flat.complete != 0,
		      flat.sync_kept != 0};
}

Policy decode_policy(AttributeStream attributes, std::string_view context)
{
	PolicyFlat flat = decode_set(context, attributes, policy_rules);
	// The module refuses empty names, so empty means absent.
	if (flat.device.empty() == flat.driver.empty())
		throw malformed(context, flat.device.empty()
			? "missing EDGEDMA_A_POLICY_DEVICE or EDGEDMA_A_POLICY_DRIVER"
			: "both EDGEDMA_A_POLICY_DEVICE and EDGEDMA_A_POLICY_DRIVER");
	Policy policy;
	policy.target = flat.device.empty()
		? PolicyTarget{PolicyTarget::Kind::driver, std::move(flat.driver)}
		: PolicyTarget{PolicyTarget::Kind::device, std::move(flat.device)};
	policy.addr_align = flat.addr_align;
	policy.len_align = flat.len_align;
	policy.coherency = flat.coherency;
	policy.checks = flat.checks;
	policy.dev_coherent = flat.dev_coherent;
	policy.dma_mask = flat.dma_mask;
	policy.seg_boundary = flat.seg_boundary;
	policy.max_seg_size = flat.max_seg_size;
	policy.cache_line = flat.cache_line;
	policy.snapshot_triggers = flat.snapshot_triggers;
	policy.snapshot_findings = flat.snapshot_findings;
	policy.owned_hash_max = flat.owned_hash_max;
	return policy;
}

MapEvent decode_map_event(AttributeStream attributes, std::string_view context)
{
	MapEvent event;
	decode_set_into<map_event_rules>(context, attributes, event);
	return event;
}

void decode_map_event_into(AttributeStream attributes, std::string_view context,
			   MapEvent &event)
{
	decode_set_into<map_event_rules>(context, attributes, event);
}

void decode_map_events_into(AttributeStream attributes, std::string_view context,
			    std::vector<MapEvent> &events)
{
	const std::size_t before = events.size();
	try {
		for_each_attribute(context, attributes, [&](const nlattr &attribute) {
			if (nla_type(&attribute) == EDGEDMA_A_MAP_EVENTS_EVENT)
				decode_map_event_into(payload_of(attribute), context,
						      events.emplace_back());
		});
	} catch (...) {
		// All of the message's events or none of them.
		events.resize(before);
		throw;
	}
}

void decode_map_events_into(AttributeStream attributes, std::string_view context,
			    MapEventSlots &slots)
{
	const std::size_t before = slots.size();
	try {
		for_each_attribute(context, attributes, [&](const nlattr &attribute) {
			if (nla_type(&attribute) == EDGEDMA_A_MAP_EVENTS_EVENT)
				decode_map_event_into(payload_of(attribute), context, slots.next());
		});
	} catch (...) {
		slots.truncate(before);
		throw;
	}
}

std::vector<MapEvent> decode_map_events(AttributeStream attributes, std::string_view context)
{
	std::vector<MapEvent> events;
	decode_map_events_into(attributes, context, events);
	return events;
}

SnapshotHeader decode_snapshot_header(AttributeStream attributes, std::string_view context)
{
	return decode_set(context, attributes, snapshot_listing_rules);
}

std::uint64_t decode_snapshot_taken(AttributeStream attributes, std::string_view context)
{
	SnapshotTaken taken;
	decode_set_into<snapshot_taken_rules>(context, attributes, taken);
	return taken.seq;
}

CrashRegion decode_crash_region(AttributeStream attributes, std::string_view context)
{
	return decode_set(context, attributes, crash_region_rules);
}

CrashRecordEntry decode_crash_record_entry(AttributeStream attributes, std::string_view context)
{
	return decode_set(context, attributes, crash_record_rules);
}

ErrorHook decode_error_hook(AttributeStream attributes, std::string_view context)
{
	return decode_set(context, attributes, error_hook_rules);
}

LoadedProfile decode_profile(AttributeStream attributes, std::string_view context)
{
	ProfileFlat flat = decode_set(context, attributes, profile_rules);
	LoadedProfile loaded;
	loaded.profile.name = std::move(flat.name);
	loaded.profile.pci_id = flat.pci_id;
	loaded.profile.compatible = std::move(flat.compatible);
	loaded.profile.device = std::move(flat.device);
	loaded.bound = flat.bound;
	if (loaded.profile.pci_id.has_value() + loaded.profile.compatible.has_value() +
		    loaded.profile.device.has_value() != 1)
		throw malformed(context, "not exactly one of EDGEDMA_A_PROFILE_PCI_ID, "
				"EDGEDMA_A_PROFILE_COMPATIBLE and EDGEDMA_A_PROFILE_DEVICE");
	for_each_attribute(context, attributes, [&](const nlattr &attribute) {
		switch (nla_type(&attribute)) {
		case EDGEDMA_A_PROFILE_REGISTER:
			loaded.profile.registers.push_back(decode_register_definition(
				payload_of(attribute),
				item_context(context, "EDGEDMA_A_PROFILE_REGISTER",
					     loaded.profile.registers.size() + 1)));
			break;
		case EDGEDMA_A_PROFILE_CHAIN:
			loaded.profile.chains.push_back(decode_chain(
				payload_of(attribute),
				item_context(context, "EDGEDMA_A_PROFILE_CHAIN",
					     loaded.profile.chains.size() + 1)));
			break;
		case EDGEDMA_A_PROFILE_BOUND_DEVICE: {
			auto name = nul_terminated(payload_of(attribute));
			if (!name)
				not_a_string(context, "EDGEDMA_A_PROFILE_BOUND_DEVICE");
			loaded.bound_devices.push_back(std::move(*name));
			break;
		}
		default:
			break;
		}
	});
	// A dump message counts them; a whole profile has them.
	loaded.register_count = flat.registers.value_or(
		static_cast<std::uint32_t>(loaded.profile.registers.size()));
	loaded.chain_count =
		flat.chains.value_or(static_cast<std::uint32_t>(loaded.profile.chains.size()));
	return loaded;
}

std::uint32_t decode_profile_bound(AttributeStream attributes, std::string_view context)
{
	ProfileBound bound;
	decode_set_into<profile_bound_rules>(context, attributes, bound);
	return bound.bound;
}

Snapshot decode_snapshot(AttributeStream record, std::string_view context)
{
	// Three walks over the record: the header's attributes and the body's
	// single ones each through their rules (which skip everything else and
	// refuse a repeated single attribute), then the repeated parts, which
	// no rule table can hold.
	Snapshot snapshot;
	snapshot.header = decode_set(context, record, snapshot_header_rules);
	// A stream is at most INT32_MAX bytes (decode_set() checked).
	snapshot.header.record_size = static_cast<std::uint32_t>(record.size());
	SnapshotBody body = decode_set(context, record, snapshot_body_rules);
	snapshot.kernel_release = std::move(body.kernel_release);
	snapshot.hook_mode = body.hook_mode;
	snapshot.mappings_left_out = body.mappings_left_out.value_or(0);
	// As WAS_ENABLED: any value but 0 is yes.
	snapshot.truncated = body.truncated.value_or(0) != 0;
	snapshot.cache_line = body.cache_line;
	snapshot.coherent = flag_of(body.coherent);
	snapshot.profile = std::move(body.profile);
	snapshot.capture_ns = body.capture_ns;
	if (body.page_size && (*body.page_size == 0 || (*body.page_size & (*body.page_size - 1))))
		throw malformed(context, "EDGEDMA_A_SNAPSHOT_PAGE_SIZE " +
					 std::to_string(*body.page_size) + " is not a power of two");
	snapshot.page_size = body.page_size;

	for_each_attribute(context, record, [&](const nlattr &attribute) {
		switch (nla_type(&attribute)) {
		case EDGEDMA_A_SNAPSHOT_MAPPING: {
			const std::string item = item_context(context, "EDGEDMA_A_SNAPSHOT_MAPPING",
							      snapshot.mappings.size() + 1);
			Mapping mapping = decode_set(item, payload_of(attribute),
						     snapshot_mapping_rules);
			check_segment(mapping, item);
			mapping.device = snapshot.header.device;
			mapping.driver = snapshot.header.driver;
			snapshot.mappings.push_back(std::move(mapping));
			break;
		}
		case EDGEDMA_A_SNAPSHOT_UNMAPPED:
			snapshot.unmaps.push_back(decode_set(
				item_context(context, "EDGEDMA_A_SNAPSHOT_UNMAPPED",
					     snapshot.unmaps.size() + 1),
				payload_of(attribute), unmapped_rules));
			break;
		case EDGEDMA_A_SNAPSHOT_SKIPPED:
			snapshot.skipped.push_back(decode_set(
				item_context(context, "EDGEDMA_A_SNAPSHOT_SKIPPED",
					     snapshot.skipped.size() + 1),
				payload_of(attribute), skipped_rules));
			break;
		case EDGEDMA_A_SNAPSHOT_PAGE:
			snapshot.pages.push_back(decode_page(
				payload_of(attribute),
				item_context(context, "EDGEDMA_A_SNAPSHOT_PAGE",
					     snapshot.pages.size() + 1)));
			break;
		case EDGEDMA_A_SNAPSHOT_LINE_SHARER: {
			const std::string item = item_context(context,
							      "EDGEDMA_A_SNAPSHOT_LINE_SHARER",
							      snapshot.line_sharers.size() + 1);
			Mapping sharer = decode_set(item, payload_of(attribute), line_sharer_rules);
			check_segment(sharer, item);
			snapshot.line_sharers.push_back(std::move(sharer));
			break;
		}
		case EDGEDMA_A_SNAPSHOT_REGISTER:
			snapshot.registers.push_back(decode_register(
				payload_of(attribute),
				item_context(context, "EDGEDMA_A_SNAPSHOT_REGISTER",
					     snapshot.registers.size() + 1)));
			break;
		case EDGEDMA_A_SNAPSHOT_CHAIN:
			snapshot.chains.push_back(decode_chain(
				payload_of(attribute),
				item_context(context, "EDGEDMA_A_SNAPSHOT_CHAIN",
					     snapshot.chains.size() + 1)));
			break;
		case EDGEDMA_A_SNAPSHOT_IOMMU:
			snapshot.iommu = decode_snapshot_iommu(
				payload_of(attribute),
				std::string(context) + ", EDGEDMA_A_SNAPSHOT_IOMMU");
			break;
		default:
			break;
		}
	});
	// Kept as they came: later carriers pass these exact bytes on.
	snapshot.record.assign(record.begin(), record.end());
	return snapshot;
}

FoldingState decode_folding_state(AttributeStream attributes)
{
	constexpr std::string_view context = "UNFOLD_SET reply";
	std::optional<std::uint32_t> holders, folding;
	for_each_attribute(context, attributes, [&](const nlattr &attribute) {
		auto payload = payload_of(attribute);
		auto read_u32 = [&](std::string_view name) {
			if (payload.size() != sizeof(std::uint32_t))
				throw malformed(context, std::string(name) + " is not a u32");
			std::uint32_t value;
			std::memcpy(&value, payload.data(), sizeof value);
			return value;
		};
		switch (nla_type(&attribute)) {
		case EDGEDMA_A_UNFOLD_HOLDERS:
			holders = read_u32("EDGEDMA_A_UNFOLD_HOLDERS");
			break;
		case EDGEDMA_A_UNFOLD_FOLDING:
			folding = read_u32("EDGEDMA_A_UNFOLD_FOLDING");
			break;
		default:
			break;
		}
	});
	if (!holders)
		throw malformed(context, "missing EDGEDMA_A_UNFOLD_HOLDERS");
	if (!folding)
		throw malformed(context, "missing EDGEDMA_A_UNFOLD_FOLDING");
	return FoldingState{.holders = *holders, .folding = *folding != 0};
}

MapEventsState decode_map_events_state(AttributeStream attributes)
{
	constexpr std::string_view context = "MAP_EVENTS_SET reply";
	MapEventsState state;
	bool have_was = false;
	for_each_attribute(context, attributes, [&](const nlattr &attribute) {
		auto payload = payload_of(attribute);
		switch (nla_type(&attribute)) {
		case EDGEDMA_A_MAP_EVENTS_WAS_ENABLED:
			if (payload.size() != sizeof(std::uint32_t))
				throw malformed(context, "EDGEDMA_A_MAP_EVENTS_WAS_ENABLED is not a u32");
			std::uint32_t was;
			std::memcpy(&was, payload.data(), sizeof was);
			state.was_enabled = was != 0;
			have_was = true;
			break;
		case EDGEDMA_A_MAP_EVENTS_CURSOR:
			state.cursors.push_back(decode_set(context, payload, cursor_rules));
			break;
		default:
			break;
		}
	});
	if (!have_was)
		throw malformed(context, "missing EDGEDMA_A_MAP_EVENTS_WAS_ENABLED");
	return state;
}


void encode_info(const Info &info, std::vector<std::byte> &out)
{
	encode_set(info, info_rules, out);
}

void encode_stats(const Stats &stats, std::vector<std::byte> &out)
{
	encode_set(stats, stats_rules, out);
}

void encode_finding(const Finding &finding, std::vector<std::byte> &out)
{
	encode_set(finding, finding_rules, out);
}

void encode_finding_repeats(const FindingRepeats &repeats, std::vector<std::byte> &out)
{
	encode_set(repeats, finding_repeats_rules, out);
}

void encode_mapping(const Mapping &mapping, std::vector<std::byte> &out)
{
	encode_set(mapping, mapping_rules, out);
}

void encode_map_event(const MapEvent &event, std::vector<std::byte> &out)
{
	encode_set(event, map_event_rules, out);
}

void encode_policy(const Policy &policy, std::vector<std::byte> &out)
{
	PolicyFlat flat;
	(policy.target.kind == PolicyTarget::Kind::device ? flat.device : flat.driver) =
		policy.target.name;
	flat.addr_align = policy.addr_align;
	flat.len_align = policy.len_align;
	flat.coherency = policy.coherency;
	flat.checks = policy.checks;
	flat.dev_coherent = policy.dev_coherent;
	flat.dma_mask = policy.dma_mask;
	flat.seg_boundary = policy.seg_boundary;
	flat.max_seg_size = policy.max_seg_size;
	flat.cache_line = policy.cache_line;
	flat.snapshot_triggers = policy.snapshot_triggers;
	flat.snapshot_findings = policy.snapshot_findings;
	flat.owned_hash_max = policy.owned_hash_max;
	// The empty name is the absent one (decode_policy() reads it so).
	for (const auto &rule : policy_rules) {
		bool empty_name = (rule.type == EDGEDMA_A_POLICY_DEVICE && flat.device.empty()) ||
				  (rule.type == EDGEDMA_A_POLICY_DRIVER && flat.driver.empty());
		if (!empty_name)
			std::visit(PutAttribute<PolicyFlat>{out, flat, rule.type}, rule.destination);
	}
}

KernelAck decode_ack(const nlmsghdr &error_message)
{
	if (error_message.nlmsg_type != NLMSG_ERROR)
		throw malformed("netlink acknowledgement",
				"message type " + std::to_string(error_message.nlmsg_type) +
				" is not NLMSG_ERROR");
	if (error_message.nlmsg_len < NLMSG_LENGTH(sizeof(nlmsgerr)))
		throw malformed("netlink acknowledgement",
				"too short to hold struct nlmsgerr");

	const auto *bytes = reinterpret_cast<const std::byte *>(&error_message);
	nlmsgerr header;
	std::memcpy(&header, bytes + NLMSG_HDRLEN, sizeof header);
	KernelAck ack;
	ack.error_number = errno_of(header.error);
	if (!(error_message.nlmsg_flags & NLM_F_ACK_TLVS))
		return ack;

	// Without NETLINK_CAP_ACK the kernel echoes the whole request before the
	// extack attributes; the embedded header says how long it was.
	std::size_t echoed = 0;
	if (!(error_message.nlmsg_flags & NLM_F_CAPPED)) {
		if (header.msg.nlmsg_len < NLMSG_HDRLEN)
			return ack;
		echoed = header.msg.nlmsg_len - NLMSG_HDRLEN;
	}
	// An echo said to be longer than the message leaves no room for
	// extack; NLMSG_ALIGN() of its length would wrap (it masks in 32 bits)
	// and point back into struct nlmsgerr.
	if (sizeof(nlmsgerr) + echoed >= error_message.nlmsg_len - NLMSG_HDRLEN)
		return ack;
	read_extack(error_message, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nlmsgerr) + echoed), ack);
	return ack;
}

KernelAck decode_done(const nlmsghdr &done_message)
{
	if (done_message.nlmsg_type != NLMSG_DONE)
		throw malformed("netlink dump",
				"message type " + std::to_string(done_message.nlmsg_type) +
				" is not NLMSG_DONE");
	KernelAck ack;
	if (done_message.nlmsg_len < NLMSG_LENGTH(sizeof(int)))
		return ack;
	int error;
	std::memcpy(&error, reinterpret_cast<const std::byte *>(&done_message) + NLMSG_HDRLEN,
		    sizeof error);
	ack.error_number = errno_of(error);
	if (done_message.nlmsg_flags & NLM_F_ACK_TLVS)
		read_extack(done_message, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int)), ack);
	return ack;
}

} // namespace edgedma::detail
