// SPDX-License-Identifier: LGPL-2.1-or-later
#include "multicast_socket.hpp"

#include <cerrno>
#include <string>
#include <system_error>

#include <sys/socket.h>
#include <linux/edgedma.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netlink/attr.h>

#include <edgedma/error.hpp>

#include "decode.hpp"
#include "genl_socket.hpp"

namespace edgedma::detail {
namespace {

Error system_failure(std::string_view context, std::string_view action, int error_number)
{
	return Error(std::string(context),
		     std::string(action) + ": " + std::generic_category().message(error_number),
		     error_number);
}

} // namespace

bool says_family_removed(const nlmsghdr &message, std::uint16_t family_id)
{
	if (genl_command(message, "nlctrl notification") != CTRL_CMD_DELFAMILY)
		return false;
	auto attributes = genl_attributes(message, "nlctrl notification");
	const nlattr *id = nla_find(reinterpret_cast<const nlattr *>(attributes.data()),
				    static_cast<int>(attributes.size()), CTRL_ATTR_FAMILY_ID);
	return id && nla_len(id) == sizeof(std::uint16_t) && nla_get_u16(id) == family_id;
}

StreamIds resolve_stream_ids(const char *group_name, std::string_view context)
{
	GenlSocket socket;
	StreamIds ids;
	auto family = socket.resolve_family(EDGEDMA_FAMILY_NAME);
	if (!family)
		throw Error({}, "edgedma module not loaded (generic netlink family '"
				EDGEDMA_FAMILY_NAME "' not found)");
	ids.family = static_cast<std::uint16_t>(*family);
	auto group = socket.resolve_group(EDGEDMA_FAMILY_NAME, group_name);
	if (!group)
		throw Error(std::string(context), "the edgedma module has no multicast group '" +
						  std::string(group_name) +
						  "' (a module older than this library?)");
	ids.group = *group;
	ids.nlctrl_group = socket.resolve_group("nlctrl", "notify");
	return ids;
}

MulticastSocket::MulticastSocket(int receive_buffer, std::string_view context)
	: context_(context),
	  fd_(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC))
{
	if (!fd_)
		throw system_failure(context_, "open a generic netlink socket", errno);
	sockaddr_nl address{};
	address.nl_family = AF_NETLINK;
	if (::bind(fd_.get(), reinterpret_cast<const sockaddr *>(&address), sizeof address) < 0)
		throw system_failure(context_, "bind the netlink socket", errno);
	if (::setsockopt(fd_.get(), SOL_SOCKET, SO_RCVBUFFORCE, &receive_buffer,
			 sizeof receive_buffer) < 0 &&
	    ::setsockopt(fd_.get(), SOL_SOCKET, SO_RCVBUF, &receive_buffer,
			 sizeof receive_buffer) < 0)
		throw system_failure(context_, "set the receive buffer", errno);
	socklen_t length = sizeof receive_buffer_;
	if (::getsockopt(fd_.get(), SOL_SOCKET, SO_RCVBUF, &receive_buffer_, &length) < 0)
		throw system_failure(context_, "read the receive buffer size", errno);
}

void MulticastSocket::join(std::uint32_t group)
{
	if (::setsockopt(fd_.get(), SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof group) < 0)
		throw system_failure(context_, "join multicast group " + std::to_string(group),
				     errno);
}

std::optional<std::uint64_t> MulticastSocket::drops() const
{
	std::uint32_t meminfo[SK_MEMINFO_VARS] = {};
	socklen_t length = sizeof meminfo;
	if (::getsockopt(fd_.get(), SOL_SOCKET, SO_MEMINFO, meminfo, &length) < 0 ||
	    length <= SK_MEMINFO_DROPS * sizeof(std::uint32_t))
		return std::nullopt;
	return meminfo[SK_MEMINFO_DROPS];
}

} // namespace edgedma::detail
