// SPDX-License-Identifier: GPL-2.0
#pragma once

// How `edgedma profile` shows controller profiles: the line `load` prints,
// the list of loaded ones, and one whole.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <edgedma/profile.hpp>

namespace edgedma::cli {

// What a profile matches: "pci 1234:11e8", "compatible arm,pl330" or
// "device 0000:00:04.0".
std::string profile_match_text(const Profile &profile);

// `edgedma profile load`: "profile NAME (MATCH): N registers, N chains; "
// then "bound to N devices: A, B" or "no device present matches it".
std::string profile_loaded_text(const LoadedProfile &loaded);
// `edgedma profile load --check`: the same up to the counts, then "; valid".
std::string profile_checked_text(const Profile &profile);

// `edgedma profile list`: a table, a line per profile (NAME, MATCH, BOUND,
// REGISTERS, CHAINS), after a header line.
std::string profile_list_text(const std::vector<LoadedProfile> &profiles);
// `edgedma profile list --json`, one object per profile: name, match
// ({"pci_id": "vvvv:dddd"}, {"compatible": ...} or {"device": ...}), bound,
// register_count, chain_count.
nlohmann::ordered_json profile_summary_json(const LoadedProfile &loaded);

// `edgedma profile show`: the match and the devices bound, the registers as
// a table (name, window and offset, width, flags, bit fields as
// name[high:low]) and each descriptor chain (kind, registers, descriptor
// size, bound) with its fields.
std::string profile_text(const LoadedProfile &loaded);
// `edgedma profile show --json`: name, match, bound, bound_devices,
// registers [{name, window, offset ("0x.."), width, flags (words), fields
// [{name, shift, bits}]}], chains [{name, kind, start_reg, start_hi_reg,
// length_reg, length_in_bytes, entries, head_reg, tail_reg, desc_size,
// max_descs, big_endian, fields (as snapshot show has them)}]; null where
// the profile says nothing.
nlohmann::ordered_json profile_json(const LoadedProfile &loaded);

} // namespace edgedma::cli
