// SPDX-License-Identifier: LGPL-2.1-or-later
#include "datagram_ring.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <string>
#include <system_error>

#include <limits>

#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <edgedma/error.hpp>

namespace edgedma::detail {
namespace {

constexpr std::string_view ring_context = "io_uring";

// user_data: what a completion belongs to.
constexpr std::uint64_t multishot_tag = std::uint64_t{1} << 62;
constexpr std::uint64_t cancel_tag = std::uint64_t{1} << 61;
constexpr std::uint64_t slot_tag = std::uint64_t{1} << 60;
constexpr std::uint64_t slot_mask = slot_tag - 1;

// Any id will do: the ring has one buffer group.
constexpr std::uint16_t buffer_group = 7;

constexpr unsigned ring_entries = 64;
constexpr std::uint32_t max_buffer_count = 32768; // the kernel's limit

std::string describe_errno(int error_number)
{
	return std::generic_category().message(error_number);
}

Error failure(std::string_view action, int error_number)
{
	return Error(std::string(ring_context), std::string(action) + ": " +
		     describe_errno(error_number), error_number);
}

// Runs its function when it goes out of scope, also on an exception.
template <typename Function> class Finally {
public:
	explicit Finally(Function function) : function_(std::move(function)) {}
	~Finally() { function_(); }
	Finally(const Finally &) = delete;
	Finally &operator=(const Finally &) = delete;

private:
	Function function_;
};

} // namespace

DatagramRing::Uring::Uring(unsigned entries)
{
	if (int rc = io_uring_queue_init(entries, &ring_, 0); rc < 0) {
		std::string hint;
		if (rc == -EPERM)
			hint = " (io_uring disabled by kernel.io_uring_disabled or a "
			       "seccomp filter?)";
		else if (rc == -ENOSYS)
			hint = " (this kernel has no io_uring)";
		throw Error(std::string(ring_context), "cannot set up a ring: " +
			    describe_errno(-rc) + hint, -rc);
	}
}

DatagramRing::Uring::~Uring()
{
	io_uring_queue_exit(&ring_);
}

DatagramRing::AnonymousMemory::AnonymousMemory(std::size_t length)
	: address_(::mmap(nullptr, length, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)),
	  length_(length)
{
	if (address_ == MAP_FAILED) {
		int error_number = errno;
		address_ = nullptr;
		throw failure("cannot map memory for the buffer ring", error_number);
	}
}

DatagramRing::AnonymousMemory::~AnonymousMemory()
{
	if (address_)
		::munmap(address_, length_);
}

DatagramRing::DatagramRing(int fd, const RingOptions &options)
	: fd_(fd), options_(options)
{
	if (options_.buffer_size == 0)
		throw Error(std::string(ring_context), "buffer size 0");
	auto start_recv = [this] {
		mode_ = ReceiveMode::recv;
		buffers_ = std::make_unique<std::byte[]>(options_.buffer_size);
	};
	if (options_.mode == ReceiveMode::recv) {
		start_recv();
		return;
	}
	try {
		ring_.emplace(ring_entries);
	} catch (const Error &error) {
		// Disabled (kernel.io_uring_disabled, seccomp) or absent: for
		// automatic, receiving at all comes first.
		bool unavailable = error.error_number() == EPERM || error.error_number() == ENOSYS;
		if (options_.mode != ReceiveMode::automatic || !unavailable)
			throw;
		start_recv();
		return;
	}
	// recv needs IORING_OP_RECV (5.6); a kernel without the probe (5.5)
	// has no IORING_OP_RECV either.
	io_uring_probe *probe = io_uring_get_probe_ring(uring());
	bool has_recv = probe && io_uring_opcode_supported(probe, IORING_OP_RECV);
	if (probe)
		io_uring_free_probe(probe);
	if (!has_recv)
		throw Error(std::string(ring_context),
			    "this kernel's io_uring cannot receive from sockets "
			    "(IORING_OP_RECV needs Linux 5.6)");

	if (options_.mode != ReceiveMode::batched) {
		if (start_multishot()) {
			mode_ = ReceiveMode::multishot;
			return;
		}
		if (options_.mode == ReceiveMode::multishot)
			throw Error(std::string(ring_context),
				    "this kernel has no multishot recv with provided "
				    "buffer rings (Linux 6.0)");
	}
	start_batched();
}

DatagramRing::~DatagramRing()
{
	drain_for_teardown();
	if (buffer_ring_registered_)
		io_uring_unregister_buf_ring(uring(), buffer_group);
}

std::byte *DatagramRing::buffer(std::uint32_t index) const
{
	return buffers_.get() + std::size_t{index} * options_.buffer_size;
}

io_uring_sqe *DatagramRing::next_sqe()
{
	io_uring_sqe *sqe = io_uring_get_sqe(uring());
	if (!sqe) {
		// The submission queue is full: hand it over and take a fresh one.
		submit();
		sqe = io_uring_get_sqe(uring());
		if (!sqe)
			throw Error(std::string(ring_context), "no submission queue entry free");
	}
	queued_ = true;
	return sqe;
}

void DatagramRing::submit()
{
	if (!queued_)
		return;
	int rc = io_uring_submit(uring());
	if (rc < 0)
		throw failure("submit", -rc);
	queued_ = false;
	counters_.submissions++;
}

// Provided-buffer rings came in 5.19 and multishot recv in 6.0; either
// missing shows as EINVAL, at once.
bool DatagramRing::start_multishot()
{
	std::uint32_t count = options_.buffer_count;
	if (count == 0 || count > max_buffer_count || !std::has_single_bit(count))
		throw Error(std::string(ring_context), "buffer count " + std::to_string(count) +
			    " is not a power of two up to " +
			    std::to_string(max_buffer_count));

	buffer_ring_memory_ = std::make_unique<AnonymousMemory>(
		std::size_t{count} * sizeof(io_uring_buf));
	buffer_ring_ = static_cast<io_uring_buf_ring *>(buffer_ring_memory_->get());
	io_uring_buf_ring_init(buffer_ring_);
	io_uring_buf_reg registration{};
	registration.ring_addr = reinterpret_cast<std::uintptr_t>(buffer_ring_);
	registration.ring_entries = count;
	registration.bgid = buffer_group;
	if (int rc = io_uring_register_buf_ring(uring(), &registration, 0); rc < 0) {
		stop_multishot();
		if (rc == -EINVAL)
			return false;
		throw failure("register a provided-buffer ring", -rc);
	}
	buffer_ring_registered_ = true;

	buffers_ = std::make_unique<std::byte[]>(std::size_t{count} * options_.buffer_size);
	for (std::uint32_t id = 0; id < count; id++)
		io_uring_buf_ring_add(buffer_ring_, buffer(id), options_.buffer_size,
				      static_cast<unsigned short>(id),
				      io_uring_buf_ring_mask(count), static_cast<int>(id));
	io_uring_buf_ring_advance(buffer_ring_, static_cast<int>(count));

	arm_multishot();
	submit();
	io_uring_cqe *cqe;
	if (io_uring_peek_cqe(uring(), &cqe) == 0 && cqe->user_data == multishot_tag &&
	    cqe->res == -EINVAL) {
		io_uring_cqe_seen(uring(), cqe);
		multishot_armed_ = false;
		stop_multishot();
		return false;
	}
	return true;
}

void DatagramRing::stop_multishot()
{
	if (buffer_ring_registered_)
		io_uring_unregister_buf_ring(uring(), buffer_group);
	buffer_ring_registered_ = false;
	buffer_ring_ = nullptr;
	buffer_ring_memory_.reset();
	buffers_.reset();
}

void DatagramRing::start_batched()
{
	std::uint32_t depth = options_.batch_depth;
	if (depth == 0 || depth > ring_entries)
		throw Error(std::string(ring_context), "batch depth " + std::to_string(depth) +
			    " is not between 1 and " + std::to_string(ring_entries));
	mode_ = ReceiveMode::batched;
	buffers_ = std::make_unique<std::byte[]>(std::size_t{depth} * options_.buffer_size);
	in_flight_.assign(depth, false);
	resubmit();
}

void DatagramRing::arm_multishot()
{
	io_uring_sqe *sqe = next_sqe();
	io_uring_prep_recv_multishot(sqe, fd_, nullptr, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = buffer_group;
	io_uring_sqe_set_data64(sqe, multishot_tag);
	multishot_armed_ = true;
	counters_.multishot_arms++;
}

void DatagramRing::queue_recv(std::uint32_t slot)
{
	io_uring_sqe *sqe = next_sqe();
	io_uring_prep_recv(sqe, fd_, buffer(slot), options_.buffer_size, 0);
	io_uring_sqe_set_data64(sqe, slot_tag | slot);
	in_flight_[slot] = true;
}

// Everything that completed goes back in one submission.
void DatagramRing::resubmit()
{
	if (mode_ == ReceiveMode::multishot) {
		if (!multishot_armed_)
			arm_multishot();
	} else {
		for (std::uint32_t slot = 0; slot < in_flight_.size(); slot++)
			if (!in_flight_[slot])
				queue_recv(slot);
	}
	submit();
}

void DatagramRing::recycle(std::uint16_t buffer_id)
{
	io_uring_buf_ring_add(buffer_ring_, buffer(buffer_id), options_.buffer_size,
			      buffer_id, io_uring_buf_ring_mask(options_.buffer_count), 0);
	io_uring_buf_ring_advance(buffer_ring_, 1);
}

std::size_t DatagramRing::wait(std::optional<std::chrono::nanoseconds> timeout,
			       const DatagramHandler &on_datagram,
			       const FailureHandler &on_failure)
{
	if (mode_ == ReceiveMode::recv)
		return wait_recv(timeout, on_datagram, on_failure);
	resubmit();

	io_uring_cqe *cqe = nullptr;
	int rc;
	if (timeout) {
		auto nanoseconds = std::max<std::int64_t>(timeout->count(), 0);
		__kernel_timespec limit{};
		limit.tv_sec = nanoseconds / 1'000'000'000;
		limit.tv_nsec = nanoseconds % 1'000'000'000;
		rc = io_uring_wait_cqe_timeout(uring(), &cqe, &limit);
	} else {
		rc = io_uring_wait_cqe(uring(), &cqe);
	}
	if (rc == -ETIME || rc == -EINTR)
		return 0;
	if (rc < 0)
		throw failure("wait for completions", -rc);

	std::size_t handled = 0;
	while (io_uring_peek_cqe(uring(), &cqe) == 0) {
		Completion completion{cqe->user_data, cqe->res, cqe->flags};
		// The data stays in our buffer until it is recycled below.
		io_uring_cqe_seen(uring(), cqe);
		handled++;
		handle(completion, on_datagram, on_failure);
	}
	resubmit();
	return handled;
}

void DatagramRing::handle(const Completion &completion, const DatagramHandler &on_datagram,
			  const FailureHandler &on_failure)
{
	int error_number = completion.res < 0 ? -completion.res : 0;
	std::span<const std::byte> datagram;
	bool maybe_out_of_buffers = false;

	if (completion.user_data == multishot_tag) {
		if (!(completion.flags & IORING_CQE_F_MORE))
			multishot_armed_ = false; // rearmed by resubmit()
		if (completion.flags & IORING_CQE_F_BUFFER) {
			auto id = static_cast<std::uint16_t>(completion.flags >>
							     IORING_CQE_BUFFER_SHIFT);
			if (id >= options_.buffer_count)
				throw Error(std::string(ring_context),
					    "completion names buffer " + std::to_string(id) +
					    " of " + std::to_string(options_.buffer_count));
			Finally give_back([this, id] { recycle(id); });
			if (completion.res >= 0) {
				counters_.datagrams++;
				on_datagram({buffer(id), static_cast<std::size_t>(completion.res)});
			}
			return;
		}
		if (completion.res >= 0) {
			// An empty datagram: nothing was copied, no buffer taken.
			counters_.datagrams++;
			on_datagram({});
			return;
		}
		maybe_out_of_buffers = true;
	} else if (completion.user_data & slot_tag) {
		auto slot = static_cast<std::uint32_t>(completion.user_data & slot_mask);
		if (slot >= in_flight_.size())
			throw Error(std::string(ring_context),
				    "completion for unknown slot " + std::to_string(slot));
		// Free once handled: resubmit() queues it again.
		Finally free_slot([this, slot] { in_flight_[slot] = false; });
		if (completion.res >= 0) {
			counters_.datagrams++;
			datagram = {buffer(slot), static_cast<std::size_t>(completion.res)};
			on_datagram(datagram);
			return;
		}
	} else {
		return; // a cancellation's own completion
	}

	switch (error_number) {
	case ECANCELED:
	case EINTR:
	case EAGAIN:
		return; // rearmed by resubmit()
	case ENOBUFS:
		counters_.failures++;
		on_failure({error_number, maybe_out_of_buffers});
		return;
	default:
		counters_.failures++;
		throw failure("receive", error_number);
	}
}

std::size_t DatagramRing::outstanding() const
{
	return (multishot_armed_ ? 1u : 0u) +
	       static_cast<std::size_t>(std::ranges::count(in_flight_, true));
}

// Cancels every recv and waits for its last completion, so that the kernel
// is done with the buffers before they are freed. Should it not finish,
// the buffers are leaked rather than freed under the kernel's hands.
// poll(2), then recv(2) until the socket is empty: one system call per
// datagram, as a program without io_uring would receive.
std::size_t DatagramRing::wait_recv(std::optional<std::chrono::nanoseconds> timeout,
				    const DatagramHandler &on_datagram,
				    const FailureHandler &on_failure)
{
	int milliseconds = -1;
	if (timeout) {
		auto ns = std::max<std::int64_t>(timeout->count(), 0);
		milliseconds = static_cast<int>(std::min<std::int64_t>(
			(ns + 999'999) / 1'000'000, std::numeric_limits<int>::max()));
	}
	pollfd ready{fd_, POLLIN, 0};
	int rc = ::poll(&ready, 1, milliseconds);
	if (rc < 0 && errno != EINTR)
		throw failure("poll", errno);
	if (rc <= 0)
		return 0;

	std::size_t handled = 0;
	for (;;) {
		ssize_t length = ::recv(fd_, buffer(0), options_.buffer_size, MSG_DONTWAIT);
		if (length >= 0) {
			handled++;
			counters_.datagrams++;
			on_datagram({buffer(0), static_cast<std::size_t>(length)});
			continue;
		}
		int error_number = errno;
		if (error_number == EAGAIN || error_number == EWOULDBLOCK)
			break;
		if (error_number == EINTR)
			continue;
		handled++;
		counters_.failures++;
		on_failure({error_number, false});
		// An overflow (ENOBUFS) leaves the socket readable; others end here.
		if (error_number != ENOBUFS)
			break;
	}
	return handled;
}

void DatagramRing::drain_for_teardown()
{
	if (outstanding() == 0)
		return;
	try {
		auto cancel = [this](std::uint64_t user_data) {
			io_uring_sqe *sqe = next_sqe();
			io_uring_prep_cancel64(sqe, user_data, 0);
			io_uring_sqe_set_data64(sqe, cancel_tag);
		};
		if (multishot_armed_)
			cancel(multishot_tag);
		for (std::uint32_t slot = 0; slot < in_flight_.size(); slot++)
			if (in_flight_[slot])
				cancel(slot_tag | slot);
		submit();

		for (int round = 0; round < 20 && outstanding() > 0; round++) {
			io_uring_cqe *cqe;
			__kernel_timespec limit{.tv_sec = 0, .tv_nsec = 50'000'000};
			int rc = io_uring_wait_cqe_timeout(uring(), &cqe, &limit);
			if (rc < 0 && rc != -ETIME && rc != -EINTR)
				break;
			while (io_uring_peek_cqe(uring(), &cqe) == 0) {
				std::uint64_t user_data = cqe->user_data;
				std::uint32_t flags = cqe->flags;
				io_uring_cqe_seen(uring(), cqe);
				if (user_data == multishot_tag && !(flags & IORING_CQE_F_MORE))
					multishot_armed_ = false;
				else if ((user_data & slot_tag) &&
					 (user_data & slot_mask) < in_flight_.size())
					in_flight_[user_data & slot_mask] = false;
			}
		}
	} catch (const Error &) {
		// Fall through to the check below.
	}
	if (outstanding() > 0) {
		(void)buffers_.release();
		if (buffer_ring_memory_)
			buffer_ring_memory_->leak();
	}
}

} // namespace edgedma::detail
