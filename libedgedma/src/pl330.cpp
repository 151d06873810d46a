// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The PL330 instruction set, as the DMA-330 TRM defines it and the kernel's
// drivers/dma/pl330.c emits it (CMD_DMA* opcodes, SZ_DMA* sizes there):
// enough of a disassembler to list a channel's program and find what it
// loads into SAR and DAR.
#include <edgedma/pl330.hpp>

#include <cstdio>
#include <linux/edgedma.h>

#include "report_common.hpp"

namespace edgedma {
namespace {

std::string hex_byte(unsigned value)
{
	char text[8];
	std::snprintf(text, sizeof(text), "0x%02x", value & 0xff);
	return text;
}

std::string hex32(std::uint32_t value)
{
	char text[16];
	std::snprintf(text, sizeof(text), "0x%08x", value);
	return text;
}

// DMALD/DMAST/DMALPEND's condition bits (1:0): 00 always, 01 S, 11 B.
const char *condition(unsigned op)
{
	switch (op & 3) {
	case 1: return "S";
	case 3: return "B";
	default: return "";
	}
}

// Size and text of the instruction at @at (size 0: not one). Immediates are
// little-endian, as the DMAC fetches them.
struct Decoded {
	std::size_t size = 0;
	std::string text;
	std::optional<Pl330Register> moves;
	std::uint32_t immediate = 0;
};

Decoded decode_one(std::span<const std::byte> bytes, std::size_t at)
{
	auto byte = [&](std::size_t i) { return std::to_integer<unsigned>(bytes[at + i]); };
	auto need = [&](std::size_t n) { return at + n <= bytes.size(); };
	const unsigned op = byte(0);
	Decoded d;
	auto simple = [&](const char *text) {
		d.size = 1;
		d.text = text;
	};
	auto with_byte = [&](std::string text) {
		d.size = 2;
		d.text = std::move(text);
	};

	switch (op) {
	case 0x00: simple("DMAEND"); return d;
	case 0x01: simple("DMAKILL"); return d;
	case 0x04: case 0x05: case 0x07:
		simple(op == 0x04 ? "DMALD" : op == 0x05 ? "DMALDS" : "DMALDB");
		return d;
	case 0x08: case 0x09: case 0x0b:
		simple(op == 0x08 ? "DMAST" : op == 0x09 ? "DMASTS" : "DMASTB");
		return d;
	case 0x0c: simple("DMASTZ"); return d;
	case 0x12: simple("DMARMB"); return d;
	case 0x13: simple("DMAWMB"); return d;
	case 0x18: simple("DMANOP"); return d;
	}
	if (!need(2))
		return d.size = 0, d.text = "truncated", d;
	switch (op) {
	case 0x20: case 0x22:
		with_byte(std::string("DMALP lc") + (op & 2 ? "1" : "0") + ", " +
			  std::to_string(byte(1) + 1));
		return d;
	case 0x25: case 0x27:
		with_byte(std::string("DMALDP") + condition(op) + " P" + std::to_string(byte(1) >> 3));
		return d;
	case 0x29: case 0x2b:
		with_byte(std::string("DMASTP") + condition(op) + " P" + std::to_string(byte(1) >> 3));
		return d;
	case 0x30: case 0x31: case 0x32:
		with_byte(std::string("DMAWFP") + (op == 0x30 ? "S" : op == 0x31 ? "P" : "B") +
			  " P" + std::to_string(byte(1) >> 3));
		return d;
	case 0x34: with_byte("DMASEV " + std::to_string(byte(1) >> 3)); return d;
	case 0x35: with_byte("DMAFLUSHP P" + std::to_string(byte(1) >> 3)); return d;
	case 0x36: with_byte("DMAWFE " + std::to_string(byte(1) >> 3)); return d;
	}
	// DMALPEND: 001 nf 1 lc cond; nf 0 (0x28-0x2f) ends a forever loop.
	if ((op & 0xe8) == 0x28 && (op & 3) != 2) {
		with_byte(std::string("DMALPEND") + condition(op) + (op & 0x10 ? "" : " forever") +
			  " lc" + (op & 4 ? "1" : "0") + ", back " + std::to_string(byte(1)));
		return d;
	}
	if ((op & ~0x0au) == 0x54) { // DMAADDH 0x54/0x56, DMAADNH 0x5c/0x5e
		if (!need(3))
			return d.size = 0, d.text = "truncated", d;
		d.size = 3;
		const unsigned imm = byte(1) | byte(2) << 8;
		char text[8];
		std::snprintf(text, sizeof(text), "0x%04x", imm);
		d.text = std::string(op & 8 ? "DMAADNH " : "DMAADDH ") + (op & 2 ? "DAR" : "SAR") +
			 ", " + text;
		return d;
	}
	if (op == 0xbc || op == 0xa0 || op == 0xa2) {
		if (!need(6))
			return d.size = 0, d.text = "truncated", d;
		d.size = 6;
		const std::uint32_t imm = byte(2) | byte(3) << 8 | byte(4) << 16 |
					  static_cast<std::uint32_t>(byte(5)) << 24;
		if (op != 0xbc) {
			d.text = std::string("DMAGO C") + std::to_string(byte(1) & 7) + ", " +
				 hex32(imm) + (op & 2 ? ", ns" : "");
			return d;
		}
		static constexpr const char *names[] = {"SAR", "CCR", "DAR"};
		if (byte(1) > 2)
			return d.size = 0, d; // no such register
		d.moves = static_cast<Pl330Register>(byte(1));
		d.immediate = imm;
		d.text = std::string("DMAMOV ") + names[byte(1)] + ", " + hex32(imm);
		return d;
	}
	return d;
}

} // namespace

std::string pl330_register_label(Pl330Register reg)
{
	switch (reg) {
	case Pl330Register::sar: return "SAR";
	case Pl330Register::ccr: return "CCR";
	case Pl330Register::dar: return "DAR";
	}
	return "?";
}

Pl330Program decode_pl330(std::span<const std::byte> bytes, std::uint64_t start,
			  std::optional<std::uint64_t> pc)
{
	Pl330Program program;
	program.start = start;
	program.pc = pc;
	std::size_t at = 0;
	while (at < bytes.size()) {
		Decoded d = decode_one(bytes, at);
		if (!d.size) {
			program.ended = d.text == "truncated"
						? "the bytes read end inside an instruction at " +
							  detail::hex(start + at)
						: "unknown opcode " +
							  hex_byte(std::to_integer<unsigned>(bytes[at])) +
							  " at " + detail::hex(start + at);
			return program;
		}
		if (pc && *pc == start + at)
			program.pc_on_instruction = true;
		program.instructions.push_back(
			{start + at, static_cast<std::uint8_t>(d.size), d.text, d.moves, d.immediate});
		at += d.size;
		if (d.text == "DMAEND") {
			program.ended = "DMAEND";
			return program;
		}
	}
	program.ended = "the bytes read end";
	return program;
}

std::optional<Pl330Program> pl330_program(const DescriptorChain &chain)
{
	if (chain.kind != EDGEDMA_CHAIN_PL330_PROGRAM || chain.descriptors.empty() ||
	    chain.descriptors.front().bytes.empty())
		return std::nullopt;
	std::vector<std::byte> bytes;
	const std::uint64_t start = chain.descriptors.front().dma_addr;
	for (const Descriptor &block : chain.descriptors) {
		if (block.bytes.empty() || block.dma_addr != start + bytes.size())
			break;
		bytes.insert(bytes.end(), block.bytes.begin(), block.bytes.end());
	}
	return decode_pl330(bytes, start, chain.start);
}

} // namespace edgedma
