// SPDX-License-Identifier: LGPL-2.1-or-later
#include <edgedma/map_event_stream.hpp>

#include <algorithm>
#include <cerrno>
#include <map>

#include <linux/edgedma.h>
#include <linux/genetlink.h>

#include <edgedma/client.hpp>
#include <edgedma/error.hpp>

#include "datagram_ring.hpp"
#include "decode.hpp"
#include "errors.hpp"
#include "multicast_socket.hpp"

namespace edgedma {
namespace {

constexpr std::string_view map_events_context = "mapping-event stream";
constexpr std::string_view notification = "MAP_EVENTS notification";

} // namespace

class __attribute__((visibility("hidden"))) MapEventStream::Impl {
public:
	explicit Impl(const Options &options) : socket_(options.receive_buffer, map_events_context)
	{
		ids_ = detail::resolve_stream_ids(EDGEDMA_MCGRP_MAP_EVENTS, map_events_context);
		socket_.join(ids_.group);
		if (ids_.nlctrl_group)
			socket_.join(*ids_.nlctrl_group);
		detail::RingOptions ring;
		ring.mode = options.receive_mode;
		// A notification fills at most one page of the module's messages.
		ring.buffer_size = 32768;
		ring.buffer_count = 256;
		ring_ = std::make_unique<detail::DatagramRing>(socket_.fd(), ring);
		// Subscribed first: every event after the cursors reaches this
		// socket or shows as a gap.
		MapEventsState state = client_.map_events_set(true);
		turned_on_ = !state.was_enabled;
		for (const auto &cursor : state.cursors)
			cpus_[cursor.cpu] = {cursor.next_seq, cursor.next_seq, cursor.dropped};
	}

	~Impl()
	{
		if (turned_on_ && !finished_) {
			try {
				client_.map_events_set(false);
			} catch (const Error &) {
				// The module may be gone; nothing left to turn off.
			}
		}
	}

	template <typename OnEvent, typename OnLoss>
	std::size_t poll(std::optional<std::chrono::nanoseconds> timeout, OnEvent &&on_event,
			 OnLoss &&on_loss)
	{
		if (finished_)
			throw Error(std::string(map_events_context), "the stream is finished");
		wait(timeout);
		std::size_t handed = deliver(on_event, on_loss);
		if (family_gone_ && handed == 0)
			throw Error(std::string(map_events_context), "the edgedma module was unloaded");
		return handed;
	}

	template <typename OnEvent, typename OnLoss>
	std::size_t finish(OnEvent &&on_event, OnLoss &&on_loss)
	{
		if (finished_)
			throw Error(std::string(map_events_context), "the stream is finished");
		finished_ = true;
		// Only the stream that turned it on turns it off; another one
		// must not turn it back on if that one finished first.
		MapEventsState state =
			turned_on_ ? client_.map_events_set(false) : client_.map_events_state();
		// The module sent everything below the cursors before it answered:
		// what did not overflow is in the socket now.
		std::size_t handed = 0;
		while (wait(std::chrono::nanoseconds::zero()) != 0)
			handed += deliver(on_event, on_loss);
		handed += deliver(on_event, on_loss);
		for (const auto &cursor : state.cursors) {
			auto found = cpus_.find(cursor.cpu);
			if (found == cpus_.end())
				continue; // a CPU that came after the start: not ours
			Cpu &cpu = found->second;
			counters_.lost_in_kernel += cursor.dropped - cpu.dropped_at_start;
			if (cpu.expected < cursor.next_seq) {
				MapEventLoss loss = lose(cpu, cursor.cpu, cursor.next_seq);
				handed++;
				on_loss(loss);
			}
		}
		return handed;
	}

	const MapEventCounters &counters() const { return counters_; }
	ReceiveMode mode() const { return ring_->mode(); }
	int receive_buffer() const { return socket_.receive_buffer(); }

private:
	struct Cpu {
		std::uint64_t start = 1;    // first seq this stream accounts for
		std::uint64_t expected = 1; // next seq due
		std::uint64_t dropped_at_start = 0;
	};

	std::size_t wait(std::optional<std::chrono::nanoseconds> timeout)
	{
		return ring_->wait(
			timeout, [this](std::span<const std::byte> datagram) { parse(datagram); },
			[this](const detail::DatagramRing::Failure &failure) {
				if (failure.error_number != ENOBUFS)
					throw Error(std::string(map_events_context), "receive failed",
						    failure.error_number);
				// Gaps in the numbers say what was lost.
				if (!failure.maybe_out_of_buffers || drops_grew())
					counters_.overflows++;
			});
	}

	bool drops_grew()
	{
		auto now = socket_.drops();
		bool grew = !now || !drops_seen_ || *now != *drops_seen_;
		drops_seen_ = now;
		return grew;
	}

	void parse(std::span<const std::byte> datagram)
	{
		while (datagram.size() >= sizeof(nlmsghdr)) {
			const auto &message = *reinterpret_cast<const nlmsghdr *>(datagram.data());
			if (message.nlmsg_len < sizeof(nlmsghdr))
				throw detail::malformed(map_events_context, "netlink message of " +
								 std::to_string(message.nlmsg_len) +
								 " bytes");
			if (message.nlmsg_len > datagram.size())
				return; // cut short: its events show as a gap
			if (message.nlmsg_type == ids_.family) {
				if (detail::genl_command(message, notification) ==
				    EDGEDMA_CMD_MAP_EVENTS) {
					counters_.messages++;
					detail::decode_map_events_into(
						detail::genl_attributes(message, notification),
						notification, pending_);
				}
			} else if (message.nlmsg_type == GENL_ID_CTRL) {
				if (detail::says_family_removed(message, ids_.family))
					family_gone_ = true;
			}
			datagram = datagram.subspan(std::min<std::size_t>(
				NLMSG_ALIGN(message.nlmsg_len), datagram.size()));
		}
	}

