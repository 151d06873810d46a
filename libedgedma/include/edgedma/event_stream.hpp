// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <edgedma/export.hpp>
#include <edgedma/records.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma {

// Findings a stream could not deliver: the sequence numbers between
// first_seq and last_seq (inclusive) were neither received nor still in the
// module's log when the stream looked.
struct Loss {
	enum class Cause {
		gap,      // notifications never arrived (the module dropped them)
		overflow, // the socket overflowed (ENOBUFS)
	};
	std::uint64_t first_seq = 0;
	std::uint64_t last_seq = 0;
	Cause cause = Cause::gap;

	std::uint64_t count() const { return last_seq - first_seq + 1; }
	bool operator==(const Loss &) const = default;
};

// "lost 3 findings (seq 17..19): ..." with the reason, for a human.
EDGEDMA_API std::string describe(const Loss &loss);
EDGEDMA_API std::string_view loss_cause_name(Loss::Cause cause); // "gap", "overflow"

// "finding 12 addr-misaligned on 0000:00:05.0 (edu): x4103 so far, last
// 0.120 s ago", for a human. now_ns is the time now on the module's clock
// (CLOCK_MONOTONIC, as ktime_get_ns()) on the machine the repeats came
// from; without it, or if the latest lies after it, ", last ..." is left
// out.
EDGEDMA_API std::string describe(const FindingRepeats &repeats,
				 std::optional<std::uint64_t> now_ns = std::nullopt);

// What a stream delivers: findings and losses in sequence order, then the
// FINDING_REPEATS notifications that arrived meanwhile, in the order they
// came. A FindingRepeats carries the seq of a finding numbered before (one
// the stream delivered, one from before the stream started, or, when that
// finding's notification was lost, one the stream recovers or reports lost
// later): it takes no part in the sequence. Last, the SNAPSHOT
// announcements of the batch, by snapshot seq: each a SnapshotHeader (the
// record itself: Client::snapshot_get(seq), while the module's store still
// holds it). Snapshots are numbered apart from findings; a gap in their seqs
// is a slot the store reused before its announcement was sent, or one taken
// at panic, never a notification this stream dropped unnoticed.
using StreamEvent = std::variant<Finding, Loss, FindingRepeats, SnapshotHeader>;

// Every finding a stream was due is counted in exactly one of received,
// recovered_from_log and lost; repeats are counted apart.
struct StreamCounters {
	std::uint64_t received = 0;           // delivered from notifications
	std::uint64_t recovered_from_log = 0; // delivered from FINDINGS_GET
	std::uint64_t lost = 0;               // in Loss events
	std::uint64_t duplicates = 0;  // notifications already delivered, dropped
	std::uint64_t overflows = 0;   // socket overflows (ENOBUFS) resynced
	std::uint64_t repeats = 0;     // FindingRepeats delivered
	std::uint64_t snapshots = 0;   // SnapshotHeader delivered (SNAPSHOT notifications)

	bool operator==(const StreamCounters &) const = default;
};

// How the stream's io_uring receives notifications.
enum class ReceiveMode {
	automatic, // multishot where the kernel has it, batched otherwise, recv
		   // where io_uring is disabled or absent
	multishot, // one multishot recv with a ring of provided buffers (6.0+)
	batched,   // several single-shot recvs in flight, resubmitted in batches
	recv,      // no io_uring: poll(2) and a recv(2) per datagram (to compare)
};
EDGEDMA_API std::string_view receive_mode_name(ReceiveMode mode);

// Live findings from the module's "events" multicast group, received with
// io_uring. Sequence numbers are checked: a gap or a socket overflow is
// recovered from the module's log (FINDINGS_GET) as far as the log still
// reaches, and what it no longer holds is delivered as a Loss. The group's
// FINDING_REPEATS notifications come as FindingRepeats, outside the
// sequence; one lost on the way is not recovered (the next one, and the
// finding in the log, carry the whole count). Needs CAP_SYS_ADMIN (the log
// and the counters are read).
class EDGEDMA_API EventStream {
public:
	struct Options {
		ReceiveMode receive_mode = ReceiveMode::automatic;
		// First finding wanted; by default the first one logged after the
		// stream started. Older ones come from the log.
		std::optional<std::uint64_t> from_seq;
		// Socket receive buffer asked for, bytes (SO_RCVBUFFORCE when
		// privileged, else SO_RCVBUF up to net.core.rmem_max).
		int receive_buffer = 8 << 20;
	};

	// Subscribes. Throws Error (module not loaded, no privilege, no
	// io_uring).
	explicit EventStream(const Options &options);
	EventStream();
	~EventStream();
	EventStream(EventStream &&) noexcept;
	EventStream &operator=(EventStream &&) noexcept;
	EventStream(const EventStream &) = delete;
	EventStream &operator=(const EventStream &) = delete;

	// Waits up to timeout (forever without one) and returns what arrived,
	// in sequence order (StreamEvent); empty when the time ran out or a
	// signal came.
	// Throws Error, also when the module is unloaded under the stream.
	std::vector<StreamEvent> poll(std::optional<std::chrono::nanoseconds> timeout);

	const StreamCounters &counters() const;
	// multishot or batched: what the kernel allowed.
	ReceiveMode receive_mode() const;
	// The receive buffer the kernel granted, bytes.
	int receive_buffer() const;

private:
	class Impl;
	std::unique_ptr<Impl> impl_;
};

} // namespace edgedma
