/* bcast_url.h -- server::broadcast_url: the publisher URLs of a broadcast tier (nginx
 * with nchan, README "Broadcasting a match"), "http://HOST[:PORT]/PATH" separated by
 * commas or blanks; HOST a name, an IPv4 address or an IPv6 one in brackets. Checked by
 * the sim at start (a bad one is a configuration error), used by rcss-monitorgw's
 * publisher (monitorgw/gateway/mgw_bcast.c). Pure. */
#ifndef RCSS_BCAST_URL_H
#define RCSS_BCAST_URL_H

#include <stddef.h>

#define BCAST_URL_MAX 8      /* URLs in the list */

typedef struct bcast_url {
    char host[128];          /* without brackets */
    int  port;               /* 80 unless given */
    char path[192];          /* from the first '/', with any query */
    char text[256];          /* the URL as given */
} bcast_url_t;

/* Parse list into out (at most max): the count (0 for ""), or -1 with the reason and
 * the bad item in err. */
int bcast_url_parse(const char *list, bcast_url_t *out, int max, char *err, size_t errlen);

#endif
