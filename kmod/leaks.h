/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_LEAKS_H
#define _EDGEDMA_LEAKS_H

int edgedma_leaks_init(void);
void edgedma_leaks_exit(void);

#endif /* _EDGEDMA_LEAKS_H */