	// Every seq of cpu from the one due to before up to: lost. The seq due
	// moves on before the loss is handed over, so a handler that throws
	// does not get it twice.
	MapEventLoss lose(Cpu &cpu, std::uint32_t number, std::uint64_t up_to)
	{
		MapEventLoss loss{number, cpu.expected, up_to - 1};
		counters_.lost += up_to - cpu.expected;
		cpu.expected = up_to;
		return loss;
	}

	// Pending events in (cpu, seq) order, with the gaps between them, from
	// the first not yet handed over (a handler may have thrown before).
	template <typename OnEvent, typename OnLoss>
	std::size_t deliver(OnEvent &on_event, OnLoss &on_loss)
	{
		// Batched receives may complete out of order; a multishot recv
		// and one sender keep each CPU's events in order, and the check
		// costs far less than a sort (a merge sort allocates and moves
		// every event).
		auto by_cpu_seq = [](const MapEvent &a, const MapEvent &b) {
			return a.cpu != b.cpu ? a.cpu < b.cpu : a.seq < b.seq;
		};
		auto undelivered = pending_.events().subspan(delivered_);
		if (!std::ranges::is_sorted(undelivered, by_cpu_seq))
			std::ranges::stable_sort(undelivered, by_cpu_seq);
		std::size_t handed = 0;
		while (delivered_ < pending_.size()) {
			MapEvent &event = pending_.events()[delivered_];
			auto found = cpus_.find(event.cpu);
			if (found == cpus_.end() || event.seq < found->second.start) {
				// Numbered before this stream began: not ours.
				delivered_++;
				continue;
			}
			Cpu &cpu = found->second;
			if (event.seq < cpu.expected) {
				// Already reported lost; it came after all.
				counters_.late++;
				counters_.lost--;
			} else if (event.seq > cpu.expected) {
				MapEventLoss loss = lose(cpu, event.cpu, event.seq);
				handed++;
				on_loss(loss);
			}
			cpu.expected = std::max(cpu.expected, event.seq + 1);
			counters_.received++;
			delivered_++;
			handed++;
			on_event(event);
		}
		pending_.clear();
		delivered_ = 0;
		return handed;
	}

	Client client_;
	detail::StreamIds ids_;
	detail::MulticastSocket socket_;
	std::map<std::uint32_t, Cpu> cpus_;
	detail::MapEventSlots pending_;
	std::size_t delivered_ = 0; // of pending_, handed over
	MapEventCounters counters_;
	std::optional<std::uint64_t> drops_seen_;
	bool turned_on_ = false;
	bool finished_ = false;
	bool family_gone_ = false;
	// Last: torn down first, while the socket it reads still exists.
	std::unique_ptr<detail::DatagramRing> ring_;
};

MapEventStream::MapEventStream(const Options &options) : impl_(std::make_unique<Impl>(options))
{
}
MapEventStream::MapEventStream() : MapEventStream(Options{}) {}
MapEventStream::~MapEventStream() = default;
MapEventStream::MapEventStream(MapEventStream &&) noexcept = default;
MapEventStream &MapEventStream::operator=(MapEventStream &&) noexcept = default;

namespace {

// The vector API on top of the handlers: each event moved into the vector
// (its names' buffers go with it, as they would have been allocated anyway).
struct AppendTo {
	std::vector<MapStreamEvent> &out;
	void operator()(MapEvent &event) const { out.emplace_back(std::move(event)); }
	void operator()(const MapEventLoss &loss) const { out.emplace_back(loss); }
};

// The handlers' API: each by const reference, the stream's storage kept.
struct HandTo {
	const MapStreamHandlers &handlers;
	void operator()(const MapEvent &event) const
	{
		if (handlers.event)
			handlers.event(event);
	}
	void operator()(const MapEventLoss &loss) const
	{
		if (handlers.loss)
			handlers.loss(loss);
	}
};

} // namespace

std::vector<MapStreamEvent> MapEventStream::poll(std::optional<std::chrono::nanoseconds> timeout)
{
	std::vector<MapStreamEvent> out;
	AppendTo append{out};
	impl_->poll(timeout, append, append);
	return out;
}

std::vector<MapStreamEvent> MapEventStream::finish()
{
	std::vector<MapStreamEvent> out;
	AppendTo append{out};
	impl_->finish(append, append);
	return out;
}

std::size_t MapEventStream::poll(std::optional<std::chrono::nanoseconds> timeout,
				 const MapStreamHandlers &handlers)
{
	HandTo hand{handlers};
	return impl_->poll(timeout, hand, hand);
}

std::size_t MapEventStream::finish(const MapStreamHandlers &handlers)
{
	HandTo hand{handlers};
	return impl_->finish(hand, hand);
}

const MapEventCounters &MapEventStream::counters() const
{
	return impl_->counters();
}

ReceiveMode MapEventStream::receive_mode() const
{
	return impl_->mode();
}

int MapEventStream::receive_buffer() const
{
	return impl_->receive_buffer();
}

} // namespace edgedma
