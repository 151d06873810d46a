// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Owning handles for libnl objects: each is released by its own libnl
// function, so a libnl object never outlives the code that made it.

#include <memory>

#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

namespace edgedma::detail {

template <auto release> struct ReleaseWith {
	template <typename T> void operator()(T *handle) const noexcept
	{
		release(handle);
	}
};

// nl_socket_free() also closes the socket.
using SocketHandle = std::unique_ptr<nl_sock, ReleaseWith<nl_socket_free>>;
using MessageHandle = std::unique_ptr<nl_msg, ReleaseWith<nlmsg_free>>;
// nl_cb objects are reference counted; nl_cb_put() drops ours.
using CallbacksHandle = std::unique_ptr<nl_cb, ReleaseWith<nl_cb_put>>;

} // namespace edgedma::detail
