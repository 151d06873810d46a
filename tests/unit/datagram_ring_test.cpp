// SPDX-License-Identifier: GPL-2.0
//
// The io_uring receive path on its own, over a datagram socket pair: both
// the multishot recv with a provided-buffer ring and the batched single-shot
// recvs.
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <cstddef>
#include <iterator>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <edgedma/error.hpp>

#include "datagram_ring.hpp"
#include "socket_support.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace datagram_ring_test {

using detail::DatagramRing;
using detail::RingOptions;
using namespace std::chrono_literals;

std::vector<std::byte> datagram_of(const std::string &text)
{
	auto bytes = std::as_bytes(std::span(text.data(), text.size()));
	return {bytes.begin(), bytes.end()};
}

std::string text_of(std::span<const std::byte> datagram)
{
	return {reinterpret_cast<const char *>(datagram.data()), datagram.size()};
}

bool kernel_at_least(int major, int minor)
{
	utsname name{};
	if (::uname(&name) != 0)
		return false;
	int running_major = 0, running_minor = 0;
	std::sscanf(name.release, "%d.%d", &running_major, &running_minor);
	return running_major > major || (running_major == major && running_minor >= minor);
}

class DatagramRingTest : public ::testing::TestWithParam<ReceiveMode> {
protected:
	// The ring in the mode under test, or a skip where this machine has
	// no io_uring or not that mode.
	std::unique_ptr<DatagramRing> make_ring(RingOptions options = {})
	{
		options.mode = GetParam();
		try {
			return std::make_unique<DatagramRing>(pair.receiver.get(), options);
		} catch (const Error &error) {
			skip_reason = error.what();
			return nullptr;
		}
	}

	// Waits until count datagrams came (or a second passed without one).
	std::vector<std::string> receive(DatagramRing &ring, std::size_t count)
	{
		std::vector<std::string> received;
		while (received.size() < count) {
			std::size_t handled = ring.wait(
				1s, [&](std::span<const std::byte> datagram) {
					received.push_back(text_of(datagram));
				},
				[&](const DatagramRing::Failure &failure) { failures.push_back(failure); });
			if (handled == 0)
				break;
		}
		return received;
	}

	DatagramPair pair;
	std::vector<DatagramRing::Failure> failures;
	std::string skip_reason;
};

#define RING_OR_SKIP(ring, ...)                                \
	auto ring = make_ring(__VA_ARGS__);                    \
	if (!ring)                                             \
		GTEST_SKIP() << skip_reason

TEST_P(DatagramRingTest, RunsInTheModeAskedFor)
{
	RING_OR_SKIP(ring);
	EXPECT_EQ(ring->mode(), GetParam());
}

TEST_P(DatagramRingTest, ReceivesDatagramsWhole)
{
	RING_OR_SKIP(ring);
	std::vector<std::string> sent{"one", std::string(3000, 'x'), "three", ""};
	for (const auto &text : sent)
		pair.send(datagram_of(text));
	EXPECT_EQ(receive(*ring, sent.size()), sent);
	EXPECT_TRUE(failures.empty());
}

TEST_P(DatagramRingTest, ReceivesFarMoreDatagramsThanItHasBuffers)
{
	RingOptions options;
	options.buffer_count = 4; // multishot: runs dry many times
	options.batch_depth = 2;  // batched: resubmits many times
	options.buffer_size = 512;
	RING_OR_SKIP(ring, options);

	std::vector<std::string> sent;
	for (int i = 0; i < 100; i++) {
		sent.push_back("datagram " + std::to_string(i));
		pair.send(datagram_of(sent.back()));
	}
	EXPECT_EQ(receive(*ring, sent.size()), sent);
	EXPECT_EQ(ring->counters().datagrams, sent.size());
	if (GetParam() == ReceiveMode::multishot) {
		// The buffer ring ran dry: the recv ended with ENOBUFS, which the
		// ring flagged as possibly that, and armed again. Nothing was lost.
		EXPECT_GT(ring->counters().multishot_arms, 1u);
		ASSERT_FALSE(failures.empty());
		for (const auto &failure : failures) {
			EXPECT_EQ(failure.error_number, ENOBUFS);
			EXPECT_TRUE(failure.maybe_out_of_buffers);
		}
	} else if (GetParam() == ReceiveMode::batched) {
		EXPECT_TRUE(failures.empty());
		EXPECT_GT(ring->counters().submissions, sent.size() / 2 / 2);
	} else {
		// recv: one system call per datagram, nothing through io_uring.
		EXPECT_TRUE(failures.empty());
		EXPECT_EQ(ring->counters().submissions, 0u);
	}
}

TEST_P(DatagramRingTest, WaitTimesOutWithNothingToReceive)
{
	RING_OR_SKIP(ring);
	auto start = std::chrono::steady_clock::now();
	EXPECT_EQ(ring->wait(20ms, [](auto) { FAIL(); }, [](auto) { FAIL(); }), 0u);
	EXPECT_GE(std::chrono::steady_clock::now() - start, 15ms);
}

