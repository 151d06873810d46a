// SPDX-License-Identifier: GPL-2.0
//
// Profiles from device-tree source and blobs: every shipped profile reads,
// the facts they carry arrive whole, and each rule of the schema refuses
// with the file, the node and the property named.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <linux/edgedma.h>

#include <edgedma/error.hpp>
#include <edgedma/names.hpp>
#include <edgedma/profile.hpp>

#include "test_support.hpp"

namespace edgedma::test {
namespace profile_source_test {

namespace fs = std::filesystem;

// A scratch folder, removed with what is in it.
class ScratchDir {
public:
	ScratchDir()
	{
		std::string pattern = (fs::temp_directory_path() / "edgedma-profile-XXXXXX").string();
		if (!::mkdtemp(pattern.data()))
			throw std::runtime_error("mkdtemp failed");
		path_ = pattern;
	}
	~ScratchDir() { fs::remove_all(path_); }
	ScratchDir(const ScratchDir &) = delete;
	ScratchDir &operator=(const ScratchDir &) = delete;

	fs::path write(const std::string &name, const std::string &text) const
	{
		fs::path file = path_ / name;
		std::ofstream(file) << text;
		return file;
	}
	const fs::path &path() const { return path_; }

private:
	fs::path path_;
};

// A source file with one profile node; body goes inside it.
std::string profile_source(const std::string &body)
{
	return "/dts-v1/;\n/ {\n edgedma-profile {\n  compatible = \"edgedma,profile-v1\";\n" +
	       body + "\n };\n};\n";
}

const std::string edu_match = "profile-name = \"t\"; match-pci-id = <0x1234 0x11e8>;\n";
const std::string one_register = "registers { r { window = <0>; offset = <0>; width = <4>; }; };\n";

// The message read_profile_file() throws for a source file, or "" when it
// accepted the file.
std::string refusal(const std::string &source)
{
	ScratchDir dir;
	try {
		read_profile_file(dir.write("p.dts", source));
	} catch (const Error &error) {
		return error.what();
	}
	return "";
}

std::string refusal_of_body(const std::string &body)
{
	return refusal(profile_source(body));
}

TEST(ProfileSource, EveryShippedProfileReadsFromSourceAndBlobAlike)
{
	ScratchDir dir;
	int files = 0;
	for (const auto &entry : fs::directory_iterator(EDGEDMA_PROFILE_DIR)) {
		if (entry.path().extension() != ".dts")
			continue;
		SCOPED_TRACE(entry.path().string());
		files++;
		std::vector<Profile> from_source = read_profile_file(entry.path());
		ASSERT_EQ(from_source.size(), 1u);
		EXPECT_EQ(from_source.front().name, entry.path().stem().string());
		EXPECT_FALSE(from_source.front().registers.empty());

		fs::path blob = dir.path() / (entry.path().stem().string() + ".dtb");
		std::string command = "dtc -q -I dts -O dtb -o '" + blob.string() + "' '" +
				      entry.path().string() + "'";
		ASSERT_EQ(std::system(command.c_str()), 0) << command;
		EXPECT_EQ(read_profile_file(blob), from_source);
	}
	EXPECT_GE(files, 5);
}

TEST(ProfileSource, QemuEduCarriesItsRegistersAndTheirFields)
{
	auto profiles = read_profile_file(fs::path(EDGEDMA_PROFILE_DIR) / "qemu-edu.dts");
	const Profile &edu = profiles.at(0);
	EXPECT_EQ(edu.pci_id, 0x123411e8u);
	EXPECT_FALSE(edu.compatible);
	EXPECT_FALSE(edu.device);
	ASSERT_EQ(edu.registers.size(), 8u);
	const Register &src = edu.registers.at(4);
	EXPECT_EQ(src.name, "dma-src");
	EXPECT_EQ(src.window, 0u);
	EXPECT_EQ(src.offset, 0x80u);
	EXPECT_EQ(src.width, 8u);
	EXPECT_EQ(src.flags, 0u);
	const Register &raise = edu.registers.at(3);
	EXPECT_EQ(raise.name, "irq-raise");
	EXPECT_EQ(raise.flags, static_cast<std::uint32_t>(EDGEDMA_REGISTER_READ_CLEARS));
	const Register &status = edu.registers.at(1);
	ASSERT_EQ(status.fields.size(), 2u);
	EXPECT_EQ(status.fields[1], (RegisterField{"irq-on-factorial", 7, 1}));
	EXPECT_TRUE(edu.chains.empty());
}

TEST(ProfileSource, E1000eCarriesBothRingsOfQueueZero)
{
	auto profiles = read_profile_file(fs::path(EDGEDMA_PROFILE_DIR) / "intel-e1000e.dts");
	const Profile &nic = profiles.at(0);
	EXPECT_EQ(nic.pci_id, 0x808610d3u);
	ASSERT_EQ(nic.chains.size(), 2u);
	for (const DescriptorChain &ring : nic.chains) {
		SCOPED_TRACE(ring.name);
		EXPECT_EQ(ring.kind, static_cast<std::uint32_t>(EDGEDMA_CHAIN_RING));
		EXPECT_EQ(ring.desc_size, 16u);
		EXPECT_EQ(ring.flags, static_cast<std::uint32_t>(EDGEDMA_CHAIN_LENGTH_IN_BYTES));
		EXPECT_FALSE(ring.entries);
		ASSERT_FALSE(ring.fields.empty());
		EXPECT_EQ(ring.fields[0], (DescriptorField{"buffer-addr", 0, 8, 0, std::nullopt,
							   EDGEDMA_DESC_ROLE_ADDRESS}));
	}
	const DescriptorChain &tx = nic.chains[0];
	EXPECT_EQ(tx.name, "tx0");
	EXPECT_EQ(tx.start_reg, "tdbal0");
	EXPECT_EQ(tx.start_hi_reg, "tdbah0");
	EXPECT_EQ(tx.length_reg, "tdlen0");
	EXPECT_EQ(tx.head_reg, "tdh0");
	EXPECT_EQ(tx.tail_reg, "tdt0");
	EXPECT_EQ(tx.fields.at(1).role, static_cast<std::uint32_t>(EDGEDMA_DESC_ROLE_LENGTH));
	EXPECT_EQ(nic.chains[1].start_reg, "rdbal0");
}

TEST(ProfileSource, SocProfilesMatchTheirControllersByCompatible)
{
	const std::pair<const char *, const char *> socs[] = {
		{"tegra234-gpcdma.dts", "nvidia,tegra234-gpcdma"},
		{"jh7110-axi-dmac.dts", "starfive,jh7110-axi-dma"},
		{"rk3588-pl330.dts", "arm,pl330"},
		{"rk3588-iommu.dts", "rockchip,rk3568-iommu"},
		{"arm-smmu-v3.dts", "arm,smmu-v3"},
	};
	for (const auto &[file, compatible] : socs) {
		SCOPED_TRACE(file);
		const Profile profile = read_profile_file(fs::path(EDGEDMA_PROFILE_DIR) / file).at(0);
		EXPECT_EQ(profile.compatible, compatible);
		EXPECT_LE(profile.registers.size(), 96u);
	}
	// Each PL330 channel's program, read from its CPC's microcode buffer.
	const Profile pl330 =
		read_profile_file(fs::path(EDGEDMA_PROFILE_DIR) / "rk3588-pl330.dts").at(0);
	ASSERT_EQ(pl330.chains.size(), 8u);
	for (std::size_t channel = 0; channel < 8; channel++) {
		const DescriptorChain &program = pl330.chains[channel];
		EXPECT_EQ(program.kind, static_cast<std::uint32_t>(EDGEDMA_CHAIN_PL330_PROGRAM));
		EXPECT_EQ(program.start_reg, "cpc" + std::to_string(channel));
		EXPECT_EQ(program.entries.value_or(0) * program.desc_size, 256u);
	}
	// The DW AXI DMAC's linked-list items, one list per channel: sar and
	// dar are buffers, llp the next item (struct axi_dma_lli).
	const Profile dmac =
		read_profile_file(fs::path(EDGEDMA_PROFILE_DIR) / "jh7110-axi-dmac.dts").at(0);
	ASSERT_EQ(dmac.chains.size(), 4u);
	const DescriptorChain &lli = dmac.chains[0];
	EXPECT_EQ(lli.kind, static_cast<std::uint32_t>(EDGEDMA_CHAIN_LIST));
	EXPECT_EQ(lli.start_reg, "ch0-llp");
	EXPECT_EQ(lli.desc_size, 64u);
	ASSERT_GE(lli.fields.size(), 4u);
	EXPECT_EQ(lli.fields[0], (DescriptorField{"sar", 0x00, 8, 0, std::nullopt,
						  EDGEDMA_DESC_ROLE_ADDRESS}));
	EXPECT_EQ(lli.fields[1].role, static_cast<std::uint32_t>(EDGEDMA_DESC_ROLE_ADDRESS));
	EXPECT_EQ(lli.fields[3], (DescriptorField{"llp", 0x18, 8, 0, std::nullopt,
						  EDGEDMA_DESC_ROLE_NEXT}));
}

TEST(ProfileSource, ReadsListsBitsRolesAndEveryMatch)
{
	ScratchDir dir;
	auto profiles = read_profile_file(dir.write("p.dts", R"(/dts-v1/;
/ {
	soc {
		dma: dma-controller {
			edgedma-profile {
				compatible = "edgedma,profile-v1";
				profile-name = "pl330";
				match-compatible = "arm,pl330";
				registers {
					dpc { window = <1>; offset = <0x104>; width = <4>; };
				};
				descriptors {
					program {
						kind = "list";
						start = "dpc";
						descriptor-size = <32>;
						max-descriptors = <8>;
						align-log2 = <3>;
						direction = "from-device";
						big-endian;
						fields {
							src { offset = <0>; width = <8>; role = "address"; };
							size { offset = <8>; width = <4>; bits = <4 20>; role = "length"; };
							next { offset = <16>; width = <8>; role = "next"; };
						};
					};
				};
			};
		};
	};
	second {
		compatible = "edgedma,profile-v1";
		profile-name = "one";
		match-device = "0000:00:04.0";
		registers { r { window = <0>; offset = <8>; width = <8>; }; };
	};
};
)"));
	ASSERT_EQ(profiles.size(), 2u);
	const Profile &pl330 = profiles[0];
	EXPECT_EQ(pl330.compatible, "arm,pl330");
	ASSERT_EQ(pl330.chains.size(), 1u);
	const DescriptorChain &list = pl330.chains[0];
	EXPECT_EQ(list.kind, static_cast<std::uint32_t>(EDGEDMA_CHAIN_LIST));
	EXPECT_EQ(list.max_descs, 8u);
	EXPECT_EQ(list.align_log2, 3u);
	EXPECT_EQ(list.direction, dma_direction::from_device);
	EXPECT_EQ(list.flags, static_cast<std::uint32_t>(EDGEDMA_CHAIN_BIG_ENDIAN));
	EXPECT_EQ(list.fields.at(1), (DescriptorField{"size", 8, 4, 4, 20,
						      EDGEDMA_DESC_ROLE_LENGTH}));
	EXPECT_EQ(profiles[1].device, "0000:00:04.0");
	EXPECT_EQ(profiles[1].registers.at(0).window, 0u);
}

TEST(ProfileSource, RefusesAMisspeltPropertyNamingTheKnownOnes)
{
	std::string message = refusal_of_body(
		edu_match + "registers { r { window = <0>; offset = <0>; widht = <4>; }; };");
	EXPECT_TRUE(contains(message, "p.dts: /edgedma-profile/registers/r"));
	EXPECT_TRUE(contains(message, "unknown property 'widht'"));
	EXPECT_TRUE(contains(message, "window, offset, width, read-clears, read-on-error"));
	EXPECT_TRUE(contains(refusal_of_body(edu_match + "colour = \"red\";" + one_register),
			     "unknown property 'colour'"));
	EXPECT_TRUE(contains(refusal_of_body(edu_match + one_register + "extras { };"),
			     "/edgedma-profile/extras: unknown node"));
}

TEST(ProfileSource, RefusesRegistersTheModuleWouldRefuse)
{
	auto with_register = [](const std::string &reg) {
		return refusal_of_body(edu_match + "registers { r { " + reg + " }; };");
	};
	EXPECT_TRUE(contains(with_register("window = <0>; offset = <0>; width = <3>;"),
			     "property 'width': 3 is not 1, 2, 4 or 8"));
	EXPECT_TRUE(contains(with_register("window = <0>; offset = <4>; width = <8>;"),
			     "property 'offset': not a multiple of the width (8)"));
	EXPECT_TRUE(contains(with_register("window = <6>; offset = <0>; width = <4>;"),
			     "property 'window': 6 is past the last window (5)"));
	EXPECT_TRUE(contains(with_register("window = <0>; width = <4>;"),
			     "missing property 'offset'"));
	EXPECT_TRUE(contains(with_register("window = <0>; offset = <0>; width = \"4\";"),
			     "property 'width': expected cells"));
	EXPECT_TRUE(contains(with_register("window = <0>; offset = <0>; width = <4>; "
					   "read-clears = <1>;"),
			     "property 'read-clears': is a flag"));
	EXPECT_TRUE(contains(with_register("window = <0>; offset = <0>; width = <4>; "
					   "read-on-error;"),
			     "property 'read-on-error': is for a register that clears when read"));
	EXPECT_EQ(with_register("window = <0>; offset = <0>; width = <4>; read-clears; "
				"read-on-error;"),
		  "");
	EXPECT_TRUE(contains(with_register("window = <0>; offset = <0>; width = <4>; "
					   "fields { f = <30 3>; };"),
			     "bits 30 to 33 do not fit a 32-bit register"));
	EXPECT_TRUE(contains(with_register("window = <0>; offset = <0>; width = <4>; "
					   "fields { f = <3>; };"),
			     "expected <lowest-bit bits>"));
	EXPECT_TRUE(contains(refusal_of_body(edu_match + "registers { };"),
			     "a profile needs at least one register"));
	std::string long_name(32, 'r');
	EXPECT_TRUE(contains(refusal_of_body(edu_match + "registers { " + long_name +
					     " { window = <0>; offset = <0>; width = <4>; }; };"),
			     "is 32 characters; at most 31"));
}

TEST(ProfileSource, RefusesAnythingButExactlyOneMatch)
{
	EXPECT_TRUE(contains(refusal_of_body("profile-name = \"t\";" + one_register),
			     "needs exactly one of 'match-pci-id'"));
	EXPECT_TRUE(contains(refusal_of_body(edu_match + "match-device = \"x\";" + one_register),
			     "needs exactly one of 'match-pci-id'"));
	EXPECT_TRUE(contains(refusal_of_body("profile-name = \"t\"; match-pci-id = <0x12345 1>;" +
					     one_register),
			     "expected <vendor device>, each 16 bits"));
	EXPECT_TRUE(contains(refusal_of_body("match-device = \"x\";" + one_register),
			     "missing property 'profile-name'"));
}

TEST(ProfileSource, RefusesChainsTheModuleWouldRefuse)
{
	const std::string registers =
		"registers { base { window = <0>; offset = <0>; width = <4>; };"
		" cause { window = <0>; offset = <4>; width = <4>; read-clears; }; };";
	auto with_chain = [&](const std::string &chain, const std::string &fields) {
		return refusal_of_body(edu_match + registers + "descriptors { c { " + chain +
				       " fields { " + fields + " }; }; };");
	};
	const std::string ring = "kind = \"ring\"; start = \"base\"; descriptor-size = <16>;";
	const std::string address = "a { offset = <0>; width = <8>; role = \"address\"; };";
	EXPECT_EQ(with_chain(ring + " entries = <4>;", address), "");
	EXPECT_TRUE(contains(with_chain(ring, address),
			     "/edgedma-profile/descriptors/c: a ring needs its size"));
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>; length = \"base\";", address),
			     "a ring needs its size"));
	EXPECT_TRUE(contains(with_chain("kind = \"list\"; start = \"base\"; descriptor-size = "
					"<16>; entries = <4>;",
					address + " n { offset = <8>; width = <8>; role = \"next\"; };"),
			     "a list takes no 'length', 'entries'"));
	EXPECT_TRUE(contains(with_chain("kind = \"list\"; start = \"base\"; descriptor-size = <16>;",
					address),
			     "a list needs exactly one field of role \"next\" (it has 0)"));
	EXPECT_TRUE(contains(with_chain("kind = \"tree\"; start = \"base\"; descriptor-size = <16>;",
					address),
			     "property 'kind': 'tree' is not \"ring\", \"list\" or \"pl330-program\""));
	// A PL330 program: its microcode buffer, a power of two, no fields.
	const std::string program =
		"kind = \"pl330-program\"; start = \"base\"; descriptor-size = <128>;";
	auto with_program = [&](const std::string &chain) {
		return refusal_of_body(edu_match + registers + "descriptors { c { " + chain + " }; };");
	};
	EXPECT_EQ(with_program(program + " entries = <2>;"), "");
	EXPECT_TRUE(contains(with_program(program), "a pl330-program needs 'entries' (1 to 64)"));
	EXPECT_TRUE(contains(with_program(program + " entries = <3>;"),
			     "a power of two in all"));
	EXPECT_TRUE(contains(with_program(program + " entries = <2>; head = \"base\";"),
			     "a pl330-program takes no 'length', 'head'"));
	EXPECT_TRUE(contains(with_chain(program + " entries = <2>;", address),
			     "a pl330-program has no 'fields'"));
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>; head = \"cause\";", address),
			     "property 'head': names 'cause', which clears when read"));
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>; tail = \"nowhere\";", address),
			     "names 'nowhere', which is not among the profile's registers"));
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>;",
					"a { offset = <12>; width = <8>; };"),
			     "bytes 12 to 20 run past the 16-byte descriptor"));
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>;",
					"a { offset = <0>; width = <8>; role = \"pointer\"; };"),
			     "'pointer' is not a role"));
	EXPECT_TRUE(contains(with_chain("kind = \"ring\"; start = \"base\"; descriptor-size = "
					"<200>; entries = <4>;",
					address),
			     "property 'descriptor-size': 200 is not from 4 to 128 bytes"));
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>; length-in-bytes;", address),
			     "there is none"));
	EXPECT_EQ(with_chain(ring + " entries = <4>; align-log2 = <16>;", address), "");
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>; align-log2 = <17>;", address),
			     "property 'align-log2': 17 is not from 1 to 16"));
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>; align-log2 = <0>;", address),
			     "property 'align-log2': 0 is not from 1 to 16"));
	EXPECT_EQ(with_chain(ring + " entries = <4>; direction = \"to-device\";", address), "");
	EXPECT_TRUE(contains(with_chain(ring + " entries = <4>; direction = \"rx\";", address),
			     "property 'direction': 'rx' is not \"to-device\""));
}

