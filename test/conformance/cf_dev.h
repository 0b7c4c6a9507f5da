/* cf_dev.h -- the intended deviations: one line each,
 *     SCENARIO STREAM PATTERN -- REASON
 * SCENARIO and STREAM are shell globs, PATTERN an extended regular expression. A
 * difference is a deviation when every line of it (either server's) matches the
 * pattern of an entry for its scenario and stream. */
#ifndef RCSS_CF_DEV_H
#define RCSS_CF_DEV_H

#include <regex.h>
#include <stddef.h>

typedef struct cf_dev {
    char    scn[64];
    char    stream[32];
    regex_t re;
    char    reason[240];
    int     line;
    int     used;        /* differences it explained in this run */
} cf_dev_t;

typedef struct cf_devs {
    cf_dev_t *d;
    int       n;
} cf_devs_t;

/* Parse the file's text (comments '#', blank lines). 0, or -1 with err. */
int  cf_dev_parse(cf_devs_t *d, const char *text, char *err, size_t errlen);
int  cf_dev_load(cf_devs_t *d, const char *path, char *err, size_t errlen);
void cf_dev_free(cf_devs_t *d);
/* The entry that explains all n lines of a difference in scenario/stream (the entry of
 * the first line; each line may match another entry), NULL if some line matches none.
 * Counts the use. */
cf_dev_t *cf_dev_match(cf_devs_t *d, const char *scn, const char *stream,
                       const char *const *lines, int n);

#endif
