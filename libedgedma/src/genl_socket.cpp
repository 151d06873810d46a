// SPDX-License-Identifier: LGPL-2.1-or-later
#include "genl_socket.hpp"

#include <cerrno>
#include <exception>
#include <string>
#include <system_error>
#include <utility>

#include <sys/socket.h>

#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "decode.hpp"
#include "errors.hpp"

namespace edgedma::detail {
namespace {

constexpr std::string_view socket_context = "generic netlink";

// State of one request while libnl's callbacks run. Exceptions must not
// cross libnl's C frames, so the callbacks park them here.
struct PendingRequest {
	std::string_view operation;
	const GenlSocket::ReplyHandler &on_reply;
	bool finished = false;
	std::exception_ptr failure;
	bool interrupted = false; // a message carried NLM_F_DUMP_INTR
};

int on_valid(nl_msg *message, void *argument)
{
	auto &request = *static_cast<PendingRequest *>(argument);
	// After a failed reply keep reading (and ignoring) until the ack, so
	// that the next request does not find this one's ack first.
	if (request.failure)
		return NL_OK;
	try {
		request.on_reply(*nlmsg_hdr(message));
	} catch (...) {
		request.failure = std::current_exception();
	}
	return NL_OK;
}

// NLM_F_DUMP_INTR: what the kernel dumped changed while it did. Without
// this callback libnl reads on to NLMSG_DONE and then fails the receive
// with NLE_DUMP_INTR, which says nothing of the messages already handed
// over; the caller is better placed to judge (Client::mapping_table() dumps
// again), so the fact is noted and the message goes on to on_valid().
int on_dump_interrupted(nl_msg *, void *argument)
{
	static_cast<PendingRequest *>(argument)->interrupted = true;
	return NL_OK;
}

int on_finished(nl_msg *, void *argument)
{
	static_cast<PendingRequest *>(argument)->finished = true;
	return NL_STOP;
}

// Sets the failure a kernel's KernelAck describes, if it is one.
void refuse(PendingRequest &request, const KernelAck &ack)
{
	if (ack.error_number == 0)
		return;
	std::string kernel_message = ack.message;
	if (kernel_message.empty() && ack.missing_attribute)
		kernel_message = "request lacks attribute " +
				 std::to_string(*ack.missing_attribute);
	request.failure = std::make_exception_ptr(kernel_refusal(
		request.operation, ack.error_number, std::move(kernel_message)));
}

// The NLMSG_DONE that ends a dump. libnl ignores the error it may carry (a
// dump that failed part way), so it is read here.
int on_dump_done(nl_msg *message, void *argument)
{
	auto &request = *static_cast<PendingRequest *>(argument);
	request.finished = true;
	try {
		KernelAck ack = decode_done(*nlmsg_hdr(message));
		if (!request.failure)
			refuse(request, ack);
	} catch (...) {
		if (!request.failure)
			request.failure = std::current_exception();
	}
	return NL_STOP;
}

// libnl passes only the struct nlmsgerr. It sits right after its netlink
// header (libnl hands over nlmsg_data() of the message, and the length has
// been checked against sizeof(struct nlmsgerr)), which holds the length the
// extack attributes need.
const nlmsghdr &message_of(const nlmsgerr &error)
{
	return *reinterpret_cast<const nlmsghdr *>(
		reinterpret_cast<const unsigned char *>(&error) - NLMSG_HDRLEN);
}

int on_error(sockaddr_nl *, nlmsgerr *error, void *argument)
{
	auto &request = *static_cast<PendingRequest *>(argument);
	request.finished = true;
	try {
		KernelAck ack = decode_ack(message_of(*error));
		// libnl calls this for errors only, but an error of 0 would be an
		// ack: not a failure.
		refuse(request, ack);
	} catch (...) {
		request.failure = std::current_exception();
	}
	return NL_STOP;
}

} // namespace

namespace {

SocketHandle connect_generic()
{
	SocketHandle socket(nl_socket_alloc());
	if (!socket)
		throw Error(std::string(socket_context), "cannot allocate a socket", ENOMEM);
	errno = 0;
	if (int rc = genl_connect(socket.get()); rc < 0)
		throw libnl_failure(socket_context, "connect", rc, errno);
	return socket;
}

} // namespace

GenlSocket::GenlSocket() : GenlSocket(connect_generic()) {}

GenlSocket::GenlSocket(SocketHandle connected) : socket_(std::move(connected))
{
	if (!socket_)
		throw Error(std::string(socket_context), "no socket given");

	// libnl 3.7 has no helper for these: set them on the file descriptor.
	enable_option(NETLINK_EXT_ACK, "NETLINK_EXT_ACK");
	enable_option(NETLINK_CAP_ACK, "NETLINK_CAP_ACK");
	// An ack ends every request, so a reply and a refusal end the same way.
	nl_socket_enable_auto_ack(socket_.get());
	// Peek at each message's size first, so a large reply is never truncated.
	nl_socket_enable_msg_peek(socket_.get());
}

void GenlSocket::enable_option(int option, std::string_view option_name)
{
	int enabled = 1;
	if (::setsockopt(nl_socket_get_fd(socket_.get()), SOL_NETLINK, option,
			 &enabled, sizeof enabled) < 0) {
		int error_number = errno;
		throw Error(std::string(socket_context),
			    "cannot enable " + std::string(option_name) + ": " +
			    std::generic_category().message(error_number),
			    error_number);
	}
}

int GenlSocket::receive_buffer() const
{
	int size = 0;
	socklen_t length = sizeof size;
	if (::getsockopt(nl_socket_get_fd(socket_.get()), SOL_SOCKET, SO_RCVBUF, &size,
			 &length) < 0) {
		int error_number = errno;
		throw Error(std::string(socket_context),
			    "cannot read the receive buffer size: " +
			    std::generic_category().message(error_number),
			    error_number);
	}
	return size;
}

int GenlSocket::reserve_receive_buffer(int bytes)
{
	if (const int current = receive_buffer(); current >= bytes)
		return current;
	// The kernel doubles what is set, for its own bookkeeping.
	const int asked = bytes / 2 + bytes % 2;
	const int fd = nl_socket_get_fd(socket_.get());
	if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &asked, sizeof asked) < 0 &&
	    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &asked, sizeof asked) < 0) {
		int error_number = errno;
		throw Error(std::string(socket_context),
			    "cannot set the receive buffer to " + std::to_string(bytes) +
			    " bytes: " + std::generic_category().message(error_number),
			    error_number);
	}
	return receive_buffer();
}

