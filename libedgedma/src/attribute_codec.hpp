// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Netlink attribute sets described by tables of rules: one table per set
// says which attribute goes to which field, and serves both directions.
// decode.cpp holds the tables of <linux/edgedma.h>, recording_codec.cpp
// those of the recording file's own records.

#include <algorithm>
#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <linux/netlink.h>
#include <netlink/attr.h>

#include <edgedma/error.hpp>

#include "decode.hpp"
#include "errors.hpp"

namespace edgedma::detail {

// Every rule table instantiates the string handlers below, also for records
// without a string member; GCC 12 then warns of a std::string it imagines
// at such a record's address, on a path no rule can take.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"

// Where an attribute's value goes in its record. The member's type is the
// attribute's wire type (std::optional of it for attributes the module may
// leave out); monostate marks an attribute that is known but carries
// nothing to keep (padding).
template <typename Record>
using Destination = std::variant<std::monostate, std::string Record::*,
				 std::uint32_t Record::*, std::uint64_t Record::*,
				 std::optional<std::uint32_t> Record::*,
				 std::optional<std::uint64_t> Record::*>;

enum class Presence { required, optional };

template <typename Record> struct AttributeRule {
	using RecordType = Record;

	int type;
	std::string_view name;
	Destination<Record> destination;
	Presence presence;
};

// An attribute number with its name as spelled in <linux/edgedma.h>, so
// errors name the attribute the way the header and the spec do.
#define EDGEDMA_ATTRIBUTE(type) type, #type
#define EDGEDMA_PAD(type) {type, #type, std::monostate{}, Presence::optional}

inline std::span<const std::byte> payload_of(const nlattr &attribute)
{
	return {static_cast<const std::byte *>(nla_data(&attribute)),
		static_cast<std::size_t>(nla_len(&attribute))};
}

// Strings end at their first NUL, as the kernel's NLA_NUL_STRING does; a
// fixed-size buffer sent whole (utsname fields) is therefore fine.
inline std::optional<std::string> nul_terminated(std::span<const std::byte> bytes)
{
	if (bytes.empty() || bytes.back() != std::byte{0})
		return std::nullopt;
	const auto *text = reinterpret_cast<const char *>(bytes.data());
	return std::string(text, ::strnlen(text, bytes.size()));
}

template <typename Integer> inline constexpr std::string_view wire_type_name = "";
template <> inline constexpr std::string_view wire_type_name<std::uint32_t> = "u32";
template <> inline constexpr std::string_view wire_type_name<std::uint64_t> = "u64";

template <typename Record> struct StoreAttribute {
	Record &record;
	std::string_view context;
	std::string_view name;
	std::span<const std::byte> payload;

	void operator()(std::monostate) const {}

	void operator()(std::string Record::*field) const
	{
		auto text = nul_terminated(payload);
		if (!text)
			throw malformed(context, std::string(name) +
					" is not a NUL-terminated string");
		record.*field = std::move(*text);
	}

	template <typename Integer> void operator()(Integer Record::*field) const
	{
		record.*field = integer<Integer>();
	}

	template <typename Integer>
	void operator()(std::optional<Integer> Record::*field) const
	{
		record.*field = integer<Integer>();
	}

	template <typename Integer> Integer integer() const
	{
		// Exact size: a u32 sent as u16 or u64 means the two sides disagree
		// on the format, and guessing would hide that.
		if (payload.size() != sizeof(Integer))
			throw malformed(context, std::string(name) + " has " +
					std::to_string(payload.size()) + " bytes, expected " +
					std::to_string(sizeof(Integer)) + " (" +
					std::string(wire_type_name<Integer>) + ")");
		Integer value;
		std::memcpy(&value, payload.data(), sizeof value);
		return value;
	}
};

inline int stream_length(std::string_view context, AttributeStream stream)
{
	if (stream.size() > static_cast<std::size_t>(INT32_MAX))
		throw malformed(context, "attribute stream larger than a netlink message");
	return static_cast<int>(stream.size());
}

template <typename Record, std::size_t rule_count>
Record decode_set(std::string_view context, AttributeStream stream,
		  const std::array<AttributeRule<Record>, rule_count> &rules)
{
	using Rule = AttributeRule<Record>;
	Record record{};
	std::bitset<rule_count> seen;
	int remaining = stream_length(context, stream);
	// Netlink keeps attributes 4-byte aligned within the message.
	const auto *first = reinterpret_cast<const nlattr *>(stream.data());

	for (const nlattr *attribute = first; nla_ok(attribute, remaining);
	     attribute = nla_next(attribute, &remaining)) {
		auto rule = std::ranges::find(rules, nla_type(attribute), &Rule::type);
		if (rule == rules.end())
			continue; // from a newer module; not ours to judge
		auto index = static_cast<std::size_t>(rule - rules.begin());
		// Padding may come before every u64; a value must come once, or
		// which one counts would be a guess.
		bool carries_value =
			!std::holds_alternative<std::monostate>(rule->destination);
		if (carries_value && seen.test(index))
			throw malformed(context, std::string(rule->name) +
					" appears more than once");
		seen.set(index);
		std::visit(StoreAttribute<Record>{record, context, rule->name,
						  payload_of(*attribute)},
			   rule->destination);
	}
	// nla_next() may overshoot below zero on an unpadded last attribute;
	// only bytes left over mean a cut or corrupt stream.
	if (remaining > 0)
		throw malformed(context, std::to_string(remaining) +
				" bytes after the last attribute do not form an attribute");

	for (std::size_t i = 0; i < rule_count; i++)
		if (rules[i].presence == Presence::required && !seen.test(i))
			throw malformed(context, "missing " + std::string(rules[i].name));
	return record;
}

// Calls visit for each attribute of a stream, checking only the framing.
template <typename Visit>
void for_each_attribute(std::string_view context, AttributeStream stream, Visit visit)
{
	int remaining = stream_length(context, stream);
	const auto *first = reinterpret_cast<const nlattr *>(stream.data());
	for (const nlattr *attribute = first; nla_ok(attribute, remaining);
	     attribute = nla_next(attribute, &remaining))
		visit(*attribute);
	if (remaining > 0)
		throw malformed(context, std::to_string(remaining) +
				" bytes after the last attribute do not form an attribute");
}

// ---- encoding ------------------------------------------------------------

// NLA_ALIGN() and NLA_HDRLEN, in size_t arithmetic.
constexpr std::size_t attribute_align(std::size_t length)
{
	return (length + 3) & ~std::size_t{3};
}
constexpr std::size_t attribute_header_length = attribute_align(sizeof(nlattr));

inline void put_attribute(std::vector<std::byte> &out, int type, const void *data, std::size_t length)
{
	nlattr header{};
	header.nla_type = static_cast<std::uint16_t>(type);
	header.nla_len = static_cast<std::uint16_t>(attribute_header_length + length);
	const auto *header_bytes = reinterpret_cast<const std::byte *>(&header);
	out.insert(out.end(), header_bytes, header_bytes + sizeof header);
	out.resize(out.size() + attribute_header_length - sizeof header);
	const auto *bytes = static_cast<const std::byte *>(data);
	out.insert(out.end(), bytes, bytes + length);
	out.resize(out.size() + (attribute_align(length) - length));
}

template <typename Record> struct PutAttribute {
	std::vector<std::byte> &out;
	const Record &record;
	int type;

	void operator()(std::monostate) const {}
	void operator()(std::string Record::*field) const
	{
		const std::string &text = record.*field;
		if (text.size() + 1 + attribute_header_length > UINT16_MAX)
			throw Error("encode", "string of " + std::to_string(text.size()) +
				    " bytes does not fit in an attribute");
		put_attribute(out, type, text.c_str(), text.size() + 1);
	}
	template <typename Integer> void operator()(Integer Record::*field) const
	{
		Integer value = record.*field;
		put_attribute(out, type, &value, sizeof value);
	}
	template <typename Integer> void operator()(std::optional<Integer> Record::*field) const
	{
		if (const auto &value = record.*field)
			put_attribute(out, type, &*value, sizeof *value);
	}
};

template <typename Record, std::size_t rule_count>
void encode_set(const Record &record, const std::array<AttributeRule<Record>, rule_count> &rules,
		std::vector<std::byte> &out)
{
	for (const auto &rule : rules)
		std::visit(PutAttribute<Record>{out, record, rule.type}, rule.destination);
}


#pragma GCC diagnostic pop

} // namespace edgedma::detail
