// SPDX-License-Identifier: GPL-2.0
#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

#include <edgedma/error.hpp>
#include <edgedma/symbolizer.hpp>

#include "test_support.hpp"

namespace edgedma::test {
namespace symbolizer_test {

// In /proc/kallsyms's format, out of order, with an alias, an absolute
// symbol, a line that is not one, and two modules.
constexpr std::string_view fixture =
	"ffffffffc0a00100 t edu_map\t[edgedma_test_edu]\n"
	"ffffffff81001000 T do_one_initcall\n"
	"ffffffff81000000 t startup_64\n"
	"ffffffff81000000 T _stext\n"
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81001200 t helper\n"
	"not a symbol line\n"
	"ffffffff81002000 D some_data\n"
	"ffffffffc0a00000 t edu_probe\t[edgedma_test_edu]\n"
	"ffffffffc0a00400 t edu_unmap\t[edgedma_test_edu]\n"
	"ffffffffc0b00000 t nvme_probe\t[nvme]\n"
	"ffffffffc0b00800 T nvme_last\t[nvme]\n";

TEST(Symbolizer, NamesModuleFunctionWithOffsetSizeAndModule)
{
	auto symbols = Symbolizer::parse(fixture);
	EXPECT_EQ(symbols.describe(0xffffffffc0a00134), "edu_map+0x34/0x300 [edgedma_test_edu]");
	EXPECT_EQ(symbols.describe(0xffffffffc0a00000), "edu_probe+0x0/0x100 [edgedma_test_edu]");
}

TEST(Symbolizer, NamesCoreKernelFunctionWithoutModule)
{
	auto symbols = Symbolizer::parse(fixture);
	EXPECT_EQ(symbols.describe(0xffffffff81001010), "do_one_initcall+0x10/0x200");
	EXPECT_EQ(symbols.describe(0xffffffff810011ff), "do_one_initcall+0x1ff/0x200");
	EXPECT_EQ(symbols.describe(0xffffffff81001200), "helper+0x0/0xe00");
}

TEST(Symbolizer, PrefersTheGlobalTextNameOfAliases)
{
	auto symbols = Symbolizer::parse(fixture);
	EXPECT_EQ(symbols.describe(0xffffffff81000004), "_stext+0x4/0x1000");
}

TEST(Symbolizer, LastSymbolOfAModuleHasNoKnownSize)
{
	auto symbols = Symbolizer::parse(fixture);
	// The next symbol belongs to nvme: edu_unmap's end is unknown.
	EXPECT_EQ(symbols.describe(0xffffffffc0a00410), "edu_unmap+0x10 [edgedma_test_edu]");
	auto location = symbols.locate(0xffffffffc0a00410);
	ASSERT_TRUE(location);
	EXPECT_EQ(location->symbol, "edu_unmap");
	EXPECT_EQ(location->offset, 0x10u);
	EXPECT_FALSE(location->size);
	EXPECT_EQ(location->module, "edgedma_test_edu");
}

TEST(Symbolizer, FarPastAnUnsizedSymbolIsNotInIt)
{
	auto symbols = Symbolizer::parse(fixture);
	EXPECT_EQ(symbols.describe(0xffffffffc0a80000), "0xffffffffc0a80000");
	EXPECT_EQ(symbols.describe(0xffffffffc0c00000), "0xffffffffc0c00000");
}

TEST(Symbolizer, AddressBelowEverySymbolPrintsRaw)
{
	auto symbols = Symbolizer::parse(fixture);
	EXPECT_FALSE(symbols.locate(0xffffffff80000000));
	EXPECT_EQ(symbols.describe(0xffffffff80000000), "0xffffffff80000000");
}

TEST(Symbolizer, SkipsAbsoluteSymbolsAndJunkAndKeepsOnePerAddress)
{
	auto symbols = Symbolizer::parse(fixture);
	// 12 lines: junk, an absolute symbol and an alias do not count.
	EXPECT_EQ(symbols.size(), 9u);
	EXPECT_FALSE(symbols.empty());
}

TEST(Symbolizer, SkipsMappingSymbolsInsideFunctions)
{
	// arm64 6.1's /proc/kallsyms lists a module's ELF mapping symbols:
	// "$x" inside zoo_xmit would name its address "$x+0x24/0x40 [zoo]".
	auto symbols = Symbolizer::parse("ffff800001000000 t zoo_probe\t[zoo]\n"
					 "ffff800001000100 t zoo_xmit\t[zoo]\n"
					 "ffff800001000140 t $x\t[zoo]\n"
					 "ffff800001000180 d $d.12\t[zoo]\n"
					 "ffff800001000190 t .LBB3_2\t[zoo]\n"
					 "ffff800001000200 t zoo_remove\t[zoo]\n"
					 "ffff800001000300 t $xyz_real\t[zoo]\n");
	EXPECT_EQ(symbols.describe(0xffff800001000164), "zoo_xmit+0x64/0x100 [zoo]");
	EXPECT_EQ(symbols.describe(0xffff800001000194), "zoo_xmit+0x94/0x100 [zoo]");
	// A name that only starts like one is a symbol.
	EXPECT_EQ(symbols.describe(0xffff800001000304), "$xyz_real+0x4 [zoo]");
	EXPECT_EQ(symbols.size(), 4u);
}

TEST(Symbolizer, UnprivilegedKallsymsIsEmptyAndPrintsRawAddresses)
{
	// What a reader without privilege sees under kptr_restrict.
	auto symbols = Symbolizer::parse("0000000000000000 T _stext\n"
					 "0000000000000000 t edu_map\t[edgedma_test_edu]\n");
	EXPECT_TRUE(symbols.empty());
	EXPECT_EQ(symbols.describe(0xffffffffc0a00134), "0xffffffffc0a00134");
}

TEST(Symbolizer, DefaultConstructedKnowsNothing)
{
	Symbolizer symbols;
	EXPECT_TRUE(symbols.empty());
	EXPECT_EQ(symbols.describe(0x1234), "0x1234");
}

TEST(Symbolizer, ReadsAKallsymsFile)
{
	char path[] = "/tmp/edgedma-kallsyms-XXXXXX";
	int fd = ::mkstemp(path);
	ASSERT_GE(fd, 0);
	::close(fd);
	{
		std::ofstream file(path);
		file << fixture;
	}
	auto symbols = Symbolizer::from_kallsyms(path);
	::unlink(path);
	EXPECT_EQ(symbols.describe(0xffffffffc0a00134), "edu_map+0x34/0x300 [edgedma_test_edu]");
}

TEST(Symbolizer, MissingFileIsAnErrorNamingIt)
{
	try {
		Symbolizer::from_kallsyms("/nonexistent/kallsyms");
		FAIL() << "no error";
	} catch (const Error &error) {
		EXPECT_EQ(error.context(), "/nonexistent/kallsyms");
		EXPECT_TRUE(contains(error.message(), "cannot open"));
	}
}

TEST(Symbolizer, LoadsThisMachinesKallsyms)
{
	if (::access("/proc/kallsyms", R_OK) != 0)
		GTEST_SKIP() << "no /proc/kallsyms here";
	auto symbols = Symbolizer::from_kallsyms();
	if (symbols.empty())
		GTEST_SKIP() << "kallsyms hides its addresses from this user";
	// Every symbol the table has names itself at offset 0.
	if (auto location = symbols.locate(0xffffffffffffffff)) {
		EXPECT_FALSE(location->symbol.empty());
	}
	EXPECT_GT(symbols.size(), 1000u);
}

} // namespace symbolizer_test
} // namespace edgedma::test
