// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The Analyzer: records in, a bounded Summary out, in one pass.
//
// The timeline is a window of a fixed number of buckets per device. Bucket
// widths are powers of two nanoseconds and buckets are aligned to multiples
// of their width, so widening is exact: two neighbours of width w make one
// bucket of width 2w, and no event ever has to be split or re-counted. An
// event outside the window (later than the last bucket, or earlier than the
// first: records need not come in time order) makes the window widen until
// everything seen fits, and move so that the side the event came from has
// room, which keeps the number of moves logarithmic in the time span.
//
// Mapping events are the bulk of a recording (millions), so their path
// avoids allocation and hashing: devices are found through a small cache
// keyed by a few bytes of the name, and their buckets are plain arrays.
#include <edgedma/analysis.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <linux/edgedma.h>

#include "short_text.hpp"

namespace edgedma {
namespace {

// What a DMA-API call does to the timeline.
enum class CallClass : std::uint8_t { other, map, unmap, sync };

constexpr std::array<CallClass, EDGEDMA_CALL_SYNC_SG_FOR_DEVICE + 1> call_classes = [] {
	std::array<CallClass, EDGEDMA_CALL_SYNC_SG_FOR_DEVICE + 1> classes{};
	classes[EDGEDMA_CALL_MAP_PAGE] = CallClass::map;
	classes[EDGEDMA_CALL_MAP_SG] = CallClass::map;
	classes[EDGEDMA_CALL_MAP_RESOURCE] = CallClass::map;
	classes[EDGEDMA_CALL_ALLOC_COHERENT] = CallClass::map;
	classes[EDGEDMA_CALL_ALLOC_PAGES] = CallClass::map;
	classes[EDGEDMA_CALL_UNMAP_PAGE] = CallClass::unmap;
	classes[EDGEDMA_CALL_UNMAP_SG] = CallClass::unmap;
	classes[EDGEDMA_CALL_UNMAP_RESOURCE] = CallClass::unmap;
	classes[EDGEDMA_CALL_FREE_COHERENT] = CallClass::unmap;
	classes[EDGEDMA_CALL_FREE_PAGES] = CallClass::unmap;
	classes[EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU] = CallClass::sync;
	classes[EDGEDMA_CALL_SYNC_SINGLE_FOR_DEVICE] = CallClass::sync;
	classes[EDGEDMA_CALL_SYNC_SG_FOR_CPU] = CallClass::sync;
	classes[EDGEDMA_CALL_SYNC_SG_FOR_DEVICE] = CallClass::sync;
	return classes;
}();

CallClass call_class(std::uint32_t call)
{
	return call < call_classes.size() ? call_classes[call] : CallClass::other;
}

// 1 us: narrower buckets would say nothing a person can read, and starting
// here saves the first ten widenings.
constexpr unsigned initial_shift = 10;

struct Bucket {
	std::uint64_t bytes_mapped = 0;
	std::uint64_t maps = 0;
	std::uint64_t unmaps = 0;
	std::uint64_t syncs = 0;
	std::uint64_t findings = 0;

	bool empty() const
	{
		return (bytes_mapped | maps | unmaps | syncs | findings) == 0;
	}
	Bucket &operator+=(const Bucket &other)
	{
		bytes_mapped += other.bytes_mapped;
		maps += other.maps;
		unmaps += other.unmaps;
		syncs += other.syncs;
		findings += other.findings;
		return *this;
	}
};

struct DeviceState {
	std::string name;
	std::string driver;
	std::vector<Bucket> buckets; // the window, always time_buckets long
	std::uint64_t total_bytes_mapped = 0;
	std::uint64_t total_calls = 0;
	std::uint64_t total_findings = 0;
	std::uint64_t live_mappings = 0;
	std::uint64_t live_bytes = 0;
};

struct GroupState {
	std::uint64_t count = 0;  // occurrences
	std::uint64_t logged = 0; // log entries
	std::set<std::string> devices;
	std::uint64_t first_ns = UINT64_MAX;
	std::uint64_t last_ns = 0;
	std::vector<Finding> examples; // a max-heap on seq while collecting
};

// A finding site as the module folds at it: (device, kind, caller), and the
// driver, which the group the site counts in goes by.
using SiteKey = std::tuple<std::string, std::string, std::uint32_t, std::uint64_t>;

// What the findings of one site seen so far say of it. Each entry of a site
// carries the site's whole count when it was sent (folded: one entry; with
// fold_findings=0: every one, each with the count then), so the count is
// the highest said, and never fewer than the entries seen (a site the
// module retired and made again, for a module loaded where another was,
// starts counting anew).
struct SiteState {
	std::uint64_t most_said = 0;
	std::uint64_t entries = 0;
	// The seq of its latest entry: FINDING_REPEATS name a site by the seq
	// of its logged finding (with folding, its one entry).
	std::uint64_t last_seq = 0;

