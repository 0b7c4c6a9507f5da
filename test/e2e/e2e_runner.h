/* e2e_runner.h -- helpers for the runner-interface tests (test_120..139): a server
 * started with exactly the arguments a test gives (port 0 and the like; its ready line
 * read from its output), a tiny HTTP/1.0 client for /status, /metrics and the
 * server-sent-event streams, and the region's runner part.
 *
 *     e2e_srv_t p;
 *     const char *args[] = { "server::port=0", "server::http_port=-1", NULL };
 *     cr_assert_eq(e2e_srv_start(&p, args, NULL), 0);   // waits for "READY ..."
 *     char body[65536];
 *     cr_expect_eq(e2e_http_get(p.http_port, "/status", body, sizeof body), 200);
 *     int st = e2e_srv_stop(&p);                         // SIGTERM: exit status */
#ifndef RCSS_E2E_RUNNER_H
#define RCSS_E2E_RUNNER_H

#include <stddef.h>
#include <sys/types.h>
#include "e2e.h"

typedef struct e2e_srv {
    pid_t pid;
    int   status;          /* exit status once it ended, -1 before (or killed) */
    int   port, coach_port, olcoach_port, http_port; /* from the ready line */
    char  shm[64];
    char  dir[256];        /* private working directory */
    char  log[300];        /* stdout + stderr */
    char  conf_dir[300];   /* $RCSS_CONF_DIR (empty) unless the caller's env says */
} e2e_srv_t;

/* Start $RCSS_BIN_DIR/rcssserver with args only (plus bind_address=127.0.0.1 and logs
 * off unless the args say otherwise: they come after), in a private directory; home, if
 * not NULL, becomes $HOME and $RCSS_CONF_DIR is not set (else it points at an empty
 * directory). Waits up to 8 s for the ready line. 0 ready, 1 the server exited first
 * (p->status holds its status), -1 on failure. */
int  e2e_srv_start(e2e_srv_t *p, const char *const *args, const char *home);
/* The same without waiting for anything: 0 started, -1 failed. */
int  e2e_srv_spawn(e2e_srv_t *p, const char *const *args, const char *home);
/* Wait up to timeout_ms for the server to exit by itself; its status, -1 on timeout
 * (then it is killed). */
int  e2e_srv_wait(e2e_srv_t *p, int timeout_ms);
/* SIGTERM, wait; the exit status. */
int  e2e_srv_stop(e2e_srv_t *p);
/* The server's output so far into out (NUL-terminated). */
void e2e_srv_output(const e2e_srv_t *p, char *out, size_t len);
/* Remove the private directory. */
void e2e_srv_clean(e2e_srv_t *p);

/* GET path from 127.0.0.1:port (HTTP/1.0). The status code (body in buf, headers
 * dropped), -1 if no answer within 3 s. */
int  e2e_http_get(int port, const char *path, char *buf, size_t len);
/* GET a server-sent-events stream (with Last-Event-ID if last_id is not NULL): the
 * socket after the response headers, -1 on failure. */
int  e2e_sse_open(int port, const char *path, const char *last_id);
/* The next event's data line (without "data: ") within timeout_ms; its id (from "id: ")
 * into *id if not NULL. Length, 0 on timeout or end of stream. */
int  e2e_sse_next(int fd, char *data, size_t len, long long *id, int timeout_ms);
void e2e_sse_close(int fd);

/* The region's runner.http_port of a running server (waits up to 3 s); 0 if none. */
int  e2e_runner_http_port(const char *shm_name);

/* A number after "key": in a JSON text (the first occurrence), or def. */
double e2e_json_num(const char *json, const char *key, double def);

#endif
