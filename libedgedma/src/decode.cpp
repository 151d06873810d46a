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

#include "errors.hpp"

namespace edgedma::detail {
namespace {

// Where an attribute's value goes in its record. The member's type is the
// attribute's wire type; monostate marks an attribute that is known but
// carries nothing to keep (padding).
template <typename Record, typename... WireTypes>
using Destination = std::variant<std::monostate, WireTypes Record::*...>;

enum class Presence { required, optional };

template <typename Record, typename DestinationType> struct AttributeRule {
	using RecordType = Record;

	int type;
	std::string_view name;
	DestinationType destination;
	Presence presence;
};

using InfoRule = AttributeRule<Info, Destination<Info, std::string, std::uint32_t>>;
using StatsRule = AttributeRule<Stats, Destination<Stats, std::uint64_t>>;

// An attribute number with its name as spelled in <linux/edgedma.h>, so
// errors name the attribute the way the header and the spec do.
#define EDGEDMA_ATTRIBUTE(type) type, #type

const std::array<InfoRule, 8> info_rules{{
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_MODULE_VERSION), &Info::module_version, Presence::required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_KERNEL_RELEASE), &Info::kernel_release, Presence::required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_ARCH), &Info::arch, Presence::required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_RECORD_FORMAT), &Info::record_format, Presence::required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_HOOK_MODES), &Info::hook_modes, Presence::required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_PAGE_SIZE), &Info::page_size, Presence::required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_CACHE_LINE), &Info::cache_line, Presence::required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_INFO_DMA_ALIGNMENT), &Info::dma_alignment, Presence::required},
}};

const std::array<StatsRule, 3> stats_rules{{
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_PAD), std::monostate{}, Presence::optional},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_REQUESTS), &Stats::requests, Presence::required},
	{EDGEDMA_ATTRIBUTE(EDGEDMA_A_STATS_REJECTED), &Stats::rejected, Presence::required},
}};

#undef EDGEDMA_ATTRIBUTE

std::span<const std::byte> payload_of(const nlattr &attribute)
{
	return {static_cast<const std::byte *>(nla_data(&attribute)),
		static_cast<std::size_t>(nla_len(&attribute))};
}

// Strings end at their first NUL, as the kernel's NLA_NUL_STRING does; a
// fixed-size buffer sent whole (utsname fields) is therefore fine.
std::optional<std::string> nul_terminated(std::span<const std::byte> bytes)
{
	if (bytes.empty() || bytes.back() != std::byte{0})
		return std::nullopt;
	const auto *text = reinterpret_cast<const char *>(bytes.data());
	return std::string(text, ::strnlen(text, bytes.size()));
}

template <typename Integer> constexpr std::string_view wire_type_name = "";
template <> constexpr std::string_view wire_type_name<std::uint32_t> = "u32";
template <> constexpr std::string_view wire_type_name<std::uint64_t> = "u64";

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
		// Exact size: a u32 sent as u16 or u64 means the two sides disagree
		// on the format, and guessing would hide that.
		if (payload.size() != sizeof(Integer))
			throw malformed(context, std::string(name) + " has " +
					std::to_string(payload.size()) + " bytes, expected " +
					std::to_string(sizeof(Integer)) + " (" +
					std::string(wire_type_name<Integer>) + ")");
		Integer value;
		std::memcpy(&value, payload.data(), sizeof value);
		record.*field = value;
	}
};

int stream_length(std::string_view context, AttributeStream stream)
{
	if (stream.size() > static_cast<std::size_t>(INT32_MAX))
		throw malformed(context, "attribute stream larger than a netlink message");
	return static_cast<int>(stream.size());
}

template <typename Rule, std::size_t rule_count>
auto decode_set(std::string_view context, AttributeStream stream,
		const std::array<Rule, rule_count> &rules)
{
	using Record = typename Rule::RecordType;
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
	ack.error_number = -header.error;
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
	std::size_t offset = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nlmsgerr) + echoed);
	if (offset >= error_message.nlmsg_len)
		return ack;

	int remaining = static_cast<int>(error_message.nlmsg_len - offset);
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
	return ack;
}

} // namespace edgedma::detail
