// SPDX-License-Identifier: GPL-2.0
//
// The PL330 decoder on the program the test driver's "hold-program" mode
// writes (the instructions drivers/dma/pl330.c emits for a memcpy), on
// every opcode drivers emit, and on bytes that are no program.
#include <cstdint>
#include <initializer_list>
#include <vector>

#include <gtest/gtest.h>

#include <linux/edgedma.h>

#include <edgedma/pl330.hpp>

namespace edgedma::test {
namespace pl330_test {

std::vector<std::byte> bytes_of(std::initializer_list<unsigned> values)
{
	std::vector<std::byte> bytes;
	for (unsigned value : values)
		bytes.push_back(static_cast<std::byte>(value));
	return bytes;
}

// What hold-program writes at 0x0fff2100: SAR at 0x0fff3000 (live), DAR
// at 0x0fff4000 (unmapped), the CPC on the loop's DMALD.
std::vector<std::byte> hold_program()
{
	return bytes_of({0xbc, 0x01, 0x01, 0x04, 0x40, 0x00, // DMAMOV CCR
			 0xbc, 0x00, 0x00, 0x30, 0xff, 0x0f, // DMAMOV SAR
			 0xbc, 0x02, 0x00, 0x40, 0xff, 0x0f, // DMAMOV DAR
			 0x20, 0x0f,			     // DMALP lc0, 16
			 0x04, 0x08,			     // DMALD, DMAST
			 0x38, 0x02,			     // DMALPEND lc0
			 0x13,				     // DMAWMB
			 0x34, 0x18,			     // DMASEV 3
			 0x00,				     // DMAEND
			 0xff, 0xff});			     // after the end: not read
}

TEST(Pl330, DecodesTheTestDriversProgram)
{
	const Pl330Program program = decode_pl330(hold_program(), 0x0fff2100, 0x0fff2114);
	ASSERT_EQ(program.instructions.size(), 10u);
	EXPECT_EQ(program.ended, "DMAEND");
	EXPECT_TRUE(program.pc_on_instruction);
	const std::vector<std::string> texts{
		"DMAMOV CCR, 0x00400401", "DMAMOV SAR, 0x0fff3000", "DMAMOV DAR, 0x0fff4000",
		"DMALP lc0, 16", "DMALD", "DMAST", "DMALPEND lc0, back 2", "DMAWMB", "DMASEV 3",
		"DMAEND"};
	for (std::size_t i = 0; i < texts.size(); i++)
		EXPECT_EQ(program.instructions[i].text, texts[i]) << "instruction " << i;
	EXPECT_EQ(program.instructions[1].moves, Pl330Register::sar);
	EXPECT_EQ(program.instructions[1].immediate, 0x0fff3000u);
	EXPECT_EQ(program.instructions[2].moves, Pl330Register::dar);
	EXPECT_EQ(program.instructions[2].immediate, 0x0fff4000u);
	EXPECT_EQ(program.instructions[2].addr, 0x0fff210cu);
	EXPECT_EQ(program.instructions[4].addr, 0x0fff2114u);
	EXPECT_FALSE(program.instructions[3].moves);
}

TEST(Pl330, DecodesWhatDriversEmit)
{
	const auto program = decode_pl330(
		bytes_of({0xa0, 0x01, 0x00, 0x21, 0x00, 0x10, // DMAGO C1
			  0x05, 0x0b, 0x27, 0x10, 0x29, 0x08, // DMALDS, DMASTB, DMALDPB P2, DMASTPS P1
			  0x31, 0x18, 0x35, 0x20, 0x36, 0x08, // DMAWFPP P3, DMAFLUSHP P4, DMAWFE 1
			  0x56, 0x40, 0x01,		      // DMAADDH DAR, 0x0140
			  0x2c, 0x04,			      // DMALPEND forever lc1
			  0x0c, 0x12, 0x18, 0x01}),	      // DMASTZ, DMARMB, DMANOP, DMAKILL
		0x1000);
	std::vector<std::string> texts;
	for (const auto &instruction : program.instructions)
		texts.push_back(instruction.text);
	EXPECT_EQ(texts, (std::vector<std::string>{
				 "DMAGO C1, 0x10002100", "DMALDS", "DMASTB", "DMALDPB P2",
				 "DMASTPS P1", "DMAWFPP P3", "DMAFLUSHP P4", "DMAWFE 1",
				 "DMAADDH DAR, 0x0140", "DMALPEND forever lc1, back 4", "DMASTZ",
				 "DMARMB", "DMANOP", "DMAKILL"}));
	EXPECT_EQ(program.ended, "the bytes read end");
	EXPECT_FALSE(program.pc_on_instruction);
}

TEST(Pl330, StopsAtWhatIsNoInstruction)
{
	auto program = decode_pl330(bytes_of({0x18, 0xff, 0x00}), 0x2000);
	EXPECT_EQ(program.instructions.size(), 1u);
	EXPECT_EQ(program.ended, "unknown opcode 0xff at 0x2001");

	// DMAMOV of a register that does not exist (3).
	program = decode_pl330(bytes_of({0xbc, 0x03, 0, 0, 0, 0}), 0x2000);
	EXPECT_TRUE(program.instructions.empty());
	EXPECT_EQ(program.ended, "unknown opcode 0xbc at 0x2000");

	program = decode_pl330(bytes_of({0x18, 0xbc, 0x00, 0x01}), 0x2000);
	EXPECT_EQ(program.instructions.size(), 1u);
	EXPECT_EQ(program.ended, "the bytes read end inside an instruction at 0x2001");

	// A CPC inside an instruction (a torn read, or not the program).
	program = decode_pl330(hold_program(), 0x0fff2100, 0x0fff2102);
	EXPECT_FALSE(program.pc_on_instruction);
}

TEST(Pl330, ProgramOfAChainJoinsItsBlocks)
{
	DescriptorChain chain;
	chain.kind = EDGEDMA_CHAIN_PL330_PROGRAM;
	chain.desc_size = 16;
	chain.start = 0x0fff2114;
	const auto bytes = hold_program();
	for (std::uint32_t i = 0; i < 2; i++) {
		Descriptor block;
		block.index = i;
		block.dma_addr = 0x0fff2100 + 16 * i;
		block.state = EDGEDMA_DESC_READ;
		block.bytes.assign(bytes.begin() + 16 * i, bytes.begin() + 16 * (i + 1));
		chain.descriptors.push_back(block);
	}
	auto program = pl330_program(chain);
	ASSERT_TRUE(program);
	EXPECT_EQ(program->start, 0x0fff2100u);
	EXPECT_EQ(program->pc, 0x0fff2114u);
	EXPECT_EQ(program->instructions.size(), 10u);
	EXPECT_EQ(program->ended, "DMAEND");

	chain.descriptors[1].bytes.clear(); // the second block not read
	program = pl330_program(chain);
	ASSERT_TRUE(program);
	EXPECT_EQ(program->instructions.size(), 2u);
	EXPECT_EQ(program->ended, "the bytes read end inside an instruction at 0xfff210c");

	chain.kind = EDGEDMA_CHAIN_RING;
	EXPECT_FALSE(pl330_program(chain));
}

} // namespace pl330_test
} // namespace edgedma::test