	std::uint64_t occurrences() const { return std::max(most_said, entries); }
};

using Sites = std::map<SiteKey, SiteState>;

// What the FINDING_REPEATS of one logged finding said: the most.
struct Said {
	std::uint64_t occurrences = 0;
	std::uint64_t last_time_ns = 0;
};

// FINDING_REPEATS remembered by seq, at most: the module keeps counts for
// 65536 sites at most (finding_sites), each with one logged finding.
constexpr std::size_t repeats_kept = std::size_t{1} << 16;

// A copy of a finding kept for the summary, with the count the latest
// FINDING_REPEATS of it said, where that is more than its own.
void apply_repeats(Finding &finding, const std::unordered_map<std::uint64_t, Said> &said)
{
	if (!finding.occurrences)
		return; // not counted: no site, no repeats
	auto found = said.find(finding.seq);
	if (found == said.end() || found->second.occurrences <= *finding.occurrences)
		return;
	finding.occurrences = found->second.occurrences;
	finding.last_time_ns = std::max(finding.last_time_ns.value_or(finding.time_ns),
					found->second.last_time_ns);
}

bool earlier_seq(const Finding &a, const Finding &b)
{
	return a.seq < b.seq;
}

// Keeps the limit findings of lowest seq seen so far, whatever order they
// come in: kept is a max-heap on seq, so the one to give up is at the front.
void keep_first(std::vector<Finding> &kept, const Finding &finding, std::size_t limit)
{
	if (limit == 0)
		return;
	if (kept.size() < limit) {
		kept.push_back(finding);
		std::ranges::push_heap(kept, earlier_seq);
		return;
	}
	if (!earlier_seq(finding, kept.front()))
		return;
	std::ranges::pop_heap(kept, earlier_seq);
	kept.back() = finding;
	std::ranges::push_heap(kept, earlier_seq);
}

std::vector<Finding> in_seq_order(std::vector<Finding> heap)
{
	std::ranges::sort(heap, earlier_seq);
	return heap;
}

} // namespace

class Analyzer::Impl {
public:
	explicit Impl(const AnalysisOptions &options)
		// Two at least: with one, widening could need a shift of 64 bits.
		: options_(options), bucket_count_(std::max<std::uint32_t>(options.time_buckets, 2)),
		  scratch_(bucket_count_)
	{
	}

	void add(const Record &record)
	{
		// Most records of a recording are mapping events: skip the visit.
		if (const auto *event = std::get_if<MapEvent>(&record)) [[likely]] {
			add_map_event(*event);
			return;
		}
		std::visit([this](const auto &other) { add_other(other); }, record);
	}

	Summary summary() const;

	std::string source_;
	std::uint64_t recorded_unix_ns_ = 0;
	std::uint64_t records_skipped_ = 0;
	bool recording_complete_ = true;

private:
	void add_map_event(const MapEvent &event)
	{
		map_events_total_++;
		DeviceState &device = device_named(event.device, event.driver);
		std::size_t index = bucket_of(event.time_ns);
		Bucket &bucket = device.buckets[index];
		device.total_calls++;
		switch (call_class(event.call)) {
		case CallClass::map:
			bucket.maps++;
			bucket.bytes_mapped += event.size;
			device.total_bytes_mapped += event.size;
			break;
		case CallClass::unmap:
			bucket.unmaps++;
			break;
		case CallClass::sync:
			bucket.syncs++;
			break;
		case CallClass::other:
			// A call this library has no name for (a newer module): it
			// counts in the device's total but in no column.
			break;
		}
	}

	void add_other(const MapEvent &event) { add_map_event(event); }

