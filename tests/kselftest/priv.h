/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Privilege handling for the edgedma selftests.
 *
 * All of these act on the calling process only. The kselftest harness runs
 * every test in a forked child, so a test may drop privileges for good
 * without affecting the tests that follow it.
 */
#ifndef EDGEDMA_SELFTEST_PRIV_H
#define EDGEDMA_SELFTEST_PRIV_H

#include <stdbool.h>

/* The unprivileged identity the tests take: "nobody"/"nogroup". */
#define PRIV_NOBODY	65534

/* Is @cap in the effective set (in the caller's own user namespace)? */
bool priv_has_cap(int cap);
/* Is the effective capability set empty? */
bool priv_no_caps(void);

/*
 * Become uid/gid 65534 with no supplementary groups, for good: real,
 * effective and saved ids all change, which clears every capability.
 * A caller that is already an ordinary user without capabilities stays
 * as it is. Fails unless the effective capability set ends up empty.
 */
int priv_drop(void);

/*
 * Become uid/gid 65534 for now: only the effective ids change (the saved
 * uid stays 0), which empties the effective capability set until
 * priv_restore() takes root back.
 */
int priv_drop_effective(void);
int priv_restore(void);

/*
 * Move into a new user namespace: full capabilities inside it, none in
 * the initial one (the one owning the network namespace).
 */
int priv_enter_userns(void);

#endif /* EDGEDMA_SELFTEST_PRIV_H */
