// SPDX-License-Identifier: LGPL-2.1-or-later
#include "recording_codec.hpp"

#include <string>

#include <linux/edgedma.h>

#include "attribute_codec.hpp"
#include "decode.hpp"
#include "errors.hpp"

namespace edgedma::detail {
namespace {

// The recording's own attribute sets. Numbers are part of the file format:
// never reuse one.
enum {
	REC_A_FINDING_LOSS_FIRST_SEQ = 1,
	REC_A_FINDING_LOSS_LAST_SEQ = 2,
	REC_A_FINDING_LOSS_CAUSE = 3, // 1 gap, 2 overflow
};

enum {
	REC_A_MAP_EVENT_LOSS_CPU = 1,
	REC_A_MAP_EVENT_LOSS_FIRST_SEQ = 2,
	REC_A_MAP_EVENT_LOSS_LAST_SEQ = 3,
};

enum {
	REC_A_END_DURATION_NS = 1,
	REC_A_END_FINDINGS = 2,
	REC_A_END_FINDINGS_LOST = 3,
	REC_A_END_MAP_EVENTS = 4,
	REC_A_END_MAP_EVENTS_LOST = 5,
	REC_A_END_MAP_EVENTS_LOST_IN_KERNEL = 6,
};

using enum Presence;

struct FindingLossFlat {
	std::uint64_t first_seq = 0;
	std::uint64_t last_seq = 0;
	std::uint32_t cause = 0;
};

const std::array<AttributeRule<FindingLossFlat>, 3> finding_loss_rules{{
	{EDGEDMA_ATTRIBUTE(REC_A_FINDING_LOSS_FIRST_SEQ), &FindingLossFlat::first_seq, required},
	{EDGEDMA_ATTRIBUTE(REC_A_FINDING_LOSS_LAST_SEQ), &FindingLossFlat::last_seq, required},
	{EDGEDMA_ATTRIBUTE(REC_A_FINDING_LOSS_CAUSE), &FindingLossFlat::cause, required},
}};

const std::array<AttributeRule<MapEventLoss>, 3> map_event_loss_rules{{
	{EDGEDMA_ATTRIBUTE(REC_A_MAP_EVENT_LOSS_CPU), &MapEventLoss::cpu, required},
	{EDGEDMA_ATTRIBUTE(REC_A_MAP_EVENT_LOSS_FIRST_SEQ), &MapEventLoss::first_seq, required},
	{EDGEDMA_ATTRIBUTE(REC_A_MAP_EVENT_LOSS_LAST_SEQ), &MapEventLoss::last_seq, required},
}};

const std::array<AttributeRule<RecordingEnd>, 6> end_rules{{
	{EDGEDMA_ATTRIBUTE(REC_A_END_DURATION_NS), &RecordingEnd::duration_ns, required},
	{EDGEDMA_ATTRIBUTE(REC_A_END_FINDINGS), &RecordingEnd::findings, required},
	{EDGEDMA_ATTRIBUTE(REC_A_END_FINDINGS_LOST), &RecordingEnd::findings_lost, required},
	{EDGEDMA_ATTRIBUTE(REC_A_END_MAP_EVENTS), &RecordingEnd::map_events, required},
	{EDGEDMA_ATTRIBUTE(REC_A_END_MAP_EVENTS_LOST), &RecordingEnd::map_events_lost, required},
	{EDGEDMA_ATTRIBUTE(REC_A_END_MAP_EVENTS_LOST_IN_KERNEL),
	 &RecordingEnd::map_events_lost_in_kernel, required},
}};

void check_seq_range(std::string_view context, std::uint64_t first, std::uint64_t last)
{
	if (first == 0 || last < first)
		throw malformed(context, "loss of seq " + std::to_string(first) + ".." +
				std::to_string(last) + " is not a range");
}

struct Encoder {
	std::vector<std::byte> &out;