	void add_other(const Finding &finding)
	{
		// A count FINDING_REPEATS said of it before it came (its
		// notification was lost, and it was read from the log later).
		const Said *said = nullptr;
		if (finding.occurrences)
			if (auto found = repeats_said_.find(finding.seq); found != repeats_said_.end())
				said = &found->second;
		const std::uint64_t occurrences = occurrences_added(finding, said);
		findings_total_++;
		occurrences_total_ += occurrences;
		// The timeline counts log entries: folded repeats have no time of
		// their own but the latest (DeviceTimeline::findings).
		DeviceState &device = device_named(finding.device, finding.driver);
		device.buckets[bucket_of(finding.time_ns)].findings++;
		device.total_findings++;

		GroupState &group = groups_[{finding.driver, finding.kind}];
		group.count += occurrences;
		group.logged++;
		group.devices.insert(finding.device);
		group.first_ns = std::min(group.first_ns, finding.time_ns);
		group.last_ns = std::max(group.last_ns,
					 std::max(finding.time_ns, finding.last_time_ns.value_or(0)));
		if (said)
			group.last_ns = std::max(group.last_ns, said->last_time_ns);
		keep_first(group.examples, finding, options_.examples_per_group);
		keep_first(findings_, finding, options_.findings_kept);
	}

	// The occurrences finding adds to what its site's earlier findings
	// (and the FINDING_REPEATS of it already seen, said) said: 1 for a
	// finding the module did not count, else what its count says beyond
	// theirs (0 for another entry of a site with fold_findings=0 whose
	// count an earlier entry already said).
	std::uint64_t occurrences_added(const Finding &finding, const Said *said)
	{
		if (!finding.occurrences)
			return 1;
		auto site = sites_.try_emplace(
			{finding.device, finding.driver, finding.kind, finding.caller}).first;
		SiteState &state = site->second;
		const std::uint64_t before = state.occurrences();
		state.most_said = std::max(state.most_said, *finding.occurrences);
		if (said)
			state.most_said = std::max(state.most_said, said->occurrences);
		state.entries++;
		// Repeats name the site by its latest entry's seq from now on.
		if (auto old = site_by_seq_.find(state.last_seq);
		    old != site_by_seq_.end() && old->second == site)
			site_by_seq_.erase(old);
		state.last_seq = finding.seq;
		site_by_seq_[finding.seq] = site;
		return state.occurrences() - before;
	}

	// A later count of a logged finding's site: what it says beyond what
	// the site's findings said counts in the site's group. Remembered by
	// seq, for the copies of the finding the summary keeps, and for a
	// finding that comes after it. Repeats of a finding the recording does
	// not hold (it predates the recording, or was lost) count nowhere.
	void add_other(const FindingRepeats &repeats)
	{
		auto said = repeats_said_.find(repeats.seq);
		if (said != repeats_said_.end()) {
			said->second.occurrences =
				std::max(said->second.occurrences, repeats.occurrences);
			said->second.last_time_ns =
				std::max(said->second.last_time_ns, repeats.last_time_ns);
		} else if (repeats_said_.size() < repeats_kept) {
			repeats_said_.emplace(repeats.seq,
					      Said{repeats.occurrences, repeats.last_time_ns});
		}
		auto site = site_by_seq_.find(repeats.seq);
		if (site == site_by_seq_.end())
			return;
		SiteState &state = site->second->second;
		const std::uint64_t before = state.occurrences();
		state.most_said = std::max(state.most_said, repeats.occurrences);
		const std::uint64_t added = state.occurrences() - before;
		const SiteKey &key = site->second->first;
		GroupState &group = groups_[{std::get<1>(key), std::get<2>(key)}];
		group.count += added;
		occurrences_total_ += added;
		group.last_ns = std::max(group.last_ns, repeats.last_time_ns);
	}

	void add_other(const Loss &loss)
	{
		findings_lost_ += loss.count();
		if (losses_.size() < options_.losses_kept)
			losses_.push_back(loss);
	}

	void add_other(const MapEventLoss &loss)
	{
		map_events_lost_ += loss.count();
		if (map_event_losses_.size() < options_.losses_kept)
			map_event_losses_.push_back(loss);
	}

	void add_other(const Snapshot &snapshot)
	{
		snapshots_total_++;
		if (snapshots_.size() < options_.snapshots_kept)
			snapshots_.push_back(snapshot);
	}

