// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal raw generic netlink for the edgedma selftests: see nl.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/edgedma.h>

#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define NL_RX_SIZE	(1 << 17)	/* a snapshot record of 64 KiB and more */

static union {
	struct nlmsghdr nlh;
	char buf[NL_RX_SIZE];
} rx;

int nl_open(struct nl_sock *s)
{
	struct timeval tv = { .tv_sec = NL_TIMEOUT_SEC };
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	int one = 1;
	int err;

	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (s->fd < 0)
		return -errno;

	if (setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(s->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)) ||
	    setsockopt(s->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(s->fd, (struct sockaddr *)&sa, &salen)) {
		err = -errno;
		close(s->fd);
		s->fd = -1;
		return err;
	}

	s->portid = sa.nl_pid;
	s->seq = 0;
	return 0;
}

void nl_close(struct nl_sock *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

void genl_msg_init(struct nl_msg *m, __u16 family, __u16 flags, __u8 cmd,
		   __u8 version)
{
	struct genlmsghdr *g;

	memset(m->buf, 0, NLMSG_SPACE(GENL_HDRLEN));
	m->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->nlh.nlmsg_type = family;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | flags;

	g = NLMSG_DATA(&m->nlh);
	g->cmd = cmd;
	g->version = version;
}

struct genlmsghdr *genl_msg_hdr(struct nl_msg *m)
{
	return NLMSG_DATA(&m->nlh);
}

int nl_put(struct nl_msg *m, __u16 type, const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(m->nlh.nlmsg_len);
	size_t alen = NLA_HDRLEN + len;
	struct nlattr *a;

	if (alen > 0xffff || at + NLA_ALIGN(alen) > sizeof(m->buf))
		return -EMSGSIZE;

	a = (struct nlattr *)(m->buf + at);
	a->nla_type = type;
	a->nla_len = alen;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + alen, 0, NLA_ALIGN(alen) - alen);
	m->nlh.nlmsg_len = at + NLA_ALIGN(alen);

	return at;
}

int nl_put_u32(struct nl_msg *m, __u16 type, __u32 value)
{
	return nl_put(m, type, &value, sizeof(value));
}

int nl_put_str(struct nl_msg *m, __u16 type, const char *str)
{
	return nl_put(m, type, str, strlen(str) + 1);
}

int nl_nest_start(struct nl_msg *m, __u16 type)
{
	return nl_put(m, type | NLA_F_NESTED, NULL, 0);
}

void nl_nest_end(struct nl_msg *m, int at)
{
	struct nlattr *a = (struct nlattr *)(m->buf + at);

	a->nla_len = m->nlh.nlmsg_len - at;
}

int nl_parse(const void *buf, size_t len, const struct nlattr **tb,
	     unsigned int max)
{
	const char *p = buf;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		unsigned int type = a->nla_type & NLA_TYPE_MASK;
		size_t step;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return -EBADMSG;
		if (type <= max)
			tb[type] = a;

		step = NLA_ALIGN(a->nla_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}

	return len ? -EBADMSG : 0;
}

const void *nl_attr_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

size_t nl_attr_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

bool nl_attr_u16(const struct nlattr *a, __u16 *v)
{
	if (!a || nl_attr_len(a) != sizeof(*v))
		return false;
	memcpy(v, nl_attr_data(a), sizeof(*v));
	return true;
}

bool nl_attr_u32(const struct nlattr *a, __u32 *v)
{
	if (!a || nl_attr_len(a) != sizeof(*v))
		return false;
	memcpy(v, nl_attr_data(a), sizeof(*v));
	return true;
}

bool nl_attr_u64(const struct nlattr *a, __u64 *v)
{
	if (!a || nl_attr_len(a) != sizeof(*v))
		return false;
	memcpy(v, nl_attr_data(a), sizeof(*v));
	return true;
}

const char *nl_attr_str(const struct nlattr *a)
{
	const char *s;
	size_t len;

	if (!a)
		return NULL;
	s = nl_attr_data(a);
	len = nl_attr_len(a);
	if (!len || memchr(s, '\0', len) == NULL)
		return NULL;
	return s;
}

