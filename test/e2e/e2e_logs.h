/* e2e_logs.h -- helpers for the log tests (test_070..079): a private log directory, the
 * server arguments that turn the logs on there, small synch-mode players that answer every
 * (think) with a command and (done), files found by name pattern, and the recorder's pid.
 *
 *     e2e_logdir_t d;
 *     e2e_logdir_make(&d);
 *     const char *args[] = { d.game_arg, d.text_arg, "server::synch_mode=true", ... };
 *     e2e_players_t p;
 *     e2e_players_join(&p, &s, "TeamA", 1);   ... e2e_players_pump(&p, 500);
 *     e2e_logdir_find(&d, ".rcg", path, sizeof path);
 *     e2e_logdir_remove(&d); */
#ifndef RCSS_E2E_LOGS_H
#define RCSS_E2E_LOGS_H

#include <stddef.h>
#include <sys/types.h>
#include "e2e.h"

typedef struct e2e_logdir {
    char dir[320];
    char game_arg[360];      /* server::game_log_dir=DIR */
    char text_arg[360];      /* server::text_log_dir=DIR */
} e2e_logdir_t;

#define E2E_MAX_PLAYERS 8

typedef struct e2e_players {
    int    n;
    int    fd[E2E_MAX_PLAYERS];
    int    port[E2E_MAX_PLAYERS];  /* the server's socket for each player */
    char   cmd[E2E_MAX_PLAYERS][64]; /* sent before each (done) */
    int    thinks;                 /* (think) messages answered */
} e2e_players_t;

int  e2e_logdir_make(e2e_logdir_t *d);
/* Remove the directory and what is in it. */
void e2e_logdir_remove(e2e_logdir_t *d);
/* The only file in d whose name ends with suffix (".rcg", ".rcl.gz"); full path into out.
 * Returns the number of such files (so 1 is the expected answer). */
int  e2e_logdir_find(const e2e_logdir_t *d, const char *suffix, char *out, size_t len);
/* Number of entries in d (files and directories). */
int  e2e_logdir_count(const e2e_logdir_t *d);

/* Connect a v19 player of team (goalie or not); each gets "(dash 40)" as its command. */
int  e2e_players_join(e2e_players_t *p, const e2e_server_t *s, const char *team, int goalie);
/* Read for ms milliseconds, answering each (think) with the player's command and (done). */
void e2e_players_pump(e2e_players_t *p, int ms);
/* Answer exactly n more (think)s per player (n cycles of a synch-mode server whose
 * synch_timeout is long), then stop answering, so the server waits. 0, or -1 if they did
 * not come within timeout_ms. */
int  e2e_players_cycles(e2e_players_t *p, int n, int timeout_ms);
void e2e_players_close(e2e_players_t *p);

/* Whole file into a malloc'ed NUL-terminated buffer (gzip decompressed); NULL if absent. */
char *e2e_read_file(const char *path, size_t *len);
/* What a game log says of the match itself: its text from the first "(show" on, with the
 * start minute of its "(result YYYYMMDDHHMM ...)" note blanked to X (the one thing there
 * that the wall clock decides; the head before the first show carries ports, folders and
 * the start time). Malloc'ed and NUL-terminated, NULL if unreadable or without a show. */
char *e2e_rcg_play(const char *path, size_t *len);
/* 1 if a and b are the same bytes; else 0, and where they first differ into why (the line
 * number and the start of that line in each, from the first differing column on). */
int  e2e_text_same(const char *a, size_t la, const char *b, size_t lb, char *why, size_t len);
/* pid of the running rcss-recorder of server s (0 if none). */
pid_t e2e_recorder_pid(const e2e_server_t *s);
/* "Simulator Random Seed: N" from the server's output; 0 if not found. */
unsigned long long e2e_server_seed(const e2e_server_t *s);
/* Wait up to ms for process pid (not our child) to be gone. 0 gone, -1 still there. */
int  e2e_wait_gone(pid_t pid, int ms);
/* Wait up to ms for a recorder other than old to run; its pid, or 0. */
pid_t e2e_wait_recorder(const e2e_server_t *s, pid_t old, int ms);
/* Kill the server with SIGKILL and reap it; its gateways leave by themselves. Removes
 * its shm object and working directory. */
void e2e_server_kill9(e2e_server_t *s);

#endif