	void add_other(const Info &info) { info_ = info; }

	void add_other(const StatsSnapshot &snapshot)
	{
		// A live report has only one snapshot, taken at its end.
		if (snapshot.when == StatsSnapshot::When::end || !stats_end_)
			stats_end_ = snapshot.stats;
	}

	void add_other(const DevicePolicy &policy) { device_policies_.push_back(policy.policy); }
	void add_other(const PolicyOverride &policy) { policy_overrides_.push_back(policy.policy); }

	void add_other(const LiveMapping &live)
	{
		live_mappings_++;
		DeviceState &device = device_named(live.mapping.device, live.mapping.driver);
		// A scatter-gather mapping comes as one record per segment.
		if (!live.mapping.sg_index || *live.mapping.sg_index == 0)
			device.live_mappings++;
		device.live_bytes += live.mapping.size;
	}

	void add_other(const SymbolTable &symbols) { kallsyms_ = symbols.kallsyms; }
	void add_other(const RecordingEnd &end) { end_ = end; }

	// Inlined: once per record, and a call costs what the look-up does.
	[[gnu::always_inline]] DeviceState &device_named(const std::string &name,
							  const std::string &driver)
	{
		DeviceState *&cached = recent_devices_[recent_slot(name)];
		if (!cached || !detail::same_text(cached->name, name)) [[unlikely]]
			cached = &find_or_add_device(name);
		DeviceState &device = *cached;
		// A driver may bind after the device's first calls.
		if (!driver.empty() && !detail::same_text(device.driver, driver)) [[unlikely]]
			device.driver = driver;
		return device;
	}

	// Where a device's name is cached in recent_devices_: from its length
	// and its first and last bytes, which tell apart the names one machine
	// has (the bus address or the number at the end, mostly) without
	// hashing the whole name. A collision only costs a lookup in the index.
	static std::size_t recent_slot(const std::string &name)
	{
		std::uint64_t head = 0, tail = 0;
		const std::size_t length = name.size();
		if (length >= sizeof head) {
			std::memcpy(&head, name.data(), sizeof head);
			std::memcpy(&tail, name.data() + length - sizeof tail, sizeof tail);
		} else {
			std::memcpy(&head, name.data(), length);
		}
		std::uint64_t mixed = (head ^ std::rotl(tail, 29) ^ length) * 0x9e3779b97f4a7c15u;
		return static_cast<std::size_t>(mixed >> (64 - recent_bits));
	}

	DeviceState &find_or_add_device(const std::string &name)
	{
		auto found = device_index_.find(name);
		if (found != device_index_.end())
			return *found->second;
		auto &device = devices_.emplace_back(std::make_unique<DeviceState>());
		device->name = name;
		device->buckets.resize(bucket_count_);
		device_index_.emplace(name, device.get());
		return *device;
	}

	// The window index of the bucket time_ns falls in, widening or moving
	// the window first when it lies outside.
	std::size_t bucket_of(std::uint64_t time_ns)
	{
		if (!have_time_) [[unlikely]] {
			have_time_ = true;
			min_ns_ = max_ns_ = time_ns;
			window_first_ = time_ns >> shift_;
		}
		min_ns_ = std::min(min_ns_, time_ns);
		max_ns_ = std::max(max_ns_, time_ns);
		// Unsigned: a time before the window wraps to a huge index.
		std::uint64_t index = (time_ns >> shift_) - window_first_;
		if (index >= bucket_count_) [[unlikely]] {
			refit(time_ns);
			index = (time_ns >> shift_) - window_first_;
		}
		return static_cast<std::size_t>(index);
	}

	void refit(std::uint64_t time_ns)
	{
		const std::uint64_t count = bucket_count_;
		// Everything seen, time_ns included (min_ns_ and max_ns_ hold it).
		unsigned widen = 0;
		while (((max_ns_ >> shift_) >> widen) - ((min_ns_ >> shift_) >> widen) >= count)
			widen++;
		const unsigned new_shift = shift_ + widen;
		const std::uint64_t new_low = min_ns_ >> new_shift;
		const std::uint64_t new_high = max_ns_ >> new_shift;
		// Room on the side the outlier came from: the next one from there
		// then most likely fits without another move.
		const bool came_before = (time_ns >> shift_) < window_first_;
		std::uint64_t new_first = new_low;
		if (came_before)
			new_first = new_high >= count - 1 ? new_high - (count - 1) : 0;

		for (auto &device : devices_) {
			std::ranges::fill(scratch_, Bucket{});
			for (std::uint64_t i = 0; i < count; i++) {
				const Bucket &old = device->buckets[i];
				if (old.empty())
					continue;
				std::uint64_t moved = ((window_first_ + i) >> widen) - new_first;
				scratch_[moved] += old;
			}
			device->buckets.swap(scratch_);
		}
		shift_ = new_shift;
		window_first_ = new_first;
	}

