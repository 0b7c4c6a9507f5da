/* cf_proc.h -- the server under test as a process group: started with free ports in a
 * private directory (HOME and RCSS_CONF_DIR there, so no user configuration is read),
 * stdout and stderr into files, stopped whole for a stall, stopped at the end. Only
 * this process, its group and its descendants are ever signalled. */
#ifndef RCSS_CF_PROC_H
#define RCSS_CF_PROC_H

#include <stddef.h>
#include <sys/types.h>

typedef struct cf_proc {
    pid_t pid;           /* the server, leader of its own process group */
    int   status;        /* exit status once reaped (128 + signal), -1 before */
} cf_proc_t;

/* A port P with P, P+1 and P+2 free on 127.0.0.1 (UDP), or -1. */
int  cf_proc_free_ports(void);
/* 1 if something holds UDP port on 127.0.0.1 (a bind there fails), 0 if free. */
int  cf_proc_port_taken(int port);
/* Start argv[0] with argv in dir (stdout to dir/stdout, stderr to dir/stderr). 0 or -1
 * with err. */
int  cf_proc_start(cf_proc_t *p, char *const *argv, const char *dir, char *err, size_t errlen);
/* Wait until ports port..port+2 are taken (the server listens) or timeout_ms passes
 * or the server exits: 0 ready, -1 not. */
int  cf_proc_wait_ready(cf_proc_t *p, int port, int timeout_ms);
/* The server's processes: root first, then its descendants (from /proc), at most max.
 * Its gateways may run in process groups of their own, so the tree, not the group, is
 * what a stall stops. Returns the count. */
int  cf_proc_tree(pid_t root, pid_t *out, int max);
/* 1 if pid no longer runs (no such process, or a zombie nobody reaped yet). */
int  cf_proc_gone(pid_t pid);
/* SIGSTOP to the server and every descendant, ms later SIGCONT. */
void cf_proc_stall(cf_proc_t *p, int ms);
/* 1 while the leader runs (reaps it otherwise). */
int  cf_proc_alive(cf_proc_t *p);
/* SIGINT to the leader, up to timeout_ms for it to exit, then SIGKILL to its group; any
 * of its descendants left 3 s later is killed. Returns the exit status (128+signal). */
int  cf_proc_stop(cf_proc_t *p, int timeout_ms);

/* CLOCK_MONOTONIC in µs. */
long long cf_now_us(void);
void cf_sleep_us(long long us);

#endif
