// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The recording file: a 32-byte header, then records, each an 8-byte header
// (type, flags, payload length) and its payload padded to 8 bytes. All
// integers little-endian. Documentation/recording-format.rst is the
// reference.
#include <edgedma/recording.hpp>

#include <bit>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <edgedma/error.hpp>

#include "recording_codec.hpp"
#include "unique_fd.hpp"

static_assert(std::endian::native == std::endian::little,
	      "the recording format is little-endian; a big-endian host needs byte swaps here");

namespace edgedma {
namespace {

constexpr std::array<char, 8> file_magic{'E', 'D', 'G', 'E', 'D', 'M', 'A', '\x1a'};
constexpr std::uint32_t file_header_size = 32;
constexpr std::size_t record_header_size = 8;
// Larger than any record edgedma writes (the symbol table is the largest),
// small enough that a corrupt length cannot make a reader allocate wildly.
constexpr std::uint32_t max_payload = 64u << 20;

struct FileHeader {
	std::array<char, 8> magic;
	std::uint32_t version;
	std::uint32_t header_size;
	std::uint64_t created_unix_ns;
	std::uint32_t flags;
	std::uint32_t reserved;
};
static_assert(sizeof(FileHeader) == file_header_size);

struct RecordHeader {
	std::uint16_t type;
	std::uint16_t flags;
	std::uint32_t length;
};
static_assert(sizeof(RecordHeader) == record_header_size);

constexpr std::size_t padded(std::size_t length)
{
	return (length + 7) & ~std::size_t{7};
}

template <typename Plain> void append(std::vector<std::byte> &out, const Plain &value)
{
	// resize() and memcpy() rather than insert(), whose inlined copy GCC 12
	// takes for an overflow of the new buffer (-Wstringop-overflow).
	const std::size_t at = out.size();
	out.resize(at + sizeof value);
	std::memcpy(out.data() + at, &value, sizeof value);
}

void append_header(std::vector<std::byte> &out, const RecordingHeader &header)
{
	append(out, FileHeader{file_magic, header.version, file_header_size,
			       header.created_unix_ns, 0, 0});
}

// One record (a Record, or a MapEvent on its own), header and padding
// included, appended to out.
template <typename AnyRecord>
void append_record(std::vector<std::byte> &out, const AnyRecord &record)
{
	std::size_t start = out.size();
	out.resize(start + record_header_size);
	auto type = detail::encode_record(record, out);
	std::size_t length = out.size() - start - record_header_size;
	if (length > max_payload)
		throw Error("recording", "a " + std::string(detail::record_type_name(
						static_cast<std::uint16_t>(type))) +
					 " record of " + std::to_string(length) +
					 " bytes is larger than the format allows");
	RecordHeader header{static_cast<std::uint16_t>(type), 0,
			    static_cast<std::uint32_t>(length)};
	std::memcpy(out.data() + start, &header, sizeof header);
	out.resize(start + record_header_size + padded(length));
}

Error file_error(const std::filesystem::path &path, std::string_view action, int error_number)
{
	return Error(path.string(),
		     std::string(action) + ": " + std::generic_category().message(error_number),
		     error_number);
}

} // namespace

std::vector<std::byte> encode_recording(const RecordingHeader &header,
					std::span<const Record> records)
{
	std::vector<std::byte> out;
	append_header(out, header);
	for (const auto &record : records)
		append_record(out, record);
	return out;
}

// ---- writing --------------------------------------------------------------

class __attribute__((visibility("hidden"))) RecordingWriter::Impl {
public:
	Impl(const std::filesystem::path &path, const RecordingHeader &header)
		: path_(path),
		  fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644))
	{
		if (!fd_)
			throw file_error(path_, "cannot create the recording", errno);
		append_header(buffer_, header);
		flush();
	}

	template <typename AnyRecord>
	void write(const AnyRecord &record)
	{
		if (finished_)
			throw Error(path_.string(), "the recording is already finished");
		append_record(buffer_, record);
		if (buffer_.size() >= flush_threshold)
			flush();
	}

	void finish(const RecordingEnd &end)
	{
		write(end);
		flush();
		if (::fsync(fd_.get()) < 0)
			throw file_error(path_, "cannot sync the recording", errno);
		finished_ = true;
		fd_ = detail::UniqueFd();
	}

	std::uint64_t bytes_written() const { return written_ + buffer_.size(); }

