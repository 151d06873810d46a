// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Netlink attribute sets described by tables of rules: one table per set
// says which attribute goes to which field, and serves both directions.
// decode.cpp holds the tables of <linux/edgedma.h>, recording_codec.cpp
// those of the recording file's own records.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <linux/netlink.h>
#include <netlink/attr.h>

#include <edgedma/error.hpp>

#include "decode.hpp"
#include "errors.hpp"
#include "short_text.hpp"

namespace edgedma::detail {

// Every rule table instantiates the string handlers below, also for records
// without a string member; GCC 12 then warns of a std::string it imagines
// at such a record's address, on a path no rule can take.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"

// Where an attribute's value goes in its record. The member's type is the
// attribute's wire type (std::optional of it for attributes the module may
// leave out); monostate marks an attribute that is known but carries
// nothing to keep (padding). Two wire types have a container of their own,
// and are always optional (absent: empty):
//  - std::vector<std::uint64_t>: a binary attribute of u64s in host byte
//    order (EDGEDMA_A_FINDING_CALL_CHAIN);
//  - std::vector<std::string>: a string of '\n'-separated lines, one
//    element each (EDGEDMA_A_FINDING_CALL_CHAIN_NAMES); present, it has one
//    line at least ("" is one empty line), so that every value has exactly
//    one encoding.
template <typename Record>
using Destination = std::variant<std::monostate, std::string Record::*,
				 std::uint32_t Record::*, std::uint64_t Record::*,
				 std::optional<std::uint32_t> Record::*,
				 std::optional<std::uint64_t> Record::*,
				 std::optional<std::string> Record::*,
				 std::vector<std::uint64_t> Record::*,
				 std::vector<std::string> Record::*>;

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

// The errors of the stores below, out of line and given only what they
// name (six arguments at most, all in registers), so that a store's checks
// stay a compare and a branch and need nothing kept in memory.
[[noreturn, gnu::cold, gnu::noinline]] inline void
wrong_size(std::string_view context, std::string_view name, std::size_t size,
	   std::size_t expected)
{
	throw malformed(context, std::string(name) + " has " + std::to_string(size) +
			" bytes, expected " + std::to_string(expected) + " (" +
			(expected == sizeof(std::uint32_t) ? "u32" : "u64") + ")");
}

[[noreturn, gnu::cold, gnu::noinline]] inline void not_a_string(std::string_view context,
								 std::string_view name)
{
	throw malformed(context, std::string(name) + " is not a NUL-terminated string");
}

[[noreturn, gnu::cold, gnu::noinline]] inline void not_u64s(std::string_view context,
							     std::string_view name,
							     std::size_t size)
{
	throw malformed(context, std::string(name) + " has " + std::to_string(size) +
			" bytes, not a whole number of u64");
}

// An attribute's payload into a field of its wire type. Free functions of
// the parts they need, so that a store inlined into a loop keeps them in
// registers.
[[gnu::always_inline]] inline void store_text(std::string &value,
					      std::span<const std::byte> payload,
					      std::string_view context, std::string_view name)
{
	if (payload.empty() || payload.back() != std::byte{0}) [[unlikely]]
		not_a_string(context, name);
	const auto *text = reinterpret_cast<const char *>(payload.data());
	// Mostly the text the record already holds (a stream's events name the
	// same device over and over): compared, not measured and copied again.
	// value holds no NUL (it was cut at the first), so equal bytes followed
	// by a NUL are the whole string.
	if (value.size() < payload.size() && text[value.size()] == '\0' &&
	    same_text(value, std::string_view(text, value.size())))
		return;
	const std::size_t length = ::strnlen(text, payload.size());
	// In place: a record decoded again into the same storage
	// (RecordingReader::next(Record &)) keeps the string's buffer. clear()
	// and append() rather than assign(), which is replace() and allows for
	// the text overlapping the string.
	value.clear();
	value.append(text, length);
}

template <typename Integer>
[[gnu::always_inline]] inline Integer read_integer(std::span<const std::byte> payload,
						   std::string_view context,
						   std::string_view name)
{
	static_assert(std::is_same_v<Integer, std::uint32_t> ||
		      std::is_same_v<Integer, std::uint64_t>, "wrong_size() names u32 and u64");
	// Exact size: a u32 sent as u16 or u64 means the two sides disagree
	// on the format, and guessing would hide that.
	if (payload.size() != sizeof(Integer)) [[unlikely]]
		wrong_size(context, name, payload.size(), sizeof(Integer));
	Integer value;
	std::memcpy(&value, payload.data(), sizeof value);
	return value;
}

// The store for each kind of Destination.
template <typename Record>
[[gnu::always_inline]] inline void store_attribute(Record &, std::monostate,
						   std::span<const std::byte>, std::string_view,
						   std::string_view)
{
}

template <typename Record>
[[gnu::always_inline]] inline void store_attribute(Record &record, std::string Record::*field,
						   std::span<const std::byte> payload,
						   std::string_view context, std::string_view name)
{
	store_text(record.*field, payload, context, name);
}

template <typename Record, typename Integer>
[[gnu::always_inline]] inline void store_attribute(Record &record, Integer Record::*field,
						   std::span<const std::byte> payload,
						   std::string_view context, std::string_view name)
{
	record.*field = read_integer<Integer>(payload, context, name);
}

template <typename Record, typename Integer>
[[gnu::always_inline]] inline void
store_attribute(Record &record, std::optional<Integer> Record::*field,
		std::span<const std::byte> payload, std::string_view context, std::string_view name)
{
	record.*field = read_integer<Integer>(payload, context, name);
}

// More specialised than both templates above, so a string the module may
// leave out comes here rather than to read_integer().
template <typename Record>
[[gnu::always_inline]] inline void
store_attribute(Record &record, std::optional<std::string> Record::*field,
		std::span<const std::byte> payload, std::string_view context, std::string_view name)
{
	std::optional<std::string> &value = record.*field;
	if (!value)
		value.emplace();
	store_text(*value, payload, context, name);
}

// u64s in host byte order, as many as the payload holds.
template <typename Record>
inline void store_attribute(Record &record, std::vector<std::uint64_t> Record::*field,
			    std::span<const std::byte> payload, std::string_view context,
			    std::string_view name)
{
	if (payload.size() % sizeof(std::uint64_t) != 0)
		not_u64s(context, name, payload.size());
	std::vector<std::uint64_t> &values = record.*field;
	values.resize(payload.size() / sizeof(std::uint64_t));
	if (!values.empty())
		std::memcpy(values.data(), payload.data(), payload.size());
}

// A string split at each '\n': "a\nb" is {"a", "b"}, "" is {""}.
template <typename Record>
inline void store_attribute(Record &record, std::vector<std::string> Record::*field,
			    std::span<const std::byte> payload, std::string_view context,
			    std::string_view name)
{
	std::string text;
	store_text(text, payload, context, name);
	std::vector<std::string> &lines = record.*field;
	lines.clear();
	std::string_view rest = text;
	for (;;) {
		const std::size_t end = rest.find('\n');
		lines.emplace_back(rest.substr(0, end));
		if (end == std::string_view::npos)
			break;
		rest.remove_prefix(end + 1);
	}
}

// Puts a field back to its value-initialised state, keeping a string's
// buffer.
template <typename Record> struct ResetField {
	Record &record;

	void operator()(std::monostate) const {}
	void operator()(std::string Record::*field) const { (record.*field).clear(); }
	template <typename Integer> void operator()(Integer Record::*field) const
	{
		record.*field = Integer{};
	}
	template <typename Integer> void operator()(std::optional<Integer> Record::*field) const
	{
		(record.*field).reset();
	}
	void operator()(std::vector<std::uint64_t> Record::*field) const { (record.*field).clear(); }
	void operator()(std::vector<std::string> Record::*field) const { (record.*field).clear(); }
};

// std::visit() of a Destination, as a switch the compiler inlines: GCC 12
// calls std::visit's dispatcher out of line, which cost more than the
// store itself, once per attribute of every record.
template <typename Record, typename Visitor>
[[gnu::always_inline]] inline void visit_destination(const Destination<Record> &destination,
						    Visitor &&visitor)
{
	static_assert(std::variant_size_v<Destination<Record>> == 9,
		      "a new kind of Destination needs a case here");
	switch (destination.index()) {
	case 0: visitor(*std::get_if<0>(&destination)); break;
	case 1: visitor(*std::get_if<1>(&destination)); break;
	case 2: visitor(*std::get_if<2>(&destination)); break;
	case 3: visitor(*std::get_if<3>(&destination)); break;
	case 4: visitor(*std::get_if<4>(&destination)); break;
	case 5: visitor(*std::get_if<5>(&destination)); break;
	case 6: visitor(*std::get_if<6>(&destination)); break;
	case 7: visitor(*std::get_if<7>(&destination)); break;
	case 8: visitor(*std::get_if<8>(&destination)); break;
	default: break; // valueless: a Destination is never left so
	}
}

inline int stream_length(std::string_view context, AttributeStream stream)
{
	if (stream.size() > static_cast<std::size_t>(INT32_MAX))
		throw malformed(context, "attribute stream larger than a netlink message");
	return static_cast<int>(stream.size());
}

// One attribute of a stream, as libnl's nla_ok(), nla_next(), nla_type()
// and nla_data() see it, with the same arithmetic. Inline rather than
// libnl's: those are calls into the shared library, five per attribute,
// and a recording holds millions of attributes.
class AttributeCursor {
	static constexpr std::uint16_t attribute_header_size = 4; // NLA_HDRLEN
	static_assert(sizeof(nlattr) == attribute_header_size);

public:
	AttributeCursor(std::string_view context, AttributeStream stream)
		: at_(stream.data()), remaining_(stream_length(context, stream))
	{
	}

