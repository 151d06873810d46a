// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The one place libedgedma turns the module's netlink attributes into C++
// values. Every function takes bytes already received, so all of this is
// testable without a kernel.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <linux/netlink.h>

#include <edgedma/crash.hpp>
#include <edgedma/info.hpp>
#include <edgedma/records.hpp>
#include <edgedma/profile.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma::detail {

// The attributes of one message: a run of struct nlattr.
using AttributeStream = std::span<const std::byte>;

// The attributes after the generic netlink header of a message. Throws Error
// (context: what) when the message is too short to hold that header.
AttributeStream genl_attributes(const nlmsghdr &message, std::string_view what);

// The generic netlink command of a message (genlmsghdr.cmd). Throws Error
// like genl_attributes().
std::uint8_t genl_command(const nlmsghdr &message, std::string_view what);

// Decoders for each attribute set of <linux/edgedma.h>. They skip attributes
// they do not know (a newer module may add some) and throw Error naming the
// attribute when one is missing, repeated, or of the wrong size or type.
// context names the message in errors ("GET_INFO reply", "FINDING
// notification").
Info decode_info(AttributeStream attributes);
Stats decode_stats(AttributeStream attributes);
Finding decode_finding(AttributeStream attributes, std::string_view context);
// A FINDING_REPEATS notification (the finding attribute set, in part).
FindingRepeats decode_finding_repeats(AttributeStream attributes, std::string_view context);
Mapping decode_mapping(AttributeStream attributes, std::string_view context);
Device decode_device(AttributeStream attributes, std::string_view context);
Policy decode_policy(AttributeStream attributes, std::string_view context);
MapEvent decode_map_event(AttributeStream attributes, std::string_view context);
// The same into an event that may hold an earlier one, reusing its strings'
// buffers (decode_set_into()): the recording reader's path for the bulk of
// a recording. On a throw, event holds a mix of the two.
void decode_map_event_into(AttributeStream attributes, std::string_view context,
			   MapEvent &event);
// The events of a MAP_EVENTS notification (nested EDGEDMA_A_MAP_EVENTS_EVENT).
std::vector<MapEvent> decode_map_events(AttributeStream attributes, std::string_view context);
// The same, appended to events (decoded in place: no event is moved); on a
// malformed message events is left as it was and Error thrown.
void decode_map_events_into(AttributeStream attributes, std::string_view context,
			    std::vector<MapEvent> &events);

// Events decoded into storage kept from one batch to the next: a stream's
// events are decoded over earlier ones (decode_map_event_into()), so their
// device and driver names, mostly longer than a string holds inline ("0000:
// 00:03.0", "fe2a0000.ethernet"), cost no allocation per event. The first
// size() slots are the batch; the ones after wait for the next.
class MapEventSlots {
public:
	// The next slot, holding an earlier event or a new, empty one.
	MapEvent &next()
	{
		if (used_ == slots_.size())
			slots_.emplace_back();
		return slots_[used_++];
	}
	void truncate(std::size_t size) { used_ = std::min(used_, size); }
	void clear() { used_ = 0; }
	std::size_t size() const { return used_; }
	std::span<MapEvent> events() { return {slots_.data(), used_}; }

private:
	std::vector<MapEvent> slots_;
	std::size_t used_ = 0;
};

// decode_map_events_into() into slots: the same events, the same errors
// (a malformed message adds none of its events).
void decode_map_events_into(AttributeStream attributes, std::string_view context,
			    MapEventSlots &slots);

MapEventsState decode_map_events_state(AttributeStream attributes);
FoldingState decode_folding_state(AttributeStream attributes);

// A snapshot record: the SNAPSHOT_GET reply's attributes, and the same
// bytes wherever else a record travels (devcoredump, the crash region,
// recordings). Repeated parts (MAPPING, UNMAPPED, SKIPPED, PAGE,
// LINE_SHARER, REGISTER, and a register's FIELDs) come in record order;
// each mapping gets the header's device and driver, each line sharer keeps
// its own. Its u64s are
// unpadded, which the decoders read regardless (memcpy). The bytes are kept
// in Snapshot::record. Errors in a nested item name it: context ", " the
// attribute " " its number among its kind, from 1 (a register's field:
// the register's, then ", EDGEDMA_A_REGISTER_FIELD N").
Snapshot decode_snapshot(AttributeStream record, std::string_view context);
// A snapshot's header and record size: a message of the SNAPSHOT_GET dump,
// or a SNAPSHOT notification.
SnapshotHeader decode_snapshot_header(AttributeStream attributes, std::string_view context);
// The SNAPSHOT_TAKE reply: the seq of the snapshot taken.
std::uint64_t decode_snapshot_taken(AttributeStream attributes, std::string_view context);

// The CRASH_REGION_GET reply, and a message of the CRASH_RECORDS_GET dump.
CrashRegion decode_crash_region(AttributeStream attributes, std::string_view context);
CrashRecordEntry decode_crash_record_entry(AttributeStream attributes, std::string_view context);

// A message of the ERROR_HOOK_GET dump.
ErrorHook decode_error_hook(AttributeStream attributes, std::string_view context);

// A PROFILE_GET message: a whole profile (do) or its summary (dump).
LoadedProfile decode_profile(AttributeStream attributes, std::string_view context);
// PROFILE_SET's reply: how many devices the profile bound.
std::uint32_t decode_profile_bound(AttributeStream attributes, std::string_view context);

// The attribute sets written back, in the same attribute order the rules
// list and without padding (readers do not need it): for recordings and
// tests. Absent optional fields are left out.
void encode_info(const Info &info, std::vector<std::byte> &out);
void encode_stats(const Stats &stats, std::vector<std::byte> &out);
void encode_finding(const Finding &finding, std::vector<std::byte> &out);
void encode_finding_repeats(const FindingRepeats &repeats, std::vector<std::byte> &out);
void encode_mapping(const Mapping &mapping, std::vector<std::byte> &out);
void encode_map_event(const MapEvent &event, std::vector<std::byte> &out);
void encode_policy(const Policy &policy, std::vector<std::byte> &out);

// Record formats this library can decode.
bool record_format_supported(std::uint32_t record_format);

// What an NLMSG_ERROR message says: error 0 is an acknowledgement.
struct KernelAck {
	int error_number = 0; // positive errno
	std::string message;  // NLMSGERR_ATTR_MSG, empty if absent
	std::optional<std::uint32_t> missing_attribute; // NLMSGERR_ATTR_MISS_TYPE
};

// Decode an NLMSG_ERROR message, including the extended-ack attributes that
// follow struct nlmsgerr (and the echoed request, unless NLM_F_CAPPED).
// Throws Error only if struct nlmsgerr itself is cut short: a damaged extack
// must not hide the errno, so it is ignored instead.
KernelAck decode_ack(const nlmsghdr &error_message);

// Decode the NLMSG_DONE that ends a dump: an int error (0 when the dump
// succeeded), then extack attributes when NLM_F_ACK_TLVS is set. A DONE
// without the int (kernels before 4.x sent none) is a success.
KernelAck decode_done(const nlmsghdr &done_message);

} // namespace edgedma::detail
