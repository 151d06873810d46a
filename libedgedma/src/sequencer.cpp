// SPDX-License-Identifier: LGPL-2.1-or-later
#include "sequencer.hpp"

#include <algorithm>

namespace edgedma::detail {

FindingSequencer::FindingSequencer(LogReader read_log, std::uint64_t first_seq)
	: read_log_(std::move(read_log)), first_seq_(std::max<std::uint64_t>(first_seq, 1)),
	  next_seq_(first_seq_)
{
}

void FindingSequencer::deliver(Finding finding, Source source, std::vector<StreamEvent> &out)
{
	next_seq_ = finding.seq + 1;
	if (source == Source::notification)
		counters_.received++;
	else
		counters_.recovered_from_log++;
	out.emplace_back(std::move(finding));
}

void FindingSequencer::lose(std::uint64_t up_to, Loss::Cause cause,
			    std::vector<StreamEvent> &out)
{
	Loss loss{next_seq_, up_to, cause};
	counters_.lost += loss.count();
	next_seq_ = up_to + 1;
	out.emplace_back(loss);
}

const std::vector<Finding> &FindingSequencer::read_log(bool fresh)
{
	// The log only ever forgets its oldest findings, so a read from an
	// earlier seq of this batch still answers for later ones.
	if (fresh || !log_ || log_from_ > next_seq_) {
		std::vector<Finding> findings = read_log_(next_seq_);
		std::ranges::sort(findings, {}, &Finding::seq);
		log_ = std::move(findings);
		log_from_ = next_seq_;
	}
	return *log_;
}

void FindingSequencer::recover(std::optional<std::uint64_t> limit, Loss::Cause cause,
			       std::vector<StreamEvent> &out)
{
	// Without a limit the newest findings count, and a read of this batch
	// may predate them; with one, a read that reached limit - 1 will do.
	bool fresh = !limit || !log_ || log_->empty() || log_->back().seq + 1 < *limit;
	const std::vector<Finding> &log = read_log(fresh);
	for (const Finding &finding : log) {
		if (finding.seq < next_seq_)
			continue;
		if (limit && finding.seq >= *limit)
			break;
		if (finding.seq > next_seq_)
			lose(finding.seq - 1, cause, out);
		deliver(finding, Source::log, out);
	}
	if (limit && next_seq_ < *limit)
		lose(*limit - 1, cause, out);
}

void FindingSequencer::notified(Finding finding, std::vector<StreamEvent> &out)
{
	if (finding.seq < next_seq_) {
		if (finding.seq >= first_seq_)
			counters_.duplicates++;
		return;
	}
	if (finding.seq > next_seq_)
		recover(finding.seq, Loss::Cause::gap, out);
	deliver(std::move(finding), Source::notification, out);
}

void FindingSequencer::overflowed(std::vector<StreamEvent> &out)
{
	recover(std::nullopt, Loss::Cause::overflow, out);
	counters_.overflows++;
}

void FindingSequencer::catch_up(std::vector<StreamEvent> &out)
{
	recover(std::nullopt, Loss::Cause::gap, out);
}

void FindingSequencer::snapshot_announced(SnapshotHeader snapshot, std::vector<StreamEvent> &out)
{
	counters_.snapshots++;
	out.emplace_back(std::move(snapshot));
}

void FindingSequencer::repeated(FindingRepeats repeats, std::vector<StreamEvent> &out)
{
	counters_.repeats++;
	out.emplace_back(std::move(repeats));
}

void FindingSequencer::end_batch()
{
	log_.reset();
}

} // namespace edgedma::detail
