// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The sequence-number bookkeeping of an event stream, apart from any socket
// so that it can be fed made-up sequences: every finding from next_seq() on
// is delivered once, in order, from a notification or from the log, or
// reported as lost.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <edgedma/event_stream.hpp>

namespace edgedma::detail {

class FindingSequencer {
public:
	// FINDINGS_GET: the findings still logged with seq >= from_seq.
	using LogReader = std::function<std::vector<Finding>(std::uint64_t from_seq)>;

	// Delivers findings from first_seq on; notifications for older ones
	// are ignored (they precede the stream).
	FindingSequencer(LogReader read_log, std::uint64_t first_seq);

	// A notification arrived. A gap before it is filled from the log; what
	// the log no longer has becomes a Loss.
	void notified(Finding finding, std::vector<StreamEvent> &out);
	// The socket overflowed: notifications are missing, and no later one may
	// come to show the gap. Delivers everything the log has from the next
	// seq due, counting what it lacks as lost.
	void overflowed(std::vector<StreamEvent> &out);
	// Delivers what the log already holds from the next seq due, without
	// counting an overflow (a stream that starts in the past).
	void catch_up(std::vector<StreamEvent> &out);
	// A FINDING_REPEATS notification arrived: delivered as it is. It
	// names an earlier finding's seq and moves nothing of the sequence: no
	// gap, loss or duplicate is judged by it.
	void repeated(FindingRepeats repeats, std::vector<StreamEvent> &out);
	// A SNAPSHOT notification: counted and delivered as it is.
	void snapshot_announced(SnapshotHeader snapshot, std::vector<StreamEvent> &out);

	// One log read serves every gap of a batch of notifications; the next
	// batch reads afresh.
	void end_batch();

	std::uint64_t next_seq() const { return next_seq_; }
	const StreamCounters &counters() const { return counters_; }

private:
	enum class Source { notification, log };
	void deliver(Finding finding, Source source, std::vector<StreamEvent> &out);
	void lose(std::uint64_t up_to, Loss::Cause cause, std::vector<StreamEvent> &out);
	// Fills [next_seq_, limit) from the log, or everything it has after
	// next_seq_ without a limit.
	void recover(std::optional<std::uint64_t> limit, Loss::Cause cause,
		     std::vector<StreamEvent> &out);
	const std::vector<Finding> &read_log(bool fresh);

	LogReader read_log_;
	std::uint64_t first_seq_;
	std::uint64_t next_seq_;
	StreamCounters counters_;

	// The last log read of this batch: every finding logged up to its
	// newest, from log_from_ on (or from the oldest still there).
	std::optional<std::vector<Finding>> log_;
	std::uint64_t log_from_ = 0;
};

} // namespace edgedma::detail
