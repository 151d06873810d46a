// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// A raw generic netlink socket subscribed to multicast groups, for the
// streams (EventStream, MapEventStream) that receive it with io_uring.

#include <cstdint>
#include <optional>
#include <string_view>

#include <linux/netlink.h>

#include "unique_fd.hpp"

namespace edgedma::detail {

// The ids a stream needs, resolved once: the edgedma family, one of its
// multicast groups, and nlctrl's "notify" group (it tells when the module
// goes away; optional).
struct StreamIds {
	std::uint16_t family = 0;
	std::uint32_t group = 0;
	std::optional<std::uint32_t> nlctrl_group;
};

// Does this nlctrl notification say that family is gone?
bool says_family_removed(const nlmsghdr &message, std::uint16_t family_id);

// Throws Error naming context when the module or the group is missing.
StreamIds resolve_stream_ids(const char *group_name, std::string_view context);

class MulticastSocket {
public:
	// Opens and binds the socket and asks for receive_buffer bytes of
	// buffer (SO_RCVBUFFORCE when privileged, else up to rmem_max).
	MulticastSocket(int receive_buffer, std::string_view context);

	void join(std::uint32_t group);
	int fd() const { return fd_.get(); }
	// The buffer the kernel granted, bytes.
	int receive_buffer() const { return receive_buffer_; }
	// The socket's count of dropped datagrams (SO_MEMINFO), if known.
	std::optional<std::uint64_t> drops() const;

private:
	std::string_view context_;
	UniqueFd fd_;
	int receive_buffer_ = 0;
};

} // namespace edgedma::detail
