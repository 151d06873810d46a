// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Words for the numbers in the records: finding kinds, DMA-API calls,
// directions, coherency, and what snapshots say (triggers, parts, skip
// reasons, accesses). Every value of the uapi enums has exactly one
// name; a value this library does not know (from a newer module) has none,
// and the *_label() functions then print it as "<what>-<number>".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <edgedma/export.hpp>
#include <edgedma/records.hpp>

namespace edgedma {

// enum edgedma_finding_kind: "addr-misaligned", "len-misaligned", ...
EDGEDMA_API std::optional<std::string_view> finding_kind_name(std::uint32_t kind);
EDGEDMA_API std::optional<std::uint32_t> finding_kind_from_name(std::string_view name);
EDGEDMA_API std::string finding_kind_label(std::uint32_t kind); // or "kind-N"
// Every finding kind this library knows, in enum order.
EDGEDMA_API std::vector<std::uint32_t> finding_kinds();

// enum edgedma_call_kind: "dma_map_page", "dma_unmap_page", ...
EDGEDMA_API std::optional<std::string_view> call_kind_name(std::uint32_t call);
EDGEDMA_API std::string call_kind_label(std::uint32_t call); // or "call-N"

// enum dma_data_direction is the kernel's, not in a uapi header: its values.
namespace dma_direction {
inline constexpr std::uint32_t bidirectional = 0;
inline constexpr std::uint32_t to_device = 1;
inline constexpr std::uint32_t from_device = 2;
inline constexpr std::uint32_t none = 3;
} // namespace dma_direction

// enum dma_data_direction: "bidirectional", "to-device", "from-device", "none"
EDGEDMA_API std::optional<std::string_view> direction_name(std::uint32_t dir);
EDGEDMA_API std::string direction_label(std::uint32_t dir); // or "dir-N"

// enum edgedma_coherency: "auto", "coherent", "noncoherent"
EDGEDMA_API std::optional<std::string_view> coherency_name(std::uint32_t coherency);
EDGEDMA_API std::optional<std::uint32_t> coherency_from_name(std::string_view name);
EDGEDMA_API std::string coherency_label(std::uint32_t coherency); // or "coherency-N"

// enum edgedma_crash_region_state ("off", "empty", "valid", "corrupt") and
// enum edgedma_crash_record_state ("intact", "corrupt"), or "state-N".
EDGEDMA_API std::string crash_region_state_label(std::uint32_t state);
EDGEDMA_API std::string crash_record_state_label(std::uint32_t state);

// enum edgedma_snapshot_trigger: "manual", "iommu-fault", "controller-error",
// "oops", "panic", "finding"
EDGEDMA_API std::optional<std::string_view> snapshot_trigger_name(std::uint32_t trigger);
EDGEDMA_API std::string snapshot_trigger_label(std::uint32_t trigger); // or "trigger-N"
EDGEDMA_API std::optional<std::uint32_t> snapshot_trigger_from_name(std::string_view name);
// Policy SNAPSHOT_TRIGGERS: bit (trigger - 1) per trigger; every trigger
// this library knows of; the triggers whose bits are set, as
// snapshot_trigger_label() spells them, in enum order.
EDGEDMA_API std::uint32_t all_snapshot_triggers();
EDGEDMA_API std::vector<std::string> snapshot_trigger_names(std::uint32_t triggers);

// enum edgedma_snapshot_part: "mappings", "unmapped", "iommu-view",
// "cpu-view", "pages", "line-sharers", "registers"
EDGEDMA_API std::optional<std::string_view> snapshot_part_name(std::uint32_t part);
EDGEDMA_API std::string snapshot_part_label(std::uint32_t part); // or "part-N"

// enum edgedma_skip_reason: "device-unseen", "lock-busy", "not-kept",
// "no-room", "may-sleep", "not-supported", "limit", "no-profile",
// "read-clears"
EDGEDMA_API std::optional<std::string_view> skip_reason_name(std::uint32_t reason);
EDGEDMA_API std::string skip_reason_label(std::uint32_t reason); // or "reason-N"

// enum edgedma_access: "read", "write"
EDGEDMA_API std::optional<std::string_view> access_name(std::uint32_t access);
EDGEDMA_API std::string access_label(std::uint32_t access); // or "access-N"

// enum edgedma_iommu_domain: "none", "identity", "dma", "dma-fq",
// "blocked", "unmanaged", "other"
EDGEDMA_API std::optional<std::string_view> iommu_domain_name(std::uint32_t domain);
EDGEDMA_API std::string iommu_domain_label(std::uint32_t domain); // or "domain-N"

// enum edgedma_memtype: "write-back", "write-combine", "write-through",
// "uncached", "device", "other"
EDGEDMA_API std::optional<std::string_view> memtype_name(std::uint32_t memtype);
EDGEDMA_API std::string memtype_label(std::uint32_t memtype); // or "memtype-N"

// enum edgedma_page_flag bits set, in bit order: "slab", "reserved",
// "free", "compound", "head"; a bit this library does not know appears as
// its hex value ("0x20").
EDGEDMA_API std::vector<std::string> page_flag_names(std::uint32_t flags);

// enum edgedma_register_flag bits set: "read-clears", "read-on-error";
// unknown bits as hex.
EDGEDMA_API std::vector<std::string> register_flag_names(std::uint32_t flags);

// Descriptor chains: enum edgedma_chain_kind ("ring", "list"), enum
// edgedma_desc_state ("read", "no-mapping", "no-cpu-addr", "read-fault"),
// enum edgedma_buffer_state ("live", "overrun", "unmapped", "unknown",
// "null"), enum edgedma_desc_role ("address", "length", "next", "control",
// "status"); unknown values as "kind-N", "state-N", "role-N".
EDGEDMA_API std::string chain_kind_label(std::uint32_t kind);
EDGEDMA_API std::string descriptor_state_label(std::uint32_t state);
EDGEDMA_API std::string buffer_state_label(std::uint32_t state);
// enum edgedma_desc_owner: "device", "driver"; unknown as "owner-N".
EDGEDMA_API std::string descriptor_owner_label(std::uint32_t owner);
EDGEDMA_API std::string descriptor_role_label(std::uint32_t role);
// enum edgedma_chain_walk bits set: "loop", "bound", "no-mapping",
// "unreadable", "no-room", "history-skipped"; unknown bits as hex.
EDGEDMA_API std::vector<std::string> chain_walk_names(std::uint32_t walk);

// Policy CHECKS: bit (kind - 1) turns the check for kind on.
EDGEDMA_API std::uint32_t check_bit(std::uint32_t kind);
// Every check this library knows of.
EDGEDMA_API std::uint32_t all_checks();
// The checks that run where no policy says otherwise: all but those that
// cost a pass over a buffer's bytes (cpu-write-while-device-owned).
EDGEDMA_API std::uint32_t default_checks();
// The kinds whose bits are set, as finding_kind_label() spells them, in
// enum order; unknown bits appear as "kind-N".
EDGEDMA_API std::vector<std::string> check_names(std::uint32_t checks);

// How often a finding's site was found, for a finding the module folded
// repeats into (Finding::occurrences above 1): "x4103, last 2.100 s later",
// the latest occurrence's time after the finding's own, or "x4103" alone
// when it was no later. Nothing for a finding found once or not counted.
EDGEDMA_API std::optional<std::string> describe_occurrences(const Finding &finding);

} // namespace edgedma
