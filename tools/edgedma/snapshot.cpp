// SPDX-License-Identifier: GPL-2.0
//
// edgedma snapshot take|list|show|save|on-error|hooks: a device's DMA state as
// the module froze it, and the controller error handlers that take it
// (Documentation/snapshots.rst).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>
#include <edgedma/error.hpp>

#include "command.hpp"
#include "format.hpp"
#include "snapshot_render.hpp"

namespace edgedma::cli {
namespace {

struct TakeOptions {
	std::string device;
	std::optional<std::string> address;
};

int snapshot_take(const TakeOptions &options)
{
	std::optional<std::uint64_t> address;
	if (options.address)
		address = parse_dma_address(*options.address, "--addr");
	Client client;
	const std::uint64_t seq = client.snapshot_take(options.device, address);
	Snapshot snapshot;
	try {
		snapshot = client.snapshot_get(seq);
	} catch (const Error &) {
		// It was taken all the same: say which one before the reason it
		// cannot be read back.
		std::cout << "snapshot " << seq << " of " << options.device << " taken\n";
		throw;
	}
	std::cout << snapshot_summary(snapshot);
	return 0;
}

int snapshot_list(bool json)
{
	Client client;
	std::vector<SnapshotHeader> headers = client.snapshot_list();
	if (json) {
		for (const SnapshotHeader &header : headers)
			std::cout << json_text(snapshot_header_json(header)) << '\n';
		return 0;
	}
	if (headers.empty())
		std::cout << "no snapshots stored\n";
	else
		std::cout << snapshot_list_text(headers);
	return 0;
}

int snapshot_show(std::uint64_t seq, bool json)
{
	Client client;
	Snapshot snapshot = client.snapshot_get(seq);
	// For callers the kernel could not name when it took the snapshot.
	Symbolizer symbols = load_kernel_symbols();
	if (json)
		std::cout << json_text(snapshot_json(snapshot, symbols)) << '\n';
	else
		std::cout << snapshot_text(snapshot, symbols);
	return 0;
}

struct SaveOptions {
	std::uint64_t seq = 0;
	std::string output;
};

// The record's bytes exactly as the module wrote them: what a devcoredump
// of the snapshot holds, and what `edgedma explain` reads on any machine.
int snapshot_save(const SaveOptions &options)
{
	Client client;
	Snapshot snapshot = client.snapshot_get(options.seq);
	std::ofstream out(options.output, std::ios::binary | std::ios::trunc);
	if (!out)
		throw Error("snapshot save", "cannot open " + options.output + " for writing: " +
						     std::strerror(errno),
			    errno);
	out.write(reinterpret_cast<const char *>(snapshot.record.data()),
		  static_cast<std::streamsize>(snapshot.record.size()));
	out.close();
	if (!out)
		throw Error("snapshot save", "writing " + options.output + " failed");
	std::cout << "snapshot " << options.seq << ": " << bytes(snapshot.record.size())
		  << " to " << options.output << '\n';
	return 0;
}

struct OnErrorOptions {
	std::string function;
	std::optional<std::string> device;
	bool remove = false;
};

int snapshot_on_error(const OnErrorOptions &options)
{
	Client client;
	if (options.remove) {
		client.error_hook_del(options.function, options.device);
		std::cout << "no longer snapshotting at " << options.function
			  << (options.device ? " for " + *options.device : std::string()) << '\n';
		return 0;
	}
	if (!options.device)
		throw Error("snapshot on-error",
			    "name the device " + options.function + " serves (its dev_name())",
			    EINVAL);
	client.error_hook_set(options.function, *options.device);
	std::cout << "snapshotting " << *options.device << " at each entry into "
		  << options.function << '\n';
	return 0;
}

int snapshot_hooks(bool json)
{
	Client client;
	const std::vector<ErrorHook> hooks = client.error_hooks();
	if (json) {
		for (const ErrorHook &hook : hooks)
			std::cout << json_text({{"function", hook.symbol},
						{"device", hook.device},
						{"hits", hook.hits}})
				  << '\n';
		return 0;
	}
	if (hooks.empty()) {
		std::cout << "no error hooks (snapshot on-error FUNCTION DEVICE sets one)\n";
		return 0;
	}
	std::vector<std::vector<std::string>> rows{{"FUNCTION", "DEVICE", "HITS"}};
	for (const ErrorHook &hook : hooks)
		rows.push_back({hook.symbol, hook.device, std::to_string(hook.hits)});
	std::cout << aligned_table(rows, {false, false, true});
	return 0;
}

Action setup_on_error(CLI::App &command)
{
	auto options = std::make_shared<OnErrorOptions>();
	command.add_option("function", options->function,
			   "The kernel function: the DMA controller driver's error interrupt "
			   "handler (e.g. pl330_irq_handler)")
		->required();
	command.add_option("device", options->device,
			   "The device it serves (its dev_name()); with --remove, only its hook")
		->type_name("DEVICE");
	command.add_flag("--remove", options->remove, "Remove the hook instead");
	command.footer("Each entry into the function snapshots the device there, before the "
		       "handler clears anything (trigger controller-error): its registers "
		       "still hold the error. The module probes the function by name and "
		       "refuses one it cannot probe; at most 8 hooks.");
	return [options] { return snapshot_on_error(*options); };
}

Action setup_hooks(CLI::App &command)
{
	auto json = std::make_shared<bool>(false);
	command.add_flag("--json", *json, "One JSON object per hook and line");
	return [json] { return snapshot_hooks(*json); };
}

Action setup_take(CLI::App &command)
{
	auto options = std::make_shared<TakeOptions>();
	command.add_option("device", options->device,
			   "The device (its dev_name(), e.g. 0000:00:04.0): a PCI or platform "
			   "device")
		->required();
	command.add_option("--addr", options->address,
			   "A DMA address of the device the snapshot is about (0x... or "
			   "decimal): its mapping and latest unmap come first")
		->type_name("ADDR");
	command.footer("Prints the new snapshot's seq with what it holds. The module refuses "
		       "when the device's snapshots are rate limited (snapshot_rate) or no "
		       "slot is free.");
	return [options] { return snapshot_take(*options); };
}

Action setup_snapshot_list(CLI::App &command)
{
	auto json = std::make_shared<bool>(false);
	command.add_flag("--json", *json, "One JSON object per snapshot and line");
	command.footer("The module keeps the newest snapshot_slots snapshots.");
	return [json] { return snapshot_list(*json); };
}

Action setup_snapshot_show(CLI::App &command)
{
	auto seq = std::make_shared<std::uint64_t>(0);
	auto json = std::make_shared<bool>(false);
	command.add_option("seq", *seq, "The snapshot's sequence number (snapshot list)")
		->required()
		->check(CLI::PositiveNumber);
	command.add_flag("--json", *json, "Print one JSON object instead of text");
	command.footer("Leads with the cross-view comparison's headline, then shows the "
		       "header, the views of each page side by side, every verdict with its "
		       "evidence, the registers and descriptors, the device's live mappings "
		       "(the one holding the snapshot's address marked *), its recent unmaps "
		       "with who mapped and unmapped them and when, and the parts left out "
		       "and why.");
	return [seq, json] { return snapshot_show(*seq, *json); };
}

Action setup_save(CLI::App &command)
{
	auto options = std::make_shared<SaveOptions>();
	command.add_option("seq", options->seq, "The snapshot's sequence number (snapshot list)")
		->required()
		->check(CLI::PositiveNumber);
	command.add_option("-o,--output", options->output, "The file to write")->required();
	command.footer("Writes the record's bytes as the module made them (the same bytes as "
		       "its devcoredump); `edgedma explain FILE` shows it on any machine, "
		       "without the module.");
	return [options] { return snapshot_save(*options); };
}

constexpr Subcommand snapshot_commands[] = {
	{"take", "Take a snapshot of a device now", setup_take},
	{"list", "List the snapshots the module holds", setup_snapshot_list},
	{"show", "Show one snapshot whole", setup_snapshot_show},
	{"save", "Write one snapshot's record to a file", setup_save},
	{"on-error", "Snapshot a device each time its driver's error handler runs",
	 setup_on_error},
	{"hooks", "List the error handlers that snapshot their device", setup_hooks},
};

} // namespace

Action setup_snapshot(CLI::App &command)
{
	Action run = setup_group(command, snapshot_commands);
	command.footer("A snapshot freezes what a device had mapped and recently unmapped, "
		       "and by whom, when DMA goes wrong or when asked. All of them need "
		       "CAP_SYS_ADMIN.");
	return run;
}

} // namespace edgedma::cli
