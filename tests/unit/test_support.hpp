// SPDX-License-Identifier: GPL-2.0
#pragma once

// Building generic netlink messages in memory with libnl, as the module
// would send them, and a substring check with a readable failure.

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <edgedma/error.hpp>

#include "decode.hpp"
#include "nl_handles.hpp"

namespace edgedma::test {

inline void check_libnl(int rc, const char *what)
{
	if (rc < 0)
		throw std::runtime_error(std::string(what) + " failed: " + nl_geterror(rc));
}

// A reply of the edgedma family: netlink header, genl header, attributes.
class GenlMessage {
public:
	// The family id the tests' messages carry (any dynamic id will do).
	static constexpr int any_family_id = 0x20;

	explicit GenlMessage(std::uint8_t command, int family_id = any_family_id)
		: message_(nlmsg_alloc())
	{
		if (!message_ ||
		    !genlmsg_put(message_.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_id,
				 0, 0, command, 1))
			throw std::runtime_error("cannot build a genl message");
	}

	GenlMessage &put_string(int type, const std::string &value)
	{
		check_libnl(nla_put_string(message_.get(), type, value.c_str()), "nla_put_string");
		return *this;
	}
	GenlMessage &put_u32(int type, std::uint32_t value)
	{
		check_libnl(nla_put_u32(message_.get(), type, value), "nla_put_u32");
		return *this;
	}
	GenlMessage &put_u64(int type, std::uint64_t value)
	{
		check_libnl(nla_put_u64(message_.get(), type, value), "nla_put_u64");
		return *this;
	}
	// Any payload, for attributes of the wrong size or type.
	GenlMessage &put_bytes(int type, std::span<const std::byte> payload)
	{
		check_libnl(nla_put(message_.get(), type, static_cast<int>(payload.size()),
				    payload.data()),
			    "nla_put");
		return *this;
	}
	GenlMessage &put_text_without_nul(int type, std::string_view text)
	{
		return put_bytes(type, std::as_bytes(std::span(text.data(), text.size())));
	}
	// An empty attribute, as the kernel's nla_put_u64_64bit() puts before a
	// u64 to align it.
	GenlMessage &put_pad(int type)
	{
		return put_bytes(type, {});
	}
	// A u64 the way the kernel sends it: padded to 8-byte alignment.
	GenlMessage &put_u64_padded(int type, std::uint64_t value, int pad_type)
	{
		// As the kernel's nla_need_padding_for_64bit(): the payload follows
		// a 4-byte header, so a header starting 8-aligned needs a pad.
		auto tail = reinterpret_cast<std::uintptr_t>(nlmsg_tail(&header()));
		if (tail % 8 == 0)
			put_pad(pad_type);
		return put_u64(type, value);
	}

	const nlmsghdr &header() const { return *nlmsg_hdr(message_.get()); }
	// The whole message, as it would come off a socket.
	std::span<const std::byte> bytes() const
	{
		return {reinterpret_cast<const std::byte *>(&header()), header().nlmsg_len};
	}
	nl_msg *get() const { return message_.get(); }
	detail::AttributeStream attributes() const
	{
		return detail::genl_attributes(header(), "test message");
	}

private:
	detail::MessageHandle message_;
};

// The message of the Error that @decode (a callable that decodes something)
// throws, after checking its context; a failure of the test when it throws
// nothing.
template <typename Decode>
std::string error_message_of(Decode &&decode, std::string_view context)
{
	try {
		decode();
		ADD_FAILURE() << "decoded without error";
	} catch (const Error &error) {
		EXPECT_EQ(error.context(), context);
		return error.message();
	}
	return {};
}

// An attribute type with its name, for tests that name what is missing.
struct NamedAttribute {
	int type;
	const char *name;
};
#define EDGEDMA_NAMED_ATTRIBUTE(type) ::edgedma::test::NamedAttribute{type, #type}

inline ::testing::AssertionResult contains(std::string_view text, std::string_view part)
{
	if (text.find(part) != std::string_view::npos)
		return ::testing::AssertionSuccess();
	return ::testing::AssertionFailure()
	       << '"' << text << "\" does not contain \"" << part << '"';
}

} // namespace edgedma::test
