// SPDX-License-Identifier: GPL-2.0
/*
 * The bounded writer of snapshot records (see snapshot_record.h).
 *
 * The attributes are laid out exactly as the netlink core lays them out
 * (NLA_HDRLEN header, NLA_ALIGNTO padding), so a record copied after a
 * generic netlink header is a valid message body and any netlink parser
 * reads it. The netlink core's own nla_put() is not used: it writes into
 * socket buffers, which a fault or panic handler cannot allocate.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "snapshot_record.h"

/* The closing attributes: a u64 (how long it took), a u32 (TRUNCATED). */
#define EDGEDMA_RECORD_TAIL	(nla_total_size(sizeof(u64)) + nla_total_size(sizeof(u32)))

void edgedma_record_init(struct edgedma_record *r, void *buf, u32 size)
{
	r->buf = buf;
	r->len = 0;
	r->room = size > EDGEDMA_RECORD_TAIL ? size - EDGEDMA_RECORD_TAIL : 0;
	r->truncated = false;
}

static struct nlattr *edgedma_record_reserve(struct edgedma_record *r, u16 type,
					     u32 len)
{
	struct nlattr *nla;

	if (r->truncated || nla_total_size(len) > r->room - r->len) {
		r->truncated = true;
		return NULL;
	}
	nla = (struct nlattr *)(r->buf + r->len);
	nla->nla_type = type;
	nla->nla_len = nla_attr_size(len);
	/* The padding is zeroed: records are compared and checksummed. */
	memset((u8 *)nla + nla_attr_size(len), 0, nla_padlen(len));
	r->len += nla_total_size(len);
	return nla;
}

int edgedma_record_put(struct edgedma_record *r, u16 type, const void *data,
		       u32 len)
{
	struct nlattr *nla = edgedma_record_reserve(r, type, len);

	if (!nla)
		return -EMSGSIZE;
	memcpy(nla_data(nla), data, len);
	return 0;
}

int edgedma_record_put_u32(struct edgedma_record *r, u16 type, u32 value)
{
	return edgedma_record_put(r, type, &value, sizeof(value));
}

int edgedma_record_put_u64(struct edgedma_record *r, u16 type, u64 value)
{
	return edgedma_record_put(r, type, &value, sizeof(value));
}

int edgedma_record_put_str(struct edgedma_record *r, u16 type, const char *s)
{
	struct nlattr *nla;
	size_t n = strlen(s);

	nla = edgedma_record_reserve(r, type, n + 1);
	if (!nla)
		return -EMSGSIZE;
	memcpy(nla_data(nla), s, n);
	((char *)nla_data(nla))[n] = '\0';
	return 0;
}

int edgedma_record_nest_start(struct edgedma_record *r, u16 type)
{
	u32 start = r->len;

	if (!edgedma_record_reserve(r, type | NLA_F_NESTED, 0))
		return -EMSGSIZE;
	return start;
}

void edgedma_record_nest_end(struct edgedma_record *r, int start)
{
	struct nlattr *nla = (struct nlattr *)(r->buf + start);

	nla->nla_len = r->len - start;
}

void edgedma_record_nest_cancel(struct edgedma_record *r, int start)
{
	r->len = start;
}

u32 edgedma_record_finish(struct edgedma_record *r, u16 last_type, u64 last,
			  u16 truncated_type)
{
	bool truncated = r->truncated;

	/* Written into the room kept back for them. */
	r->room += EDGEDMA_RECORD_TAIL;
	r->truncated = false;
	edgedma_record_put_u64(r, last_type, last);
	if (truncated)
		edgedma_record_put_u32(r, truncated_type, 1);
	r->truncated = truncated;
	return r->len;
}

const struct nlattr *edgedma_record_find(const void *buf, u32 len, u16 type)
{
	const struct nlattr *nla = buf;
	int rem = len;

	/* nla_ok() checks every length against what is left. */
	for (; nla_ok(nla, rem); nla = nla_next(nla, &rem))
		if (nla_type(nla) == type)
			return nla;
	return NULL;
}