TEST(ProfileSource, SaysWhatIsWrongWithTheFileItself)
{
	EXPECT_TRUE(contains(refusal("/dts-v1/;\n/ { node { }; };\n"),
			     "no profile in it: no node has compatible = \"edgedma,profile-v1\""));
	std::string syntax = refusal("/dts-v1/;\n/ { a = <1>\n");
	EXPECT_TRUE(contains(syntax, "dtc failed (exit 1)"));
	EXPECT_TRUE(contains(syntax, "syntax error"));
	std::string twice = refusal("/dts-v1/;\n/ {\n"
				    " a { compatible = \"edgedma,profile-v1\"; profile-name = \"t\";"
				    " match-device = \"x\"; " + one_register + " };\n"
				    " b { compatible = \"edgedma,profile-v1\"; profile-name = \"t\";"
				    " match-device = \"y\"; " + one_register + " };\n};\n");
	EXPECT_TRUE(contains(twice, "two profiles named 't'"));
	try {
		read_profile_file("/nonexistent/profile.dts");
		ADD_FAILURE() << "read a file that does not exist";
	} catch (const Error &error) {
		EXPECT_EQ(error.error_number(), ENOENT);
		EXPECT_TRUE(contains(error.what(), "/nonexistent/profile.dts: cannot open"));
	}
}

