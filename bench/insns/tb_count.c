// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for bench/insn-profile: counts the guest kernel's
 * instructions (with user=1, user space's too), per translation block,
 * exactly. Every block counted is given an inline counter of its executions
 * (no callback: the count costs one add); at exit the blocks that ran go to
 * out=FILE, one "vaddr insns execs" line each, and the profile tool maps
 * them onto the guest's symbols.
 *
 * The plugin API is QEMU's (include/qemu/qemu-plugin.h, version 1, as in
 * QEMU 7.2, Debian 12's): Debian ships the loader but not the header, so the
 * few calls used are declared here.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op, void *ptr,
					      uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

#define EXPORTED __attribute__((visibility("default")))

EXPORTED int qemu_plugin_version = 1;

/* Both 64-bit guests' kernels live in the top half of the address space. */
#define KERNEL_START	0xffff000000000000ULL
/* Distinct blocks a boot translates: tens of thousands. */
#define SLOTS		(1u << 21)

struct block {
	uint64_t vaddr;
	uint64_t insns;		/* 0: a free slot */
	uint64_t execs;		/* added to by the translated code itself */
};

/* Open addressing on (vaddr, insns): a block translated again (after a
 * flush, or cut at another length) keeps adding to its own counter. */
static struct block *blocks;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *out_path;
static int table_full;
static int count_user;

static struct block *block_of(uint64_t vaddr, uint64_t insns)
{
	uint64_t hash = (vaddr ^ (insns << 56)) * 0x9e3779b97f4a7c15ULL;
	uint32_t i = hash >> 43, probes;

	for (probes = 0; probes < SLOTS; probes++, i = (i + 1) & (SLOTS - 1)) {
		struct block *b = &blocks[i];

		if (!b->insns) {
			b->vaddr = vaddr;
			b->insns = insns;
			return b;
		}
		if (b->vaddr == vaddr && b->insns == insns)
			return b;
	}
	return NULL;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	if (vaddr < KERNEL_START && !count_user)
		return;
	pthread_mutex_lock(&blocks_lock);
	b = block_of(vaddr, qemu_plugin_tb_n_insns(tb));
	if (!b)
		table_full = 1;
	pthread_mutex_unlock(&blocks_lock);
	if (b)
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &b->execs, 1);
}

static void write_counts(qemu_plugin_id_t id, void *userdata)
{
	FILE *out = fopen(out_path, "w");
	uint32_t i;

	if (!out) {
		perror(out_path);
		return;
	}
	/* A count that missed blocks must not pass for a whole one. */
	if (table_full)
		fprintf(out, "# incomplete: more than %u blocks\n", SLOTS);
	for (i = 0; i < SLOTS; i++)
		if (blocks[i].execs)
			fprintf(out, "%llx %llu %llu\n",
				(unsigned long long)blocks[i].vaddr,
				(unsigned long long)blocks[i].insns,
				(unsigned long long)blocks[i].execs);
	fclose(out);
}

EXPORTED int qemu_plugin_install(qemu_plugin_id_t id, const void *info,
				 int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
		else if (!strcmp(argv[i], "user=1"))
			count_user = 1;
	if (!out_path) {
		fprintf(stderr, "tb_count: give out=FILE\n");
		return -1;
	}
	blocks = calloc(SLOTS, sizeof(*blocks));
	if (!blocks)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
