/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal raw generic netlink for the edgedma selftests.
 *
 * Deliberately independent of libedgedma and libnl: these tests check what
 * the kernel puts on the wire, so they build every message byte by byte and
 * parse every answer themselves.
 *
 * Conventions:
 *  - functions return 0 or a negative errno for a *local* failure (socket
 *    error, timeout, malformed answer);
 *  - what the kernel answered (0 or its negative errno, plus the extended
 *    ack TLVs) is reported in struct nl_answer, never as the return value,
 *    so a local -EINVAL cannot be mistaken for the kernel's -EINVAL.
 */
#ifndef EDGEDMA_SELFTEST_NL_H
#define EDGEDMA_SELFTEST_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>

#define NL_MSG_SIZE	4096
#define NL_EXTACK_MSG	256
#define NL_MAX_OPS	64
#define NL_TIMEOUT_SEC	10

struct nl_sock {
	int fd;
	__u32 portid;
	__u32 seq;
};

/* A request being built: one netlink message. */
struct nl_msg {
	union {
		struct nlmsghdr nlh;
		char buf[NL_MSG_SIZE];
	};
};

/* How the kernel answered a request. */
struct nl_answer {
	int error;			/* 0 or the kernel's negative errno */
	bool done;			/* ended by NLMSG_DONE (a dump) */
	bool has_msg;			/* NLMSGERR_ATTR_MSG present */
	char msg[NL_EXTACK_MSG];
	bool has_offs;			/* NLMSGERR_ATTR_OFFS present */
	__u32 offs;			/* offset of the bad attribute */
	unsigned int replies;		/* data messages before the ack/done */
};

/* Called for every data message answering a request; < 0 marks it bad. */
typedef int (*nl_reply_fn)(const struct nlmsghdr *nlh, void *arg);

struct genl_op_info {
	__u32 id;
	__u32 flags;			/* GENL_ADMIN_PERM, GENL_CMD_CAP_* */
};

#define NL_MAX_GROUPS	8

struct genl_group_info {
	char name[GENL_NAMSIZ];
	__u32 id;
};

/* What CTRL_CMD_GETFAMILY says about a family. */
struct genl_family_info {
	char name[GENL_NAMSIZ];
	__u16 id;
	__u32 version;
	__u32 hdrsize;
	__u32 maxattr;
	unsigned int n_ops;
	struct genl_op_info ops[NL_MAX_OPS];
	unsigned int n_groups;
	struct genl_group_info groups[NL_MAX_GROUPS];
};

int nl_open(struct nl_sock *s);
void nl_close(struct nl_sock *s);

void genl_msg_init(struct nl_msg *m, __u16 family, __u16 flags, __u8 cmd,
		   __u8 version);
struct genlmsghdr *genl_msg_hdr(struct nl_msg *m);
/* Append an attribute; returns its offset in the message or -EMSGSIZE. */
int nl_put(struct nl_msg *m, __u16 type, const void *data, size_t len);
int nl_put_u32(struct nl_msg *m, __u16 type, __u32 value);
int nl_put_str(struct nl_msg *m, __u16 type, const char *str);
/* A nested attribute: start returns its offset (or -EMSGSIZE), end closes it. */
int nl_nest_start(struct nl_msg *m, __u16 type);
void nl_nest_end(struct nl_msg *m, int at);

/*
 * Send @m (NLM_F_ACK is added) and read until the kernel's ack, error or
 * NLMSG_DONE, handing every data message to @fn.
 */
int nl_transact(struct nl_sock *s, struct nl_msg *m, nl_reply_fn fn,
		void *arg, struct nl_answer *ans);
/* The same for a request built elsewhere: nlmsg_len bytes from @req. */
int nl_transact_hdr(struct nl_sock *s, struct nlmsghdr *req, nl_reply_fn fn,
		    void *arg, struct nl_answer *ans);

/* Split a stream of attributes; types above @max are skipped. */
int nl_parse(const void *buf, size_t len, const struct nlattr **tb,
	     unsigned int max);
const void *nl_attr_data(const struct nlattr *a);
size_t nl_attr_len(const struct nlattr *a);
bool nl_attr_u16(const struct nlattr *a, __u16 *v);
bool nl_attr_u32(const struct nlattr *a, __u32 *v);
bool nl_attr_u64(const struct nlattr *a, __u64 *v);
/* The string, or NULL unless it is NUL-terminated inside the attribute. */
const char *nl_attr_str(const struct nlattr *a);

/* Attributes of a generic netlink message (after its family header). */
const void *genl_attrs(const struct nlmsghdr *nlh, size_t hdrsize,
		       size_t *len);

/* Resolve a family; ans->error is -ENOENT when it is not registered. */
int genl_resolve(struct nl_sock *s, const char *name,
		 struct genl_family_info *fam, struct nl_answer *ans);
/* Send a command without attributes. */
int genl_call(struct nl_sock *s, __u16 family, __u8 cmd, __u16 flags,
	      nl_reply_fn fn, void *arg, struct nl_answer *ans);

/* "-22 (Invalid argument), extack \"...\", offset 20" for test logs. */
const char *nl_answer_str(const struct nl_answer *ans, char *buf, size_t n);

/* ---- edgedma commands more than one test file sends ---- */

/*
 * EDGEDMA_CMD_MAP_EVENTS_SET with ENABLE = @enable (0 or 1), or without it
 * when @enable is -1; *@was gets the state before (WAS_ENABLED), -1 when
 * the reply had none. Off answers only after every event numbered until
 * then has gone out.
 */
int edgedma_map_events_set(struct nl_sock *s, __u16 family, int enable, int *was,
			   struct nl_answer *ans);
/* The id of @fam's multicast group @name, 0 when it has none. */
__u32 genl_group_id(const struct genl_family_info *fam, const char *name);

#endif /* EDGEDMA_SELFTEST_NL_H */