	// nla_ok(): the header fits, and the length it gives both covers the
	// header and stays within the stream.
	bool ok()
	{
		if (remaining_ < static_cast<int>(sizeof(nlattr)))
			return false;
		std::memcpy(&header_, at_, sizeof header_);
		return header_.nla_len >= sizeof(nlattr) && header_.nla_len <= remaining_;
	}
	int type() const { return header_.nla_type & NLA_TYPE_MASK; }
	std::span<const std::byte> payload() const
	{
		return {at_ + attribute_header_size,
			static_cast<std::size_t>(header_.nla_len - attribute_header_size)};
	}
	// nla_next(): remaining may go below zero past an unpadded last one.
	void next()
	{
		int total = (header_.nla_len + 3) & ~3; // NLA_ALIGN(), in int arithmetic
		remaining_ -= total;
		at_ += total;
	}
	int remaining() const { return remaining_; }

private:
	const std::byte *at_;
	int remaining_;
	nlattr header_{};
};

// What decoding needs to know of a rule table, worked out once per table
// (index_rules()) rather than by searching it for every attribute.
template <std::size_t rule_count> struct RuleIndex {
	static_assert(rule_count < 64, "the masks below have a bit per rule");
	// Attribute types below this find their rule in by_type; those above
	// (no table has any yet) by a search.
	static constexpr int direct_types = 64;
	// The rule of each type, rule_count for types no rule names.
	std::array<std::uint8_t, direct_types> by_type{};
	std::uint64_t required = 0; // rules whose attribute must come
	std::uint64_t valued = 0;   // rules that keep a value (all but padding)
	std::uint64_t resettable = 0; // optional rules that keep a value
};

template <typename Record, std::size_t rule_count>
constexpr RuleIndex<rule_count> index_rules(
	const std::array<AttributeRule<Record>, rule_count> &rules)
{
	RuleIndex<rule_count> index;
	index.by_type.fill(static_cast<std::uint8_t>(rule_count));
	// Backwards, so that the first of two rules for one type wins, as in
	// a search from the front.
	for (std::size_t i = rule_count; i-- > 0;) {
		const auto &rule = rules[i];
		if (rule.type >= 0 && rule.type < index.direct_types)
			index.by_type[static_cast<std::size_t>(rule.type)] =
				static_cast<std::uint8_t>(i);
		const std::uint64_t bit = std::uint64_t{1} << i;
		const bool valued = !std::holds_alternative<std::monostate>(rule.destination);
		if (rule.presence == Presence::required)
			index.required |= bit;
		if (valued)
			index.valued |= bit;
		if (valued && rule.presence == Presence::optional)
			index.resettable |= bit;
	}
	return index;
}

// What walk_set() and the constexpr decode_set_into() check once the
// attributes are read: seen has a bit for each rule whose attribute came.
template <typename Record, std::size_t rule_count>
[[gnu::always_inline]] inline void
check_set_end(std::string_view context, const AttributeCursor &attribute,
	      const std::array<AttributeRule<Record>, rule_count> &rules,
	      const RuleIndex<rule_count> &index, std::uint64_t seen)
{
	// nla_next() may overshoot below zero on an unpadded last attribute;
	// only bytes left over mean a cut or corrupt stream.
	if (attribute.remaining() > 0)
		throw malformed(context, std::to_string(attribute.remaining()) +
				" bytes after the last attribute do not form an attribute");

	if ((seen & index.required) != index.required) [[unlikely]] {
		for (std::size_t i = 0; i < rule_count; i++)
			if ((index.required >> i & 1) && !(seen >> i & 1))
				throw malformed(context, "missing " + std::string(rules[i].name));
	}
}

// The walk decode_set_into() makes over a set's attributes, with what it
// does to a field left to reset(which) and store(which, payload), which
// is the rule at index which of rules.
template <typename Record, std::size_t rule_count, typename Reset, typename Store>
[[gnu::always_inline]] inline void
walk_set(std::string_view context, AttributeStream stream,
	 const std::array<AttributeRule<Record>, rule_count> &rules,
	 const RuleIndex<rule_count> &index, Reset reset, Store store)
{
	for (std::uint64_t left = index.resettable; left != 0; left &= left - 1)
		reset(static_cast<std::size_t>(std::countr_zero(left)));

	std::uint64_t seen = 0;
	AttributeCursor attribute(context, stream);
	for (; attribute.ok(); attribute.next()) {
		const int type = attribute.type();
		std::size_t which = rule_count;
		if (type < index.direct_types) [[likely]] {
			which = index.by_type[static_cast<std::size_t>(type)];
		} else {
			which = 0;
			while (which < rule_count && rules[which].type != type)
				which++;
		}
		if (which == rule_count)
			continue; // from a newer module; not ours to judge
		const std::uint64_t bit = std::uint64_t{1} << which;
		// Padding may come before every u64; a value must come once, or
		// which one counts would be a guess.
		if (seen & bit & index.valued) [[unlikely]]
			throw malformed(context, std::string(rules[which].name) +
					" appears more than once");
		seen |= bit;
		store(which, attribute.payload());
	}
	check_set_end(context, attribute, rules, index, seen);
}

// Decodes an attribute set into record, which is either value-initialised
// or holds an earlier decode of the same set: its strings keep their
// buffers, its optional fields are emptied first, and every other field a
// rule names is required, so it is overwritten or the set is refused.
// After a throw, record holds a mix of both. index is index_rules(rules).
template <typename Record, std::size_t rule_count>
void decode_set_into(std::string_view context, AttributeStream stream,
		     const std::array<AttributeRule<Record>, rule_count> &rules,
		     const RuleIndex<rule_count> &index, Record &record)
{
	walk_set(
		context, stream, rules, index,
		[&](std::size_t which) {
			visit_destination(rules[which].destination, ResetField<Record>{record});
		},
		[&](std::size_t which, std::span<const std::byte> payload) {
			visit_destination(rules[which].destination, [&](auto field) {
				store_attribute(record, field, payload, context, rules[which].name);
			});
		});
}

template <typename Record, std::size_t rule_count>
void decode_set_into(std::string_view context, AttributeStream stream,
		     const std::array<AttributeRule<Record>, rule_count> &rules, Record &record)
{
	decode_set_into(context, stream, rules, index_rules(rules), record);
}

// decode_set_into() for a table known when compiling (constexpr), for the
// sets that come by the million: each rule's type, field and whether it
// keeps a value are then constants, so an attribute is one comparison per
// rule that the compiler turns into a jump table, straight to a move at a
// fixed offset and a test of a constant bit, instead of a look-up of the
// rule, a jump on its index and a look at the rule's destination. The same
// table and the same checks as walk_set(), so the same decoding.
// The wire type of an integer field, optional or not.
template <typename Field> struct WireInteger {
	using type = Field;
};
template <typename Integer> struct WireInteger<std::optional<Integer>> {
	using type = Integer;
};

// The set as its writers lay it out: every attribute in the table's order,
// each once, none the table lacks, no padding attribute, and each integer
// exactly its size. The module's senders and the recording's encode_set()
// write sets so, and then an attribute is one compare of its header
// against a constant and a move, where decode_set_into() pays a jump on
// its type and the checks for every other order. Anything else (another
// order, a newer module's attribute, padding, a wrong size, a missing
// attribute) returns false at once, with the record part written, for
// decode_set_into() to decode from the start and to judge.
template <const auto &rules, typename Record>
[[gnu::always_inline]] inline bool decode_set_in_order(std::string_view context,
						       AttributeStream stream, Record &record)
{
	static_assert(
		[] {
			for (std::size_t i = 0; i < rules.size(); i++)
				for (std::size_t j = i + 1; j < rules.size(); j++)
					if (rules[i].type == rules[j].type)
						return false;
			return true;
		}(),
		"two rules for one attribute type: the first would take both in order");
	if (stream.size() > static_cast<std::size_t>(INT32_MAX))
		return false;
	const std::byte *at = stream.data();
	const std::byte *const end = at + stream.size();
	auto step = [&]<std::size_t rule>() -> bool {
		constexpr auto &destination = rules[rule].destination;
		using Field = std::variant_alternative_t<destination.index(), Destination<Record>>;
		constexpr bool optional = rules[rule].presence == Presence::optional;
		if constexpr (std::is_same_v<Field, std::monostate>) {
			return true; // padding: none is expected
		} else {
			constexpr auto field = std::get<destination.index()>(destination);
			using Value = std::remove_cvref_t<decltype(record.*field)>;
			constexpr bool u32_or_u64 =
				std::is_same_v<Value, std::uint32_t> ||
				std::is_same_v<Value, std::uint64_t> ||
				std::is_same_v<Value, std::optional<std::uint32_t>> ||
				std::is_same_v<Value, std::optional<std::uint64_t>>;
			// Absent: its place holds another attribute, or nothing.
			auto absent = [&] {
				nlattr header{};
				if (end - at >= static_cast<std::ptrdiff_t>(sizeof header))
					std::memcpy(&header, at, sizeof header);
				return end - at < static_cast<std::ptrdiff_t>(sizeof header) ||
				       header.nla_type != rules[rule].type;
			};
			if constexpr (u32_or_u64) {
				using Integer = typename WireInteger<Value>::type;
				// Its header as one word: length and type at once.
				constexpr std::size_t length = sizeof(nlattr) + sizeof(Integer);
				constexpr auto expected = std::bit_cast<std::uint32_t>(nlattr{
					static_cast<std::uint16_t>(length),
					static_cast<std::uint16_t>(rules[rule].type)});
				std::uint32_t word = 0;
				if (end - at >= static_cast<std::ptrdiff_t>(length))
					std::memcpy(&word, at, sizeof word);
				if (word != expected) {
					if constexpr (optional) {
						if (absent()) {
							ResetField<Record>{record}(field);
							return true;
						}
					}
					return false;
				}
				Integer value;
				std::memcpy(&value, at + sizeof(nlattr), sizeof value);
				record.*field = value;
				at += (length + 3) & ~std::size_t{3}; // NLA_ALIGN()
				return true;
			} else {
				if (absent()) {
					if constexpr (optional) {
						ResetField<Record>{record}(field);
						return true;
					}
					return false;
				}
				nlattr header;
				std::memcpy(&header, at, sizeof header);
				if (header.nla_len < sizeof header || header.nla_len > end - at)
					return false;
				// Strings and the containers: their own checks, which
				// throw what decode_set_into() would.
				store_attribute(record, field,
						std::span<const std::byte>{at + sizeof header,
									   header.nla_len - sizeof header},
						context, rules[rule].name);
				at += (header.nla_len + 3u) & ~3u; // NLA_ALIGN()
				return true;
			}
		}
	};
	const bool in_order = [&]<std::size_t... rule>(std::index_sequence<rule...>) {
		return (step.template operator()<rule>() && ...);
	}(std::make_index_sequence<rules.size()>{});
	// The last attribute's padding may be left out (check_set_end()).
	return in_order && at >= end && at - end < 4;
}

template <const auto &rules, typename Record>
void decode_set_into(std::string_view context, AttributeStream stream, Record &record)
{
	if (decode_set_in_order<rules>(context, stream, record))
		return;
	static constexpr auto index = index_rules(rules);
	std::uint64_t seen = 0;
	// Optional fields back to empty; the others are overwritten.
	auto reset = [&]<std::size_t rule>() {
		if constexpr ((index.resettable >> rule & 1) != 0)
			ResetField<Record>{record}(
				std::get<rules[rule].destination.index()>(rules[rule].destination));
	};
	// The attribute into the field of rule.
	auto store = [&]<std::size_t rule>(std::span<const std::byte> payload) {
		constexpr std::uint64_t bit = std::uint64_t{1} << rule;
		constexpr auto &destination = rules[rule].destination;
		// Padding may come before every u64; a value must come once, or
		// which one counts would be a guess.
		if constexpr ((index.valued & bit) != 0) {
			if (seen & bit) [[unlikely]]
				throw malformed(context, std::string(rules[rule].name) +
						" appears more than once");
		}
		seen |= bit;
		store_attribute(record, std::get<destination.index()>(destination), payload,
				context, rules[rule].name);
	};
	auto each_rule = [&]<std::size_t... rule>(std::index_sequence<rule...>) {
		(reset.template operator()<rule>(), ...);
	};
	each_rule(std::make_index_sequence<rules.size()>{});

	AttributeCursor attribute(context, stream);
	for (; attribute.ok(); attribute.next()) {
		const int type = attribute.type();
		const std::span<const std::byte> payload = attribute.payload();
		// The first rule of a type wins, as in index_rules(); a type no
		// rule names is from a newer module, not ours to judge.
		// (A chain of conditionals on the type, which GCC makes a jump
		// table of; early returns from a lambda per rule it does not.)
		[&]<std::size_t... rule>(std::index_sequence<rule...>) {
			(void)((type == rules[rule].type
					? (store.template operator()<rule>(payload), true)
					: false) ||
			       ...);
		}(std::make_index_sequence<rules.size()>{});
	}
	check_set_end(context, attribute, rules, index, seen);
}

template <typename Record, std::size_t rule_count>
Record decode_set(std::string_view context, AttributeStream stream,
		  const std::array<AttributeRule<Record>, rule_count> &rules)
{
	Record record{};
	decode_set_into(context, stream, rules, record);
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
	void operator()(std::string Record::*field) const { put_text(record.*field); }
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
	// Preferred to the template above, which would write the std::string
	// object itself.
	void operator()(std::optional<std::string> Record::*field) const
	{
		if (const auto &text = record.*field)
			put_text(*text);
	}
	// The containers, likewise; left out when empty.
	void operator()(std::vector<std::uint64_t> Record::*field) const
	{
		const auto &values = record.*field;
		if (values.empty())
			return;
		const std::size_t length = values.size() * sizeof(std::uint64_t);
		if (length + attribute_header_length > UINT16_MAX)
			throw Error("encode", std::to_string(values.size()) +
				    " u64s do not fit in an attribute");
		put_attribute(out, type, values.data(), length);
	}
	void operator()(std::vector<std::string> Record::*field) const
	{
		const auto &lines = record.*field;
		if (lines.empty())
			return;
		std::string text = lines.front();
		for (std::size_t i = 1; i < lines.size(); i++)
			text += '\n' + lines[i];
		put_text(text);
	}

private:
	void put_text(const std::string &text) const
	{
		if (text.size() + 1 + attribute_header_length > UINT16_MAX)
			throw Error("encode", "string of " + std::to_string(text.size()) +
				    " bytes does not fit in an attribute");
		put_attribute(out, type, text.c_str(), text.size() + 1);
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