private:
	static constexpr std::size_t flush_threshold = 1 << 20;

	void flush()
	{
		std::size_t done = 0;
		while (done < buffer_.size()) {
			ssize_t n = ::write(fd_.get(), buffer_.data() + done, buffer_.size() - done);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				throw file_error(path_, "cannot write the recording", errno);
			done += static_cast<std::size_t>(n);
		}
		written_ += done;
		buffer_.clear();
	}

	std::filesystem::path path_;
	detail::UniqueFd fd_;
	std::vector<std::byte> buffer_;
	std::uint64_t written_ = 0;
	bool finished_ = false;
};

RecordingWriter::RecordingWriter(const std::filesystem::path &path,
				 const RecordingHeader &header)
	: impl_(std::make_unique<Impl>(path, header))
{
}
RecordingWriter::~RecordingWriter() = default;
RecordingWriter::RecordingWriter(RecordingWriter &&) noexcept = default;
RecordingWriter &RecordingWriter::operator=(RecordingWriter &&) noexcept = default;

void RecordingWriter::write(const Record &record)
{
	impl_->write(record);
}

void RecordingWriter::write(const MapEvent &event)
{
	impl_->write(event);
}

void RecordingWriter::finish(const RecordingEnd &end)
{
	impl_->finish(end);
}

std::uint64_t RecordingWriter::bytes_written() const
{
	return impl_->bytes_written();
}

// ---- reading --------------------------------------------------------------

class __attribute__((visibility("hidden"))) RecordingReader::Impl {
public:
	Impl(std::span<const std::byte> bytes, std::string name)
		: name_(std::move(name)), bytes_(bytes)
	{
		read_header();
	}

	explicit Impl(const std::filesystem::path &path) : name_(path.string())
	{
		detail::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
		if (!fd)
			throw file_error(path, "cannot open the recording", errno);
		struct stat status{};
		if (::fstat(fd.get(), &status) < 0)
			throw file_error(path, "cannot read the recording's size", errno);
		if (!S_ISREG(status.st_mode))
			throw Error(name_, "not a regular file");
		auto size = static_cast<std::size_t>(status.st_size);
		if (size > 0) {
			void *mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
			if (mapped == MAP_FAILED)
				throw file_error(path, "cannot map the recording", errno);
			mapping_ = {mapped, size};
			::madvise(mapped, size, MADV_SEQUENTIAL);
		}
		bytes_ = {static_cast<const std::byte *>(mapping_.address), size};
		read_header();
	}

	~Impl()
	{
		if (mapping_.address)
			::munmap(mapping_.address, mapping_.length);
	}
	Impl(const Impl &) = delete;
	Impl &operator=(const Impl &) = delete;

	bool next(Record &record)
	{
		while (offset_ < bytes_.size()) {
			std::uint64_t at = offset_;
			if (bytes_.size() - offset_ < record_header_size)
				throw bad(at, "truncated: " + std::to_string(bytes_.size() - offset_) +
					      " bytes cannot hold a record header");
			RecordHeader header;
			std::memcpy(&header, bytes_.data() + offset_, sizeof header);
			if (header.flags != 0)
				throw bad(at, "record flags " + std::to_string(header.flags) +
					      " are not defined in format version " +
					      std::to_string(recording_format_version));
			if (header.length > max_payload)
				throw bad(at, "record length " + std::to_string(header.length) +
					      " exceeds the format's limit");
			std::size_t total = record_header_size + padded(header.length);
			if (bytes_.size() - offset_ < record_header_size + header.length)
				throw bad(at, "truncated: a " +
					      std::string(detail::record_type_name(header.type)) +
					      " record of " + std::to_string(header.length) +
					      " bytes runs past the end of the file (" +
					      std::to_string(bytes_.size()) + " bytes)");
			auto payload = bytes_.subspan(offset_ + record_header_size, header.length);
			// The last record's padding may be missing: nothing is lost.
			offset_ = std::min<std::uint64_t>(offset_ + total, bytes_.size());
			bool known;
			try {
				// No context: naming the record costs more than decoding
				// it, so that is done only when it turns out bad.
				known = detail::decode_record_into(header.type, payload, {}, record);
			} catch (const Error &error) {
				throw naming_record(error, at, header.type);
			}
			if (!known) {
				skipped_++;
				continue;
			}
			if (header.type == static_cast<std::uint16_t>(detail::RecordType::end))
				complete_ = true;
			return true;
		}
		return false;
	}

