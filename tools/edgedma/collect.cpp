// SPDX-License-Identifier: GPL-2.0
//
// edgedma collect DIR: the snapshots an earlier boot's oops or panic left in
// the crash region, each written to a file of DIR (the record's bytes, as
// `edgedma snapshot save` writes them), and the region cleared once every
// file is on disk (Documentation/snapshots.rst).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <linux/edgedma.h>

#include <edgedma/client.hpp>
#include <edgedma/cross_view.hpp>
#include <edgedma/error.hpp>

#include "command.hpp"
#include "crash_render.hpp"
#include "format.hpp"

namespace edgedma::cli {
namespace {

struct CollectOptions {
	std::string directory;
	bool keep = false;
	bool json = false;
};

Error system_error(const std::string &what, int error_number)
{
	return Error("collect", what + ": " + std::strerror(error_number), error_number);
}

// A file descriptor, closed once.
class OpenFile {
public:
	OpenFile(const std::filesystem::path &path, int flags, mode_t mode = 0)
		: fd_(::open(path.c_str(), flags | O_CLOEXEC, mode))
	{
		if (fd_ < 0)
			throw system_error("cannot open " + path.string(), errno);
	}
	OpenFile(const OpenFile &) = delete;
	OpenFile &operator=(const OpenFile &) = delete;
	~OpenFile()
	{
		if (fd_ >= 0)
			::close(fd_);
	}

	int fd() const { return fd_; }

	// Close, reporting what a deferred write error says (NFS, full disks).
	void close(const std::filesystem::path &path)
	{
		const int fd = std::exchange(fd_, -1);
		if (::close(fd) != 0)
			throw system_error("closing " + path.string(), errno);
	}

private:
	int fd_;
};

// @bytes into @path durably: a temporary file beside it, written, fsync'd
// and renamed over it. Mode 0600: a snapshot holds kernel addresses.
void write_durably(const std::filesystem::path &path, std::span<const std::byte> bytes)
{
	const std::filesystem::path temporary = path.string() + ".partial";
	OpenFile file(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	std::size_t done = 0;
	while (done < bytes.size()) {
		const ssize_t written = ::write(file.fd(), bytes.data() + done, bytes.size() - done);
		if (written < 0 && errno == EINTR)
			continue;
		if (written <= 0)
			throw system_error("writing " + temporary.string(), written < 0 ? errno : EIO);
		done += static_cast<std::size_t>(written);
	}
	if (::fsync(file.fd()) != 0)
		throw system_error("fsync of " + temporary.string(), errno);
	file.close(temporary);
	if (::rename(temporary.c_str(), path.c_str()) != 0)
		throw system_error("renaming " + temporary.string() + " to " + path.string(), errno);
}

// The renames are durable once the directory is.
void sync_directory(const std::filesystem::path &directory)
{
	OpenFile dir(directory, O_RDONLY | O_DIRECTORY);
	if (::fsync(dir.fd()) != 0)
		throw system_error("fsync of " + directory.string(), errno);
	dir.close(directory);
}

// crash-BOOTID-SEQ.snap: the seqs of two boots' records can be equal.
std::string record_file_name(std::uint64_t boot_id, std::uint64_t seq)
{
	char name[64];
	std::snprintf(name, sizeof(name), "crash-%016llx-%llu.snap",
		      static_cast<unsigned long long>(boot_id), static_cast<unsigned long long>(seq));
	return name;
}

int collect(const CollectOptions &options)
{
	Client client;
	const CrashRegion region = client.crash_region();
	if (region.state == EDGEDMA_CRASH_REGION_OFF)
		throw Error("collect",
			    "the module keeps no crash region: load it with crash_region=SIZE@PHYS "
			    "(Documentation/snapshots.rst)",
			    ENODEV);

	std::vector<CollectedRecord> collected;
	std::size_t written = 0;
	if (region.state == EDGEDMA_CRASH_REGION_VALID) {
		const std::filesystem::path directory(options.directory);
		std::error_code error;
		std::filesystem::create_directories(directory, error);
		if (error)
			throw Error("collect", "cannot create " + directory.string() + ": " +
						       error.message(),
				    error.value());
		// Callers were named by the kernel that took the snapshots; this
		// kernel's symbols would name another layout's.
		const Symbolizer no_symbols;
		for (CrashRecordEntry &entry : client.crash_records()) {
			CollectedRecord record{std::move(entry), {}, {}, {}};
			if (record.entry.state == EDGEDMA_CRASH_RECORD_INTACT) {
				record.snapshot = client.crash_record(record.entry.index);
				const std::vector<Verdict> verdicts =
					compare_views(*record.snapshot, no_symbols);
				if (const Verdict *lead = headline(verdicts))
					record.headline = *lead;
				const std::filesystem::path path =
					directory / record_file_name(region.boot_id.value_or(0),
								     record.entry.seq);
				write_durably(path, record.snapshot->record);
				record.file = path.string();
				written++;
			}
			collected.push_back(std::move(record));
		}
		sync_directory(directory);
	}

	// Only what was read is cleared: not records an oops wrote since.
	bool cleared = false;
	if (!options.keep && region.state != EDGEDMA_CRASH_REGION_EMPTY) {
		client.crash_records_clear(region.state == EDGEDMA_CRASH_REGION_VALID
						   ? region.boot_id
						   : std::nullopt);
		cleared = true;
	}

	if (options.json) {
		std::cout << json_text(collect_json(region, collected, cleared)) << '\n';
		return 0;
	}
	std::cout << crash_region_text(region) << '\n';
	for (const CollectedRecord &record : collected)
		std::cout << "  " << collected_record_text(record) << '\n';
	if (region.state == EDGEDMA_CRASH_REGION_EMPTY)
		return 0;
	std::cout << "collected " << written << (written == 1 ? " record" : " records");
	if (region.state == EDGEDMA_CRASH_REGION_VALID)
		std::cout << " into " << options.directory;
	std::cout << (cleared ? "; the region is cleared\n" : "; the region is kept (--keep)\n");
	return 0;
}

} // namespace

Action setup_collect(CLI::App &command)
{
	auto options = std::make_shared<CollectOptions>();
	command.add_option("DIR", options->directory,
			   "The directory to write the records to (made when missing)")
		->required();
	command.add_flag("--keep", options->keep, "Leave the records in the region");
	command.add_flag("--json", options->json, "Print one JSON object instead of text");
	command.footer(
		"Writes each intact record of the crash region (the snapshots an earlier boot "
		"held at its oops or panic) to DIR/crash-BOOTID-SEQ.snap, the bytes `edgedma "
		"snapshot save` writes, for `edgedma explain FILE`; reports corrupt ones with "
		"the reason. Once every file is fsync'd the region is cleared, unless --keep "
		"or an oops wrote it meanwhile. Needs CAP_SYS_ADMIN and a module loaded with "
		"crash_region=SIZE@PHYS.");
	return [options] { return collect(*options); };
}

} // namespace edgedma::cli