// ENOBUFS: the kernel found no room for a message to this socket and
// dropped it. A socket that only sends requests and reads their answers
// overflows only when one reply fills its receive buffer: the reply is
// queued (the kernel always takes the first message), the acknowledgement
// after it is dropped, and the error is reported before the queued reply.
// That reply is discarded here, so that the next request does not take it
// for its own (and the kernel, which drops everything for a socket it saw
// overflow until its queue is empty, delivers again).
Error GenlSocket::dropped_answer(std::string_view operation)
{
	const int fd = nl_socket_get_fd(socket_.get());
	while (::recv(fd, nullptr, 0, MSG_DONTWAIT | MSG_TRUNC) >= 0)
		;
	std::string buffer = "its receive buffer";
	try {
		buffer += " (" + std::to_string(receive_buffer()) + " bytes)";
	} catch (const Error &) {
		// The size only adds detail; the error below stands without it.
	}
	return Error(std::string(operation),
		     "the kernel dropped part of the answer: " + buffer +
		     " cannot hold the reply and its acknowledgement (" +
		     std::generic_category().message(ENOBUFS) +
		     "); raise net.core.rmem_max, or run with CAP_NET_ADMIN",
		     ENOBUFS);
}

std::optional<int> GenlSocket::resolve_family(const char *name)
{
	errno = 0;
	int family = genl_ctrl_resolve(socket_.get(), name);
	// libnl reports every failure to find the family as NLE_OBJ_NOTFOUND.
	if (family == -NLE_OBJ_NOTFOUND)
		return std::nullopt;
	if (family < 0)
		throw libnl_failure(socket_context,
				    "resolve family '" + std::string(name) + "'",
				    family, errno);
	return family;
}