	const RecordingHeader &header() const { return header_; }
	std::uint64_t offset() const { return offset_; }
	std::uint64_t size() const { return bytes_.size(); }
	std::uint64_t skipped() const { return skipped_; }
	bool complete() const { return complete_; }

private:
	struct Mapping {
		void *address = nullptr;
		std::size_t length = 0;
	};

	Error bad(std::uint64_t at, const std::string &what) const
	{
		return Error(name_, "offset " + std::to_string(at) + ": " + what);
	}

	// A decoder's error about the record at offset at, type type: named
	// by the file, and by the record where the decoder had no name of its
	// own for it (it was given none).
	Error naming_record(const Error &error, std::uint64_t at, std::uint16_t type) const
	{
		if (!error.context().empty())
			return Error(name_, error.what(), error.error_number());
		return Error(name_,
			     "record at offset " + std::to_string(at) + " (" +
				     std::string(detail::record_type_name(type)) +
				     "): " + error.message(),
			     error.error_number());
	}

	void read_header()
	{
		if (bytes_.size() < file_header_size)
			throw bad(0, "truncated: " + std::to_string(bytes_.size()) +
				     " bytes cannot hold the 32-byte file header");
		FileHeader header;
		std::memcpy(&header, bytes_.data(), sizeof header);
		if (header.magic != file_magic)
			throw bad(0, "not an edgedma recording (bad magic)");
		if (header.version == 0 || header.version > recording_format_version)
			throw bad(8, "recording format version " + std::to_string(header.version) +
				     " is newer than this edgedma reads (" +
				     std::to_string(recording_format_version) +
				     "); use a newer edgedma");
		if (header.header_size < file_header_size || header.header_size > bytes_.size() ||
		    header.header_size % 8)
			throw bad(12, "header size " + std::to_string(header.header_size) +
				      " is impossible");
		if (header.flags != 0)
			throw bad(24, "file flags " + std::to_string(header.flags) +
				      " are not defined in format version " +
				      std::to_string(recording_format_version));
		header_ = {header.version, header.created_unix_ns};
		offset_ = header.header_size;
	}

	std::string name_;
	Mapping mapping_;
	std::span<const std::byte> bytes_;
	RecordingHeader header_;
	std::uint64_t offset_ = 0;
	std::uint64_t skipped_ = 0;
	bool complete_ = false;
};

bool looks_like_recording(std::span<const std::byte> bytes)
{
	return bytes.size() >= file_magic.size() &&
	       std::memcmp(bytes.data(), file_magic.data(), file_magic.size()) == 0;
}

RecordingReader::RecordingReader(std::span<const std::byte> bytes)
	: impl_(std::make_unique<Impl>(bytes, "recording"))
{
}
RecordingReader::RecordingReader(const std::filesystem::path &path)
	: impl_(std::make_unique<Impl>(path))
{
}
RecordingReader::~RecordingReader() = default;
RecordingReader::RecordingReader(RecordingReader &&) noexcept = default;
RecordingReader &RecordingReader::operator=(RecordingReader &&) noexcept = default;

const RecordingHeader &RecordingReader::header() const
{
	return impl_->header();
}

std::optional<Record> RecordingReader::next()
{
	std::optional<Record> record(std::in_place);
	if (!impl_->next(*record))
		return std::nullopt;
	return record;
}

bool RecordingReader::next(Record &record)
{
	return impl_->next(record);
}

std::uint64_t RecordingReader::offset() const
{
	return impl_->offset();
}

std::uint64_t RecordingReader::size() const
{
	return impl_->size();
}

std::uint64_t RecordingReader::skipped() const
{
	return impl_->skipped();
}

bool RecordingReader::complete() const
{
	return impl_->complete();
}

} // namespace edgedma
