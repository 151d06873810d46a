// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <edgedma/export.hpp>
#include <edgedma/info.hpp>
#include <edgedma/profile.hpp>
#include <edgedma/records.hpp>
#include <edgedma/crash.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma {

// The live mapping table as Client::mapping_table() read it.
struct MappingTable {
	std::vector<Mapping> mappings;
	// No mapping was made or removed while the last read ran. False when
	// every read was interrupted so: mappings then holds the last read,
	// which may miss or repeat entries.
	bool consistent = false;
	int attempts = 0; // reads made, the last of them giving mappings

	bool operator==(const MappingTable &) const = default;
};

// A connection to the edgedma module over its generic netlink family. Every
// method throws edgedma::Error on failure; a refusal by the kernel carries
// its errno and extended-ack message.
class EDGEDMA_API Client {
public:
	// Throws Error("edgedma module not loaded (...)") when the family does
	// not exist.
	Client();
	~Client();
	Client(Client &&) noexcept;
	Client &operator=(Client &&) noexcept;
	Client(const Client &) = delete;
	Client &operator=(const Client &) = delete;

	// Unprivileged. Fails if the module speaks a record format this library
	// does not understand.
	Info get_info();

	// Everything below needs CAP_SYS_ADMIN.
	Stats get_stats();

	// The findings still in the module's log with seq >= from_seq, oldest
	// first. The log is bounded: when the first one returned is past
	// from_seq, the ones in between are gone.
	std::vector<Finding> findings(std::uint64_t from_seq = 1);

	// Live mappings, of one device or of all; a scatter-gather mapping gives
	// one record per segment. The module marks a read during which a
	// mapping was made or removed (it may miss or repeat entries); such a
	// read is made again, up to max_attempts reads in all (at least one),
	// and the result says whether the last one was consistent.
	MappingTable mapping_table(const std::optional<std::string> &device = std::nullopt,
				   int max_attempts = 4);
	// mapping_table(device).mappings: a caller that must know whether the
	// list is consistent uses mapping_table().
	std::vector<Mapping> mappings(const std::optional<std::string> &device = std::nullopt);

	// Every device the module has seen calling the DMA API (up to its
	// device_slots parameter), with its counters. A module too old to list
	// devices is refused with EOPNOTSUPP and a message saying so.
	std::vector<Device> devices();

	// Sets the fields change gives for a device or driver; fields left out
	// keep their value.
	void policy_set(const PolicyChange &change);
	// The policy in force for a device, with the device's own facts.
	Policy policy_get(const std::string &device);
	// Every override set, as set.
	std::vector<Policy> policy_list();
	// Removes the override of a device or driver.
	void policy_del(const PolicyTarget &target);

	// Turns the mapping-event stream on or off. The module first sends
	// every event it holds, then answers with each CPU's cursor.
	MapEventsState map_events_set(bool enable);
	// The same without changing the state: for a reader that did not turn
	// the stream on and must not turn it back on.
	MapEventsState map_events_state();

	// Repeats of a finding at one site (device, kind, caller) are folded
	// into its first entry's count. every_occurrence(true) asks the module
	// for every occurrence in full, each with its own log entry and event,
	// for as long as this Client stays open: the module drops the request
	// when the connection closes, however the process ends. false
	// withdraws it. At most 16 connections ask at once (EBUSY). Refused
	// with EOPNOTSUPP by a module too old to take the request.
	FoldingState every_occurrence(bool enable);
	// The state, without asking or withdrawing.
	FoldingState folding_state();

	// Snapshots (snapshot.hpp). A module too old to take them is refused
	// with EOPNOTSUPP and a message saying so.
	//
	// Takes a snapshot of a device (its dev_name(); a PCI or platform
	// device) now, about one of its DMA addresses if given, and returns
	// its seq. The module refuses with EBUSY when the device's snapshots
	// are rate limited (snapshot_rate) or no slot is free, with ENODEV
	// when there is no such device.
	std::uint64_t snapshot_take(const std::string &device,
				    std::optional<std::uint64_t> address = std::nullopt);
	// The header and record size of every snapshot the module still
	// holds, oldest first.
	std::vector<SnapshotHeader> snapshot_list();
	// One snapshot whole, with its record's bytes. ENOENT once the module
	// reused its slot (it keeps the newest snapshot_slots). A record of up
	// to 1 MiB needs a socket receive buffer of 4 MiB, which this asks
	// for; where neither CAP_NET_ADMIN nor net.core.rmem_max allows it, a
	// large record is refused with ENOBUFS and a message saying so.
	Snapshot snapshot_get(std::uint64_t seq);
	// Snapshot @device at each entry into the kernel function @symbol (its
	// driver's error handler, probed by name). The module refuses a
	// function it cannot probe (not in kallsyms, inlined, blacklisted)
	// with a message, ENODEV without such a device, ENOSPC past 8 hooks.
	void error_hook_set(const std::string &symbol, const std::string &device);
	// Every hook, with how often its function was entered.
	std::vector<ErrorHook> error_hooks();
	// Removes the hook of @symbol for @device, or every hook of @symbol;
	// ENOENT when there is none.
	void error_hook_del(const std::string &symbol,
			    std::optional<std::string> device = std::nullopt);

	// Controller profiles (profile.hpp), with the same refusal from a
	// module too old to hold them.
	//
	// Sets a profile, replacing one of the same name, and binds it to the
	// matching devices present; returns how many. The module refuses a
	// register outside a window of a matching device, or a chain naming a
	// register the profile lacks, with EINVAL and a message naming it.
	std::uint32_t profile_set(const Profile &profile);
	// Every profile: name, match, devices bound, register and chain counts.
	std::vector<LoadedProfile> profile_list();
	// One profile whole, with the devices it is bound to; ENOENT when the
	// module holds none of that name.
	LoadedProfile profile_get(const std::string &name);
	// Removes a profile; ENOENT when there is none of that name.
	void profile_del(const std::string &name);

	// The crash region (crash.hpp), with the same refusal from a module
	// too old to keep one.
	//
	// What the module found in it (state "off" without one).
	CrashRegion crash_region();
	// Every record found in it, in its order, intact or not.
	std::vector<CrashRecordEntry> crash_records();
	// One intact record by its index, whole: the snapshot an earlier boot
	// stored, its bytes as they were written. ENOENT past the last record,
	// EBADMSG for a corrupt one, EAGAIN when the region changed meanwhile.
	Snapshot crash_record(std::uint32_t index);
	// Erases the region's header; with boot_id, only while the region
	// holds what that load wrote (ESTALE otherwise: an oops wrote it since
	// it was read). ENODEV without a region.
	void crash_records_clear(std::optional<std::uint64_t> boot_id = std::nullopt);

private:
	MapEventsState map_events_request(std::optional<bool> enable);
	FoldingState unfold_request(std::optional<bool> enable);

	class Connection;
	std::unique_ptr<Connection> connection_;
};

} // namespace edgedma
