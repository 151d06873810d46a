// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Recordings: what `edgedma record` saved of a live module, read back by
// `edgedma replay` and `edgedma report` on any machine, without the module.
// The file format is described in Documentation/recording-format.rst. The
// records that mirror a module message carry that message's attributes as
// the module sent them, so the one decoder of <linux/edgedma.h> reads both.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <edgedma/event_stream.hpp>
#include <edgedma/export.hpp>
#include <edgedma/info.hpp>
#include <edgedma/records.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma {

// The file's major version: a reader refuses files with a greater one. New
// record types and new attributes do not change it (readers skip them).
inline constexpr std::uint32_t recording_format_version = 1;

// What the recording holds about where it came from.
struct RecordingHeader {
	std::uint32_t version = recording_format_version;
	std::uint64_t created_unix_ns = 0; // CLOCK_REALTIME when recording started
	bool operator==(const RecordingHeader &) const = default;
};

// The module's counters, at the start or the end of the recording.
struct StatsSnapshot {
	enum class When : std::uint32_t { start = 1, end = 2 };
	When when = When::start;
	Stats stats;
	bool operator==(const StatsSnapshot &) const = default;
};

// The policy in force for one device the recording involves, with the
// device's own facts (as Client::policy_get()).
struct DevicePolicy {
	Policy policy;
	bool operator==(const DevicePolicy &) const = default;
};

// One override set with `edgedma policy set` (as Client::policy_list()).
struct PolicyOverride {
	Policy policy;
	bool operator==(const PolicyOverride &) const = default;
};

// A mapping live when the recording started (as Client::mappings()).
struct LiveMapping {
	Mapping mapping;
	bool operator==(const LiveMapping &) const = default;
};

// Mapping events the recorder could not get, per CPU: the seqs first_seq to
// last_seq (inclusive) of that CPU's stream. in_kernel of them were never
// sent because the module's per-CPU buffer was full; the rest were sent and
// lost on the way (socket overflow).
struct MapEventLoss {
	std::uint32_t cpu = 0;
	std::uint64_t first_seq = 0;
	std::uint64_t last_seq = 0;
	std::uint64_t count() const { return last_seq - first_seq + 1; }
	bool operator==(const MapEventLoss &) const = default;
};

// The kernel symbols the recorded callers fall in, in /proc/kallsyms
// format, so the replaying machine can name them (Symbolizer::parse()).
struct SymbolTable {
	std::string kallsyms;
	bool operator==(const SymbolTable &) const = default;
};

// The last record: how the recording ended and what it counted.
struct RecordingEnd {
	std::uint64_t duration_ns = 0;
	std::uint64_t findings = 0;          // Finding records written
	std::uint64_t findings_lost = 0;     // in Loss records
	std::uint64_t map_events = 0;        // MapEvent records written
	std::uint64_t map_events_lost = 0;   // in MapEventLoss records
	// Of map_events_lost, those the module never sent (its buffer was
	// full); the rest overflowed the recorder's socket.
	std::uint64_t map_events_lost_in_kernel = 0;
	bool operator==(const RecordingEnd &) const = default;
};

// New alternatives go at the end, so that the index of every earlier one
// stays what it was.
using Record = std::variant<Info, StatsSnapshot, DevicePolicy, PolicyOverride, LiveMapping,
			    Finding, Loss, MapEvent, MapEventLoss, SymbolTable, RecordingEnd,
			    FindingRepeats, Snapshot>;

// Writes a recording. Records go to the file in the order given; the file
// is complete once finish() has written RecordingEnd and flushed. Throws
// Error naming the file on any write failure.
class EDGEDMA_API RecordingWriter {
public:
	RecordingWriter(const std::filesystem::path &path, const RecordingHeader &header);
	~RecordingWriter();
	RecordingWriter(RecordingWriter &&) noexcept;
	RecordingWriter &operator=(RecordingWriter &&) noexcept;
	RecordingWriter(const RecordingWriter &) = delete;
	RecordingWriter &operator=(const RecordingWriter &) = delete;

	void write(const Record &record);
	// The same for a mapping event not held in a Record: a recorder of a
	// busy stream then copies no event into one.
	void write(const MapEvent &event);
	// Writes end, flushes and closes. Further writes throw.
	void finish(const RecordingEnd &end);
	std::uint64_t bytes_written() const;

private:
	class Impl;
	std::unique_ptr<Impl> impl_;
};

// Encodes records into a byte buffer in the file format (header first),
// for tests and for writers that keep recordings in memory.
EDGEDMA_API std::vector<std::byte> encode_recording(const RecordingHeader &header,
						     std::span<const Record> records);

// Whether bytes begin as a recording does (its magic), so that a tool can
// tell a recording from another file before reading it.
EDGEDMA_API bool looks_like_recording(std::span<const std::byte> bytes);

// Reads a recording, one record at a time. Unknown record types are skipped
// and counted; a malformed record, a truncated file, a bad magic or a
// version newer than recording_format_version throw Error naming the byte
// offset.
class EDGEDMA_API RecordingReader {
public:
	// Reads from memory; bytes must outlive the reader.
	explicit RecordingReader(std::span<const std::byte> bytes);
	// Maps the file. Throws Error when it cannot be opened.
	explicit RecordingReader(const std::filesystem::path &path);
	~RecordingReader();
	RecordingReader(RecordingReader &&) noexcept;
	RecordingReader &operator=(RecordingReader &&) noexcept;
	RecordingReader(const RecordingReader &) = delete;
	RecordingReader &operator=(const RecordingReader &) = delete;

	const RecordingHeader &header() const;
	// The next record; nothing at the end of the file.
	std::optional<Record> next();
	// The next record into record, false at the end of the file (record
	// then unchanged). A loop that keeps one Record reuses its storage: the
	// mapping events that make up most of a recording then cost no memory
	// allocation. After a throw, record is valid but its value unspecified.
	bool next(Record &record);

	std::uint64_t offset() const;      // of the next record
	std::uint64_t size() const;        // of the whole file, bytes
	std::uint64_t skipped() const;     // records of unknown type
	// Whether a RecordingEnd was read (a recording cut short has none).
	bool complete() const;

private:
	class Impl;
	std::unique_ptr<Impl> impl_;
};

} // namespace edgedma
