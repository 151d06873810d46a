// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include <edgedma/event_stream.hpp>
#include <edgedma/export.hpp>
#include <edgedma/recording.hpp>

namespace edgedma {

// What a MapEventStream delivers, per CPU in seq order.
using MapStreamEvent = std::variant<MapEvent, MapEventLoss>;

// Where poll() and finish() hand events to a caller that takes them one at
// a time: each by reference, valid only during the call.
struct MapStreamHandlers {
	std::function<void(const MapEvent &)> event;
	std::function<void(const MapEventLoss &)> loss;
};

// Every seq between the start and the end cursors of a CPU is counted once:
// in received, or in lost.
struct MapEventCounters {
	std::uint64_t received = 0;
	std::uint64_t lost = 0;           // in MapEventLoss events
	// Of lost, those the module never sent (its buffer was full); known
	// once finish() has read the end cursors.
	std::uint64_t lost_in_kernel = 0;
	// Reported lost, then delivered after all (a batched receive completed
	// late); already taken out of lost.
	std::uint64_t late = 0;
	std::uint64_t overflows = 0;      // socket overflows (ENOBUFS) seen
	std::uint64_t messages = 0;       // MAP_EVENTS notifications received
	bool operator==(const MapEventCounters &) const = default;
};

// The module's mapping-event stream (every map, unmap and sync call),
// received with io_uring. Construction subscribes and turns the stream on;
// finish() turns it back off when this stream turned it on (else it only
// reads the cursors, leaving the stream as it is), and accounts for every
// event numbered in between. The stream is one for the module: when the
// stream that turned it on finishes, the others receive no more events.
// Needs CAP_SYS_ADMIN.
class EDGEDMA_API MapEventStream {
public:
	struct Options {
		ReceiveMode receive_mode = ReceiveMode::automatic;
		int receive_buffer = 32 << 20; // bytes asked for
	};

	explicit MapEventStream(const Options &options);
	MapEventStream();
	~MapEventStream();
	MapEventStream(MapEventStream &&) noexcept;
	MapEventStream &operator=(MapEventStream &&) noexcept;
	MapEventStream(const MapEventStream &) = delete;
	MapEventStream &operator=(const MapEventStream &) = delete;

	// Waits up to timeout (forever without one) and returns what arrived:
	// events, and a MapEventLoss for each gap in a CPU's numbers.
	std::vector<MapStreamEvent> poll(std::optional<std::chrono::nanoseconds> timeout);

	// Ends the stream: the module sends what it holds and says where each
	// CPU stands; what the socket still has is delivered, and every seq
	// up to there that never came is a MapEventLoss. Nothing after.
	std::vector<MapStreamEvent> finish();

	// poll() and finish() with each event and loss handed to handlers, in
	// the same order; they return how many were handed over. The stream
	// decodes into storage it keeps from batch to batch, so a busy stream
	// costs no memory allocation per event (the vector above allocates the
	// device and driver names of every event). A handler that throws stops
	// the delivery there: the next poll() goes on after the event or loss
	// it threw on; finish() has ended the stream even so, and what it had
	// not handed over by then is neither delivered nor counted.
	std::size_t poll(std::optional<std::chrono::nanoseconds> timeout,
			 const MapStreamHandlers &handlers);
	std::size_t finish(const MapStreamHandlers &handlers);

	const MapEventCounters &counters() const;
	ReceiveMode receive_mode() const;
	int receive_buffer() const;

private:
	class Impl;
	std::unique_ptr<Impl> impl_;
};

} // namespace edgedma