	AnalysisOptions options_;
	std::uint32_t bucket_count_;

	// The window: bucket i covers global index window_first_ + i, where the
	// global index of a time is time >> shift_.
	bool have_time_ = false;
	unsigned shift_ = initial_shift;
	std::uint64_t window_first_ = 0;
	std::uint64_t min_ns_ = 0;
	std::uint64_t max_ns_ = 0;
	std::vector<Bucket> scratch_;

	std::vector<std::unique_ptr<DeviceState>> devices_;
	std::unordered_map<std::string, DeviceState *> device_index_;
	// Mapping events switch between a machine's few devices all the time:
	// a small cache in front of device_index_ spares them hashing whole
	// names.
	static constexpr unsigned recent_bits = 6;
	std::array<DeviceState *, std::size_t{1} << recent_bits> recent_devices_{};

	std::map<std::pair<std::string, std::uint32_t>, GroupState> groups_;
	// Sites of the findings that carry a count. As many as the module had
	// (finding_sites bounds them per load), and each came as a finding.
	Sites sites_;
	// Each site by the seq of its latest entry (SiteState::last_seq).
	std::unordered_map<std::uint64_t, Sites::iterator> site_by_seq_;
	// The most the FINDING_REPEATS of each seq said (repeats_kept seqs).
	std::unordered_map<std::uint64_t, Said> repeats_said_;
	std::vector<Finding> findings_; // a max-heap on seq while collecting

