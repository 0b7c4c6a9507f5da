/* dispinit.h -- (dispinit [version V]): which monitor protocol a monitor asks for, and
 * which of those this server serves. Pure. */
#ifndef RCSS_DISPINIT_H
#define RCSS_DISPINIT_H

#include <stddef.h>

#define DISPINIT_MAX_VERSION 5  /* binary 1, 2; text 3, 4, 5; and -1 (JSON) */

/* (dispinit) -> 1, (dispinit version V) -> V truncated toward zero. 0 ok, -1 if the text
 * is not a well-formed dispinit. */
int dispinit_parse(const char *text, size_t len, int *version);
/* 1 if the reference has the version (1..5, -1 JSON). */
int dispinit_version_known(int version);
/* 1 if this server serves it: every version the reference has. */
int dispinit_version_served(int version);

#endif
