// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// One record of a recording file to and from bytes. Records that mirror a
// module message carry its attributes (decode.hpp); the recording's own
// records (losses, the end) are attribute sets of their own, numbered in
// Documentation/recording-format.rst.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <edgedma/recording.hpp>

namespace edgedma::detail {

enum class RecordType : std::uint16_t {
	info = 1,
	stats_start = 2,
	stats_end = 3,
	device_policy = 4,
	policy_override = 5,
	live_mapping = 6,
	finding = 7,
	finding_loss = 8,
	map_event = 9,
	map_event_loss = 10,
	symbols = 11,
	end = 12,
	finding_repeats = 13,
	snapshot = 14,
};

// The record's type, its payload appended to out.
RecordType encode_record(const Record &record, std::vector<std::byte> &out);
// The same for a mapping event not held in a Record (no copy into one).
RecordType encode_record(const MapEvent &event, std::vector<std::byte> &out);

// The record a payload holds; nothing for a type this library does not know.
// context names the record in errors (its offset in the file).
std::optional<Record> decode_record(std::uint16_t type, std::span<const std::byte> payload,
				    std::string_view context);
// The same into record, reusing its storage when it holds a record of the
// same kind (mapping events: their strings' buffers). False for a type this
// library does not know, record then unchanged. On a throw, record is valid
// but its value unspecified.
bool decode_record_into(std::uint16_t type, std::span<const std::byte> payload,
			std::string_view context, Record &record);

std::string_view record_type_name(std::uint16_t type);

} // namespace edgedma::detail
