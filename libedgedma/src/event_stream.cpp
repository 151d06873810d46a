// SPDX-License-Identifier: LGPL-2.1-or-later
#include <edgedma/event_stream.hpp>

#include <cerrno>
#include <system_error>

#include <sys/socket.h>
#include <linux/edgedma.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include <edgedma/client.hpp>
#include <edgedma/error.hpp>

#include "finding_receiver.hpp"
#include "genl_socket.hpp"
#include "unique_fd.hpp"

namespace edgedma {
namespace {

constexpr std::string_view context = "event stream";

Error system_failure(std::string_view action, int error_number)
{
	return Error(std::string(context),
		     std::string(action) + ": " + std::generic_category().message(error_number),
		     error_number);
}

// What the stream needs to know of the family, asked once.
struct FamilyIds {
	std::uint16_t family = 0;
	std::uint32_t events_group = 0;
	std::optional<std::uint32_t> nlctrl_group; // nlctrl "notify"
};

FamilyIds resolve_ids()
{
	detail::GenlSocket socket;
	FamilyIds ids;
	auto family = socket.resolve_family(EDGEDMA_FAMILY_NAME);
	if (!family)
		throw Error({}, "edgedma module not loaded (generic netlink family '"
				EDGEDMA_FAMILY_NAME "' not found)");
	ids.family = static_cast<std::uint16_t>(*family);
	auto events = socket.resolve_group(EDGEDMA_FAMILY_NAME, EDGEDMA_MCGRP_EVENTS);
	if (!events)
		throw Error(std::string(context), "the edgedma module has no multicast group '"
			    EDGEDMA_MCGRP_EVENTS "'");
	ids.events_group = *events;
	// Tells the stream when the module goes away; optional.
	ids.nlctrl_group = socket.resolve_group("nlctrl", "notify");
	return ids;
}

void join_group(int fd, std::uint32_t group)
{
	if (::setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof group) < 0)
		throw system_failure("join multicast group " + std::to_string(group), errno);
}

// SO_RCVBUFFORCE passes net.core.rmem_max but needs CAP_NET_ADMIN.
int grow_receive_buffer(int fd, int bytes)
{
	if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof bytes) < 0 &&
	    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes) < 0)
		throw system_failure("set the receive buffer", errno);
	int granted = 0;
	socklen_t length = sizeof granted;
	if (::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &granted, &length) < 0)
		throw system_failure("read the receive buffer size", errno);
	return granted;
}

std::optional<std::uint64_t> socket_drops(int fd)
{
	std::uint32_t meminfo[SK_MEMINFO_VARS] = {};
	socklen_t length = sizeof meminfo;
	if (::getsockopt(fd, SOL_SOCKET, SO_MEMINFO, meminfo, &length) < 0 ||
	    length <= SK_MEMINFO_DROPS * sizeof(std::uint32_t))
		return std::nullopt;
	return meminfo[SK_MEMINFO_DROPS];
}

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

std::string_view receive_mode_name(ReceiveMode mode)
{
	switch (mode) {
	case ReceiveMode::automatic: return "automatic";
	case ReceiveMode::multishot: return "multishot";
	case ReceiveMode::batched: return "batched";
	}
	return "?";
}

class __attribute__((visibility("hidden"))) EventStream::Impl {
public:
	explicit Impl(const Options &options)
	{
		FamilyIds ids = resolve_ids();
		socket_ = detail::UniqueFd(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
						    NETLINK_GENERIC));
		if (!socket_)
			throw system_failure("open a generic netlink socket", errno);
		sockaddr_nl address{};
		address.nl_family = AF_NETLINK;
		if (::bind(socket_.get(), reinterpret_cast<const sockaddr *>(&address),
			   sizeof address) < 0)
			throw system_failure("bind the netlink socket", errno);
		receive_buffer_ = grow_receive_buffer(socket_.get(), options.receive_buffer);
		join_group(socket_.get(), ids.events_group);
		if (ids.nlctrl_group)
			join_group(socket_.get(), *ids.nlctrl_group);

		// Subscribed first, then the newest seq read: every finding after
		// it is either notified to this socket or missed visibly.
		detail::ReceiverSetup setup;
		setup.fd = socket_.get();
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
		int fd = socket_.get();
		setup.drops = [fd] { return socket_drops(fd); };
		setup.ring.mode = options.receive_mode;
		receiver_.emplace(std::move(setup));
	}

	detail::FindingReceiver &receiver() { return *receiver_; }
	const detail::FindingReceiver &receiver() const { return *receiver_; }
	int receive_buffer() const { return receive_buffer_; }

private:
	Client client_;
	detail::UniqueFd socket_;
	int receive_buffer_ = 0;
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