TEST_P(DatagramRingTest, StaysUsableAfterAHandlerThrows)
{
	RING_OR_SKIP(ring);
	for (int i = 0; i < 6; i++)
		pair.send(datagram_of("d" + std::to_string(i)));
	std::vector<std::string> received;
	auto on_datagram = [&](std::span<const std::byte> datagram) {
		received.push_back(text_of(datagram));
		if (received.size() == 2)
			throw std::runtime_error("decoder gave up");
	};
	auto on_failure = [&](const DatagramRing::Failure &) {};
	EXPECT_THROW(
		while (received.size() < 6) ring->wait(1s, on_datagram, on_failure),
		std::runtime_error);
	while (received.size() < 6 && ring->wait(1s, on_datagram, on_failure) > 0) {
	}
	EXPECT_EQ(received, (std::vector<std::string>{"d0", "d1", "d2", "d3", "d4", "d5"}));
}

TEST_P(DatagramRingTest, TearsDownWithReceivesInFlight)
{
	RING_OR_SKIP(ring);
	pair.send(datagram_of("before"));
	EXPECT_EQ(receive(*ring, 1), std::vector<std::string>{"before"});
	ring.reset(); // cancels the armed recvs and waits for them
	pair.send(datagram_of("after"));
	char buffer[16];
	EXPECT_EQ(::recv(pair.receiver.get(), buffer, sizeof buffer, MSG_DONTWAIT), 5);
}

INSTANTIATE_TEST_SUITE_P(Modes, DatagramRingTest,
			 ::testing::Values(ReceiveMode::multishot, ReceiveMode::batched,
					   ReceiveMode::recv),
			 [](const ::testing::TestParamInfo<ReceiveMode> &mode) {
				 return std::string(receive_mode_name(mode.param));
			 });

TEST(DatagramRing, AutomaticModeTakesMultishotWhereTheKernelHasIt)
{
	DatagramPair pair;
	std::unique_ptr<DatagramRing> ring;
	try {
		ring = std::make_unique<DatagramRing>(pair.receiver.get(), RingOptions{});
	} catch (const Error &error) {
		GTEST_SKIP() << error.what();
	}
	EXPECT_EQ(ring->mode(),
		  kernel_at_least(6, 0) ? ReceiveMode::multishot : ReceiveMode::batched);
}

TEST(DatagramRing, RefusesABufferCountThatIsNoPowerOfTwo)
{
	DatagramPair pair;
	RingOptions options;
	options.mode = ReceiveMode::multishot;
	options.buffer_count = 6;
	try {
		DatagramRing ring(pair.receiver.get(), options);
		FAIL() << "accepted 6 buffers";
	} catch (const Error &error) {
		if (contains(error.message(), "cannot set up a ring"))
			GTEST_SKIP() << error.what();
		EXPECT_TRUE(contains(error.message(), "not a power of two"));
	}
}

// The io_uring instances this process holds: its anon_inode:[io_uring] fds.
int io_uring_fds()
{
	int count = 0;
	for (const auto &entry : std::filesystem::directory_iterator("/proc/self/fd")) {
		std::error_code error;
		auto target = std::filesystem::read_symlink(entry.path(), error);
		if (!error && contains(target.string(), "io_uring"))
			count++;
	}
	return count;
}

// recv mode is also for systems where io_uring is disabled: it sets none up.
TEST(DatagramRing, RecvModeSetsUpNoIoUring)
{
	DatagramPair pair;
	RingOptions options;
	options.mode = ReceiveMode::recv;
	int before = io_uring_fds();
	DatagramRing ring(pair.receiver.get(), options);
	EXPECT_EQ(ring.mode(), ReceiveMode::recv);
	EXPECT_EQ(io_uring_fds(), before);
	ASSERT_EQ(::send(pair.sender.get(), "x", 1, 0), 1);
	std::vector<std::string> received;
	ring.wait(
		1s, [&](std::span<const std::byte> datagram) { received.push_back(text_of(datagram)); },
		[](const DatagramRing::Failure &failure) {
			FAIL() << "recv failed: " << failure.error_number;
		});
	EXPECT_EQ(received, std::vector<std::string>{"x"});
}

// What automatic mode does where io_uring is disabled: a child process
// whose seccomp filter fails io_uring_setup() with EPERM, as
// kernel.io_uring_disabled=2 does. Exit status 0: it received in recv mode.
int automatic_mode_without_io_uring()
{
	sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	sock_fprog program{static_cast<unsigned short>(std::size(filter)), filter};
	if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
		return 2;
	try {
		DatagramPair pair;
		DatagramRing ring(pair.receiver.get(), RingOptions{});
		if (ring.mode() != ReceiveMode::recv)
			return 3;
		if (::send(pair.sender.get(), "x", 1, 0) != 1)
			return 4;
		std::size_t received = 0;
		ring.wait(
			1s, [&](std::span<const std::byte> datagram) { received += datagram.size(); },
			[](const DatagramRing::Failure &) {});
		return received == 1 ? 0 : 5;
	} catch (const Error &) {
		return 6;
	}
}

TEST(DatagramRing, AutomaticModeFallsBackToRecvWhereIoUringIsDisabled)
{
	pid_t child = ::fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		::_exit(automatic_mode_without_io_uring());
	int status = 0;
	ASSERT_EQ(::waitpid(child, &status, 0), child);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 0)
		<< "2: no seccomp here, 3: not recv mode, 4: send failed, 5: nothing received, "
		   "6: the ring threw";
}

} // namespace datagram_ring_test
} // namespace edgedma::test
