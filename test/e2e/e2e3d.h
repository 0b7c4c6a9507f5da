/* e2e3d.h -- helpers for the 3D server's end-to-end tests: start the real
 * rcssserver3d (which starts its two gateways) on 127.0.0.1 with free TCP ports, a
 * private shm name, working directory and configuration directory; talk the
 * length-prefixed protocol to it as an agent or a monitor; start sample agents.
 * Programs come from $RCSS_BIN_DIR (set by `make e2e`). */
#ifndef RCSS_E2E3D_H
#define RCSS_E2E3D_H

#include <stddef.h>
#include <sys/types.h>
#include "frame.h"

typedef struct e2e3d_server {
    pid_t pid;
    int   agent_port;
    int   monitor_port;
    char  shm_name[64];
    char  dir[256];       /* working directory: Logfiles/monitor.log is here */
    char  log[300];       /* the server's stdout and stderr */
    int   status;         /* exit status once stopped or exited, -1 before */
} e2e3d_server_t;

/* Start $RCSS_BIN_DIR/rcssserver3d with the NULL-terminated extra arguments and wait
 * until both gateways run. 0, or -1 (message on stderr). */
int  e2e3d_start(e2e3d_server_t *s, const char *const *extra_args);
/* SIGTERM, wait; the exit status (0 clean), -1 if it had to be killed. */
int  e2e3d_stop(e2e3d_server_t *s);
/* Wait up to ms for the server to exit by itself; its status, or -2 if still running. */
int  e2e3d_wait_exit(e2e3d_server_t *s, int ms);
/* 0 if the server's log shows a sanitizer report (of any of its processes), else 1
 * (e2e3d_stop checks it too). */
int  e2e3d_log_clean(const e2e3d_server_t *s);
/* Remove the working directory, unless the server failed (kept for its logs). */
void e2e3d_cleanup(e2e3d_server_t *s);
/* A file of the working directory, read whole (malloc'd, NUL-terminated) or NULL. */
char *e2e3d_read_file(const e2e3d_server_t *s, const char *rel);
/* Wait up to ms for that file to contain text (a line the server logs, ...): 1, or 0. */
int  e2e3d_wait_file(const e2e3d_server_t *s, const char *rel, const char *text, int ms);

/* TCP connection to 127.0.0.1:port, -1 on failure. */
int  e2e3d_connect(int port);
int  e2e3d_send(int fd, const char *text);
/* A length-prefixed monitor on port: connects and sends an empty message (four zero
 * bytes), the first bytes that tell the server its form. -1 on failure. */
int  e2e3d_monitor(int port);
/* Next message within ms: 1, 0 timeout, <0 closed. The reader buffer is the caller's. */
int  e2e3d_recv(int fd, frame_reader_t *r, int ms, const char **msg);
/* Messages until one starts with prefix (others skipped) or ms pass: 1, 0, <0. */
int  e2e3d_recv_prefix(int fd, frame_reader_t *r, const char *prefix, int ms, const char **msg);
/* Messages until one contains needle: 1, 0, <0. */
int  e2e3d_recv_containing(int fd, frame_reader_t *r, const char *needle, int ms, const char **msg);

/* A sample agent on TCP: rcss3d-agent --port P --team TEAM [--unum N]. Its pid. */
pid_t e2e3d_agent(const e2e3d_server_t *s, const char *team, int unum);
/* The pids of the running gateways and of the pipe agents, from the 3D region. */
int  e2e3d_region_pids(const e2e3d_server_t *s, pid_t *agentgw, pid_t *monitorgw,
                       pid_t *pipe_agents, int max);

#endif
