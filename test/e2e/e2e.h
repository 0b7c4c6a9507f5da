/* e2e.h -- helpers for end-to-end tests: start the real programs on 127.0.0.1 with free
 * ports and a private shm name, and talk UDP to them. Programs are taken from
 * $RCSS_BIN_DIR (set by `make e2e`). */
#ifndef RCSS_E2E_H
#define RCSS_E2E_H

#include <stddef.h>
#include <sys/types.h>

typedef struct e2e_server {
    pid_t pid;
    int   port;           /* server::port (players, monitors) */
    int   coach_port;     /* server::coach_port (trainer) */
    int   olcoach_port;   /* server::olcoach_port (online coaches) */
    char  shm_name[64];   /* server::shm_name */
    char  dir[256];       /* private working directory (logs go here) */
    char  log[300];       /* the server's stderr, dir/server.log */
    int   nstandalone;    /* gateways started by the harness (standalone mode) */
    pid_t standalone[17]; /* their pids: netgw 0..n-2, monitorgw last */
    int   standalone_netgw; /* the systemd layout's netgw_processes (0: not that layout) */
    int   nextra;         /* the extra args of the start, kept for a restart ... */
    char  extra[2048];    /* ... one after the other, each NUL-terminated */
} e2e_server_t;

/* Start $RCSS_BIN_DIR/rcssserver with free ports, bind_address=127.0.0.1, its own
 * shm_name and working directory, RCSS_CONF_DIR pointing at an empty directory, plus
 * the NULL-terminated extra args ("server::synch_mode=true", ...). Waits until the
 * region is ready and the gateways answer. 0 ok, -1 on failure (message on stderr). */
int  e2e_server_start(e2e_server_t *s, const char *const *extra_args);
/* The same with the server's stdout (its gateways' too) alone in the file out_path, which
 * the caller owns; stderr still goes to s->log. */
int  e2e_server_start_out(e2e_server_t *s, const char *const *extra_args, const char *out_path);
/* The systemd layout: the sim with server::spawn_gateways=false and
 * server::netgw_processes=n_netgw, and the n_netgw rcss-netgw plus one rcss-monitorgw
 * started by the harness as separate processes (not children of the sim). */
int  e2e_server_start_standalone(e2e_server_t *s, const char *const *extra_args, int n_netgw);
/* The systemd layout after its sim died (and s->pid was reaped and set to -1): start
 * rcssserver again with exactly the arguments of the e2e_server_start_standalone that
 * made s, in the same directory and environment, its output appended to s->log, as
 * systemd's Restart= would. Does not wait for anything; s->pid becomes the new sim's.
 * 0, or -1 (not the systemd layout, the old sim not reaped, fork failed). */
int  e2e_server_restart_standalone_sim(e2e_server_t *s);
/* SIGTERM and wait; returns the exit status (0 clean) or -1. In standalone mode the
 * gateways must also have left by themselves (within 3 s) for a 0. */
int  e2e_server_stop(e2e_server_t *s);

/* Wait up to timeout_ms for the server to exit by itself (auto mode). Its output (the
 * server log: stdout and stderr) is copied into out. Returns the exit status, -1 on a
 * timeout (the server is then stopped) or a signal; with timeout_ms 0 only looks, and
 * returns -2 while the server runs. */
int  e2e_server_wait(e2e_server_t *s, int timeout_ms, char *out, size_t outlen);

/* pids of the running netgw / monitorgw processes (children of the server),
 * read from the shm region. Returns count written. */
int  e2e_netgw_pids(const e2e_server_t *s, pid_t *out, int max);
pid_t e2e_monitorgw_pid(const e2e_server_t *s);

/* For the servers this test starts from now on: a SIGSEGV sent to a process kills it by
 * the signal, as a crash does in a normal build. Under AddressSanitizer the signal would
 * be caught, reported as a fault and turned into exit status 1 (ASAN_OPTIONS gets
 * handle_segv=0; nothing changes in a normal build). */
void e2e_segv_kills(void);
/* UDP socket bound to 127.0.0.1 on an ephemeral port. */
int  e2e_udp_open(void);
/* Send msg (with its terminating NUL, as clients do) to 127.0.0.1:port. */
int  e2e_send(int fd, int port, const char *msg);
/* Receive one datagram within timeout_ms; NUL-terminates buf. Returns length, 0 on
 * timeout, -1 on error. from_port (optional) gets the sender's port. */
int  e2e_recv(int fd, char *buf, size_t len, int timeout_ms, int *from_port);
/* Receive until a datagram starts with prefix (others are skipped) or timeout_ms passes.
 * Returns length or 0 on timeout. */
int  e2e_recv_prefix(int fd, const char *prefix, char *buf, size_t len, int timeout_ms,
                     int *from_port);
/* Milliseconds of CLOCK_MONOTONIC. */
double e2e_now_ms(void);

/* ---- waiting on what the server's processes publish in the shm region ----
 * Each polls the region every few ms, up to timeout_ms: 0 once the condition holds, -1
 * if it never did. */
struct shm_region_sh;
/* cond(region, a, b) != 0: what a wait waits for */
typedef int (*e2e_region_cond_t)(const struct shm_region_sh *r, long a, long b);
/* Poll cond on the region named shm_name (attached afresh each time, so a region a new
 * sim made is the one seen) until it holds. */
int  e2e_region_wait(const char *shm_name, int timeout_ms, e2e_region_cond_t cond, long a,
                     long b);
/* Client slots of the region: a player's is side * 11 + unum - 1 (left 0, right 1). */
#define E2E_SLOT_PLAYER(right, unum) ((right) * 11 + (unum) - 1)
#define E2E_SLOT_TRAINER   22
#define E2E_SLOT_OLCOACH_L 23
#define E2E_SLOT_OLCOACH_R 24
/* Client slot idx is taken (on 1: a gateway serves the client) or free (on 0: the
 * gateway let the client go: after a (bye), a refused port, a red card). */
int  e2e_wait_client(const e2e_server_t *s, int idx, int on, int timeout_ms);
/* The sim has taken in at least n connections of client slot idx (the runner's count,
 * bumped in the turn that first sees the client: its "connect" event). */
int  e2e_wait_seen(const e2e_server_t *s, int idx, int n, int timeout_ms);
/* monitorgw serves at least n monitors (its count, which netgw's max_monitors check
 * reads). */
int  e2e_wait_monitors(const e2e_server_t *s, int n, int timeout_ms);
/* The sim has published n more snapshots (steps) than when called. */
int  e2e_wait_steps(const e2e_server_t *s, int n, int timeout_ms);

#endif