	std::optional<Info> info_;
	std::optional<Stats> stats_end_;
	std::vector<Policy> device_policies_;
	std::vector<Policy> policy_overrides_;
	std::uint64_t live_mappings_ = 0;
	std::uint64_t findings_total_ = 0;    // log entries
	std::uint64_t occurrences_total_ = 0; // what they stand for
	std::uint64_t map_events_total_ = 0;
	std::uint64_t findings_lost_ = 0;
	std::uint64_t map_events_lost_ = 0;
	std::vector<Loss> losses_;
	std::vector<MapEventLoss> map_event_losses_;
	std::vector<Snapshot> snapshots_;
	std::uint64_t snapshots_total_ = 0;
	std::string kallsyms_;
	std::optional<RecordingEnd> end_;
};

Summary Analyzer::Impl::summary() const
{
	Summary summary;
	summary.source = source_;
	summary.info = info_;
	summary.stats_end = stats_end_;
	summary.device_policies = device_policies_;
	summary.policy_overrides = policy_overrides_;
	summary.live_mappings_at_start = live_mappings_;
	summary.recorded_unix_ns = recorded_unix_ns_;

	// Only the buckets from the first event's to the last one's.
	std::uint64_t first_bucket = 0;
	if (have_time_) {
		summary.start_ns = min_ns_;
		summary.end_ns = max_ns_;
		summary.bucket_ns = std::uint64_t{1} << shift_;
		first_bucket = min_ns_ >> shift_;
		summary.timeline_start_ns = first_bucket << shift_;
		summary.bucket_count =
			static_cast<std::uint32_t>((max_ns_ >> shift_) - first_bucket + 1);
	}
	const std::size_t skip = static_cast<std::size_t>(first_bucket - window_first_);

	summary.findings_total = findings_total_;
	summary.occurrences_total = occurrences_total_;
	summary.map_events_total = map_events_total_;
	summary.findings_lost = findings_lost_;
	summary.map_events_lost = map_events_lost_;
	if (end_) {
		// The recorder counted every loss; the records it wrote may have
		// been cut short, so take whichever says more.
		summary.findings_lost = std::max(summary.findings_lost, end_->findings_lost);
		summary.map_events_lost = std::max(summary.map_events_lost, end_->map_events_lost);
		summary.map_events_lost_in_kernel =
			std::min(end_->map_events_lost_in_kernel, summary.map_events_lost);
	}
	summary.records_skipped = records_skipped_;
	summary.recording_complete = recording_complete_;

	for (const auto &[key, group] : groups_) {
		FindingGroup out;
		out.driver = key.first;
		out.kind = key.second;
		out.count = group.count;
		out.logged = group.logged;
		out.devices.assign(group.devices.begin(), group.devices.end());
		out.first_ns = group.first_ns;
		out.last_ns = group.last_ns;
		out.examples = in_seq_order(group.examples);
		for (Finding &example : out.examples)
			apply_repeats(example, repeats_said_);
		summary.groups.push_back(std::move(out));
	}

	for (const auto &device : devices_) {
		DeviceTimeline timeline;
		timeline.device = device->name;
		timeline.driver = device->driver;
		timeline.total_bytes_mapped = device->total_bytes_mapped;
		timeline.total_calls = device->total_calls;
		timeline.total_findings = device->total_findings;
		timeline.live_mappings = device->live_mappings;
		timeline.live_bytes = device->live_bytes;
		const std::size_t count = summary.bucket_count;
		timeline.bytes_mapped.reserve(count);
		timeline.maps.reserve(count);
		timeline.unmaps.reserve(count);
		timeline.syncs.reserve(count);
		timeline.findings.reserve(count);
		for (std::size_t i = skip; i < skip + count; i++) {
			const Bucket &bucket = device->buckets[i];
			timeline.bytes_mapped.push_back(bucket.bytes_mapped);
			timeline.maps.push_back(bucket.maps);
			timeline.unmaps.push_back(bucket.unmaps);
			timeline.syncs.push_back(bucket.syncs);
			timeline.findings.push_back(bucket.findings);
		}
		summary.devices.push_back(std::move(timeline));
	}
	std::ranges::sort(summary.devices, {}, &DeviceTimeline::device);

	summary.findings = in_seq_order(findings_);
	for (Finding &finding : summary.findings)
		apply_repeats(finding, repeats_said_);
	summary.losses = losses_;
	summary.map_event_losses = map_event_losses_;
	summary.snapshots = snapshots_;
	std::ranges::sort(summary.snapshots, {}, [](const Snapshot &s) { return s.header.seq; });
	summary.snapshots_total = snapshots_total_;
	summary.kallsyms = kallsyms_;
	return summary;
}

Analyzer::Analyzer(const AnalysisOptions &options) : impl_(std::make_unique<Impl>(options)) {}
Analyzer::~Analyzer() = default;
Analyzer::Analyzer(Analyzer &&) noexcept = default;
Analyzer &Analyzer::operator=(Analyzer &&) noexcept = default;

void Analyzer::set_source(std::string source)
{
	impl_->source_ = std::move(source);
}

void Analyzer::set_recorded_at(std::uint64_t unix_ns)
{
	impl_->recorded_unix_ns_ = unix_ns;
}

void Analyzer::add(const Record &record)
{
	impl_->add(record);
}

void Analyzer::set_reader_state(std::uint64_t skipped, bool complete)
{
	impl_->records_skipped_ = skipped;
	impl_->recording_complete_ = complete;
}

Summary Analyzer::summary() const
{
	return impl_->summary();
}

Summary analyze_recording(RecordingReader &reader, std::string source,
			  const AnalysisOptions &options, const RecordingProgress &progress)
{
	// Often enough for a progress line updated ten times a second, rarely
	// enough to cost nothing.
	constexpr std::uint64_t progress_every = 1 << 14;

	Analyzer analyzer(options);
	analyzer.set_source(std::move(source));
	analyzer.set_recorded_at(reader.header().created_unix_ns);
	std::uint64_t records = 0;
	// One record, decoded into again and again: the reader then reuses
	// its storage.
	Record record;
	while (reader.next(record)) {
		analyzer.add(record);
		if (++records % progress_every == 0 && progress)
			progress(reader.offset(), reader.size(), records);
	}
	if (progress)
		progress(reader.offset(), reader.size(), records);
	analyzer.set_reader_state(reader.skipped(), reader.complete());
	return analyzer.summary();
}

} // namespace edgedma
