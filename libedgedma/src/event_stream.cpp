// SPDX-License-Identifier: LGPL-2.1-or-later
#include <edgedma/event_stream.hpp>

#include <linux/edgedma.h>

#include <edgedma/client.hpp>
#include <edgedma/error.hpp>
#include <edgedma/names.hpp>

#include "finding_receiver.hpp"
#include "multicast_socket.hpp"
#include "report_common.hpp"

namespace edgedma {
namespace {

constexpr std::string_view events_context = "event stream";

} // namespace

std::string_view loss_cause_name(Loss::Cause cause)
{
	switch (cause) {
	case Loss::Cause::gap: return "gap";
	case Loss::Cause::overflow: return "overflow";
	}
	return "?";
}

std::string describe(const Loss &loss)
{
	std::string text = "lost " + std::to_string(loss.count()) +
			   (loss.count() == 1 ? " finding" : " findings") + " (seq " +
			   std::to_string(loss.first_seq);
	if (loss.last_seq != loss.first_seq)
		text += ".." + std::to_string(loss.last_seq);
	text += "): ";
	switch (loss.cause) {
	case Loss::Cause::gap:
		text += "not received, and no longer in the module's log";
		break;
	case Loss::Cause::overflow:
		text += "the socket overflowed, and the module's log no longer holds them";
		break;
	}
	return text;
}

std::string describe(const FindingRepeats &repeats, std::optional<std::uint64_t> now_ns)
{
	std::string text = "finding " + std::to_string(repeats.seq) + " " +
			   finding_kind_label(repeats.kind) + " on " + repeats.device + " (" +
			   (repeats.driver.empty() ? "no driver" : repeats.driver) + "): x" +
			   std::to_string(repeats.occurrences) + " so far";
	if (now_ns && *now_ns >= repeats.last_time_ns)
		text += ", last " + detail::duration(*now_ns - repeats.last_time_ns) + " ago";
	return text;
}

std::string_view receive_mode_name(ReceiveMode mode)
{
	switch (mode) {
	case ReceiveMode::automatic: return "automatic";
	case ReceiveMode::multishot: return "multishot";
	case ReceiveMode::batched: return "batched";
	case ReceiveMode::recv: return "recv";
	}
	return "?";
}

class __attribute__((visibility("hidden"))) EventStream::Impl {
public:
	explicit Impl(const Options &options)
		: socket_(options.receive_buffer, events_context)
	{
		detail::StreamIds ids = detail::resolve_stream_ids(EDGEDMA_MCGRP_EVENTS, events_context);
		socket_.join(ids.group);
		if (ids.nlctrl_group)
			socket_.join(*ids.nlctrl_group);

		// Subscribed first, then the newest seq read: every finding after
		// it is either notified to this socket or missed visibly.
		detail::ReceiverSetup setup;
		setup.fd = socket_.fd();
		setup.family_id = ids.family;
		if (options.from_seq) {
			setup.first_seq = *options.from_seq;
			setup.catch_up = true;
		} else {
			setup.first_seq = client_.get_stats().findings + 1;
		}
		setup.read_log = [this](std::uint64_t from_seq) {
			return client_.findings(from_seq);
		};
		setup.drops = [this] { return socket_.drops(); };
		setup.ring.mode = options.receive_mode;
		receiver_.emplace(std::move(setup));
	}

	detail::FindingReceiver &receiver() { return *receiver_; }
	const detail::FindingReceiver &receiver() const { return *receiver_; }
	int receive_buffer() const { return socket_.receive_buffer(); }

private:
	Client client_;
	detail::MulticastSocket socket_;
	// Last: its ring reads from socket_.
	std::optional<detail::FindingReceiver> receiver_;
};

EventStream::EventStream(const Options &options) : impl_(std::make_unique<Impl>(options)) {}
EventStream::EventStream() : EventStream(Options{}) {}
EventStream::~EventStream() = default;
EventStream::EventStream(EventStream &&) noexcept = default;
EventStream &EventStream::operator=(EventStream &&) noexcept = default;

std::vector<StreamEvent> EventStream::poll(std::optional<std::chrono::nanoseconds> timeout)
{
	return impl_->receiver().poll(timeout);
}

const StreamCounters &EventStream::counters() const
{
	return impl_->receiver().counters();
}

ReceiveMode EventStream::receive_mode() const
{
	return impl_->receiver().mode();
}

int EventStream::receive_buffer() const
{
	return impl_->receive_buffer();
}

} // namespace edgedma
