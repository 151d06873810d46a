// SPDX-License-Identifier: GPL-2.0
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <linux/edgedma.h>

#include "test_support.hpp"

namespace edgedma::test {
namespace decode_ack_test {

using detail::decode_ack;
using detail::MessageHandle;

// An NLMSG_ERROR answering request, laid out as the kernel's netlink_ack()
// does: struct nlmsgerr, the echoed request payload unless NLM_F_CAPPED,
// then (the caller adds them) extack attributes.
MessageHandle error_answering(const nlmsghdr &request, int error_number,
			      std::uint16_t flags)
{
	MessageHandle answer(nlmsg_alloc_simple(NLMSG_ERROR, flags));
	if (!answer)
		throw std::runtime_error("nlmsg_alloc_simple failed");
	bool echo = !(flags & NLM_F_CAPPED);
	std::size_t echoed = echo ? request.nlmsg_len - NLMSG_HDRLEN : 0;
	auto *error = static_cast<nlmsgerr *>(
		nlmsg_reserve(answer.get(), sizeof(nlmsgerr) + echoed, NLMSG_ALIGNTO));
	if (!error)
		throw std::runtime_error("nlmsg_reserve failed");
	error->error = -error_number;
	std::memcpy(&error->msg, &request, echo ? request.nlmsg_len : sizeof request);
	return answer;
}

GenlMessage stats_request()
{
	GenlMessage request(EDGEDMA_CMD_GET_STATS);
	// Something for the echo to carry that could be mistaken for extack.
	request.put_string(1, "not an extack message");
	return request;
}

TEST(DecodeAck, ReadsExtackMessageOfCappedError)
{
	auto request = stats_request();
	auto answer = error_answering(request.header(), EPERM, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	check_libnl(nla_put_string(answer.get(), NLMSGERR_ATTR_MSG, "needs CAP_SYS_ADMIN"),
		    "nla_put_string");

	auto ack = decode_ack(*nlmsg_hdr(answer.get()));
	EXPECT_EQ(ack.error_number, EPERM);
	EXPECT_EQ(ack.message, "needs CAP_SYS_ADMIN");
	EXPECT_FALSE(ack.missing_attribute);
}

TEST(DecodeAck, FindsExtackMessageAfterEchoedRequest)
{
	auto request = stats_request();
	auto answer = error_answering(request.header(), EINVAL, NLM_F_ACK_TLVS);
	check_libnl(nla_put_u32(answer.get(), NLMSGERR_ATTR_OFFS, 20), "nla_put_u32");
	check_libnl(nla_put_string(answer.get(), NLMSGERR_ATTR_MSG, "unknown attribute 9"),
		    "nla_put_string");

	auto ack = decode_ack(*nlmsg_hdr(answer.get()));
	EXPECT_EQ(ack.error_number, EINVAL);
	EXPECT_EQ(ack.message, "unknown attribute 9");
}

TEST(DecodeAck, ReadsMissingAttributeType)
{
	auto request = stats_request();
	auto answer = error_answering(request.header(), EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	check_libnl(nla_put_u32(answer.get(), NLMSGERR_ATTR_MISS_TYPE, 3), "nla_put_u32");

	auto ack = decode_ack(*nlmsg_hdr(answer.get()));
	EXPECT_EQ(ack.missing_attribute, 3u);
	EXPECT_EQ(ack.message, "");
}

TEST(DecodeAck, IgnoresTrailingBytesWithoutAckTlvsFlag)
{
	auto request = stats_request();
	auto answer = error_answering(request.header(), ENOENT, NLM_F_CAPPED);
	check_libnl(nla_put_string(answer.get(), NLMSGERR_ATTR_MSG, "not flagged"),
		    "nla_put_string");

	auto ack = decode_ack(*nlmsg_hdr(answer.get()));
	EXPECT_EQ(ack.error_number, ENOENT);
	EXPECT_EQ(ack.message, "");
}

TEST(DecodeAck, IgnoresExtackMessageWithoutNul)
{
	auto request = stats_request();
	auto answer = error_answering(request.header(), EIO, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	check_libnl(nla_put(answer.get(), NLMSGERR_ATTR_MSG, 4, "oops"), "nla_put");

	auto ack = decode_ack(*nlmsg_hdr(answer.get()));
	EXPECT_EQ(ack.error_number, EIO);
	EXPECT_EQ(ack.message, "");
}

TEST(DecodeAck, AcknowledgementCarriesNoError)
{
	auto request = stats_request();
	auto answer = error_answering(request.header(), 0, NLM_F_CAPPED);
	EXPECT_EQ(decode_ack(*nlmsg_hdr(answer.get())).error_number, 0);
}

TEST(DecodeAck, RejectsMessageTooShortForNlmsgerr)
{
	MessageHandle stub(nlmsg_alloc_simple(NLMSG_ERROR, 0));
	ASSERT_TRUE(stub);
	EXPECT_THROW(decode_ack(*nlmsg_hdr(stub.get())), Error);
}

// Regression, found by tests/fuzz/fuzz_netlink_decode: the error was negated
// as an int, undefined for INT_MIN. No kernel sends that; it must still read
// as an error, never as 0 (success).
TEST(DecodeAck, ErrorIntMinStaysAnError)
{
	auto request = stats_request();
	auto answer = error_answering(request.header(), 0, NLM_F_CAPPED);
	static_cast<nlmsgerr *>(nlmsg_data(nlmsg_hdr(answer.get())))->error = INT_MIN;
	EXPECT_EQ(decode_ack(*nlmsg_hdr(answer.get())).error_number, INT_MIN);
}

// The echoed request's header claiming nearly 4 GiB: NLMSG_ALIGN() of that
// length wrapped (it masks in 32 bits) and sent the extack search back into
// struct nlmsgerr, from where it could reach an attribute inside the echo.
TEST(DecodeAck, EchoLongerThanTheMessageLeavesNoExtack)
{
	// nlmsghdr, nlmsgerr whose msg.nlmsg_len (read as an attribute
	// header: 0xffff bytes, type 0xffff) covers the next 64 KiB, then a
	// message attribute that is part of the echo, not extack.
	constexpr std::size_t skipped = NLMSG_HDRLEN + 4 + NLA_ALIGN(0xffff);
	// NLA_HDRLEN and NLA_ALIGN() in size_t: the macros mix in int.
	constexpr std::size_t attribute_header = 4;
	const std::string text = "inside the echo";
	const std::size_t text_aligned = (text.size() + 1 + 3) & ~std::size_t{3};
	std::vector<std::uint32_t> words((skipped + attribute_header + text_aligned) / 4);
	auto *bytes = reinterpret_cast<std::byte *>(words.data());
	auto *header = reinterpret_cast<nlmsghdr *>(bytes);
	header->nlmsg_len = static_cast<std::uint32_t>(words.size() * 4);
	header->nlmsg_type = NLMSG_ERROR;
	header->nlmsg_flags = NLM_F_ACK_TLVS;
	auto *error = reinterpret_cast<nlmsgerr *>(bytes + NLMSG_HDRLEN);
	error->error = -EINVAL;
	error->msg.nlmsg_len = UINT32_MAX;
	auto *attribute = reinterpret_cast<nlattr *>(bytes + skipped);
	attribute->nla_type = NLMSGERR_ATTR_MSG;
	attribute->nla_len = static_cast<std::uint16_t>(attribute_header + text.size() + 1);
	std::memcpy(bytes + skipped + attribute_header, text.c_str(), text.size() + 1);

	auto ack = decode_ack(*header);
	EXPECT_EQ(ack.error_number, EINVAL);
	EXPECT_EQ(ack.message, "");
}

// The NLMSG_DONE that ends a dump, as netlink_dump_done() lays it out.
MessageHandle dump_done(int error_number, std::uint16_t flags)
{
	MessageHandle done(nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI | flags));
	if (!done)
		throw std::runtime_error("nlmsg_alloc_simple failed");
	auto *error = static_cast<int *>(nlmsg_reserve(done.get(), sizeof(int), NLMSG_ALIGNTO));
	if (!error)
		throw std::runtime_error("nlmsg_reserve failed");
	*error = -error_number;
	return done;
}

TEST(DecodeDone, SuccessfulDumpEndsWithErrorZero)
{
	auto done = dump_done(0, 0);
	auto ack = detail::decode_done(*nlmsg_hdr(done.get()));
	EXPECT_EQ(ack.error_number, 0);
	EXPECT_EQ(ack.message, "");
}

TEST(DecodeDone, ReadsErrorAndExtackOfAFailedDump)
{
	auto done = dump_done(EMSGSIZE, NLM_F_ACK_TLVS);
	check_libnl(nla_put_string(done.get(), NLMSGERR_ATTR_MSG, "record too large"),
		    "nla_put_string");
	auto ack = detail::decode_done(*nlmsg_hdr(done.get()));
	EXPECT_EQ(ack.error_number, EMSGSIZE);
	EXPECT_EQ(ack.message, "record too large");
}

TEST(DecodeDone, IgnoresAttributesWithoutAckTlvsFlag)
{
	auto done = dump_done(EIO, 0);
	check_libnl(nla_put_string(done.get(), NLMSGERR_ATTR_MSG, "not flagged"),
		    "nla_put_string");
	auto ack = detail::decode_done(*nlmsg_hdr(done.get()));
	EXPECT_EQ(ack.error_number, EIO);
	EXPECT_EQ(ack.message, "");
}

TEST(DecodeDone, DoneWithoutErrorFieldIsSuccess)
{
	MessageHandle bare(nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI));
	ASSERT_TRUE(bare);
	EXPECT_EQ(detail::decode_done(*nlmsg_hdr(bare.get())).error_number, 0);
}

// Regression, as DecodeAck.ErrorIntMinStaysAnError.
TEST(DecodeDone, ErrorIntMinStaysAnError)
{
	auto done = dump_done(0, 0);
	*static_cast<int *>(nlmsg_data(nlmsg_hdr(done.get()))) = INT_MIN;
	EXPECT_EQ(detail::decode_done(*nlmsg_hdr(done.get())).error_number, INT_MIN);
}

TEST(DecodeDone, RejectsOtherMessageTypes)
{
	MessageHandle error(nlmsg_alloc_simple(NLMSG_ERROR, 0));
	ASSERT_TRUE(error);
	EXPECT_THROW(detail::decode_done(*nlmsg_hdr(error.get())), Error);
}

} // namespace decode_ack_test
} // namespace edgedma::test
