// SPDX-License-Identifier: GPL-2.0
//
// libFuzzer target: whatever bytes arrive, the netlink decoder either
// returns a value or throws edgedma::Error. Any other exception, a crash or
// a sanitizer report is a finding.
//
// The input is used twice:
//   - as a run of attributes, fed to every attribute-set decoder; what a
//     decoder accepts is encoded again (encode_*()) and must decode to the
//     same value, or the encoder and the decoder disagree (the target traps);
//   - as the payload of a netlink message (a struct nlmsghdr is put in
//     front, its length the true length, as the receive path guarantees),
//     fed to genl_attributes()/genl_command() (and the decoders after them),
//     decode_ack() with every combination of NLM_F_CAPPED and
//     NLM_F_ACK_TLVS, and decode_done() with and without NLM_F_ACK_TLVS.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <linux/netlink.h>

#include <edgedma/error.hpp>

#include "decode.hpp"

namespace {

using edgedma::detail::AttributeStream;

// A heap copy of exactly size bytes: operator new aligns it for nlattr and
// nlmsghdr, and ASan catches a read one byte past the end.
class Buffer {
public:
	explicit Buffer(std::size_t size) : bytes_(new std::byte[size]), size_(size) {}
	std::byte *data() { return bytes_.get(); }
	std::span<const std::byte> span() const { return {bytes_.get(), size_}; }

private:
	std::unique_ptr<std::byte[]> bytes_;
	std::size_t size_;
};

// Calls f; only edgedma::Error may come out of it.
template <typename F> void expect_value_or_error(F &&f)
{
	try {
		f();
	} catch (const edgedma::Error &) {
		// Bad input, reported as such: what the decoder promises.
	}
}

[[noreturn]] void finding(const char *what)
{
	std::fprintf(stderr, "fuzz_netlink_decode: %s\n", what);
	std::abort();
}

// What decode() accepted, written with encode() and decoded again, must be
// what it was: the recordings keep records in the encoders' form.
template <typename Decode, typename Encode>
void round_trip(AttributeStream attributes, Decode decode, Encode encode, const char *set)
{
	using Record = decltype(decode(attributes));
	std::optional<Record> first;
	try {
		first = decode(attributes);
	} catch (const edgedma::Error &) {
		return;
	}
	std::vector<std::byte> encoded;
	try {
		encode(*first, encoded);
	} catch (const edgedma::Error &) {
		std::fprintf(stderr, "attribute set %s:\n", set);
		finding("the encoder refuses what the decoder accepted");
	}
	Buffer again(encoded.size());
	if (!encoded.empty())
		std::memcpy(again.data(), encoded.data(), encoded.size());
	Record second;
	try {
		second = decode(again.span());
	} catch (const edgedma::Error &) {
		std::fprintf(stderr, "attribute set %s:\n", set);
		finding("what the encoder wrote does not decode");
	}
	if (!(second == *first)) {
		std::fprintf(stderr, "attribute set %s:\n", set);
		finding("a value changed on an encode/decode round trip");
	}
}

void decode_every_set(AttributeStream attributes)
{
	using namespace edgedma::detail;
	round_trip(attributes, [](AttributeStream a) { return decode_info(a); },
		   encode_info, "info");
	round_trip(attributes, [](AttributeStream a) { return decode_stats(a); },
		   encode_stats, "stats");
	round_trip(attributes, [](AttributeStream a) { return decode_finding(a, "fuzz"); },
		   encode_finding, "finding");
	round_trip(attributes,
		   [](AttributeStream a) { return decode_finding_repeats(a, "fuzz"); },
		   encode_finding_repeats, "finding repeats");
	round_trip(attributes, [](AttributeStream a) { return decode_mapping(a, "fuzz"); },
		   encode_mapping, "mapping");
	round_trip(attributes, [](AttributeStream a) { return decode_policy(a, "fuzz"); },
		   encode_policy, "policy");
	round_trip(attributes, [](AttributeStream a) { return decode_map_event(a, "fuzz"); },
		   encode_map_event, "map event");
	expect_value_or_error([&] { decode_map_events(attributes, "fuzz"); });
	expect_value_or_error([&] { decode_map_events_state(attributes); });
	// Snapshot records: read back after a crash or from a recording, they
	// are the decoder's least trusted input.
	expect_value_or_error([&] { decode_snapshot(attributes, "fuzz"); });
	expect_value_or_error([&] { decode_snapshot_header(attributes, "fuzz"); });
	expect_value_or_error([&] { decode_snapshot_taken(attributes, "fuzz"); });
}

void decode_as_message(std::span<const std::byte> payload)
{
	using namespace edgedma::detail;
	const std::size_t length = NLMSG_HDRLEN + payload.size();
	if (length > UINT32_MAX)
		return;
	Buffer message(length);
	std::memcpy(message.data() + NLMSG_HDRLEN, payload.data(), payload.size());
	auto *header = reinterpret_cast<nlmsghdr *>(message.data());
	*header = nlmsghdr{};
	header->nlmsg_len = static_cast<std::uint32_t>(length);

	// A reply of the family: the genl header, then attributes.
	header->nlmsg_type = 0x20;
	expect_value_or_error([&] { genl_command(*header, "fuzz"); });
	expect_value_or_error([&] { decode_every_set(genl_attributes(*header, "fuzz")); });
	// Of the wrong type for the two below: refused, never read.
	expect_value_or_error([&] { decode_ack(*header); });
	expect_value_or_error([&] { decode_done(*header); });

	header->nlmsg_type = NLMSG_ERROR;
	for (int flags : {0, NLM_F_CAPPED, NLM_F_ACK_TLVS, NLM_F_CAPPED | NLM_F_ACK_TLVS}) {
		header->nlmsg_flags = static_cast<std::uint16_t>(flags);
		expect_value_or_error([&] { decode_ack(*header); });
	}

	header->nlmsg_type = NLMSG_DONE;
	for (int flags : {0, NLM_F_MULTI | NLM_F_ACK_TLVS}) {
		header->nlmsg_flags = static_cast<std::uint16_t>(flags);
		expect_value_or_error([&] { decode_done(*header); });
	}
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	Buffer attributes(size);
	if (size)
		std::memcpy(attributes.data(), data, size);
	decode_every_set(attributes.span());
	decode_as_message(attributes.span());
	return 0;
}