const void *genl_attrs(const struct nlmsghdr *nlh, size_t hdrsize,
		       size_t *len)
{
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN + NLMSG_ALIGN(hdrsize);

	if (nlh->nlmsg_len < off)
		return NULL;
	*len = nlh->nlmsg_len - off;
	return (const char *)nlh + off;
}

/* The TLVs of an extended ack (NLMSGERR_ATTR_*). */
static int parse_ext_ack(const void *buf, size_t len, struct nl_answer *ans)
{
	const struct nlattr *tb[NLMSGERR_ATTR_OFFS + 1];
	const char *msg;

	if (nl_parse(buf, len, tb, NLMSGERR_ATTR_OFFS))
		return -EBADMSG;

	if (tb[NLMSGERR_ATTR_MSG]) {
		msg = nl_attr_str(tb[NLMSGERR_ATTR_MSG]);
		if (!msg)
			return -EBADMSG;
		snprintf(ans->msg, sizeof(ans->msg), "%s", msg);
		ans->has_msg = true;
	}
	if (tb[NLMSGERR_ATTR_OFFS]) {
		if (!nl_attr_u32(tb[NLMSGERR_ATTR_OFFS], &ans->offs))
			return -EBADMSG;
		ans->has_offs = true;
	}
	return 0;
}

/* NLMSG_ERROR: an ack (error 0) or an error, maybe with TLVs. */
static int parse_error(const struct nlmsghdr *nlh, struct nl_answer *ans)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t payload = nlh->nlmsg_len - NLMSG_HDRLEN;
	size_t off = sizeof(*e);

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return -EBADMSG;
	ans->error = e->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;

	/* Without NLM_F_CAPPED the whole request is echoed before the TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < sizeof(struct nlmsghdr))
			return -EBADMSG;
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	}
	off = NLMSG_ALIGN(off);
	if (off > payload)
		return -EBADMSG;
	return parse_ext_ack((const char *)e + off, payload - off, ans);
}

/* NLMSG_DONE: the end of a dump, carrying the dump's errno. */
static int parse_done(const struct nlmsghdr *nlh, struct nl_answer *ans)
{
	size_t payload = nlh->nlmsg_len - NLMSG_HDRLEN;
	const char *data = NLMSG_DATA(nlh);
	size_t off = NLMSG_ALIGN(sizeof(int));
	int error;

	ans->done = true;
	if (payload < sizeof(int))
		return -EBADMSG;
	memcpy(&error, data, sizeof(error));
	ans->error = error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	if (off > payload)
		return -EBADMSG;
	return parse_ext_ack(data + off, payload - off, ans);
}

int nl_transact(struct nl_sock *s, struct nl_msg *m, nl_reply_fn fn,
		void *arg, struct nl_answer *ans)
{
	return nl_transact_hdr(s, &m->nlh, fn, arg, ans);
}

