/* e2e_lp.h -- rcss-logplayer as a child of the test (test_072, test_076..078): its
 * stdin and stdout are pipes, its monitor port a free one on 127.0.0.1.
 *
 *     e2e_lp_t lp;
 *     const char *extra[] = { "--http-port", "0", NULL };
 *     e2e_lp_start(&lp, path, extra);
 *     e2e_lp_line(&lp, 5000);              // "FILE: version 6, 46 frames ..."
 *     e2e_lp_cmd(&lp, "step");             // its status line
 *     e2e_lp_cmd(&lp, "quit");
 *     e2e_lp_wait(&lp);                    // the exit status */
#ifndef RCSS_E2E_LP_H
#define RCSS_E2E_LP_H

#include <sys/types.h>

typedef struct e2e_lp {
    pid_t pid;
    int   in;            /* its stdin */
    int   out;           /* its stdout */
    int   port;          /* --port */
    int   http_port;     /* from its first line, with --http-port */
    char  line[1024];
} e2e_lp_t;

/* A UDP port nobody uses right now, and a TCP one. */
int  e2e_free_udp_port(void);
int  e2e_free_tcp_port(void);
/* Start $RCSS_BIN_DIR/rcss-logplayer --port P --bind 127.0.0.1 [extra...] file. */
int  e2e_lp_start(e2e_lp_t *lp, const char *file, const char *const *extra);
/* The next line of its stdout within ms (into lp->line), or NULL. The first line's
 * "browsers on http port N" sets lp->http_port. */
const char *e2e_lp_line(e2e_lp_t *lp, int ms);
/* Send a command; the status line that answers it (lines about monitors skipped). */
const char *e2e_lp_cmd(e2e_lp_t *lp, const char *cmd);
/* Wait (3 s, then SIGKILL) for it to exit; its exit status or -1. */
int  e2e_lp_wait(e2e_lp_t *lp);

#endif
