/* e2e_proc.h -- client programs in end-to-end tests: start one of $RCSS_BIN_DIR's
 * programs (rcssclient, rcss-demoteam) with its stdin and stdout on pipes, write lines
 * to it, read its output line by line with a timeout, wait for its exit. A started
 * program dies with the test process (PR_SET_PDEATHSIG); its stderr is the test's. */
#ifndef RCSS_E2E_PROC_H
#define RCSS_E2E_PROC_H

#include <stddef.h>
#include <sys/types.h>

typedef struct e2e_proc {
    pid_t  pid;
    int    in;               /* its stdin (we write), -1 closed */
    int    out;              /* its stdout (we read), -1 at EOF */
    size_t len;              /* bytes of a partial line in buf */
    char   buf[1 << 18];
} e2e_proc_t;

/* Run a shell line (/bin/sh -c), its stdout into buf (NUL-terminated, at most len - 1
 * bytes; buf NULL: not read): its exit status, -1 if it did not exit normally. */
int  e2e_sh(const char *line, char *buf, size_t len);

/* Start $RCSS_BIN_DIR/argv[0] with argv (NULL-terminated). 0 or -1. */
int  e2e_proc_start(e2e_proc_t *p, const char *const *argv);
/* Write line plus a newline to its stdin. 0 or -1. */
int  e2e_proc_write(e2e_proc_t *p, const char *line);
void e2e_proc_close_stdin(e2e_proc_t *p);
/* The next line of its stdout (without the newline) within timeout_ms: 1, 0 on a
 * timeout, -1 at EOF. */
int  e2e_proc_line(e2e_proc_t *p, char *line, size_t len, int timeout_ms);
/* Read lines until one contains `what` (kept in line) within timeout_ms: 1 or 0. */
int  e2e_proc_expect(e2e_proc_t *p, const char *what, char *line, size_t len, int timeout_ms);
/* Wait up to timeout_ms for its exit: the exit status, 128+signal, or -1 on a timeout
 * (it is then killed). */
int  e2e_proc_wait(e2e_proc_t *p, int timeout_ms);
/* SIGTERM, then SIGKILL after 2 s; reaps it. */
void e2e_proc_stop(e2e_proc_t *p);

#endif