TEST(ProfileSource, RefusesABlobThatIsCutShortOrNoBlobAtAll)
{
	ScratchDir dir;
	fs::path blob = dir.path() / "edu.dtb";
	std::string command = "dtc -q -I dts -O dtb -o '" + blob.string() + "' '" +
			      (fs::path(EDGEDMA_PROFILE_DIR) / "qemu-edu.dts").string() + "'";
	ASSERT_EQ(std::system(command.c_str()), 0);
	std::ifstream in(blob, std::ios::binary);
	std::vector<char> chars(std::istreambuf_iterator<char>(in), {});
	std::vector<std::byte> bytes(chars.size());
	std::memcpy(bytes.data(), chars.data(), chars.size());
	EXPECT_EQ(parse_profile_blob(bytes, "edu.dtb").size(), 1u);

	std::vector<std::byte> cut(bytes.begin(),
				   bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2));
	try {
		parse_profile_blob(cut, "cut.dtb");
		ADD_FAILURE() << "read half a blob";
	} catch (const Error &error) {
		EXPECT_TRUE(contains(error.what(), "cut.dtb: device-tree blob cut short"));
	}
	std::vector<std::byte> text(64, std::byte{'x'});
	EXPECT_THROW(parse_profile_blob(text, "text"), Error);
}

TEST(ProfileSource, LabelsPciIds)
{
	EXPECT_EQ(pci_id_label(0x123411e8), "1234:11e8");
	EXPECT_EQ(pci_id_label(0x000a0001), "000a:0001");
}

} // namespace profile_source_test
} // namespace edgedma::test
