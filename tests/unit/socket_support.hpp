// SPDX-License-Identifier: GPL-2.0
#pragma once

// Sockets for the receive-path tests: a datagram socket pair, and real
// netlink multicast on NETLINK_USERSOCK (open to any user, no kernel side),
// where a small receive buffer overflows for real.

#include <cerrno>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include <linux/netlink.h>
#include <sys/socket.h>

#include "unique_fd.hpp"

namespace edgedma::test {

inline std::runtime_error system_error(const std::string &what)
{
	return std::runtime_error(what + ": " + std::strerror(errno));
}

struct DatagramPair {
	detail::UniqueFd receiver;
	detail::UniqueFd sender;

	DatagramPair()
	{
		int fds[2];
		if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, fds) < 0)
			throw system_error("socketpair");
		receiver = detail::UniqueFd(fds[0]);
		sender = detail::UniqueFd(fds[1]);
	}

	void send(std::span<const std::byte> datagram) const
	{
		if (::send(sender.get(), datagram.data(), datagram.size(), 0) < 0)
			throw system_error("send");
	}
};

// A receiver subscribed to a NETLINK_USERSOCK multicast group and a sender
// that broadcasts to it.
struct UsersockMulticast {
	static constexpr unsigned group = 27; // below 32: reachable by nl_groups

	detail::UniqueFd receiver;
	detail::UniqueFd sender;

	explicit UsersockMulticast(int receive_buffer)
		: receiver(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_USERSOCK)),
		  sender(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_USERSOCK))
	{
		if (!receiver || !sender)
			throw system_error("socket(NETLINK_USERSOCK)");
		sockaddr_nl address{};
		address.nl_family = AF_NETLINK;
		if (::bind(receiver.get(), reinterpret_cast<sockaddr *>(&address), sizeof address) < 0)
			throw system_error("bind");
		unsigned joined = group;
		if (::setsockopt(receiver.get(), SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &joined,
				 sizeof joined) < 0)
			throw system_error("NETLINK_ADD_MEMBERSHIP");
		if (::setsockopt(receiver.get(), SOL_SOCKET, SO_RCVBUF, &receive_buffer,
				 sizeof receive_buffer) < 0)
			throw system_error("SO_RCVBUF");
	}

	// Broadcasts one datagram. NETLINK_USERSOCK has no kernel socket, so
	// the unicast part of the send fails with ECONNREFUSED after the
	// broadcast went out.
	void broadcast(std::span<const std::byte> datagram) const
	{
		sockaddr_nl to{};
		to.nl_family = AF_NETLINK;
		to.nl_groups = 1u << (group - 1);
		if (::sendto(sender.get(), datagram.data(), datagram.size(), 0,
			     reinterpret_cast<const sockaddr *>(&to), sizeof to) < 0 &&
		    errno != ECONNREFUSED)
			throw system_error("sendto");
	}
};

} // namespace edgedma::test
