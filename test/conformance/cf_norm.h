/* cf_norm.h -- the one place where what legitimately differs from run to run is made
 * equal before comparing: the run's directory, its ports, dates, process ids, start
 * times and the simulator's random seed. Pure. */
#ifndef RCSS_CF_NORM_H
#define RCSS_CF_NORM_H

typedef struct cf_norm_ctx {
    int         port;    /* player port; port+1 trainer, port+2 online coach */
    const char *dir;     /* the run's private directory */
} cf_norm_ctx_t;

/* The normalised copy of one line (malloc'd):
 *   the directory            -> <dir>
 *   port, port+1, port+2     -> <port>, <port+1>, <port+2>   (as whole numbers)
 *   YYYYMMDDhhmmss           -> <date>                       (14 digits, log names)
 *   YYYY-MM-DD hh:mm:ss      -> <date>                       (stdout's result block)
 *   Simulator Random Seed: N -> Simulator Random Seed: <seed>
 *   pid=N                    -> pid=<pid>                    (a ready line)
 *   (start_time N)           -> (start_time <time>)          (a game log's first message) */
char *cf_norm_line(const cf_norm_ctx_t *c, const char *in);

#endif
