/* e2e_safety.h -- helpers of the safety tests (test_100..119): run a program to its
 * end and keep its output, start a second server on a running one's ports, act as
 * another user, read the gateways' pids. */
#ifndef RCSS_E2E_SAFETY_H
#define RCSS_E2E_SAFETY_H

#include <stddef.h>
#include <sys/types.h>
#include "e2e.h"

/* Run argv (argv[0] a program of $RCSS_BIN_DIR, or a path) with RCSS_CONF_DIR empty,
 * in dir (NULL: /tmp). Its stdout goes to out, its stderr to err (each NUL-terminated,
 * cut at the size). Returns the exit status, -1 if it did not end within timeout_ms
 * (it is killed then) or died by a signal. */
int  es_run(const char *const *argv, const char *dir, char *out, size_t outlen, char *err,
            size_t errlen, int timeout_ms);
/* The same, started in the background: its pid (output to the file log). */
pid_t es_spawn(const char *const *argv, const char *dir, const char *log);
/* Wait for a pid started by es_spawn: its exit status, -1 on timeout (killed) or signal. */
int  es_wait(pid_t pid, int timeout_ms);
/* The path of a program of $RCSS_BIN_DIR (static buffer per call slot 0..3). */
const char *es_bin(const char *name, int slot);
/* The rcssserver arguments that give server s's ports and shm name (static strings),
 * logs off and bind_address 127.0.0.1, followed by extra (NULL-terminated); argv[0] set. */
const char *const *es_server_args(const e2e_server_t *s, const char *const *extra);
/* Non-zero lines of text. */
int  es_lines(const char *text);
/* Fork a child that switches to the user nobody (65534) and runs fn(arg); its exit
 * status (fn's return), -1 on failure. */
int  es_as_nobody(int (*fn)(void *arg), void *arg);
/* A UDP socket bound to ip (e.g. "127.0.0.2") on an ephemeral port, -1 on failure. */
int  es_udp_open_at(const char *ip);
/* 1 if /dev/shm holds the object name ("/x"). */
int  es_shm_exists(const char *name);
/* Pid in the region's slot of netgw i (-1: monitorgw, -2: recorder), 0 if none. */
pid_t es_slot_pid(const e2e_server_t *s, int which);
/* Wait up to timeout_ms for the process in that slot to have beaten its heartbeat once
 * (it is in its loop): 0, or -1. */
int  es_wait_heartbeat(const e2e_server_t *s, int which, int timeout_ms);
/* Wait up to timeout_ms for the region name to be set up by the sim sim_pid (its header
 * names that sim and says ready: parameters and types filled): 0, or -1. */
int  es_wait_region(const char *name, pid_t sim_pid, int timeout_ms);

#endif
