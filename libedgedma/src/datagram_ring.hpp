// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Receiving datagrams from one socket with io_uring, in one ring: either a
// multishot recv that picks buffers from a provided-buffer ring (Linux 6.0
// on), or several single-shot recvs in flight, resubmitted in batches. For
// comparison (the benchmarks, edgedma watch --receive recv) and for systems
// where io_uring is disabled it can also receive without io_uring: poll(2)
// and one recv(2) per datagram. It knows
// nothing of netlink, so tests drive it with any datagram socket.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <liburing.h>

#include <edgedma/event_stream.hpp>

namespace edgedma::detail {

struct RingOptions {
	ReceiveMode mode = ReceiveMode::automatic;
	std::uint32_t buffer_size = 16384; // larger than any one notification
	std::uint32_t buffer_count = 64;   // multishot: a power of two
	std::uint32_t batch_depth = 8;     // batched: recvs in flight
};

class DatagramRing {
public:
	// Sets up the ring for fd (not owned; it must outlive the ring). In
	// automatic mode, probes what the kernel offers and falls back to
	// batched receives, or to recv where io_uring cannot be set up at all
	// (disabled: EPERM, absent: ENOSYS). Throws Error.
	DatagramRing(int fd, const RingOptions &options);
	~DatagramRing();
	// The kernel holds pointers into the ring's buffers.
	DatagramRing(const DatagramRing &) = delete;
	DatagramRing &operator=(const DatagramRing &) = delete;

	// multishot, batched or recv.
	ReceiveMode mode() const { return mode_; }

	// A recv that failed. ENOBUFS from a multishot recv means either that
	// the socket overflowed or that the ring had no free buffer at that
	// moment (nothing lost then: the datagrams wait in the socket), so
	// maybe_out_of_buffers says the caller must tell them apart.
	struct Failure {
		int error_number = 0;
		bool maybe_out_of_buffers = false;
	};
	using DatagramHandler = std::function<void(std::span<const std::byte> datagram)>;
	using FailureHandler = std::function<void(const Failure &failure)>;

	// Waits up to timeout (forever without one) for a completion, then
	// handles every completion ready, in order, and rearms. Returns how
	// many it handled: 0 when the time ran out or a signal came. A handler
	// may throw; the completions after it stay queued for the next wait.
	std::size_t wait(std::optional<std::chrono::nanoseconds> timeout,
			 const DatagramHandler &on_datagram,
			 const FailureHandler &on_failure);

	struct Counters {
		std::uint64_t datagrams = 0;
		std::uint64_t failures = 0;
		std::uint64_t multishot_arms = 0; // multishot recvs submitted
		std::uint64_t submissions = 0;    // io_uring_submit() calls that queued work
	};
	const Counters &counters() const { return counters_; }

private:
	class Uring {
	public:
		explicit Uring(unsigned entries);
		~Uring();
		Uring(const Uring &) = delete;
		Uring &operator=(const Uring &) = delete;
		io_uring *get() { return &ring_; }

	private:
		io_uring ring_{};
	};

	class AnonymousMemory {
	public:
		explicit AnonymousMemory(std::size_t length);
		~AnonymousMemory();
		AnonymousMemory(const AnonymousMemory &) = delete;
		AnonymousMemory &operator=(const AnonymousMemory &) = delete;
		void *get() const { return address_; }
		// Never unmapped: for when the kernel may still use it.
		void leak() { address_ = nullptr; }

	private:
		void *address_;
		std::size_t length_;
	};

	struct Completion {
		std::uint64_t user_data;
		std::int32_t res;
		std::uint32_t flags;
	};

	bool start_multishot();
	void stop_multishot();
	void start_batched();
	io_uring_sqe *next_sqe();
	void arm_multishot();
	void queue_recv(std::uint32_t slot);
	void resubmit();
	void submit();
	void handle(const Completion &completion, const DatagramHandler &on_datagram,
		    const FailureHandler &on_failure);
	void recycle(std::uint16_t buffer_id);
	std::byte *buffer(std::uint32_t index) const;
	std::size_t outstanding() const;
	void drain_for_teardown();
	std::size_t wait_recv(std::optional<std::chrono::nanoseconds> timeout,
			      const DatagramHandler &on_datagram,
			      const FailureHandler &on_failure);

	int fd_;
	RingOptions options_;
	ReceiveMode mode_ = ReceiveMode::batched;
	Counters counters_;

	// Multishot.
	std::unique_ptr<AnonymousMemory> buffer_ring_memory_;
	io_uring_buf_ring *buffer_ring_ = nullptr;
	bool buffer_ring_registered_ = false;
	bool multishot_armed_ = false;

	// Batched: which slots have a recv in flight.
	std::vector<bool> in_flight_;

	std::unique_ptr<std::byte[]> buffers_;
	bool queued_ = false; // SQEs prepared and not yet submitted

	// Last: torn down first, before the memory the kernel was given. None
	// in recv mode, which works where io_uring is disabled too.
	std::optional<Uring> ring_;
	io_uring *uring() { return ring_->get(); }
};

} // namespace edgedma::detail