int nl_transact_hdr(struct nl_sock *s, struct nlmsghdr *req, nl_reply_fn fn,
		    void *arg, struct nl_answer *ans)
{
	int reply_err = 0;
	ssize_t n;

	memset(ans, 0, sizeof(*ans));
	req->nlmsg_flags |= NLM_F_ACK;
	req->nlmsg_seq = ++s->seq;
	req->nlmsg_pid = 0;

	/*
	 * send(), not sendto(): without a destination address the kernel
	 * checks capabilities against the socket's opener as well as the
	 * sender (__netlink_ns_capable(), NETLINK_SKB_DST), which is what
	 * write(2) on a passed socket gets, and what the tests want to see.
	 * An unconnected netlink socket sends to the kernel (portid 0).
	 */
	n = send(s->fd, req, req->nlmsg_len, 0);
	if (n < 0)
		return -errno;
	if ((size_t)n != req->nlmsg_len)
		return -EIO;

	for (;;) {
		struct nlmsghdr *nlh;
		int len;

		n = recv(s->fd, rx.buf, sizeof(rx.buf), MSG_TRUNC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		if ((size_t)n > sizeof(rx.buf))
			return -EMSGSIZE;

		len = n;
		for (nlh = &rx.nlh; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			int err;

			/* Leftovers of an earlier request are not ours. */
			if (nlh->nlmsg_seq != req->nlmsg_seq ||
			    nlh->nlmsg_pid != s->portid)
				continue;

			switch (nlh->nlmsg_type) {
			case NLMSG_NOOP:
				continue;
			case NLMSG_ERROR:
				err = parse_error(nlh, ans);
				return err ? err : reply_err;
			case NLMSG_DONE:
				err = parse_done(nlh, ans);
				return err ? err : reply_err;
			default:
				ans->replies++;
				if (fn) {
					err = fn(nlh, arg);
					if (err < 0 && !reply_err)
						reply_err = err;
				}
			}
		}
		if (len)
			return -EBADMSG;
	}
}

/* CTRL_ATTR_OPS: a nest of nests, one per op. */
static int parse_ops(const struct nlattr *ops, struct genl_family_info *fam)
{
	const char *p = nl_attr_data(ops);
	size_t len = nl_attr_len(ops);

	while (len >= NLA_HDRLEN) {
		const struct nlattr *op = (const struct nlattr *)p;
		const struct nlattr *tb[CTRL_ATTR_OP_FLAGS + 1];
		struct genl_op_info *info;
		size_t step;

		if (op->nla_len < NLA_HDRLEN || op->nla_len > len)
			return -EBADMSG;
		if (fam->n_ops == NL_MAX_OPS)
			return -E2BIG;
		if (nl_parse(nl_attr_data(op), nl_attr_len(op), tb,
			     CTRL_ATTR_OP_FLAGS))
			return -EBADMSG;

		info = &fam->ops[fam->n_ops++];
		if (!nl_attr_u32(tb[CTRL_ATTR_OP_ID], &info->id))
			return -EBADMSG;
		if (tb[CTRL_ATTR_OP_FLAGS] &&
		    !nl_attr_u32(tb[CTRL_ATTR_OP_FLAGS], &info->flags))
			return -EBADMSG;

		step = NLA_ALIGN(op->nla_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 0;
}

/* CTRL_ATTR_MCAST_GROUPS: a nest of nests, one per group. */
static int parse_groups(const struct nlattr *groups, struct genl_family_info *fam)
{
	const char *p = nl_attr_data(groups);
	size_t len = nl_attr_len(groups);

	while (len >= NLA_HDRLEN) {
		const struct nlattr *grp = (const struct nlattr *)p;
		const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_ID + 1];
		struct genl_group_info *info;
		const char *name;
		size_t step;

		if (grp->nla_len < NLA_HDRLEN || grp->nla_len > len)
			return -EBADMSG;
		if (fam->n_groups == NL_MAX_GROUPS)
			return -E2BIG;
		if (nl_parse(nl_attr_data(grp), nl_attr_len(grp), tb,
			     CTRL_ATTR_MCAST_GRP_ID))
			return -EBADMSG;

		info = &fam->groups[fam->n_groups++];
		name = nl_attr_str(tb[CTRL_ATTR_MCAST_GRP_NAME]);
		if (!name || !nl_attr_u32(tb[CTRL_ATTR_MCAST_GRP_ID], &info->id))
			return -EBADMSG;
		snprintf(info->name, sizeof(info->name), "%s", name);

		step = NLA_ALIGN(grp->nla_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 0;
}

static int family_reply(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_MCAST_GROUPS + 1];
	struct genl_family_info *fam = arg;
	const void *attrs;
	const char *name;
	size_t len;

	if (nlh->nlmsg_type != GENL_ID_CTRL)
		return -EBADMSG;
	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs || nl_parse(attrs, len, tb, CTRL_ATTR_MCAST_GROUPS))
		return -EBADMSG;

	name = nl_attr_str(tb[CTRL_ATTR_FAMILY_NAME]);
	if (!name || !nl_attr_u16(tb[CTRL_ATTR_FAMILY_ID], &fam->id))
		return -EBADMSG;
	snprintf(fam->name, sizeof(fam->name), "%s", name);

	if ((tb[CTRL_ATTR_VERSION] &&
	     !nl_attr_u32(tb[CTRL_ATTR_VERSION], &fam->version)) ||
	    (tb[CTRL_ATTR_HDRSIZE] &&
	     !nl_attr_u32(tb[CTRL_ATTR_HDRSIZE], &fam->hdrsize)) ||
	    (tb[CTRL_ATTR_MAXATTR] &&
	     !nl_attr_u32(tb[CTRL_ATTR_MAXATTR], &fam->maxattr)))
		return -EBADMSG;

	fam->n_ops = 0;
	fam->n_groups = 0;
	if (tb[CTRL_ATTR_OPS] && parse_ops(tb[CTRL_ATTR_OPS], fam))
		return -EBADMSG;
	if (tb[CTRL_ATTR_MCAST_GROUPS])
		return parse_groups(tb[CTRL_ATTR_MCAST_GROUPS], fam);
	return 0;
}

int genl_resolve(struct nl_sock *s, const char *name,
		 struct genl_family_info *fam, struct nl_answer *ans)
{
	struct nl_msg m;
	int err;

	memset(fam, 0, sizeof(*fam));
	genl_msg_init(&m, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1);
	err = nl_put_str(&m, CTRL_ATTR_FAMILY_NAME, name);
	if (err < 0)
		return err;

	err = nl_transact(s, &m, family_reply, fam, ans);
	if (err)
		return err;
	if (ans->error)
		return 0;
	if (ans->replies != 1 || !fam->id || strcmp(fam->name, name))
		return -EBADMSG;
	return 0;
}

int genl_call(struct nl_sock *s, __u16 family, __u8 cmd, __u16 flags,
	      nl_reply_fn fn, void *arg, struct nl_answer *ans)
{
	struct nl_msg m;

	genl_msg_init(&m, family, flags, cmd, 1);
	return nl_transact(s, &m, fn, arg, ans);
}

const char *nl_answer_str(const struct nl_answer *ans, char *buf, size_t n)
{
	int len;

	len = snprintf(buf, n, "%d (%s)", ans->error,
		       ans->error ? strerror(-ans->error) : "success");
	if (ans->has_msg && len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - len, ", extack \"%s\"",
				ans->msg);
	else if (len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - len, ", no extack message");
	if (ans->has_offs && len >= 0 && (size_t)len < n)
		snprintf(buf + len, n - len, ", offset %u", ans->offs);
	return buf;
}

__u32 genl_group_id(const struct genl_family_info *fam, const char *name)
{
	unsigned int i;

	for (i = 0; i < fam->n_groups; i++)
		if (!strcmp(fam->groups[i].name, name))
			return fam->groups[i].id;
	return 0;
}

/* WAS_ENABLED of a MAP_EVENTS_SET reply into *(int *)arg. */
static int map_events_was_enabled(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[EDGEDMA_A_MAP_EVENTS_MAX + 1];
	const void *attrs;
	size_t len;
	__u32 was;

	attrs = genl_attrs(nlh, 0, &len);
	if (!attrs || nl_parse(attrs, len, tb, EDGEDMA_A_MAP_EVENTS_MAX) ||
	    !nl_attr_u32(tb[EDGEDMA_A_MAP_EVENTS_WAS_ENABLED], &was))
		return -EBADMSG;
	*(int *)arg = was;
	return 0;
}

int edgedma_map_events_set(struct nl_sock *s, __u16 family, int enable, int *was,
			   struct nl_answer *ans)
{
	struct nl_msg m;
	int err;

	*was = -1;
	memset(ans, 0, sizeof(*ans));
	genl_msg_init(&m, family, 0, EDGEDMA_CMD_MAP_EVENTS_SET, 1);
	if (enable >= 0) {
		err = nl_put_u32(&m, EDGEDMA_A_MAP_EVENTS_ENABLE, enable);
		if (err < 0)
			return err;
	}
	return nl_transact(s, &m, map_events_was_enabled, was, ans);
}
