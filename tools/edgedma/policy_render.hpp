// SPDX-License-Identifier: GPL-2.0
#pragma once

// How `edgedma policy` reads check lists and shows policies.

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <edgedma/records.hpp>

namespace edgedma::cli {

// "addr-misaligned,leak", "all" or "none" -> CHECKS bits. Throws UsageError naming
// an unknown word and listing the known ones.
std::uint32_t parse_check_list(std::string_view list);

// "all", "none", "all but leak, stack-buffer" or "addr-misaligned, leak".
std::string checks_text(std::uint32_t checks);

// "iommu-fault,panic", "all" or "none" -> SNAPSHOT_TRIGGERS bits; throws
// UsageError as parse_check_list().
std::uint32_t parse_trigger_list(std::string_view list);

// The bounds of --owned-hash-max (EDGEDMA_OWNED_HASH_MIN, _MAX).
extern const std::uint32_t owned_hash_min_bytes;
extern const std::uint32_t owned_hash_max_bytes;

// SNAPSHOT_TRIGGERS as checks_text() says CHECKS.
std::string triggers_text(std::uint32_t triggers);

// target ("device"|"driver"), device, driver (the other null), addr_align,
// len_align, coherency (word), checks (array of words), checks_mask,
// snapshot_triggers and snapshot_findings (arrays of words), owned_hash_max,
// then
// the device's facts: dev_coherent (bool), dma_mask, seg_boundary (hex
// strings), max_seg_size, cache_line. Fields the module did not send are
// null.
nlohmann::ordered_json policy_json(const Policy &policy);

// `edgedma policy get`: one aligned "label: value" line per field.
std::string policy_text(const Policy &policy);

// `edgedma policy list`: "device NAME: field value, ..." for one override.
std::string policy_rule_text(const Policy &policy);

} // namespace edgedma::cli
