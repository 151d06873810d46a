// SPDX-License-Identifier: LGPL-2.1-or-later
#include "finding_receiver.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <linux/edgedma.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>

#include <edgedma/error.hpp>

#include "decode.hpp"
#include "errors.hpp"
#include "multicast_socket.hpp"

namespace edgedma::detail {
namespace {

constexpr std::string_view stream_context = "event stream";
constexpr std::string_view notification = "FINDING notification";
constexpr std::string_view repeats_notification = "FINDING_REPEATS notification";
constexpr std::string_view snapshot_notification = "SNAPSHOT notification";

} // namespace

FindingReceiver::FindingReceiver(ReceiverSetup setup)
	: setup_(std::move(setup)), sequencer_(setup_.read_log, setup_.first_seq),
	  ring_(std::make_unique<DatagramRing>(setup_.fd, setup_.ring)),
	  catch_up_pending_(setup_.catch_up)
{
	if (setup_.drops)
		drops_seen_ = setup_.drops();
}

bool FindingReceiver::drops_grew()
{
	std::optional<std::uint64_t> now = setup_.drops ? setup_.drops() : std::nullopt;
	// Without a counter, assume the worst: a needless resync costs a dump,
	// a missed one costs findings.
	bool grew = !now || !drops_seen_ || *now != *drops_seen_;
	drops_seen_ = now;
	return grew;
}

void FindingReceiver::on_failure(const DatagramRing::Failure &failure)
{
	if (failure.error_number != ENOBUFS)
		return;
	// A multishot recv also fails with ENOBUFS when the buffer ring ran
	// dry for a moment; only the socket's drop counter tells.
	if (drops_grew() || !failure.maybe_out_of_buffers)
		overflowed_ = true;
}

void FindingReceiver::parse(std::span<const std::byte> datagram)
{
	while (datagram.size() >= sizeof(nlmsghdr)) {
		const auto &message = *reinterpret_cast<const nlmsghdr *>(datagram.data());
		if (message.nlmsg_len < sizeof(nlmsghdr))
			throw malformed(stream_context, "netlink message of " +
					std::to_string(message.nlmsg_len) + " bytes");
		if (message.nlmsg_len > datagram.size()) {
			// Cut short by a buffer too small: a notification is gone.
			overflowed_ = true;
			return;
		}
		if (message.nlmsg_type == setup_.family_id) {
			const std::uint8_t command = genl_command(message, notification);
			if (command == EDGEDMA_CMD_FINDING)
				notified_.push_back(decode_finding(
					genl_attributes(message, notification), notification));
			else if (command == EDGEDMA_CMD_FINDING_REPEATS)
				repeats_.push_back(decode_finding_repeats(
					genl_attributes(message, repeats_notification),
					repeats_notification));
			else if (command == EDGEDMA_CMD_SNAPSHOT)
				snapshots_.push_back(decode_snapshot_header(
					genl_attributes(message, snapshot_notification),
					snapshot_notification));
			// Other commands: notifications of a newer module.
		} else if (message.nlmsg_type == GENL_ID_CTRL) {
			if (says_family_removed(message, setup_.family_id))
				family_gone_ = true;
		}
		datagram = datagram.subspan(
			std::min<std::size_t>(NLMSG_ALIGN(message.nlmsg_len), datagram.size()));
	}
}

std::vector<StreamEvent> FindingReceiver::poll(std::optional<std::chrono::nanoseconds> timeout)
{
	std::vector<StreamEvent> events;
	if (family_gone_)
		throw Error(std::string(stream_context), "the edgedma module was unloaded");
	if (catch_up_pending_) {
		sequencer_.catch_up(events);
		sequencer_.end_batch();
		catch_up_pending_ = false;
		if (!events.empty())
			return events;
	}

	auto on_datagram = [this](std::span<const std::byte> datagram) { parse(datagram); };
	auto on_failure = [this](const DatagramRing::Failure &failure) {
		this->on_failure(failure);
	};
	ring_->wait(timeout, on_datagram, on_failure);
	// After an overflow, what the socket still holds comes first: the
	// socket reports ENOBUFS before the datagrams queued ahead of the
	// drop, and those must not be counted lost only because the resync
	// came before them. (Bounded: a flood must not keep the resync away.)
	for (int round = 0; overflowed_ && round < 64; round++)
		if (ring_->wait(std::chrono::nanoseconds::zero(), on_datagram, on_failure) == 0)
			break;

	// Batched receives may complete out of order.
	std::ranges::stable_sort(notified_, {}, &Finding::seq);
	for (Finding &finding : notified_)
		sequencer_.notified(std::move(finding), events);
	notified_.clear();
	// Then everything the log has past the last notification: no later
	// notification may come to show what the overflow dropped.
	if (overflowed_) {
		sequencer_.overflowed(events);
		overflowed_ = false;
	}
	sequencer_.end_batch();
	// After the findings: a repeat names one numbered before, which this
	// batch may have delivered.
	for (FindingRepeats &repeats : repeats_)
		sequencer_.repeated(std::move(repeats), events);
	repeats_.clear();
	std::ranges::stable_sort(snapshots_, {}, &SnapshotHeader::seq);
	for (SnapshotHeader &snapshot : snapshots_)
		sequencer_.snapshot_announced(std::move(snapshot), events);
	snapshots_.clear();

	if (family_gone_ && events.empty())
		throw Error(std::string(stream_context), "the edgedma module was unloaded");
	return events;
}

} // namespace edgedma::detail