std::optional<std::uint32_t> GenlSocket::resolve_group(const char *family,
							const char *group)
{
	errno = 0;
	int id = genl_ctrl_resolve_grp(socket_.get(), family, group);
	if (id == -NLE_OBJ_NOTFOUND)
		return std::nullopt;
	if (id < 0)
		throw libnl_failure(socket_context,
				    "resolve multicast group '" + std::string(group) +
				    "' of family '" + std::string(family) + "'",
				    id, errno);
	return static_cast<std::uint32_t>(id);
}

void GenlSocket::request(int family, std::uint8_t command, std::uint8_t version,
			 std::string_view operation,
			 const AttributeWriter &write_attributes,
			 const ReplyHandler &on_reply)
{
	exchange(Kind::request, family, command, version, operation, write_attributes,
		 on_reply);
}

GenlSocket::DumpResult GenlSocket::dump(int family, std::uint8_t command,
					std::uint8_t version, std::string_view operation,
					const AttributeWriter &write_attributes,
					const ReplyHandler &on_reply)
{
	return exchange(Kind::dump, family, command, version, operation, write_attributes,
			on_reply);
}

GenlSocket::DumpResult GenlSocket::exchange(Kind kind, int family, std::uint8_t command,
					    std::uint8_t version, std::string_view operation,
					    const AttributeWriter &write_attributes,
					    const ReplyHandler &on_reply)
{
	// Room for the largest request: a profile of 96 registers with 16
	// fields each and 8 chains (kmod/profiles.h, about 80 KiB); libnl's
	// default is one page. Only the bytes written are sent.
	constexpr std::size_t request_room = 128 * 1024;
	MessageHandle message(nlmsg_alloc_size(request_room));
	if (!message)
		throw Error(std::string(operation), "cannot allocate the request", ENOMEM);
	int flags = kind == Kind::dump ? NLM_F_DUMP : 0;
	if (!genlmsg_put(message.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags,
			 command, version))
		throw Error(std::string(operation), "cannot build the request header");
	if (write_attributes)
		write_attributes(*message);

	// A dump ends with NLMSG_DONE and no ack when it succeeds; asking for
	// an ack as well could leave one unread for the next request.
	nl_complete_msg(socket_.get(), message.get());
	if (kind == Kind::dump)
		nlmsg_hdr(message.get())->nlmsg_flags &= static_cast<std::uint16_t>(~NLM_F_ACK);
	errno = 0;
	if (int rc = nl_send(socket_.get(), message.get()); rc < 0)
		throw libnl_failure(operation, "send", rc, errno);

	CallbacksHandle callbacks(nl_cb_alloc(NL_CB_DEFAULT));
	if (!callbacks)
		throw Error(std::string(operation), "cannot allocate callbacks", ENOMEM);
	PendingRequest pending{operation, on_reply, false, nullptr, false};
	nl_cb_set(callbacks.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &pending);
	nl_cb_set(callbacks.get(), NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_dump_interrupted, &pending);
	nl_cb_set(callbacks.get(), NL_CB_ACK, NL_CB_CUSTOM, on_finished, &pending);
	nl_cb_set(callbacks.get(), NL_CB_FINISH, NL_CB_CUSTOM,
		  kind == Kind::dump ? on_dump_done : on_finished, &pending);
	nl_cb_err(callbacks.get(), NL_CB_CUSTOM, on_error, &pending);

	while (!pending.finished) {
		errno = 0;
		int rc = nl_recvmsgs(socket_.get(), callbacks.get());
		if (rc >= 0)
			continue;
		const int receive_errno = errno;
		// A parked failure explains more than libnl's code for it.
		if (pending.failure)
			break;
		if (receive_errno == ENOBUFS)
			throw dropped_answer(operation);
		throw libnl_failure(operation, "receive", rc, receive_errno);
	}
	if (pending.failure)
		std::rethrow_exception(pending.failure);
	return DumpResult{pending.interrupted};
}

} // namespace edgedma::detail
