// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include <linux/netlink.h>

#include <edgedma/error.hpp>

#include "nl_handles.hpp"

namespace edgedma::detail {

// A generic netlink socket that runs one request at a time and turns every
// refusal by the kernel into an edgedma::Error carrying errno and the
// kernel's extended-ack message.
class GenlSocket {
public:
	// Connects, and asks the kernel for extended acks without the echoed
	// request. Throws Error.
	GenlSocket();
	// The same over a socket already connected: the tests' stand-in for
	// the kernel is a NETLINK_USERSOCK socket at the peer port.
	explicit GenlSocket(SocketHandle connected);

	// The id of a generic netlink family, or nothing if the kernel has no
	// family of that name.
	std::optional<int> resolve_family(const char *name);
	// The id of a family's multicast group, or nothing if the kernel has no
	// such family or group.
	std::optional<std::uint32_t> resolve_group(const char *family, const char *group);

	// Makes the socket's receive buffer hold at least bytes, as the kernel
	// counts it (SO_RCVBUF reads back twice what is set): SO_RCVBUFFORCE
	// where the caller may (CAP_NET_ADMIN), else SO_RCVBUF, which the
	// kernel caps at net.core.rmem_max. Never shrinks it. Returns the size
	// the kernel granted, which may be less than asked. Throws Error.
	int reserve_receive_buffer(int bytes);

	using AttributeWriter = std::function<void(nl_msg &request)>;
	using ReplyHandler = std::function<void(const nlmsghdr &reply)>;

	// Sends command to family, with the attributes write_attributes adds,
	// passes each reply message to on_reply, and returns once the kernel has
	// acknowledged the request. operation names the request in errors. An
	// exception from on_reply is rethrown after the acknowledgement has been
	// read, so the socket stays usable.
	void request(int family, std::uint8_t command, std::uint8_t version,
		     std::string_view operation,
		     const AttributeWriter &write_attributes,
		     const ReplyHandler &on_reply);

	// How a dump went.
	struct DumpResult {
		// The kernel set NLM_F_DUMP_INTR on a message: what it dumped
		// changed while it did, so entries may be missing or repeated.
		// Every message was still read and passed on.
		bool interrupted = false;
	};

	// The same for a dump (NLM_F_DUMP): on_reply sees every message of the
	// multipart answer, which ends with NLMSG_DONE; an error the kernel puts
	// in that NLMSG_DONE (with its extack) is thrown like a refusal. An
	// interrupted dump is not an error: the result says so, and the caller
	// decides whether to dump again.
	DumpResult dump(int family, std::uint8_t command, std::uint8_t version,
			std::string_view operation,
			const AttributeWriter &write_attributes,
			const ReplyHandler &on_reply);

private:
	enum class Kind { request, dump };
	DumpResult exchange(Kind kind, int family, std::uint8_t command, std::uint8_t version,
			    std::string_view operation,
			    const AttributeWriter &write_attributes,
			    const ReplyHandler &on_reply);
	void enable_option(int option, std::string_view option_name);
	int receive_buffer() const;
	Error dropped_answer(std::string_view operation);

	SocketHandle socket_;
};

} // namespace edgedma::detail
