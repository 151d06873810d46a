// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The receiving half of an EventStream: generic netlink datagrams from a
// socket, through a DatagramRing, decoded into findings and put in sequence
// by a FindingSequencer. It takes any datagram socket and any log reader,
// so tests run it over a socket pair with made-up messages.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <edgedma/event_stream.hpp>

#include "datagram_ring.hpp"
#include "sequencer.hpp"

namespace edgedma::detail {

struct ReceiverSetup {
	int fd = -1;                 // not owned; must outlive the receiver
	std::uint16_t family_id = 0; // nlmsg_type of the family's messages
	std::uint64_t first_seq = 1;
	// Deliver what the log holds from first_seq before waiting.
	bool catch_up = false;
	FindingSequencer::LogReader read_log;
	// The socket's count of dropped datagrams (SO_MEMINFO), nothing if
	// unknown: tells a socket overflow from a moment without free buffers.
	std::function<std::optional<std::uint64_t>()> drops;
	RingOptions ring;
};

class FindingReceiver {
public:
	explicit FindingReceiver(ReceiverSetup setup);

	// As EventStream::poll().
	std::vector<StreamEvent> poll(std::optional<std::chrono::nanoseconds> timeout);

	const StreamCounters &counters() const { return sequencer_.counters(); }
	ReceiveMode mode() const { return ring_->mode(); }
	const DatagramRing::Counters &ring_counters() const { return ring_->counters(); }

private:
	void parse(std::span<const std::byte> datagram);
	void on_failure(const DatagramRing::Failure &failure);
	bool drops_grew();

	ReceiverSetup setup_;
	FindingSequencer sequencer_;
	std::unique_ptr<DatagramRing> ring_;
	std::optional<std::uint64_t> drops_seen_;
	bool catch_up_pending_;

	// What one wait brought.
	std::vector<Finding> notified_;
	std::vector<FindingRepeats> repeats_;
	std::vector<SnapshotHeader> snapshots_;
	bool overflowed_ = false;
	bool family_gone_ = false;
};

} // namespace edgedma::detail
