/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bounded writer of snapshot records: netlink attributes (struct nlattr
 * TLVs) written in place into a preallocated buffer, from any context,
 * panic included. It never allocates and never sleeps.
 *
 * A put that does not fit fails, marks the record truncated and makes
 * every later put fail too, so a record is always a whole prefix of what
 * was meant; nests are closed or cancelled by their writer either way.
 * Room for the closing attributes (a u64, then TRUNCATED) is kept back
 * from the start.
 */
#ifndef _EDGEDMA_SNAPSHOT_RECORD_H
#define _EDGEDMA_SNAPSHOT_RECORD_H

#include <linux/types.h>

struct edgedma_record {
	u8 *buf;
	u32 len;		/* bytes written */
	u32 room;		/* bytes usable, the TRUNCATED attribute excluded */
	bool truncated;
};

/* Start a record in @buf of @size bytes (at least 64). */
void edgedma_record_init(struct edgedma_record *r, void *buf, u32 size);

/* 0, or -EMSGSIZE when it did not fit (the record is then truncated). */
int edgedma_record_put(struct edgedma_record *r, u16 type, const void *data,
		       u32 len);
int edgedma_record_put_u32(struct edgedma_record *r, u16 type, u32 value);
int edgedma_record_put_u64(struct edgedma_record *r, u16 type, u64 value);
/* A NUL-terminated string. */
int edgedma_record_put_str(struct edgedma_record *r, u16 type, const char *s);

/*
 * A nested attribute: start returns its offset (or a negative errno), end
 * fixes its length, cancel removes it and everything put inside it.
 */
int edgedma_record_nest_start(struct edgedma_record *r, u16 type);
void edgedma_record_nest_end(struct edgedma_record *r, int start);
void edgedma_record_nest_cancel(struct edgedma_record *r, int start);

/*
 * Close the record: @last_type with @last (room for it was kept back), then
 * @truncated_type if it ran out of room. Returns its length in bytes.
 */
u32 edgedma_record_finish(struct edgedma_record *r, u16 last_type, u64 last,
			  u16 truncated_type);

/*
 * The attribute of @type at the top level of the record @buf/@len, or NULL.
 * For readers of stored records (the store's headers).
 */
const struct nlattr *edgedma_record_find(const void *buf, u32 len, u16 type);

#endif /* _EDGEDMA_SNAPSHOT_RECORD_H */
