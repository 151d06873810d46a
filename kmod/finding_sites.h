/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_FINDING_SITES_H
#define _EDGEDMA_FINDING_SITES_H

#include <linux/types.h>

struct edgedma_devrec;
struct module;

/*
 * Repeats of a finding are folded at the hook: the first occurrence of a
 * (device, kind, caller) is logged, every later one only bumps the count
 * of its site. Sites are numbered from 1; 0 means "no site" (the table was
 * full, or the finding has no caller to key it by).
 */

/*
 * Count one occurrence of @kind on @rec's device, made by the code at
 * @caller. Returns true when the finding must be logged in full (the first
 * at its site, folding off, or no room for the site) and sets *@site;
 * false when it was counted into the site's first finding. Any context but
 * NMI; takes no lock.
 */
bool edgedma_site_occurs(const struct edgedma_devrec *rec, u32 kind,
			 unsigned long caller, u32 *site);

/* The finding logged first for @site got @seq. */
void edgedma_site_logged(u32 site, u64 seq);

/* A site counted more often than said so far (edgedma_site_next_repeated). */
struct edgedma_site_repeats {
	u64 seq;		/* of the finding logged for the site */
	u64 count;		/* occurrences so far */
	u64 last_ns;
	u32 kind;
	const struct edgedma_devrec *rec;
};

/*
 * The next site from *@pos on whose count grew since it was last said
 * (or since its finding was logged), which counts as said from now on.
 * Process context, one caller at a time (the findings' repeats work).
 */
bool edgedma_site_next_repeated(unsigned int *pos, struct edgedma_site_repeats *out);

/* Occurrences at @site and the time of the latest; false for no site. */
bool edgedma_site_counts(u32 site, u64 *count, u64 *last_ns);

/*
 * @mod is going: its code addresses may be given to the next module, whose
 * findings must not fold into the ones it made. Process context.
 */
void edgedma_sites_retire_module(struct module *mod);

/*
 * Sockets asking for every occurrence (nl_unfold.c keeps them): while any
 * does, nothing is folded, as with fold_findings=0.
 */
void edgedma_sites_set_unfold_holders(unsigned int holders);
unsigned int edgedma_sites_unfold_holders(void);
/* Whether repeats are folded now (fold_findings on, nobody asks otherwise). */
bool edgedma_sites_folding(void);

u64 edgedma_sites_folded(void);		/* occurrences not logged */
u64 edgedma_sites_used(void);
u64 edgedma_sites_full(void);		/* occurrences logged: no room for a site */
size_t edgedma_sites_memory(void);
int edgedma_sites_init(void);
void edgedma_sites_exit(void);

#endif /* _EDGEDMA_FINDING_SITES_H */