	RecordType operator()(const Info &info) const
	{
		encode_info(info, out);
		return RecordType::info;
	}
	RecordType operator()(const StatsSnapshot &snapshot) const
	{
		encode_stats(snapshot.stats, out);
		return snapshot.when == StatsSnapshot::When::start ? RecordType::stats_start
								   : RecordType::stats_end;
	}
	RecordType operator()(const DevicePolicy &policy) const
	{
		encode_policy(policy.policy, out);
		return RecordType::device_policy;
	}
	RecordType operator()(const PolicyOverride &policy) const
	{
		encode_policy(policy.policy, out);
		return RecordType::policy_override;
	}
	RecordType operator()(const LiveMapping &live) const
	{
		encode_mapping(live.mapping, out);
		return RecordType::live_mapping;
	}
	RecordType operator()(const Finding &finding) const
	{
		encode_finding(finding, out);
		return RecordType::finding;
	}
	RecordType operator()(const Loss &loss) const
	{
		FindingLossFlat flat{loss.first_seq, loss.last_seq,
				     loss.cause == Loss::Cause::gap ? 1u : 2u};
		encode_set(flat, finding_loss_rules, out);
		return RecordType::finding_loss;
	}
	RecordType operator()(const MapEvent &event) const
	{
		encode_map_event(event, out);
		return RecordType::map_event;
	}
	RecordType operator()(const MapEventLoss &loss) const
	{
		encode_set(loss, map_event_loss_rules, out);
		return RecordType::map_event_loss;
	}
	RecordType operator()(const SymbolTable &symbols) const
	{
		const auto *text = reinterpret_cast<const std::byte *>(symbols.kallsyms.data());
		out.insert(out.end(), text, text + symbols.kallsyms.size());
		return RecordType::symbols;
	}
	RecordType operator()(const RecordingEnd &end) const
	{
		encode_set(end, end_rules, out);
		return RecordType::end;
	}
	RecordType operator()(const FindingRepeats &repeats) const
	{
		encode_finding_repeats(repeats, out);
		return RecordType::finding_repeats;
	}
	RecordType operator()(const Snapshot &snapshot) const
	{
		// The module's bytes, never re-encoded: the same record the
		// crash region and devcoredump carry.
		out.insert(out.end(), snapshot.record.begin(), snapshot.record.end());
		return RecordType::snapshot;
	}
};

} // namespace

RecordType encode_record(const Record &record, std::vector<std::byte> &out)
{
	return std::visit(Encoder{out}, record);
}

RecordType encode_record(const MapEvent &event, std::vector<std::byte> &out)
{
	return Encoder{out}(event);
}

std::string_view record_type_name(std::uint16_t type)
{
	switch (static_cast<RecordType>(type)) {
	case RecordType::info: return "INFO";
	case RecordType::stats_start: return "STATS_START";
	case RecordType::stats_end: return "STATS_END";
	case RecordType::device_policy: return "DEVICE_POLICY";
	case RecordType::policy_override: return "POLICY_OVERRIDE";
	case RecordType::live_mapping: return "LIVE_MAPPING";
	case RecordType::finding: return "FINDING";
	case RecordType::finding_loss: return "FINDING_LOSS";
	case RecordType::map_event: return "MAP_EVENT";
	case RecordType::map_event_loss: return "MAP_EVENT_LOSS";
	case RecordType::symbols: return "SYMBOLS";
	case RecordType::end: return "END";
	case RecordType::finding_repeats: return "FINDING_REPEATS";
	case RecordType::snapshot: return "SNAPSHOT";
	}
	return "unknown";
}

std::optional<Record> decode_record(std::uint16_t type, std::span<const std::byte> payload,
				    std::string_view context)
{
	switch (static_cast<RecordType>(type)) {
	case RecordType::info:
		return decode_info(payload);
	case RecordType::stats_start:
		return StatsSnapshot{StatsSnapshot::When::start, decode_stats(payload)};
	case RecordType::stats_end:
		return StatsSnapshot{StatsSnapshot::When::end, decode_stats(payload)};
	case RecordType::device_policy:
		return DevicePolicy{decode_policy(payload, context)};
	case RecordType::policy_override:
		return PolicyOverride{decode_policy(payload, context)};
	case RecordType::live_mapping:
		return LiveMapping{decode_mapping(payload, context)};
	case RecordType::finding:
		return decode_finding(payload, context);
	case RecordType::finding_loss: {
		auto flat = decode_set(context, payload, finding_loss_rules);
		check_seq_range(context, flat.first_seq, flat.last_seq);
		if (flat.cause != 1 && flat.cause != 2)
			throw malformed(context, "unknown loss cause " + std::to_string(flat.cause));
		return Loss{flat.first_seq, flat.last_seq,
			    flat.cause == 1 ? Loss::Cause::gap : Loss::Cause::overflow};
	}
	case RecordType::map_event:
		return decode_map_event(payload, context);
	case RecordType::map_event_loss: {
		auto loss = decode_set(context, payload, map_event_loss_rules);
		check_seq_range(context, loss.first_seq, loss.last_seq);
		return loss;
	}
	case RecordType::symbols:
		return SymbolTable{std::string(reinterpret_cast<const char *>(payload.data()),
					       payload.size())};
	case RecordType::end:
		return decode_set(context, payload, end_rules);
	case RecordType::finding_repeats:
		return decode_finding_repeats(payload, context);
	case RecordType::snapshot:
		return decode_snapshot(payload, context);
	}
	return std::nullopt;
}

bool decode_record_into(std::uint16_t type, std::span<const std::byte> payload,
			std::string_view context, Record &record)
{
	// Mapping events are nearly all of a recording: decoded in place.
	if (static_cast<RecordType>(type) == RecordType::map_event) [[likely]] {
		auto *event = std::get_if<MapEvent>(&record);
		if (!event) [[unlikely]]
			event = &record.emplace<MapEvent>();
		decode_map_event_into(payload, context, *event);
		return true;
	}
	std::optional<Record> decoded = decode_record(type, payload, context);
	if (!decoded)
		return false;
	record = std::move(*decoded);
	return true;
}

} // namespace edgedma::detail
