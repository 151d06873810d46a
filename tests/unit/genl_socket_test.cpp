// SPDX-License-Identifier: GPL-2.0
//
// Against the running kernel's own generic netlink controller (nlctrl),
// which every kernel has: proves the request loop, the ack handling and the
// extack path without the edgedma module.
#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>
#include <vector>
#include <stdexcept>

#include <linux/genetlink.h>

#include <edgedma/client.hpp>

#include "genl_socket.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace genl_socket_test {

using detail::GenlSocket;

constexpr std::uint8_t ctrl_version = 2;

class GenlSocketLive : public ::testing::Test {
protected:
	void SetUp() override
	{
		try {
			socket.emplace();
		} catch (const Error &error) {
			GTEST_SKIP() << "no generic netlink here: " << error.what();
		}
	}

	// GETFAMILY for name; returns the family id from the reply.
	std::optional<std::uint16_t> family_id_of(const std::string &name)
	{
		std::optional<std::uint16_t> id;
		socket->request(
			GENL_ID_CTRL, CTRL_CMD_GETFAMILY, ctrl_version, "GETFAMILY",
			[&](nl_msg &request) {
				check_libnl(nla_put_string(&request, CTRL_ATTR_FAMILY_NAME,
							   name.c_str()),
					    "nla_put_string");
			},
			[&](const nlmsghdr &reply) {
				auto attributes = detail::genl_attributes(reply, "GETFAMILY reply");
				const nlattr *attribute = nla_find(
					reinterpret_cast<const nlattr *>(attributes.data()),
					static_cast<int>(attributes.size()), CTRL_ATTR_FAMILY_ID);
				if (attribute)
					id = nla_get_u16(attribute);
			});
		return id;
	}

	std::optional<GenlSocket> socket;
};

TEST_F(GenlSocketLive, ReceivesReplyThenAck)
{
	EXPECT_EQ(family_id_of("nlctrl"), GENL_ID_CTRL);
}

TEST_F(GenlSocketLive, ReservesAReceiveBufferWithoutEverShrinkingIt)
{
	// What it gets depends on privilege (SO_RCVBUFFORCE) and
	// net.core.rmem_max; never less than it had.
	const int initial = socket->reserve_receive_buffer(1);
	const int grown = socket->reserve_receive_buffer(4 << 20);
	EXPECT_GE(grown, initial);
	EXPECT_EQ(socket->reserve_receive_buffer(4096), grown);
	// Still a working socket.
	EXPECT_EQ(family_id_of("nlctrl"), GENL_ID_CTRL);
}

TEST_F(GenlSocketLive, RefusalCarriesErrnoAndKernelExtackMessage)
{
	// nlctrl's policy caps family names at GENL_NAMSIZ - 1 characters and
	// refuses longer ones with an extack message.
	std::string too_long(2 * GENL_NAMSIZ, 'x');
	try {
		family_id_of(too_long);
		FAIL() << "the kernel accepted a family name of " << too_long.size()
		       << " characters";
	} catch (const Error &error) {
		EXPECT_EQ(error.context(), "GETFAMILY");
		EXPECT_EQ(error.error_number(), EINVAL);
		EXPECT_FALSE(error.kernel_message().empty());
		EXPECT_TRUE(contains(error.message(), error.kernel_message()));
		EXPECT_TRUE(contains(error.message(), "(Invalid argument)"));
	}
	// The refusal was read completely: the socket still works.
	EXPECT_EQ(family_id_of("nlctrl"), GENL_ID_CTRL);
}

TEST_F(GenlSocketLive, ReplyHandlerFailureSurfacesAfterAckAndSocketStaysUsable)
{
	auto failing_reply = [](const nlmsghdr &) {
		throw std::runtime_error("decoder gave up");
	};
	EXPECT_THROW(
		{
			try {
				socket->request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, ctrl_version,
						"GETFAMILY",
						[](nl_msg &request) {
							check_libnl(nla_put_string(&request,
										   CTRL_ATTR_FAMILY_NAME,
										   "nlctrl"),
								    "nla_put_string");
						},
						failing_reply);
			} catch (const std::runtime_error &error) {
				EXPECT_STREQ(error.what(), "decoder gave up");
				throw;
			}
		},
		std::runtime_error);
	// Had the ack been left unread, this request would see it first and
	// fail with a sequence mismatch.
	EXPECT_EQ(family_id_of("nlctrl"), GENL_ID_CTRL);
}

TEST_F(GenlSocketLive, DumpReadsEveryPartUpToNlmsgDone)
{
	// Every kernel has a few families; nlctrl lists itself too.
	std::vector<std::string> families;
	socket->dump(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, ctrl_version, "GETFAMILY dump", {},
		     [&](const nlmsghdr &reply) {
			     EXPECT_TRUE(reply.nlmsg_flags & NLM_F_MULTI);
			     auto attributes = detail::genl_attributes(reply, "GETFAMILY reply");
			     const nlattr *name = nla_find(
				     reinterpret_cast<const nlattr *>(attributes.data()),
				     static_cast<int>(attributes.size()), CTRL_ATTR_FAMILY_NAME);
			     if (name)
				     families.emplace_back(nla_get_string(name));
		     });
	EXPECT_NE(std::ranges::find(families, "nlctrl"), families.end());
	// The dump was read to its end: the next request finds its own answer.
	EXPECT_EQ(family_id_of("nlctrl"), GENL_ID_CTRL);
	socket->dump(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, ctrl_version, "GETFAMILY dump", {},
		     [](const nlmsghdr &) {});
	EXPECT_EQ(family_id_of("nlctrl"), GENL_ID_CTRL);
}

TEST_F(GenlSocketLive, DumpHandlerFailureSurfacesAfterDoneAndSocketStaysUsable)
{
	EXPECT_THROW(socket->dump(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, ctrl_version,
				  "GETFAMILY dump", {},
				  [](const nlmsghdr &) { throw std::runtime_error("no"); }),
		     std::runtime_error);
	EXPECT_EQ(family_id_of("nlctrl"), GENL_ID_CTRL);
}

TEST_F(GenlSocketLive, ResolvesMulticastGroups)
{
	EXPECT_TRUE(socket->resolve_group("nlctrl", "notify"));
	EXPECT_EQ(socket->resolve_group("nlctrl", "no-such-group"), std::nullopt);
	EXPECT_EQ(socket->resolve_group("edgedma-none", "events"), std::nullopt);
}

TEST_F(GenlSocketLive, UnknownFamilyResolvesToNothing)
{
	EXPECT_EQ(socket->resolve_family("edgedma-none"), std::nullopt);
	EXPECT_EQ(socket->resolve_family("nlctrl"), GENL_ID_CTRL);
}

TEST(ClientLive, SaysModuleNotLoadedWhenFamilyIsMissing)
{
	try {
		Client client;
		GTEST_SKIP() << "the edgedma module is loaded here";
	} catch (const Error &error) {
		if (error.context() == "generic netlink")
			GTEST_SKIP() << "no generic netlink here: " << error.what();
		EXPECT_STREQ(error.what(), "edgedma module not loaded (generic netlink "
					   "family 'edgedma' not found)");
	}
}

} // namespace genl_socket_test
} // namespace edgedma::test
